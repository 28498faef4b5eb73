import { describe, expect, it } from 'vitest';
import type { Queryable } from '../src/server/db/types';
import { normalisePeer } from '../src/server/telemetry/deviceIndex';
import { LatestPositions } from '../src/server/telemetry/latestPositions';
import { TelemetryPipeline, type PositionChange } from '../src/server/telemetry/pipeline';
import { RecentFixes } from '../src/server/telemetry/recentFixes';
import { TrackWriter } from '../src/server/telemetry/trackWriter';
import type { Position } from '../src/server/telemetry/types';
import { silentLog, temporarySpool } from './fixtures/egts/harness';

const at = (secondsAgo: number) => Math.floor(Date.now() / 1000 - secondsAgo) * 1000;
const position = (more: Partial<Position> = {}): Position => ({
  vehicleId: 1,
  time: at(10),
  lat: 59.9,
  lon: 30.3,
  speed: 20,
  course: 90,
  valid: true,
  history: false,
  ...more,
});

/** A database stand-in that records each INSERT's row count, failing while `down` is set. */
function fakeDb() {
  const state = { down: false, statements: [] as number[] };
  const db: Queryable = {
    async query<T>(_sql: string, params?: unknown[]) {
      if (state.down) throw new Error('connection refused');
      const rows = (params?.[0] as unknown[]).length;
      state.statements.push(rows);
      return [{ n: rows }] as T[];
    },
  };
  return { db, state };
}

describe('telemetry pipeline', () => {
  const build = () => {
    const { db, state } = fakeDb();
    const writer = new TrackWriter(db, temporarySpool(25), { flushIntervalMs: 60_000, flushRows: 10, statementRows: 4 }, silentLog);
    const pipeline = new TelemetryPipeline(new LatestPositions(), new RecentFixes(4), writer, {
      futureToleranceMs: 300_000,
      maxSpeedKmh: 300,
      maxAgeMs: 86_400_000,
    });
    return { pipeline, writer, state };
  };

  it('validates, drops duplicates, moves the latest state forward only and tells subscribers once per call', () => {
    const { pipeline } = build();
    const changes: PositionChange[][] = [];
    pipeline.on('positions', (batch) => changes.push(batch));
    const outcome = pipeline.ingest([
      position({ time: at(20) }),
      position({ time: at(10), lat: 59.91 }),
      position({ time: at(20) }), // resend
      position({ time: at(30), history: true, lat: 59.5 }), // black box: older than the latest
      position({ vehicleId: 2, lat: 95 }),
      position({ vehicleId: 2, time: Date.now() + 3_600_000 }),
      position({ vehicleId: 2, speed: 900, course: 360 }),
    ]);
    expect(outcome).toEqual({
      accepted: 3,
      duplicates: 1,
      durable: expect.any(Promise),
      rejected: [
        { index: 4, field: 'lat', message: 'lat must be between -90 and 90' },
        { index: 5, field: 'time', message: 'time is more than 300 s in the future' },
        { index: 6, field: 'speed', message: 'speed must be between 0 and 300 km/h' },
        { index: 6, field: 'course', message: 'course must be an integer between 0 and 359' },
      ],
    });
    expect(pipeline.latest.get(1)).toMatchObject({ time: at(10), lat: 59.91 });
    expect(changes).toEqual([[expect.objectContaining({ vehicleId: 1, time: at(10) })]]);
    expect(pipeline.ingest([position({ time: at(40) })]).accepted).toBe(1);
    expect(changes).toHaveLength(1); // history only: no change to announce
  });

  it('says the positions are durable only once they are in the spool', async () => {
    const { pipeline, writer } = build();
    const outcome = pipeline.ingest([position({ time: at(5) })]);
    expect(writer.getStats().buffered).toBe(1);
    expect(await outcome.durable).toBe(true);
    expect(await pipeline.ingest([position({ time: at(5) })]).durable).toBe(true); // a duplicate: nothing to store
  });

  it('writes in statements of the configured size and keeps rows while the database is down', async () => {
    const { pipeline, writer, state } = build();
    await pipeline.ingest(Array.from({ length: 9 }, (_, i) => position({ time: at(100 - i) }))).durable;
    await writer.flush();
    expect(state.statements).toEqual([4, 4, 1]);

    state.down = true;
    await pipeline.ingest(Array.from({ length: 6 }, (_, i) => position({ time: at(50 - i) }))).durable;
    await writer.flush();
    expect(writer.getStats()).toMatchObject({ written: 9, buffered: 6, failedFlushes: 1 });

    state.down = false;
    await writer.flush();
    expect(writer.getStats()).toMatchObject({ written: 15, buffered: 0 });
  });

  it('keeps everything while the database stays down, beyond the memory bound on disk only, and writes it all once back', async () => {
    const { pipeline, writer, state } = build();
    state.down = true;
    for (let round = 0; round < 3; round += 1) {
      // 30 positions a round, sealed into one spool file each: more than the 25 kept in memory.
      await pipeline.ingest(Array.from({ length: 30 }, (_, i) => position({ vehicleId: 10 + i, time: at(100 - round) }))).durable;
      await writer.flush();
    }
    expect(writer.getStats()).toMatchObject({ buffered: 90, written: 0 });
    state.down = false;
    await writer.flush();
    expect(writer.getStats()).toMatchObject({ buffered: 0, written: 90 });
    expect(state.statements.reduce((a, b) => a + b, 0)).toBe(90);
  });
});

describe('peer addresses', () => {
  it('normalise TID, OID, IMEI text and HTTP device strings to one key', () => {
    expect(normalisePeer(7000001)).toBe('7000001');
    expect(normalisePeer('007000001')).toBe('7000001');
    expect(normalisePeer('860000000000017\0')).toBe('860000000000017');
    expect(normalisePeer('9223372036854775807')).toBe('9223372036854775807');
    expect(normalisePeer('12a')).toBeUndefined();
    expect(normalisePeer(-1)).toBeUndefined();
  });
});
