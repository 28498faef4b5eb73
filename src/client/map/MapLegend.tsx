import { useState, type ReactNode } from 'react';
import { Box, ButtonBase, Paper, Stack, Typography } from '@mui/material';
import { useT } from '../../web/i18n/translate';
import { VEHICLE_LEGEND, type VehicleLegendEntry } from '../../web/map/vehicleStyle';

/**
 * The vehicle colours' legend in the map's bottom-left corner; a click folds it to its title. `entries`: those
 * of another colour mode; `modes`: its switch, under the title.
 */
export function MapLegend({ entries = VEHICLE_LEGEND, modes }: { entries?: readonly VehicleLegendEntry[]; modes?: ReactNode }) {
  const t = useT();
  const [open, setOpen] = useState(true);
  return (
    <Paper
      elevation={2}
      sx={{ position: 'absolute', left: 8, bottom: 36, zIndex: 1000, px: 1, py: 0.5, fontSize: 12 }}
      data-testid="map-legend"
    >
      <ButtonBase onClick={() => setOpen(!open)} aria-expanded={open} sx={{ fontSize: 12, fontWeight: 600 }}>
        {t('mapView.legend.title')}
      </ButtonBase>
      {open && modes}
      {open && (
        <Stack spacing={0.25} sx={{ mt: 0.5 }}>
          {entries.map((entry) => (
            <Stack
              key={entry.color}
              direction="row"
              spacing={1}
              sx={{ alignItems: 'center' }}
              data-testid="map-legend-entry"
              data-color={entry.color}
              data-entry={entry.id}
              data-count={entry.count}
            >
              <Box
                sx={{
                  width: 12,
                  height: 12,
                  borderRadius: '50%',
                  bgcolor: entry.color,
                  border: '1px solid #fff',
                  boxShadow: '0 0 0 1px rgba(0,0,0,0.3)',
                }}
              />
              <Typography variant="caption">
                {t(entry.label, entry.values)}
                {entry.count !== undefined ? ` (${entry.count})` : ''}
              </Typography>
            </Stack>
          ))}
        </Stack>
      )}
    </Paper>
  );
}
