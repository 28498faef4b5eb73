import type { ReactNode } from 'react';
import { Box, Button, Link, Typography } from '@mui/material';
import { Link as RouterLink } from 'react-router';
import { formatDateTime } from '../../../shared/format';
import { DISPATCH_RIGHTS_PATH } from '../../../shared/dispatch/api';
import { useRights } from '../../components/useRights';
import { DispatchDeviation, DispatchVehicleCard } from '../../dispatch/DispatchVehicleCard';
import { useT } from '../../i18n/translate';
import { useApiQuery } from '../../providers/queries';
import { useCurrentUser } from '../../stores/sessionStore';
import { mapApi } from '../mapApi';
import { useMapState } from '../mapState';
import { formatLatLon } from '../../../shared/format';
import { fullName } from '../mapFormat';
import { parseWktPoint } from '../wkt';
import { PopupRows, PopupTitle } from './PopupRows';
import { showRoute } from './showRoute';

/** What the field app's card shows (field-app spec 2.3): no branch, model, speed, time or coordinates. */
const FIELD_ROWS = new Set(['type', 'enterprise', 'garageNumber', 'plate', 'route', 'driver']);

/**
 * Vehicle details (GET /api/v1/map/online/{id}): type, enterprise, branch, numbers, route, driver, model, speed,
 * time, video; with the live timetable (code 44) its run, deviation, headway and next stops. `field`: the field app's
 * card, with the link to its own video screen (/video/{vehicle}) and of the live timetable
 * only the deviation.
 */
export function MapPopupVehicle({ id, field = false }: { id: number; field?: boolean }) {
  const t = useT();
  const user = useCurrentUser();
  const mapState = useMapState();
  const dispatchView = useRights(DISPATCH_RIGHTS_PATH).read;
  const { data: vehicle, isError } = useApiQuery(['map', 'online', id], (signal) => mapApi.online(id, { signal }));
  if (isError)
    return (
      <Typography variant="body2" color="error">
        {t('mapView.popup.loadFailed')}
      </Typography>
    );
  if (!vehicle)
    return (
      <Typography variant="body2" color="text.secondary">
        {t('app.loading')}…
      </Typography>
    );
  const type = user?.transporttype.find((tt) => tt.code === vehicle.routeType)?.title ?? vehicle.routeType;
  const at = parseWktPoint(vehicle.center);
  return (
    <Box data-testid="map-popup-vehicle" data-vehicle-id={vehicle.id}>
      <PopupTitle>{t('mapView.popup.vehicle', { number: vehicle.depotNumber })}</PopupTitle>
      <PopupRows
        rows={(
          [
            ['type', t('mapView.popup.type'), type],
            ['enterprise', t('mapView.popup.enterprise'), vehicle.agency],
            ['branch', t('mapView.popup.branch'), vehicle.branch],
            ['garageNumber', t('mapView.popup.garageNumber'), vehicle.depotNumber],
            ['plate', t('mapView.popup.plate'), vehicle.gosNomer],
            [
              'route',
              t('mapView.popup.route'),
              vehicle.route_id !== null ? (
                <Button
                  size="small"
                  sx={{ p: 0, minWidth: 0, textTransform: 'none', font: 'inherit', fontWeight: 500, verticalAlign: 'baseline' }}
                  onClick={() => void showRoute(mapState, vehicle.route_id as number)}
                  data-testid="map-popup-show-route"
                >
                  {vehicle.route ?? vehicle.route_id} · {t('mapView.popup.showRoute')}
                </Button>
              ) : (
                vehicle.route
              ),
            ],
            ['driver', t('mapView.popup.driver'), fullName(vehicle.driverLastName, vehicle.driverFirstName, vehicle.driverMiddleName)],
            ['model', t('mapView.popup.model'), vehicle.model],
            ['speed', t('mapView.popup.speed'), vehicle.speed !== null ? t('mapView.kmh', { speed: Math.round(vehicle.speed) }) : ''],
            ['time', t('mapView.popup.time'), formatDateTime(vehicle.time)],
            ['coordinates', t('mapView.popup.coordinates'), at ? formatLatLon(at[0], at[1]) : ''],
          ] as [string, string, ReactNode][]
        )
          .filter(([key]) => !field || FIELD_ROWS.has(key))
          .map(([, label, value]): [string, ReactNode] => [label, value])}
      />
      {dispatchView &&
        (field ? (
          <DispatchDeviation vehicleId={vehicle.id} />
        ) : (
          <Box sx={{ mt: 1 }}>
            <DispatchVehicleCard vehicleId={vehicle.id} stops={4} />
          </Box>
        ))}
      <Link
        component={RouterLink}
        to={field ? `/video/${vehicle.id}` : `/video/online?vehicle=${vehicle.id}`}
        sx={{ display: 'inline-block', mt: 1 }}
        data-testid="map-popup-video"
      >
        {t(field ? 'fieldMap.details.video' : 'mapView.popup.video')}
      </Link>
    </Box>
  );
}
