/**
 * The player's retry rules (field-app.md sections 2.4, 4 and 9): after a fatal playback error the stream is
 * requested again with a time stamp after 1 s, at most 40 times, then the red error state; a success resets
 * the count. The manifest itself is retried 6 times by hls.js (and by us when it is missing altogether).
 */
export const VIDEO_RETRY_DELAY_MS = 1000;
export const VIDEO_MAX_RETRIES = 40;
export const VIDEO_MANIFEST_RETRIES = 6;

/** A tile's state: loading, playing, retrying n of 40, or no signal (red). */
export type PlayerState =
  { kind: 'loading' } | { kind: 'playing' } | { kind: 'retrying'; attempt: number; of: number } | { kind: 'failed' };

/** The address again with a time stamp, so no cache (the browser's, a proxy's) answers the retry. */
export function withTimestamp(url: string, now: number): string {
  const [path, query = ''] = url.split('?');
  const params = new URLSearchParams(query);
  params.set('t', String(now));
  return `${path}?${params.toString()}`;
}
