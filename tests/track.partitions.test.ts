import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSource } from '../src/server/telemetry/http/sourceKeys';
import type { Position } from '../src/server/telemetry/types';
import { ENGINES } from './helpers/engines';
import { startTestApp, type TestApp } from './helpers/testApp';

const DAY = 86_400_000;
const dayName = (ms: number) => `app.track_${new Date(ms).toISOString().slice(0, 10).replace(/-/g, '')}`;

describe.each(ENGINES)('positions by day (app.track partitions) on %s', (engine) => {
  let t: TestApp;
  let key: string;
  const vehicles: number[] = [];
  const now = Date.now();
  const midnight = Math.floor(now / DAY) * DAY;

  beforeAll(async () => {
    t = await startTestApp(engine);
    for (let i = 1; i <= 5; i++) {
      const [{ id }] = await t.db.query<{ id: number }>(
        'insert into mgt.vehicles (depot_number, peer_address) values ($1, $2) returning id',
        [991300 + i, 8130000 + i],
      );
      vehicles.push(id);
    }
    await t.app.telemetry.devices.refresh();
    ({ key } = await createSource(t.db, 'Разделы трека', null));
  });
  afterAll(() => t.close());

  const post = (device: number, times: number[]) =>
    t.app.inject({
      method: 'POST',
      url: '/api/v1/telemetry/positions',
      headers: { 'x-telemetry-key': key },
      payload: {
        positions: times.map((time) => ({
          device: String(device),
          time: new Date(time).toISOString(),
          lat: 59.95,
          lon: 30.31,
          speed: 0,
          course: 0,
        })),
      },
    });
  /** Where each of a vehicle's points is stored: partition name → points. */
  const placed = async (vehicleId: number) => {
    await t.app.telemetry.track.writer.flush();
    const rows = await t.db.query<{ part: string; n: number }>(
      'select tableoid::regclass::text as part, count(*)::int as n from app.track where vehicle_id = $1 group by 1 order by 1',
      [vehicleId],
    );
    return Object.fromEntries(rows.map((row) => [row.part, row.n]));
  };
  const exists = async (name: string) =>
    (await t.db.query<{ found: boolean }>('select to_regclass($1) is not null as found', [name]))[0].found;
  const position = (vehicleId: number, time: number): Position => ({
    vehicleId,
    time,
    lat: 59.95,
    lon: 30.31,
    speed: 0,
    course: 0,
    valid: true,
    history: false,
  });

  it('stores positions of several days each in its own day, none in the default partition', async () => {
    const times = [now - 2 * DAY, now - DAY, now - 60_000];
    const response = await post(8130001, times);
    expect(response.statusCode, response.body).toBe(200);
    expect(await placed(vehicles[0])).toEqual(Object.fromEntries(times.map((time) => [dayName(time), 1])));
    // The coming days are there before any position needs them.
    for (let ahead = 0; ahead <= 3; ahead++) expect(await exists(dayName(now + ahead * DAY))).toBe(true);
  });

  it('stores nothing twice when the same positions are written again across midnight', async () => {
    const { writer } = t.app.telemetry.track;
    // Through the writer itself (a spool file replayed after a crash): the database's key is what refuses them.
    const batch = [midnight - 1000, midnight, midnight + 1000].map((time) => position(vehicles[1], time));
    await writer.append(batch);
    await writer.flush();
    const before = writer.getStats().duplicates;
    await writer.append(batch);
    await writer.flush();
    expect(writer.getStats().duplicates - before).toBe(3);
    expect(await placed(vehicles[1])).toEqual({ [dayName(midnight - 1000)]: 1, [dayName(midnight)]: 2 });

    // A point that waited in the default partition, moved into its day by the maintenance, then resent.
    const waited = now - 5 * DAY;
    expect(await exists(dayName(waited))).toBe(false);
    await t.db.query('insert into app.track (vehicle_id, tm, lat, lon, speed, course, valid) values ($1, $2, 59.95, 30.31, 0, 0, true)', [
      vehicles[1],
      new Date(waited).toISOString(),
    ]);
    expect((await placed(vehicles[1]))['app.track_default']).toBe(1);
    const { made } = await t.app.telemetry.track.partitions.maintain(now);
    expect(made).toBeGreaterThanOrEqual(1);
    expect(await placed(vehicles[1])).toEqual({ [dayName(waited)]: 1, [dayName(midnight - 1000)]: 1, [dayName(midnight)]: 2 });
    await writer.append([position(vehicles[1], waited)]);
    await writer.flush();
    expect((await placed(vehicles[1]))[dayName(waited)]).toBe(1);
  });

  it('drops a day past the retention whole, makes the coming days, and leaves the other days as they were', async () => {
    const { partitions } = t.app.telemetry.track;
    const retention = t.app.telemetry.config.trackRetentionDays;
    // Run as if it were `retention - 1` days later: the day before yesterday is then wholly past the retention.
    const later = now + (retention - 1) * DAY;
    const outcome = await partitions.maintain(later);
    expect(outcome.dropped).toContain(dayName(now - 2 * DAY).slice('app.'.length));
    expect(outcome.dropped).toContain(dayName(now - 5 * DAY).slice('app.'.length));
    expect(outcome.postponed).toEqual([]);
    expect(await exists(dayName(now - 2 * DAY))).toBe(false);
    for (let ahead = 0; ahead <= 3; ahead++) expect(await exists(dayName(later + ahead * DAY))).toBe(true);
    // Yesterday's and today's points are all still there.
    expect(await placed(vehicles[0])).toEqual({ [dayName(now - DAY)]: 1, [dayName(now - 60_000)]: 1 });
    expect(await placed(vehicles[1])).toEqual({ [dayName(midnight - 1000)]: 1, [dayName(midnight)]: 2 });
    // A second pass finds nothing more to do.
    expect(await partitions.maintain(later)).toEqual({ made: 0, dropped: [], postponed: [], expired: 0 });
  });

  it('refuses fixes older than the retention or ahead of the clock; strays written around the pipeline wait in the default partition', async () => {
    const retention = t.app.telemetry.config.trackRetentionDays;
    const old = await post(8130003, [now - (retention + 1) * DAY]);
    expect(old.statusCode).toBe(400);
    expect(old.json().errors).toEqual([{ index: 0, field: 'time', message: 'time is older than the track retention' }]);
    const ahead = await post(8130003, [now + DAY]);
    expect(ahead.statusCode).toBe(400);
    expect(ahead.json().errors).toEqual([{ index: 0, field: 'time', message: 'time is more than 300 s in the future' }]);
    expect(await placed(vehicles[2])).toEqual({});

    // A year-old and a ten-days-ahead point written straight into the table (a clock gone wrong, an import).
    const yearOld = now - 365 * DAY;
    const future = now + 10 * DAY;
    for (const time of [yearOld, future]) {
      await t.db.query('insert into app.track (vehicle_id, tm, lat, lon, speed, course, valid) values ($1, $2, 59.95, 30.31, 0, 0, true)', [
        vehicles[2],
        new Date(time).toISOString(),
      ]);
    }
    expect(await placed(vehicles[2])).toEqual({ 'app.track_default': 2 });
    // The maintenance deletes what is past the retention and leaves the future point until its day is made.
    const { expired } = await t.app.telemetry.track.partitions.maintain(now);
    expect(expired).toBe(1);
    expect(await placed(vehicles[2])).toEqual({ 'app.track_default': 1 });
    await t.app.telemetry.track.partitions.maintain(future - 2 * DAY);
    expect(await placed(vehicles[2])).toEqual({ [dayName(future)]: 1 });
  });

  // PostgreSQL only: the embedded engine runs one statement at a time, so nothing there waits for a lock.
  it.runIf(engine === 'postgres')(
    'drops a day while a long reader holds the track without holding up writers for more than a moment',
    async () => {
      const { partitions } = t.app.telemetry.track;
      const retention = t.app.telemetry.config.trackRetentionDays;
      const victim = now - 3 * DAY;
      await post(8130004, [victim, now - 30_000]);
      expect(Object.keys(await placed(vehicles[3]))).toContain(dayName(victim));

      // Another connection reads the track and keeps its transaction (and its lock) open for 4 s.
      let readerDone = 0;
      const reader = t.db
        .transaction(async (tx) => {
          await tx.query('select count(*) from app.track');
          await tx.query('select pg_sleep(4)');
        })
        .then(() => {
          readerDone = performance.now();
        });
      await new Promise((resolve) => setTimeout(resolve, 300));
      const dropAsked = performance.now();
      // As in the drop test: the coming days of that time are made already, so this pass only drops.
      const later = now + (retention - 1) * DAY;
      const drop = partitions.maintain(later);
      // A writer and a reader of positions while the drop waits for its lock.
      await new Promise((resolve) => setTimeout(resolve, 100));
      const writeAsked = performance.now();
      await t.db.query(
        'insert into app.track (vehicle_id, tm, lat, lon, speed, course, valid) values ($1, now(), 59.95, 30.31, 0, 0, true) on conflict do nothing',
        [vehicles[3]],
      );
      const written = performance.now();
      await t.db.query("select count(*) from app.track where vehicle_id = $1 and tm > now() - interval '1 hour'", [vehicles[3]]);
      const read = performance.now();
      const readerStillReading = readerDone === 0;
      const outcome = await drop;
      const dropEnded = performance.now();
      await reader;

      // Neither waited for the long reader: the drop gave way after its lock timeout instead of queueing everyone.
      expect(written - writeAsked).toBeLessThan(1000);
      expect(read - writeAsked).toBeLessThan(1500);
      expect(readerStillReading).toBe(true);
      expect(dropEnded - dropAsked).toBeLessThan(1500);
      expect(outcome.postponed).toContain(dayName(victim).slice('app.'.length));
      expect(await exists(dayName(victim))).toBe(true);
      // Once the reader is gone, the next pass drops it.
      const again = await partitions.maintain(later);
      expect(again.dropped).toContain(dayName(victim).slice('app.'.length));
      expect(await exists(dayName(victim))).toBe(false);
    },
  );
});
