import { useEffect, useState } from 'react';
import { Box, Button, Link, Typography } from '@mui/material';
import VideocamIcon from '@mui/icons-material/VideocamOutlined';
import { Link as RouterLink } from 'react-router';
import type { OnlineVehicle } from '../../shared/map';
import { useT } from '../../client/i18n/translate';
import { mapApi } from '../../client/map/mapApi';
import { fullName } from '../../client/map/mapFormat';
import { PopupRows, PopupTitle } from '../../client/map/popup/PopupRows';
import { showRoute } from '../../client/map/popup/showRoute';
import { useCurrentUser } from '../../client/stores/sessionStore';

/**
 * A vehicle's details on the phone (field-app spec 2.3): type, enterprise, garage number, plate, route with a
 * locate button, driver, and the link to its video (/video/{vehicle}).
 */
export function FieldVehicleDetails({ id }: { id: number }) {
  const t = useT();
  const user = useCurrentUser();
  const [vehicle, setVehicle] = useState<OnlineVehicle | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    const controller = new AbortController();
    mapApi.online(id, { signal: controller.signal, quiet: true }).then(setVehicle, () => !controller.signal.aborted && setFailed(true));
    return () => controller.abort();
  }, [id]);
  if (failed) return <Typography variant="body2" color="error">{t('mapView.popup.loadFailed')}</Typography>;
  if (!vehicle) return <Typography variant="body2" color="text.secondary">{t('app.loading')}…</Typography>;
  const type = user?.transporttype.find((tt) => tt.code === vehicle.routeType)?.title ?? vehicle.routeType;
  const routeId = vehicle.route_id;
  return (
    <Box data-testid="field-vehicle-details" data-vehicle-id={vehicle.id}>
      <PopupTitle>{t('mapView.popup.vehicle', { number: vehicle.depotNumber })}</PopupTitle>
      <PopupRows rows={[
        [t('mapView.popup.type'), type],
        [t('mapView.popup.enterprise'), vehicle.agency],
        [t('mapView.popup.garageNumber'), vehicle.depotNumber],
        [t('mapView.popup.plate'), vehicle.gosNomer],
        [t('mapView.popup.route'), routeId !== null ? (
          <Button size="small" sx={{ p: 0, minWidth: 0, textTransform: 'none', font: 'inherit', fontWeight: 500, verticalAlign: 'baseline' }}
            onClick={() => void showRoute(routeId)} data-testid="field-vehicle-locate-route">
            {vehicle.route ?? routeId} · {t('fieldMap.details.locateRoute')}
          </Button>
        ) : vehicle.route],
        [t('mapView.popup.driver'), fullName(vehicle.driverLastName, vehicle.driverFirstName, vehicle.driverMiddleName)],
      ]} />
      <Link component={RouterLink} to={`/video/${vehicle.id}`} data-testid="field-vehicle-video" sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5, mt: 1 }}>
        <VideocamIcon fontSize="small" />{t('fieldMap.details.video')}
      </Link>
    </Box>
  );
}
