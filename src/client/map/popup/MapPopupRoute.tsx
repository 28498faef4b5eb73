import { Box } from '@mui/material';
import type { MapRoute } from '../../../shared/map';
import { useT } from '../../../web/i18n/translate';
import { PopupRows, PopupTitle } from '../../../web/map/popup/PopupRows';

/** A drawn route: number, name, number of stops. */
export function MapPopupRoute({ route }: { route: MapRoute }) {
  const t = useT();
  const stops = new Set((route.stops ?? []).map((stop) => stop.id)).size;
  return (
    <Box data-testid="map-popup-route" data-stop-count={stops}>
      <PopupTitle>{t('mapView.popup.routeTitle', { number: route.route_short_name })}</PopupTitle>
      <PopupRows
        rows={[
          [t('mapView.popup.number'), route.route_short_name],
          [t('mapView.popup.name'), route.route_long_name],
          [t('mapView.popup.stops'), stops],
        ]}
      />
    </Box>
  );
}
