/**
 * The bell's list (spec sections 3 and 4): load state loading → success or failure; "set all viewed"
 * sets the count to zero and clears new_list. Pure, so the popover's states are testable alone.
 */
export interface NotificationItem {
  id: number;
  at: string;
  type: string;
  severity: string;
  title: string;
  body: string;
  link: string | null;
  isNew: boolean;
}

export interface NotificationPage {
  list: NotificationItem[];
  count: number;
  new_list: number[];
}

export type LoadState = 'idle' | 'loading' | 'success' | 'failure';

export interface NotificationListState {
  load: LoadState;
  list: NotificationItem[];
  /** Notifications of the chosen type, all pages. */
  total: number;
  /** Ids of unseen notifications (new_list). */
  newIds: number[];
}

export const initialListState: NotificationListState = { load: 'idle', list: [], total: 0, newIds: [] };

/** The list as the popover shows it: the query's state and its last page (kept while the next one loads or fails). */
export function listState(load: LoadState, page: NotificationPage | undefined): NotificationListState {
  if (!page) return { ...initialListState, load };
  return { load, list: page.list, total: page.count, newIds: page.new_list };
}

/** A page once everything is set viewed: nothing new in it. */
export function viewedPage(page: NotificationPage): NotificationPage {
  return { ...page, new_list: [], list: page.list.map((item) => (item.isNew ? { ...item, isNew: false } : item)) };
}

/** New: flagged by the server or named in new_list. */
export function isNew(state: NotificationListState, item: NotificationItem): boolean {
  return item.isNew || state.newIds.includes(item.id);
}

/** The badge text: the count, '99+' past 99, nothing at zero. */
export function badgeText(count: number): string {
  return count <= 0 ? '' : count > 99 ? '99+' : String(count);
}
