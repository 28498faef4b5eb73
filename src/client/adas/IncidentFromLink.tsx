import { Alert, IconButton, Paper, Stack, Typography } from '@mui/material';
import CloseIcon from '@mui/icons-material/Close';
import { useSearchParams } from 'react-router';
import { useTranslate } from 'react-admin';
import type { AdasIncidentRow } from '../../shared/reports/adas';
import { useApiQuery, webQueries } from '../../web/providers/queries';
import { fetchIncident } from './adasApi';
import { IncidentCard } from './IncidentCard';

/** The URL parameter naming one incident (the high-grade incident notification links to it). */
export const EVENT_PARAM = 'event';

/** The detailing opened from a notification (`?event=<id>`): that incident's card above the report. */
export function IncidentFromLink() {
  const translate = useTranslate();
  const [search, setSearch] = useSearchParams();
  const id = Number(search.get(EVENT_PARAM));
  const valid = Number.isSafeInteger(id) && id > 0;
  const query = useApiQuery(['adas', 'incident', id], (signal) => fetchIncident(id, signal), { enabled: valid });
  const incident = query.isError ? null : query.data;
  const setIncident = (next: AdasIncidentRow) => webQueries.setQueryData(['adas', 'incident', id], next);
  if (!valid || incident === undefined) return null;
  const close = () =>
    setSearch((current) => {
      const next = new URLSearchParams(current);
      next.delete(EVENT_PARAM);
      return next;
    });
  return (
    <Paper variant="outlined" sx={{ p: 1.5, my: 1 }} data-testid="incident-from-link">
      <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between' }}>
        <Typography variant="subtitle1">{translate('reports.adas.incident.fromLink')}</Typography>
        <IconButton size="small" onClick={close} aria-label={translate('ra.action.close')}>
          <CloseIcon fontSize="small" />
        </IconButton>
      </Stack>
      {incident ? (
        <IncidentCard incident={incident} onReviewed={setIncident} />
      ) : (
        <Alert severity="warning">{translate('reports.adas.incident.notFound')}</Alert>
      )}
    </Paper>
  );
}
