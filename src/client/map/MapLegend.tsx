import { useState } from 'react';
import { Box, ButtonBase, Paper, Stack, Typography } from '@mui/material';
import { useT } from '../i18n/translate';
import { VEHICLE_LEGEND } from './vehicleStyle';

/** The vehicle colours' legend in the map's bottom-left corner; a click folds it to its title. */
export function MapLegend() {
  const t = useT();
  const [open, setOpen] = useState(true);
  return (
    <Paper elevation={2} sx={{ position: 'absolute', left: 8, bottom: 36, zIndex: 1000, px: 1, py: 0.5, fontSize: 12 }} data-testid="map-legend">
      <ButtonBase onClick={() => setOpen(!open)} aria-expanded={open} sx={{ fontSize: 12, fontWeight: 600 }}>{t('mapView.legend.title')}</ButtonBase>
      {open && (
        <Stack spacing={0.25} sx={{ mt: 0.5 }}>
          {VEHICLE_LEGEND.map((entry) => (
            <Stack key={entry.color} direction="row" spacing={1} sx={{ alignItems: 'center' }} data-testid="map-legend-entry" data-color={entry.color}>
              <Box sx={{ width: 12, height: 12, borderRadius: '50%', bgcolor: entry.color, border: '1px solid #fff', boxShadow: '0 0 0 1px rgba(0,0,0,0.3)' }} />
              <Typography variant="caption">{t(entry.label, entry.values)}</Typography>
            </Stack>
          ))}
        </Stack>
      )}
    </Paper>
  );
}
