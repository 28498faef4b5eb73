import { useEffect, useState } from 'react';
import { Box, Button, Link, Typography } from '@mui/material';
import { Link as RouterLink } from 'react-router';
import { formatDateTime } from '../../../shared/format';
import type { OnlineVehicle } from '../../../shared/map';
import { useT } from '../../i18n/translate';
import { useCurrentUser } from '../../stores/sessionStore';
import { mapApi } from '../mapApi';
import { formatLatLon, fullName } from '../mapFormat';
import { parseWktPoint } from '../wkt';
import { PopupRows, PopupTitle } from './PopupRows';
import { showRoute } from './showRoute';

/** Vehicle details (GET /api/v1/map/online/{id}): type, enterprise, branch, numbers, route, driver, model, speed, time, video. */
export function MapPopupVehicle({ id }: { id: number }) {
  const t = useT();
  const user = useCurrentUser();
  const [vehicle, setVehicle] = useState<OnlineVehicle | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    const controller = new AbortController();
    mapApi.online(id, { signal: controller.signal }).then(setVehicle, () => !controller.signal.aborted && setFailed(true));
    return () => controller.abort();
  }, [id]);
  if (failed) return <Typography variant="body2" color="error">{t('mapView.popup.loadFailed')}</Typography>;
  if (!vehicle) return <Typography variant="body2" color="text.secondary">{t('app.loading')}…</Typography>;
  const type = user?.transporttype.find((tt) => tt.code === vehicle.routeType)?.title ?? vehicle.routeType;
  const at = parseWktPoint(vehicle.center);
  return (
    <Box data-testid="map-popup-vehicle" data-vehicle-id={vehicle.id}>
      <PopupTitle>{t('mapView.popup.vehicle', { number: vehicle.depotNumber })}</PopupTitle>
      <PopupRows rows={[
        [t('mapView.popup.type'), type],
        [t('mapView.popup.enterprise'), vehicle.agency],
        [t('mapView.popup.branch'), vehicle.branch],
        [t('mapView.popup.garageNumber'), vehicle.depotNumber],
        [t('mapView.popup.plate'), vehicle.gosNomer],
        [t('mapView.popup.route'), vehicle.route_id !== null ? (
          <Button size="small" sx={{ p: 0, minWidth: 0, textTransform: 'none', font: 'inherit', fontWeight: 500, verticalAlign: 'baseline' }} onClick={() => void showRoute(vehicle.route_id as number)} data-testid="map-popup-show-route">
            {vehicle.route ?? vehicle.route_id} · {t('mapView.popup.showRoute')}
          </Button>
        ) : vehicle.route],
        [t('mapView.popup.driver'), fullName(vehicle.driverLastName, vehicle.driverFirstName, vehicle.driverMiddleName)],
        [t('mapView.popup.model'), vehicle.model],
        [t('mapView.popup.speed'), vehicle.speed !== null ? t('mapView.kmh', { speed: Math.round(vehicle.speed) }) : ''],
        [t('mapView.popup.time'), formatDateTime(vehicle.time)],
        [t('mapView.popup.coordinates'), at ? formatLatLon(at[0], at[1]) : ''],
      ]} />
      <Link component={RouterLink} to={`/video/online?vehicle=${vehicle.id}`} sx={{ display: 'inline-block', mt: 1 }}>
        {t('mapView.popup.video')}
      </Link>
    </Box>
  );
}
