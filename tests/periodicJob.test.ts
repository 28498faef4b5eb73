import { afterEach, describe, expect, it, vi } from 'vitest';
import { PeriodicJob } from '../src/server/jobs/periodicJob';

const log = { warn: vi.fn() } as unknown as ConstructorParameters<typeof PeriodicJob>[1];

describe('PeriodicJob', () => {
  afterEach(() => vi.useRealTimers());

  it('never runs two passes at once, logs a failed one and goes on, and stop waits for the pass under way', async () => {
    vi.useFakeTimers();
    let running = 0;
    let most = 0;
    let passes = 0;
    let finish: (() => void) | undefined;
    const job = new PeriodicJob(
      async () => {
        passes += 1;
        running += 1;
        most = Math.max(most, running);
        if (passes === 2) {
          running -= 1;
          throw new Error('database away');
        }
        await new Promise<void>((resolve) => {
          finish = resolve;
        });
        running -= 1;
      },
      log,
      'pass failed',
    );
    job.start(100, 0);
    expect(passes).toBe(1);
    await vi.advanceTimersByTimeAsync(350); // three periods while the first pass still runs
    expect(passes).toBe(1);
    finish!();
    await vi.advanceTimersByTimeAsync(100);
    expect(passes).toBe(2); // the failing one
    expect(log.warn).toHaveBeenCalledWith(expect.objectContaining({ err: expect.any(Error) }), 'pass failed');
    await vi.advanceTimersByTimeAsync(100);
    expect(passes).toBe(3);
    let stopped = false;
    const stopping = job.stop().then(() => {
      stopped = true;
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(stopped).toBe(false);
    finish!();
    await stopping;
    await vi.advanceTimersByTimeAsync(1000);
    expect(passes).toBe(3);
    expect(most).toBe(1);
  });
});
