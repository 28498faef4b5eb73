import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RetryPolicy } from '../../src/web/video/retryPolicy';
import { MANIFEST_RETRY } from '../../src/web/video/hlsConfig';
import { withTimestamp, type PlayerState } from '../../src/shared/video/player';

/** The player's retry rules of field-app.md sections 4 and 9, on fake timers. */
describe('video player retry policy', () => {
  let attempts: number[];
  let states: PlayerState[];
  let policy: RetryPolicy;
  beforeEach(() => {
    vi.useFakeTimers();
    attempts = [];
    states = [];
    policy = new RetryPolicy(
      (n) => attempts.push(n),
      (s) => states.push(s),
    );
  });
  afterEach(() => {
    policy.dispose();
    vi.useRealTimers();
  });

  it('re-requests 1 s after a fatal error, not sooner', () => {
    policy.fatal();
    expect(states.at(-1)).toEqual({ kind: 'retrying', attempt: 1, of: 40 });
    vi.advanceTimersByTime(999);
    expect(attempts).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(attempts).toEqual([1]);
  });

  it('retries 40 times, 1 s apart, then shows the error state and stops', () => {
    for (let i = 0; i < 40; i++) {
      policy.fatal();
      vi.advanceTimersByTime(1000);
    }
    expect(attempts).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    expect(states.at(-1)).toEqual({ kind: 'retrying', attempt: 40, of: 40 });
    policy.fatal();
    expect(states.at(-1)).toEqual({ kind: 'failed' });
    vi.advanceTimersByTime(60_000);
    expect(attempts).toHaveLength(40);
  });

  it('takes one error at a time: errors while a retry is pending do not use up the count', () => {
    policy.fatal();
    policy.fatal();
    policy.fatal();
    vi.advanceTimersByTime(1000);
    expect(attempts).toEqual([1]);
    expect(policy.attempt).toBe(1);
  });

  it('resets the count on a success', () => {
    for (let i = 0; i < 39; i++) {
      policy.fatal();
      vi.advanceTimersByTime(1000);
    }
    policy.success();
    expect(states.at(-1)).toEqual({ kind: 'playing' });
    expect(policy.attempt).toBe(0);
    for (let i = 0; i < 40; i++) {
      policy.fatal();
      vi.advanceTimersByTime(1000);
    }
    expect(attempts).toHaveLength(79);
    expect(states.at(-1)).toEqual({ kind: 'retrying', attempt: 40, of: 40 });
  });

  it('stops retrying once the player is gone', () => {
    policy.fatal();
    policy.dispose();
    vi.advanceTimersByTime(5000);
    expect(attempts).toEqual([]);
  });

  it('retries the manifest 6 times, 1 s apart, a missing one (404) too, which hls.js alone would not', () => {
    expect(MANIFEST_RETRY).toMatchObject({ maxNumRetry: 6, retryDelayMs: 1000, maxRetryDelayMs: 1000 });
    const missing = { url: '/index.m3u8', data: undefined, code: 404 };
    const tries = [0, 1, 2, 3, 4, 5, 6].map((count) => MANIFEST_RETRY.shouldRetry!(MANIFEST_RETRY, count, false, missing, false));
    expect(tries).toEqual([true, true, true, true, true, true, false]);
  });

  it('adds a fresh time stamp to the address of each attempt', () => {
    expect(withTimestamp('/api/v1/video/stream/x/index.m3u8', 5)).toBe('/api/v1/video/stream/x/index.m3u8?t=5');
    expect(withTimestamp('/a/index.m3u8?t=5&q=1', 9)).toBe('/a/index.m3u8?t=9&q=1');
  });
});
