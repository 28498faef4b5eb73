import { Alert } from '@mui/material';
import { useTranslate } from 'react-admin';
import type { ModuleId } from '../../shared/modules';
import type { HistoryFillStatus } from '../../shared/historyFill';
import { getJson } from '../../web/providers/httpClient';
import { useApiQuery } from '../../web/providers/queries';

/** Reports of these modules read the demo history the server fills in the background after a first start. */
const HISTORY_MODULES: readonly ModuleId[] = ['passengers', 'vehicleWorkData'];
const POLL_MS = 10_000;

/** The fill's progress, asked again every few seconds until it is complete; null until known. */
function useHistoryFill(active: boolean): HistoryFillStatus | null {
  // the notice is a courtesy: a failed ask leaves the report as it is, quietly
  const { data } = useApiQuery(
    ['health', 'history'],
    async (signal) => (await getJson<{ history?: HistoryFillStatus }>('/api/health', { signal, handleErrors: false })).history ?? null,
    { enabled: active, refetchInterval: (history) => (history && !history.complete ? POLL_MS : false) },
  );
  return data ?? null;
}

/**
 * Over a report that reads the demo history, while the server still fills it: older periods are incomplete,
 * with how far the fill has come (the newest days come first, so the default periods are whole soonest).
 */
export function HistoryFillNotice({ module }: { module: ModuleId }) {
  const translate = useTranslate();
  const status = useHistoryFill(HISTORY_MODULES.includes(module));
  if (!status || status.complete || status.daysTotal === 0) return null;
  const percent = Math.floor((100 * status.daysDone) / status.daysTotal);
  return (
    <Alert severity="info" sx={{ mb: 1 }} data-testid="history-filling">
      {translate('reports.historyFilling', { done: status.daysDone, total: status.daysTotal, percent })}
    </Alert>
  );
}
