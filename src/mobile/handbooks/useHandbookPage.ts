import type { GenericQueryRequest } from '../../shared/handbooks/api';
import { HttpError } from '../../web/providers/httpClient';
import { useApiQuery } from '../../web/providers/queries';
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
  const query = useApiQuery(['handbooks', 'page', key], (signal) => queryHandbook(JSON.parse(key) as GenericQueryRequest, signal), {
    enabled: key !== '',
    keepPrevious: true,
  });
  if (query.isError) {
    const { error } = query;
    return { loading: false, problem: error instanceof NoConnectionError ? 'offline' : error instanceof HttpError ? 'failed' : undefined };
  }
  return { page: query.data, loading: query.isFetching };
}
