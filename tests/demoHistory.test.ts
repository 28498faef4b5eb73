import { describe, expect, it } from 'vitest';
import pino from 'pino';
import { DemoHistory } from '../src/server/jobs/demoHistory';
import type { WeekdayPlans } from '../src/server/simulator/weekdayPlans';

const log = pino({ level: 'silent' });
const plans = { clear: () => undefined } as unknown as WeekdayPlans;
const later = <T>(value: T, ms: number) => new Promise<T>((resolve) => setTimeout(() => resolve(value), ms));

describe('the demo history fills', () => {
  it('gives the engine memory back once, after the last fill that wrote rows', async () => {
    let released = 0;
    const history = new DemoHistory(plans, async () => void (released += 1), log);
    history.track('passengers', later(12, 30));
    history.track('work data', later(0, 10));
    history.seal();
    await later(null, 15);
    expect(released).toBe(0); // one fill still runs
    await history.done;
    expect(released).toBe(1);
  });

  it("sums the fills' progress in days until every fill has ended", async () => {
    const history = new DemoHistory(plans, async () => undefined, log);
    const passengers = history.progress('passengers');
    const workData = history.progress('work data');
    passengers(3, 30);
    workData(10, 30);
    expect(history.status()).toEqual({ complete: false, daysDone: 13, daysTotal: 60 });
    passengers(4, 30);
    expect(history.status()).toEqual({ complete: false, daysDone: 14, daysTotal: 60 });
    history.track('passengers', later(1, 5));
    history.seal();
    await history.done;
    expect(history.status()).toEqual({ complete: true, daysDone: 60, daysTotal: 60 });
  });

  it('keeps the engine as it is when every history was already there, a failed fill included', async () => {
    let released = 0;
    const history = new DemoHistory(plans, async () => void (released += 1), log);
    history.track('passengers', Promise.resolve(0));
    history.track('work data', Promise.reject(new Error('disk full')));
    history.seal();
    await history.done;
    expect(released).toBe(0);
  });
});
