import { useCallback, useEffect, useState } from 'react';
import { NOTIFICATION_POLL_MS } from '../../shared/constants';
import { HttpError, isAbortError } from '../../web/providers/httpClient';
import { navigateTo } from '../../web/routing/navigationBridge';
import { clearSession, useSession } from '../../web/stores/sessionStore';
import { fetchCount } from './notificationsApi';

/**
 * The unseen count, polled every NOTIFICATION_POLL_MS while logged in (spec section 7), not while the
 * tab is hidden (and at once when it shows again); stopped on logout or unmount. A failed poll is
 * quiet (no message, no navigation every half minute) except a 401, which logs out as any call does.
 */
export function useNotificationCount(): { count: number; setCount: (count: number) => void; refresh: () => void } {
  const { token } = useSession();
  const [count, setCount] = useState(0);
  const [tick, setTick] = useState(0);
  const refresh = useCallback(() => setTick((n) => n + 1), []);
  useEffect(() => {
    if (!token) return undefined;
    let controller: AbortController | null = null;
    const poll = () => {
      if (document.visibilityState === 'hidden') return;
      controller?.abort();
      const current = new AbortController();
      controller = current;
      fetchCount({ signal: current.signal, handleErrors: false })
        .then((answer) => setCount(answer.count))
        .catch((error: unknown) => {
          if (isAbortError(error)) return;
          if (error instanceof HttpError && error.status === 401) {
            clearSession();
            navigateTo('/', { replace: true });
          }
        });
    };
    poll();
    const timer = setInterval(poll, NOTIFICATION_POLL_MS);
    const onVisibility = () => document.visibilityState === 'visible' && poll();
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      clearInterval(timer);
      document.removeEventListener('visibilitychange', onVisibility);
      controller?.abort();
    };
  }, [token, tick]);
  return { count, setCount, refresh };
}
