import { useCallback } from 'react';
import { useApiQuery, webQueries } from '../../web/providers/queries';
import { listState, viewedPage, type LoadState, type NotificationListState, type NotificationPage } from './notificationState';
import { fetchPage, markAllViewed } from './notificationsApi';

export interface NotificationList {
  state: NotificationListState;
  reload: () => void;
  /** POST viewed: resolves with the count left (0). */
  setAllViewed: () => Promise<number>;
}

/** One page of the bell's list for a type, read each time the popover opens (and while it is open, as it changes). */
export function useNotificationList(open: boolean, type: string, page: number): NotificationList {
  const key = ['notifications', 'list', type, page] as const;
  const query = useApiQuery(key, (signal) => fetchPage(type, page, signal), { enabled: open });
  const load: LoadState = query.isFetching ? 'loading' : query.isError ? 'failure' : query.isSuccess ? 'success' : 'idle';
  const { refetch } = query;
  const reload = useCallback(() => void refetch(), [refetch]);
  const setAllViewed = useCallback(async () => {
    const { count } = await markAllViewed();
    // every page read so far: nothing in them is new any more
    webQueries.setQueriesData<NotificationPage>({ queryKey: ['notifications', 'list'] }, (old) => old && viewedPage(old));
    return count;
  }, []);
  return { state: listState(load, query.data), reload, setAllViewed };
}
