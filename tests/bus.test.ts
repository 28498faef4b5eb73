import { describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { Bus, MemoryNetwork } from '../src/server/bus/bus';
import type { CacheInvalidation } from '../src/server/bus/channels';
import { TelemetryPipeline } from '../src/server/telemetry/pipeline';
import { LatestPositions } from '../src/server/telemetry/latestPositions';
import { PositionShare } from '../src/server/telemetry/positionShare';
import { RecentFixes } from '../src/server/telemetry/recentFixes';
import type { TrackWriter } from '../src/server/telemetry/trackWriter';
import type { Position } from '../src/server/telemetry/types';

const log = pino({ level: 'silent' });
const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

/** Processes joined in memory, as over Redis: each its own bus. */
function processes(count: number) {
  const network = new MemoryNetwork();
  return Array.from({ length: count }, () => new Bus(network.join(), 'tc:test', log));
}

describe('the bus between server processes', () => {
  it('delivers a message to every other process, never back to its sender, and survives a failing handler', async () => {
    const [a, b, c] = processes(3);
    const got: Record<string, CacheInvalidation[]> = { a: [], b: [], c: [] };
    a.subscribe('cache', (m) => got.a.push(m));
    b.subscribe('cache', () => {
      throw new Error('broken handler');
    });
    b.subscribe('cache', (m) => got.b.push(m));
    c.subscribe('cache', (m) => got.c.push(m));
    a.publish('cache', { kind: 'settings' });
    await tick();
    expect(got).toEqual({ a: [], b: [{ kind: 'settings' }], c: [{ kind: 'settings' }] });
  });

  it('ignores what is not a message of ours', async () => {
    const network = new MemoryNetwork();
    const transport = network.join();
    const b = new Bus(network.join(), 'tc:test', log);
    const got: unknown[] = [];
    b.subscribe('cache', (m) => got.push(m));
    for (const payload of ['not json', 'null', '{"m":{"kind":"settings"}}']) await transport.publish('tc:test:cache', payload);
    await tick();
    expect(got).toEqual([]);
    expect(b.stats.received).toBe(0);
  });

  it('answers a question from the process concerned, and says at once when no process is', async () => {
    const [a, b, c] = processes(3);
    const held = new Set(['s1']);
    for (const bus of [b, c]) bus.respond('geo.move', ({ streamId }) => (bus === c && held.has(streamId) ? 'ok' : null));
    a.respond('geo.move', () => null);
    expect(await a.request('geo.move', { streamId: 's1', userId: 1, q: '' }, 5000)).toBe('ok');
    const started = performance.now();
    expect(await a.request('geo.move', { streamId: 'nobody', userId: 1, q: '' }, 5000)).toBeUndefined();
    expect(performance.now() - started).toBeLessThan(1000);
    // a process alone has nobody to ask
    const alone = new Bus(new MemoryNetwork().join(false), 'tc:test', log);
    expect(await alone.request('geo.move', { streamId: 's1', userId: 1, q: '' }, 5000)).toBeUndefined();
  });

  it("shares accepted positions: the other process's latest state moves, its track is not written twice", async () => {
    const [a, b] = processes(2);
    const appended: Position[][] = [];
    const pipeline = () =>
      new TelemetryPipeline(
        new LatestPositions(),
        new RecentFixes(),
        {
          append: async (rows: Position[]) => {
            appended.push(rows);
          },
        } as unknown as TrackWriter,
        { futureToleranceMs: 300_000, maxSpeedKmh: 300, maxAgeMs: 86_400_000 },
      );
    const [first, second] = [pipeline(), pipeline()];
    new PositionShare(a, first).start();
    new PositionShare(b, second).start();
    const seen: boolean[] = [];
    second.on('positions', (_, remote) => seen.push(remote));
    const time = Date.now() - 1000;
    first.ingest([{ vehicleId: 7, time, lat: 59.93, lon: 30.31, speed: 12, course: 90, valid: true, history: false }]);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(second.latest.get(7)).toMatchObject({ time, lat: 59.93, lon: 30.31, speed: 12, course: 90, valid: true });
    expect(seen).toEqual([true]);
    expect(appended).toHaveLength(1);
    expect(first.latest.get(7)?.time).toBe(time);
  });
});
