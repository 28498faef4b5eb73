import { Box, Chip, Stack, Typography } from '@mui/material';
import { transportTypeColor } from '../../../shared/transportTypes';
import { DISPATCH_RIGHTS_PATH } from '../../../shared/dispatch/api';
import { useRights } from '../../components/useRights';
import { StopArrivalsList } from '../../dispatch/StopArrivalsList';
import { useT } from '../../i18n/translate';
import { useApiQuery } from '../../providers/queries';
import { mapApi } from '../mapApi';
import { useMapState } from '../mapState';
import { formatLatLon } from '../../../shared/format';
import { PopupTitle } from './PopupRows';
import { showRoute } from './showRoute';

/**
 * A stop (GET /api/v1/map/stop/{id}): its name and the routes through it, each drawn on a click; with the live
 * timetable (code 44) its predicted arrivals for the next hour.
 */
export function MapPopupStop({ id, name, at }: { id: number; name: string; at: [number, number] }) {
  const t = useT();
  const mapState = useMapState();
  const dispatchView = useRights(DISPATCH_RIGHTS_PATH).read;
  const { data: stop, isError: failed } = useApiQuery(['map', 'stop', id], (signal) => mapApi.stop(id, { signal }));
  return (
    <Box data-testid="map-popup-stop">
      <PopupTitle>{stop?.name ?? name}</PopupTitle>
      <Typography variant="caption" color="text.secondary">
        {formatLatLon(stop?.lat ?? at[0], stop?.lon ?? at[1])}
      </Typography>
      {failed && (
        <Typography variant="body2" color="error">
          {t('mapView.popup.loadFailed')}
        </Typography>
      )}
      {stop && (
        <>
          <Typography variant="body2" sx={{ mt: 1, mb: 0.5 }}>
            {t('mapView.popup.routes')}
          </Typography>
          {stop.routes.length === 0 && (
            <Typography variant="body2" color="text.secondary">
              {t('mapView.popup.noRoutes')}
            </Typography>
          )}
          <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 0.5 }}>
            {stop.routes.map((route) => (
              <Chip
                key={route.route_id}
                size="small"
                label={route.route_short_name}
                onClick={() => void showRoute(mapState, route.route_id)}
                sx={{ bgcolor: transportTypeColor(route.route_type), color: '#fff', fontWeight: 600 }}
              />
            ))}
          </Stack>
        </>
      )}
      {dispatchView && <StopArrivalsList stopId={id} />}
    </Box>
  );
}
