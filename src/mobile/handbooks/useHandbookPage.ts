import { useEffect, useState } from 'react';
import type { GenericQueryRequest } from '../../shared/handbooks/api';
import { HttpError } from '../../web/providers/httpClient';
import { NoConnectionError, queryHandbook, type HandbookPage } from './handbookQuery';

export interface HandbookPageState {
  page?: HandbookPage;
  loading: boolean;
  /** 'offline': no answer and no copy on the phone; 'failed': the server refused (already reported). */
  problem?: 'offline' | 'failed';
}

/** A generic query run whenever its body changes; the previous one is cancelled. null: nothing to ask. */
export function useHandbookPage(body: GenericQueryRequest | null): HandbookPageState {
  const key = body ? JSON.stringify(body) : '';
  const [state, setState] = useState<HandbookPageState>({ loading: body !== null });
  useEffect(() => {
    if (!key) {
      setState({ loading: false });
      return;
    }
    const controller = new AbortController();
    setState((previous) => ({ page: previous.page, loading: true }));
    queryHandbook(JSON.parse(key) as GenericQueryRequest, controller.signal).then(
      (page) => !controller.signal.aborted && setState({ page, loading: false }),
      (error: unknown) => {
        if (controller.signal.aborted) return;
        if (error instanceof NoConnectionError) setState({ loading: false, problem: 'offline' });
        else if (error instanceof HttpError) setState({ loading: false, problem: 'failed' });
        else setState({ loading: false });
      },
    );
    return () => controller.abort();
  }, [key]);
  return state;
}
