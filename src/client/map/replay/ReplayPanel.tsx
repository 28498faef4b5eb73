import { useState } from 'react';
import { Alert, Autocomplete, Button, Paper, Stack, TextField } from '@mui/material';
import type { MapFilters } from '../../../shared/map';
import { useT } from '../../../web/i18n/translate';
import { isAbortError } from '../../../web/providers/httpClient';
import { vehicleLabel } from '../../../web/map/filter/mapFilter';
import { mapApi } from '../../../web/map/mapApi';
import { fromLocalInput, toLocalInput } from '../../../web/map/mapFormat';
import { buildTrack } from '../../../web/map/replay/replayMath';
import { ReplayPlayer } from './ReplayPlayer';
import { clearReplay, setReplayTrack, useReplayState, useReplayStore } from '../../../web/map/replay/replayState';

export const REPLAY_DEFAULT_MS = 2 * 3600_000;

type Vehicle = MapFilters['vehicles'][number];

/** A period bound: outlined and narrow (react-admin's theme makes inputs filled and full width). */
export const PERIOD_FIELD = {
  type: 'datetime-local',
  size: 'small',
  variant: 'outlined',
  margin: 'none',
  fullWidth: false,
  sx: { width: 230 },
} as const;

/**
 * Previous data: a vehicle and a period (default the last 2 hours), its track from
 * POST /api/v1/map/vehicles/period, replayed on the map.
 */
export function ReplayPanel({ filters }: { filters: MapFilters | null }) {
  const t = useT();
  const replay = useReplayStore();
  const { vehicleId } = useReplayState();
  const [from, setFrom] = useState(() => toLocalInput(Date.now() - REPLAY_DEFAULT_MS));
  const [to, setTo] = useState(() => toLocalInput(Date.now() + 60_000));
  const [state, setState] = useState<'idle' | 'loading' | 'empty' | 'failed'>('idle');
  const vehicles = filters?.vehicles ?? [];
  const vehicle = vehicles.find((v) => v.id === vehicleId) ?? null;
  const start = fromLocalInput(from);
  const end = fromLocalInput(to);
  const invalid = !Number.isFinite(start) || !Number.isFinite(end) || start >= end;

  const load = async () => {
    if (vehicleId === null || invalid) return;
    setState('loading');
    clearReplay(replay);
    try {
      const track = buildTrack(await mapApi.track(vehicleId, new Date(start).toISOString(), new Date(end).toISOString()));
      setReplayTrack(replay, track);
      setState(track ? 'idle' : 'empty');
    } catch (error) {
      setState(isAbortError(error) ? 'idle' : 'failed');
    }
  };

  return (
    <Paper
      elevation={4}
      sx={{ position: 'absolute', left: 8, right: 8, bottom: 24, zIndex: 1000, p: 1.5, mx: 'auto', maxWidth: 980 }}
      data-testid="replay-panel"
    >
      <Stack direction="row" sx={{ alignItems: 'flex-start', flexWrap: 'wrap', gap: 1 }}>
        <Autocomplete<Vehicle>
          size="small"
          sx={{ width: 260 }}
          options={vehicles}
          value={vehicle}
          onChange={(_, v) => replay.set((s) => ({ ...s, vehicleId: v?.id ?? null }))}
          getOptionLabel={vehicleLabel}
          isOptionEqualToValue={(a, b) => a.id === b.id}
          noOptionsText={t('filter.empty')}
          renderInput={(params) => (
            <TextField
              {...params}
              variant="outlined"
              margin="none"
              label={t('mapView.replay.vehicle')}
              slotProps={{ ...params.slotProps, htmlInput: { ...params.slotProps.htmlInput, 'data-testid': 'replay-vehicle' } }}
            />
          )}
        />
        <TextField
          {...PERIOD_FIELD}
          label={t('mapView.period.from')}
          value={from}
          onChange={(e) => setFrom(e.target.value)}
          slotProps={{ inputLabel: { shrink: true }, htmlInput: { 'data-testid': 'replay-from' } }}
        />
        <TextField
          {...PERIOD_FIELD}
          label={t('mapView.period.to')}
          value={to}
          onChange={(e) => setTo(e.target.value)}
          error={invalid}
          slotProps={{ inputLabel: { shrink: true }, htmlInput: { 'data-testid': 'replay-to' } }}
        />
        <Button
          variant="contained"
          sx={{ height: 40 }}
          onClick={() => void load()}
          disabled={vehicleId === null || invalid || state === 'loading'}
          data-testid="replay-load"
        >
          {t('mapView.replay.load')}
        </Button>
      </Stack>
      {state === 'empty' && (
        <Alert severity="info" sx={{ mt: 1 }} data-testid="replay-empty">
          {t('mapView.replay.empty')}
        </Alert>
      )}
      {state === 'failed' && (
        <Alert severity="error" sx={{ mt: 1 }}>
          {t('mapView.replay.failed')}
        </Alert>
      )}
      <ReplayPlayer />
    </Paper>
  );
}
