import { Box, Button, IconButton, Paper, Stack, Typography } from '@mui/material';
import CloseIcon from '@mui/icons-material/Close';
import { StopArrivalsList } from '../../web/dispatch/StopArrivalsList';
import { useT } from '../../web/i18n/translate';
import { NEAR_STOPS_METRES } from './nearStops';
import { useNearStops, type NearStop } from './useNearStops';
import type { UserPosition } from './useUserPosition';

function Notice({ children, testId }: { children: string; testId: string }) {
  return (
    <Typography variant="body2" color="text.secondary" data-testid={testId}>
      {children}
    </Typography>
  );
}

/**
 * The arrivals near the user (the live timetable, code 44): the stops nearest the phone within NEAR_STOPS_METRES,
 * each with its distance and its predicted arrivals counting down, per route (GET /api/v1/dispatch/stops/{id}/
 * arrivals, polled). A stop's name shows it on the map with its card.
 */
export function NearArrivalsPanel({
  position,
  denied,
  onClose,
  onShowStop,
}: {
  position: UserPosition | null;
  denied: boolean;
  onClose: () => void;
  onShowStop: (stop: NearStop) => void;
}) {
  const t = useT();
  const { stops, failed } = useNearStops(position?.at ?? null);
  let body;
  if (!position)
    body = <Notice testId="near-arrivals-no-position">{t(denied ? 'fieldMap.arrivals.denied' : 'fieldMap.arrivals.locating')}</Notice>;
  else if (failed && !stops) body = <Notice testId="near-arrivals-failed">{t('fieldMap.arrivals.failed')}</Notice>;
  else if (!stops) body = <Notice testId="near-arrivals-loading">{`${t('app.loading')}…`}</Notice>;
  else if (!stops.length) body = <Notice testId="near-arrivals-none">{t('fieldMap.arrivals.none', { metres: NEAR_STOPS_METRES })}</Notice>;
  else {
    body = stops.map((stop) => (
      <Box
        key={stop.id}
        sx={{ py: 0.75, borderTop: 1, borderColor: 'divider' }}
        data-testid="near-stop"
        data-stop-id={stop.id}
        data-distance={Math.round(stop.distance)}
      >
        <Stack direction="row" spacing={1} sx={{ alignItems: 'baseline', justifyContent: 'space-between' }}>
          <Button
            size="small"
            onClick={() => onShowStop(stop)}
            sx={{ p: 0, minWidth: 0, textTransform: 'none', fontWeight: 600, textAlign: 'left' }}
            data-testid="near-stop-show"
          >
            {stop.name}
          </Button>
          <Typography variant="caption" color="text.secondary" sx={{ whiteSpace: 'nowrap' }}>
            {t('fieldMap.arrivals.metres', { metres: Math.round(stop.distance) })}
          </Typography>
        </Stack>
        <StopArrivalsList stopId={stop.id} titled={false} />
      </Box>
    ));
  }
  return (
    <Paper
      elevation={6}
      sx={{ position: 'absolute', left: 8, right: 8, bottom: 8, zIndex: 1050, p: 1.5, maxHeight: '50%', overflowY: 'auto' }}
      data-testid="near-arrivals"
    >
      <IconButton
        size="small"
        onClick={onClose}
        aria-label={t('fieldMap.close')}
        sx={{ position: 'absolute', right: 4, top: 4 }}
        data-testid="near-arrivals-close"
      >
        <CloseIcon fontSize="small" />
      </IconButton>
      <Typography variant="subtitle2" sx={{ mb: 0.5, pr: 4 }}>
        {t('fieldMap.arrivals.title')}
      </Typography>
      {body}
    </Paper>
  );
}
