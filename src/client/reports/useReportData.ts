import { useCallback, useEffect, useRef, useState } from 'react';
import { useDataProvider } from 'react-admin';
import { isAbortError } from '../../web/providers/httpClient';
import type { ReportDeclaration } from '../../shared/reports/types';
import { reportResource } from '../../shared/reports/types';
import type { ReportRows } from '../../web/providers/resources/reports';
import { reportApiQuery, type ReportUrlState } from './reportUrl';

/** A build taking longer than this shows its progress and a cancel button. */
export const SLOW_BUILD_MS = 1000;

export type ReportLoad =
  { status: 'idle' | 'cancelled' | 'failed' } | { status: 'loading'; slow: boolean } | { status: 'done'; result: ReportRows };

/**
 * Loads what the URL's state selects once the report is built, again on each «Сформировать» (`build`
 * counts the presses); the request is aborted when the state changes, the screen closes or the user
 * cancels. The last result stays on screen while the next one loads.
 */
export function useReportData(report: ReportDeclaration, state: ReportUrlState, build: number) {
  const dataProvider = useDataProvider();
  const [load, setLoad] = useState<ReportLoad>({ status: 'idle' });
  const [last, setLast] = useState<ReportRows | undefined>();
  const controller = useRef<AbortController | null>(null);
  const key = JSON.stringify(reportApiQuery(report, state));

  useEffect(() => {
    if (!state.built) return;
    const abort = new AbortController();
    controller.current = abort;
    setLoad({ status: 'loading', slow: false });
    const timer = setTimeout(
      () => setLoad((current) => (current.status === 'loading' ? { status: 'loading', slow: true } : current)),
      SLOW_BUILD_MS,
    );
    (
      dataProvider.getList(reportResource(report), {
        filter: JSON.parse(key) as Record<string, unknown>,
        signal: abort.signal,
      }) as Promise<ReportRows>
    )
      .then((result) => {
        setLast(result);
        setLoad({ status: 'done', result });
      })
      .catch((error: unknown) => setLoad({ status: isAbortError(error) || abort.signal.aborted ? 'cancelled' : 'failed' }))
      .finally(() => clearTimeout(timer));
    return () => {
      clearTimeout(timer);
      abort.abort();
    };
  }, [dataProvider, report, key, state.built, build]);

  const cancel = useCallback(() => controller.current?.abort(), []);
  return { load, last, cancel };
}
