/**
 * The bell's list (spec sections 3 and 4): load state loading → success or failure; "set all viewed"
 * sets the count to zero and clears new_list. A reducer, so the popover's states are testable alone.
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

export type NotificationAction = { type: 'load' } | { type: 'loaded'; page: NotificationPage } | { type: 'failed' } | { type: 'allViewed' };

export const initialListState: NotificationListState = { load: 'idle', list: [], total: 0, newIds: [] };

export function notificationListReducer(state: NotificationListState, action: NotificationAction): NotificationListState {
  switch (action.type) {
    case 'load':
      return { ...state, load: 'loading' };
    case 'loaded':
      return { load: 'success', list: action.page.list, total: action.page.count, newIds: action.page.new_list };
    case 'failed':
      return { ...state, load: 'failure' };
    case 'allViewed':
      return { ...state, newIds: [], list: state.list.map((item) => (item.isNew ? { ...item, isNew: false } : item)) };
  }
}

/** New: flagged by the server or named in new_list. */
export function isNew(state: NotificationListState, item: NotificationItem): boolean {
  return item.isNew || state.newIds.includes(item.id);
}

/** The badge text: the count, '99+' past 99, nothing at zero. */
export function badgeText(count: number): string {
  return count <= 0 ? '' : count > 99 ? '99+' : String(count);
}
