/**
 * The media/command status codes of console.md section 3, as an archive request moves through them. A
 * performed request that has been played is shown as 'viewed' (7): the stored status stays 6 with a viewed
 * time, so the one truth of "it is ready" does not change when somebody watches it.
 */
export const VIDEO_STATUS = {
  created: 1,
  queuing: 2,
  waiting: 3,
  downloading: 4,
  connecting: 5,
  performed: 6,
  viewed: 7,
  deleting: 8,
  deleted: 9,
  authError: 10,
  configurationError: 11,
  noData: 12,
  downloadError: 13,
  error: 14,
} as const;

export type VideoStatusName = keyof typeof VIDEO_STATUS;
export type VideoStatus = (typeof VIDEO_STATUS)[VideoStatusName];

export const VIDEO_STATUS_CODES = Object.values(VIDEO_STATUS) as VideoStatus[];

/** Statuses the worker still moves: the list refreshes itself while a request is in one of them. */
export const ACTIVE_STATUSES: readonly VideoStatus[] = [1, 2, 3, 4, 5, 8];
/** Error statuses: each carries its reason; such a request may be retried. */
export const ERROR_STATUSES: readonly VideoStatus[] = [10, 11, 12, 13, 14];
/** Statuses a request may be cancelled in (the download has not finished). */
export const CANCELLABLE_STATUSES: readonly VideoStatus[] = [1, 2, 3, 4, 5];

/** The code shown: performed reads as viewed once played (console.md section 3). */
export function shownStatus(status: number, viewed: boolean): number {
  return status === VIDEO_STATUS.performed && viewed ? VIDEO_STATUS.viewed : status;
}
