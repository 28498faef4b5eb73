import { afterEach, describe, expect, it, vi } from 'vitest';
import { ReadCache } from '../src/server/db/readCache';

/** The session and settings cache: fresh for ttl, then answered stale while read again, then waited for. */
describe('ReadCache', () => {
  afterEach(() => vi.useRealTimers());

  it('answers an expired value while it reads the new one, and waits for the read once the value is too old', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const cache = new ReadCache<string, number>(3000, 3000);
    let stored = 1;
    let reads = 0;
    let release: () => void = () => {};
    const load = () => {
      reads += 1;
      return new Promise<number>((resolve) => {
        release = () => resolve(stored);
      });
    };

    const first = cache.get('k', load);
    release();
    expect(await first).toBe(1);

    stored = 2;
    vi.advanceTimersByTime(2000);
    expect(await cache.get('k', load)).toBe(1); // fresh: no read
    expect(reads).toBe(1);

    vi.advanceTimersByTime(2000); // 4 s old: answered at once, read in the background
    expect(await cache.get('k', load)).toBe(1);
    expect(reads).toBe(2);
    release();
    await Promise.resolve();
    await Promise.resolve();
    expect(await cache.get('k', load)).toBe(2);

    stored = 3;
    vi.advanceTimersByTime(7000); // past ttl + stale window: the request waits for the read
    let answered: number | undefined;
    const waiting = cache.get('k', load).then((value) => {
      answered = value;
    });
    await Promise.resolve();
    expect(answered).toBeUndefined();
    release();
    await waiting;
    expect(answered).toBe(3);
  });
});
