import { keepPreviousData, QueryClient, useQuery, type UseQueryResult } from '@tanstack/react-query';
import { getSession, subscribeSession } from '../stores/sessionStore';

/**
 * The one way a screen of either app reads the API: react-query over the http client. A screen names what it reads
 * (the query key) and how (`load`, given the abort signal); the answer is cached and shared by the screens asking
 * the same, a request is aborted when nobody waits for it, and a failure is the query's `error` (the http client
 * has already told the user, unless the load asked it to stay quiet). react-admin's own lists and forms keep
 * react-admin's data provider; this is for everything else.
 */
// no retry: the http client has told the user of a failure (or moved to the error page) already
export const webQueries = new QueryClient({ defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false } } });

// one user's answers are never shown to the next one signed in on the same page (a refreshed token keeps them)
let shownFor = getSession().user?.id ?? null;
subscribeSession(() => {
  const user = getSession().user?.id ?? null;
  if (user === shownFor) return;
  if (shownFor !== null) webQueries.clear();
  shownFor = user;
});

export interface ApiQueryOptions<T> {
  /** False: not asked (yet); the data stays undefined. */
  enabled?: boolean;
  /** Asked again every this many ms while shown; given the answer, false stops asking (a job complete). */
  refetchInterval?: number | ((data: T | undefined) => number | false);
  /** An answer this fresh is not asked again (ms); by default, once per mount. */
  staleTime?: number;
  /** Keeps the previous answer on screen while the next key loads (filters, search as one types). */
  keepPrevious?: boolean;
}

export function useApiQuery<T>(
  key: readonly unknown[],
  load: (signal: AbortSignal) => Promise<T>,
  options: ApiQueryOptions<T> = {},
): UseQueryResult<T, Error> {
  const interval = options.refetchInterval;
  return useQuery<T, Error>(
    {
      queryKey: key,
      queryFn: ({ signal }) => load(signal),
      enabled: options.enabled,
      refetchInterval: typeof interval === 'function' ? (query) => interval(query.state.data) : interval,
      staleTime: options.staleTime,
      placeholderData: options.keepPrevious ? keepPreviousData : undefined,
    },
    webQueries,
  );
}

/** Asks every query whose key starts with `prefix` again (after a write that changes what they show). */
export function refreshQueries(prefix: readonly unknown[]): Promise<void> {
  return webQueries.invalidateQueries({ queryKey: prefix });
}
