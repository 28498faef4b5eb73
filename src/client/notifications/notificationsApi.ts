import { getJson, postJson, type RequestOptions } from '../../web/providers/httpClient';
import type { NotificationPage } from './notificationState';

/** The bell's calls (spec section 7, Notifications). */
export const RING_API = '/api/v1/events/ring';
export const NOTIFICATION_PAGE_SIZE = 10;
export const NOTIFICATION_TYPES = [
  'equipment_fault',
  'adas_incident',
  'video_ready',
  'dispatch_exception',
  'dispatch_driver_message',
  'system',
] as const;

export const fetchCount = (options: Pick<RequestOptions, 'signal' | 'handleErrors'> = {}) =>
  getJson<{ count: number }>(`${RING_API}/count`, options);

export const fetchPage = (type: string, page: number, signal?: AbortSignal) =>
  getJson<NotificationPage>(`${RING_API}/list`, {
    query: { type: type || undefined, skipCount: page * NOTIFICATION_PAGE_SIZE, recordCount: NOTIFICATION_PAGE_SIZE },
    signal,
  });

/** "Set all viewed": the answer is the count left (0). */
export const markAllViewed = () => postJson<{ count: number }>(`${RING_API}/viewed`);
