import { useEffect, useState } from 'react';
import { Alert } from '@mui/material';
import { useTranslate } from 'react-admin';
import type { ModuleId } from '../../shared/modules';
import type { HistoryFillStatus } from '../../shared/historyFill';
import { getJson } from '../../web/providers/httpClient';

/** Reports of these modules read the demo history the server fills in the background after a first start. */
const HISTORY_MODULES: readonly ModuleId[] = ['passengers', 'vehicleWorkData'];
const POLL_MS = 10_000;

/** The fill's progress, asked again every few seconds until it is complete; null until known. */
function useHistoryFill(active: boolean): HistoryFillStatus | null {
  const [status, setStatus] = useState<HistoryFillStatus | null>(null);
  useEffect(() => {
    if (!active) return;
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const ask = async () => {
      try {
        const { history } = await getJson<{ history?: HistoryFillStatus }>('/api/health', {
          signal: controller.signal,
          handleErrors: false,
        });
        setStatus(history ?? null);
        if (history && !history.complete) timer = setTimeout(() => void ask(), POLL_MS);
      } catch {
        // the notice is a courtesy: a failed ask leaves the report as it is
      }
    };
    void ask();
    return () => {
      controller.abort();
      clearTimeout(timer);
    };
  }, [active]);
  return status;
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
