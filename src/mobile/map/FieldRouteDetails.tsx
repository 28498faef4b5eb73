import { Box, Typography } from '@mui/material';
import type { MapRoute } from '../../shared/map';
import { useT } from '../../web/i18n/translate';
import { PopupRows, PopupTitle } from '../../web/map/popup/PopupRows';

/** A route's details (field-app spec 2.3): number, name, and its stops in order (each name once). */
export function FieldRouteDetails({ route }: { route: MapRoute }) {
  const t = useT();
  const names = [...new Set((route.stops ?? []).map((stop) => stop.name))];
  return (
    <Box data-testid="field-route-details" data-stop-count={names.length}>
      <PopupTitle>{t('mapView.popup.routeTitle', { number: route.route_short_name })}</PopupTitle>
      <PopupRows
        rows={[
          [t('mapView.popup.number'), route.route_short_name],
          [t('mapView.popup.name'), route.route_long_name],
          [t('mapView.popup.stops'), names.length],
        ]}
      />
      <Box component="ol" sx={{ m: 0, mt: 0.5, pl: 2.5, maxHeight: 140, overflowY: 'auto', fontSize: 13 }}>
        {names.map((name) => (
          <Typography component="li" variant="body2" key={name}>
            {name}
          </Typography>
        ))}
      </Box>
    </Box>
  );
}
