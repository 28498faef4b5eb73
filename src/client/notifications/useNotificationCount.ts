import { useCallback, useEffect } from 'react';
import { NOTIFICATION_POLL_MS } from '../../shared/constants';
import { HttpError } from '../../web/providers/httpClient';
import { useApiQuery, webQueries } from '../../web/providers/queries';
import { navigateTo } from '../../web/routing/navigationBridge';
import { clearSession, useSession } from '../../web/stores/sessionStore';
import { fetchCount } from './notificationsApi';

const COUNT_KEY = ['notifications', 'count'] as const;

/**
 * The unseen count, polled every NOTIFICATION_POLL_MS while logged in (spec section 7), not while the
 * tab is hidden (and at once when it shows again); stopped on logout or unmount. A failed poll is
 * quiet (no message, no navigation every half minute) except a 401, which logs out as any call does.
 */
export function useNotificationCount(): { count: number; setCount: (count: number) => void; refresh: () => void } {
  const { token } = useSession();
  const query = useApiQuery(COUNT_KEY, (signal) => fetchCount({ signal, handleErrors: false }), {
    enabled: Boolean(token),
    refetchInterval: NOTIFICATION_POLL_MS,
  });
  const { refetch, error } = query;
  useEffect(() => {
    if (error instanceof HttpError && error.status === 401) {
      clearSession();
      navigateTo('/', { replace: true });
    }
  }, [error]);
  useEffect(() => {
    if (!token) return undefined;
    const onVisibility = () => document.visibilityState === 'visible' && void refetch();
    document.addEventListener('visibilitychange', onVisibility);
    return () => document.removeEventListener('visibilitychange', onVisibility);
  }, [token, refetch]);
  const setCount = useCallback((count: number) => webQueries.setQueryData(COUNT_KEY, { count }), []);
  const refresh = useCallback(() => void refetch(), [refetch]);
  return { count: token ? (query.data?.count ?? 0) : 0, setCount, refresh };
}
