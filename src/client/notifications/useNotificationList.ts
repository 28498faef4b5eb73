import { useCallback, useEffect, useReducer, useState } from 'react';
import { isAbortError } from '../../web/providers/httpClient';
import { initialListState, notificationListReducer, type NotificationListState } from './notificationState';
import { fetchPage, markAllViewed } from './notificationsApi';

export interface NotificationList {
  state: NotificationListState;
  reload: () => void;
  /** POST viewed: resolves with the count left (0). */
  setAllViewed: () => Promise<number>;
}

/** One page of the bell's list for a type, loaded while the popover is open. */
export function useNotificationList(open: boolean, type: string, page: number): NotificationList {
  const [state, dispatch] = useReducer(notificationListReducer, initialListState);
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    if (!open) return undefined;
    const controller = new AbortController();
    dispatch({ type: 'load' });
    fetchPage(type, page, controller.signal)
      .then((result) => dispatch({ type: 'loaded', page: result }))
      .catch((error: unknown) => !isAbortError(error) && dispatch({ type: 'failed' }));
    return () => controller.abort();
  }, [open, type, page, attempt]);
  const reload = useCallback(() => setAttempt((n) => n + 1), []);
  const setAllViewed = useCallback(async () => {
    const { count } = await markAllViewed();
    dispatch({ type: 'allViewed' });
    return count;
  }, []);
  return { state, reload, setAllViewed };
}
