import { useState } from 'react';
import { Box, Paper, Stack, TextField, Typography } from '@mui/material';
import { useT } from '../../web/i18n/translate';
import { fromLocalInput, toLocalInput } from '../../web/map/mapFormat';
import { INCIDENT_PERIOD_MAX_MS, useIncidentPeriod, useMapState } from '../../web/map/mapState';
import { incidentColour, useIncidentTypes } from '../../web/map/useIncidentTypes';

/** The incident layer's period (default the last 24 h, at most 7 days) and its legend of incident types. */
export function MapIncidentsPanel() {
  const t = useT();
  const { incidentPeriod } = useMapState();
  const period = useIncidentPeriod();
  const types = useIncidentTypes(true);
  const [from, setFrom] = useState(() => toLocalInput(period.from));
  const [to, setTo] = useState(() => toLocalInput(period.to));
  const start = fromLocalInput(from);
  const end = fromLocalInput(to);
  const error =
    !Number.isFinite(start) || !Number.isFinite(end) || start >= end
      ? t('mapView.period.invalid')
      : end - start > INCIDENT_PERIOD_MAX_MS
        ? t('mapView.period.tooLong', { days: 7 })
        : '';
  const commit = (nextFrom: string, nextTo: string) => {
    const a = fromLocalInput(nextFrom);
    const b = fromLocalInput(nextTo);
    if (Number.isFinite(a) && Number.isFinite(b) && a < b && b - a <= INCIDENT_PERIOD_MAX_MS) incidentPeriod.set({ from: a, to: b });
  };
  return (
    <Paper
      elevation={3}
      sx={{ position: 'absolute', right: 8, top: 8, zIndex: 1000, p: 1.5, width: 250 }}
      data-testid="map-incidents-panel"
    >
      <Typography variant="subtitle2" sx={{ mb: 1 }}>
        {t('mapView.layers.incidents')}
      </Typography>
      <Stack spacing={1}>
        <TextField
          type="datetime-local"
          size="small"
          variant="outlined"
          margin="none"
          label={t('mapView.period.from')}
          value={from}
          slotProps={{ inputLabel: { shrink: true } }}
          onChange={(e) => {
            setFrom(e.target.value);
            commit(e.target.value, to);
          }}
        />
        <TextField
          type="datetime-local"
          size="small"
          variant="outlined"
          margin="none"
          label={t('mapView.period.to')}
          value={to}
          slotProps={{ inputLabel: { shrink: true } }}
          onChange={(e) => {
            setTo(e.target.value);
            commit(from, e.target.value);
          }}
          error={Boolean(error)}
          helperText={error || ' '}
        />
      </Stack>
      <Stack spacing={0.25} sx={{ maxHeight: 160, overflowY: 'auto' }} data-testid="map-incidents-legend">
        {types.map((type) => (
          <Stack key={type.incidentType} direction="row" spacing={1} sx={{ alignItems: 'center' }}>
            <Box sx={{ width: 10, height: 10, borderRadius: '50%', flex: 'none', bgcolor: incidentColour(types, type.incidentType) }} />
            <Typography variant="caption">{type.name}</Typography>
          </Stack>
        ))}
      </Stack>
    </Paper>
  );
}
