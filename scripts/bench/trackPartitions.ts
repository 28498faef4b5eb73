/**
 * Positions stored by day (app.track's day partitions, migration 135): what dropping a day costs beside deleting
 * it, what the partitions cost ingestion, and what moving an existing data folder's positions into them takes.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/tc_bench_track npx tsx scripts/bench/trackPartitions.ts
 *       a SCRATCH database (dropped and created again)
 *   npx tsx scripts/bench/trackPartitions.ts
 *       the embedded engine in a temporary folder
 *   BENCH_PART=migrate BENCH_DATA_DIR=.tmp/city-pre/pg npx tsx scripts/bench/trackPartitions.ts
 *       migration 135 on a COPY of an embedded data folder from before it (a city demo's `DATA_DIR/pg`), after
 *       filling BENCH_DAYS (3) days of positions before its own: BENCH_VEHICLES (800) vehicles, a fix every
 *       BENCH_EVERY_S (6) s all day, about the demo simulator's rate
 *
 * The default run, on a new database with every migration:
 * 1. Ingestion: the track writer's statement (5,000 positions unnested, on conflict do nothing) into the
 *    partitioned app.track and into a copy of the table as it was before (one table, key and BRIN index), batches
 *    alternating, BENCH_INGEST_ROWS (1,000,000) rows each; rows/s of each.
 * 2. One day of a large fleet (BENCH_VEHICLES 1,000 × a fix every BENCH_EVERY_S 10 s) in both tables; the day
 *    dropped by the maintenance beside a DELETE of the same day from the copy (the retention sweep as it was: by
 *    slices of 50,000), with each table's size after.
 * 3. PostgreSQL: a reader holds the track for 4 s while a day is dropped; how long a writer's insert waits,
 *    with the maintenance (its lock timeout) and with a bare DROP TABLE.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { DayPartitions } from '../../src/server/db/dayPartitions';
import { migrate } from '../../src/server/db/migrate';
import { openPglite } from '../../src/server/db/pglite';
import { openPostgres } from '../../src/server/db/postgres';
import type { Db } from '../../src/server/db/types';
import { recreateDatabase } from './benchServer';

const DAY = 86_400_000;
const HOUR_LIMIT = 3_600_000;
const PART = process.env.BENCH_PART ?? 'all';
const silent = { info() {}, warn() {}, error() {}, debug() {} } as unknown as FastifyBaseLogger;
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const count = (n: number) => n.toLocaleString('en-US');

/** The writer's statement (trackWriter.ts) into `table`. */
const insertInto = (table: string) => `insert into ${table} (vehicle_id, tm, lat, lon, speed, course, valid)
  select * from unnest($1::int[], $2::timestamptz[], $3::float8[], $4::float8[], $5::real[], $6::smallint[], $7::bool[])
  on conflict (vehicle_id, tm) do nothing`;

/** A day of `vehicles` reporting every `everyS` seconds, from `from`, in time order as terminals send it. */
const fillDay = (table: string) => `insert into ${table} (vehicle_id, tm, lat, lon, speed, course, valid)
  select v, $1::timestamptz + make_interval(secs => s * $2::int), 59.9 + (v % 97) * 0.002 + sin(s / 90.0) * 0.01,
         30.3 + (v % 89) * 0.002 + cos(s / 90.0) * 0.01, 25, 90, true
    from generate_series(0, 86400 / $2::int - 1) s, generate_series($3::int, $3::int + $4::int - 1) v
  on conflict do nothing`;

async function openEngine(): Promise<{ db: Db; done: () => Promise<void> }> {
  const url = process.env.DATABASE_URL;
  if (url) {
    await recreateDatabase(url);
    const db = await openPostgres(url, 6);
    return { db, done: () => db.close() };
  }
  const dir = mkdtempSync(join(tmpdir(), 'bench-track-'));
  const db = await openPglite(dir);
  return {
    db,
    done: async () => {
      await db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function sizeOf(db: Db, table: string): Promise<string> {
  const [{ size }] = await db.query<{ size: string }>(
    `select pg_size_pretty(case when exists (select 1 from pg_partitioned_table where partrelid = $1::regclass)
       then (select sum(pg_total_relation_size(relid)) from pg_partition_tree($1::regclass)) else pg_total_relation_size($1::regclass) end) as size`,
    [table],
  );
  return size;
}

async function ingestion(db: Db, partitions: DayPartitions): Promise<void> {
  const rows = Number(process.env.BENCH_INGEST_ROWS ?? 1_000_000);
  const batch = 5000;
  const vehicles = 1000;
  const start = Math.floor(Date.now() / 1000) * 1000 - Math.ceil(rows / vehicles) * 1000;
  const spent = { partitioned: 0, unpartitioned: 0 };
  for (let from = 0; from < rows; from += batch) {
    const n = Math.min(batch, rows - from);
    const columns = [
      new Array<number>(n),
      new Array<string>(n),
      new Array<number>(n),
      new Array<number>(n),
      new Array<number>(n),
      new Array<number>(n),
      new Array<boolean>(n),
    ];
    const times = new Array<number>(n);
    for (let i = 0; i < n; i++) {
      const k = from + i;
      times[i] = start + Math.floor(k / vehicles) * 1000;
      columns[0][i] = 1 + (k % vehicles);
      columns[1][i] = new Date(times[i]).toISOString();
      columns[2][i] = 59.9 + (k % 97) * 0.001;
      columns[3][i] = 30.3 + (k % 89) * 0.001;
      columns[4][i] = 25;
      columns[5][i] = 90;
      columns[6][i] = true;
    }
    for (const table of (from / batch) % 2 ? ['app.track_unpartitioned', 'app.track'] : ['app.track', 'app.track_unpartitioned']) {
      const started = performance.now();
      if (table === 'app.track') await partitions.ensure(times);
      await db.query(insertInto(table), columns);
      spent[table === 'app.track' ? 'partitioned' : 'unpartitioned'] += performance.now() - started;
    }
  }
  const rate = (ms: number) => `${count(Math.round(rows / (ms / 1000)))} rows/s`;
  console.log(
    `ingestion, the writer's statement of ${count(batch)} rows, ${count(rows)} rows each: partitioned ${rate(spent.partitioned)}, unpartitioned ${rate(spent.unpartitioned)} (partitioned at ${(spent.unpartitioned / spent.partitioned).toFixed(2)} of the unpartitioned rate)`,
  );
}

async function dropBesideDelete(db: Db, partitions: DayPartitions, now: number): Promise<void> {
  const vehicles = Number(process.env.BENCH_VEHICLES ?? 1000);
  const everyS = Number(process.env.BENCH_EVERY_S ?? 10);
  const retention = 30;
  const day = Math.floor(now / DAY) * DAY - (retention - 2) * DAY;
  const big = db.withLimit(HOUR_LIMIT);
  await db.query("select app.ensure_day_partitions('app.track', $1::date, $1::date)", [new Date(day).toISOString().slice(0, 10)]);
  let started = performance.now();
  await big.query(fillDay('app.track'), [new Date(day).toISOString(), everyS, 100_001, vehicles]);
  const loadPartitioned = performance.now() - started;
  started = performance.now();
  await big.query(fillDay('app.track_unpartitioned'), [new Date(day).toISOString(), everyS, 100_001, vehicles]);
  const loadFlat = performance.now() - started;
  const [{ n }] = await db.query<{ n: number }>('select count(*)::int as n from app.track where tm >= $1 and tm < $2', [
    new Date(day).toISOString(),
    new Date(day + DAY).toISOString(),
  ]);
  console.log(
    `a day of ${count(vehicles)} vehicles, a fix every ${everyS} s: ${count(n)} rows (loaded in ${seconds(loadPartitioned)} partitioned, ${seconds(loadFlat)} unpartitioned)`,
  );
  const before = { partitioned: await sizeOf(db, 'app.track'), unpartitioned: await sizeOf(db, 'app.track_unpartitioned') };

  // The retention sweep as it was (telemetry's purgeTrack): slices of 50,000 by ctid.
  started = performance.now();
  let deleted = 0;
  for (;;) {
    const [{ gone }] = await big.query<{ gone: number }>(
      `with gone as (delete from app.track_unpartitioned where ctid in (
         select ctid from app.track_unpartitioned where tm < $1 limit 50000) returning 1) select count(*)::int as gone from gone`,
      [new Date(day + DAY).toISOString()],
    );
    deleted += gone;
    if (gone < 50_000) break;
  }
  const deleteMs = performance.now() - started;
  // As if it were the day after the day passes the retention: that day, and only that day, goes (the coming
  // days of that time made first, so the pass timed is the drop's).
  const then = day + DAY + retention * DAY + 60_000;
  await db.query("select app.ensure_day_partitions('app.track', $1::date, $1::date + 3)", [new Date(then).toISOString().slice(0, 10)]);
  started = performance.now();
  const outcome = await partitions.maintain(then);
  const dropMs = performance.now() - started;
  const [{ left }] = await db.query<{ left: number }>('select count(*)::int as left from app.track');
  console.log(
    `retention of that day: maintenance pass dropping ${outcome.dropped.join(', ')} ${seconds(dropMs)}; DELETE of the same ${count(deleted)} rows ${seconds(deleteMs)} (${Math.round(deleteMs / dropMs)}×); rows left in the partitioned table ${count(left)}`,
  );
  console.log(
    `  size before → after: partitioned ${before.partitioned} → ${await sizeOf(db, 'app.track')}, unpartitioned ${before.unpartitioned} → ${await sizeOf(db, 'app.track_unpartitioned')} (the deleted rows' room is reused only after a vacuum, never given back)`,
  );
}

/** PostgreSQL: how long a writer waits while a day is dropped under a long reader. */
async function dropUnderReader(db: Db, partitions: DayPartitions, now: number): Promise<void> {
  const retention = 30;
  const waits = async (drop: () => Promise<unknown>) => {
    let readerEnded = 0;
    const reader = db
      .transaction(async (tx) => {
        await tx.query('select count(*) from app.track');
        await tx.query('select pg_sleep(4)');
      })
      .then(() => {
        readerEnded = performance.now();
      });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const dropping = drop();
    await new Promise((resolve) => setTimeout(resolve, 100));
    const asked = performance.now();
    await db.query(`${insertInto('app.track')}`, [[1], [new Date().toISOString()], [59.9], [30.3], [0], [0], [true]]);
    const waited = performance.now() - asked;
    await dropping;
    await reader;
    return { waited, readerLeft: readerEnded - asked };
  };
  const victim = (daysAgo: number) => Math.floor(now / DAY) * DAY - daysAgo * DAY;
  const name = (ms: number) => `track_${new Date(ms).toISOString().slice(0, 10).replace(/-/g, '')}`;
  for (const d of [retention + 5, retention + 6]) {
    await db.query("select app.ensure_day_partitions('app.track', $1::date, $1::date)", [new Date(victim(d)).toISOString().slice(0, 10)]);
  }
  const kept = await waits(() => partitions.maintain(now + 60_000));
  const bare = await waits(() => db.withLimit(HOUR_LIMIT).query(`drop table app.${name(victim(retention + 5))}`));
  console.log(
    `a writer's insert while a reader holds the track 4 s and a day is dropped: ${Math.round(kept.waited)} ms with the maintenance (drop postponed, tried at the next pass); ${Math.round(bare.waited)} ms behind a bare DROP TABLE (the reader had ${Math.round(bare.readerLeft)} ms left)`,
  );
}

async function migration(): Promise<void> {
  const dir = process.env.BENCH_DATA_DIR;
  if (!dir) throw new Error('BENCH_DATA_DIR: a copy of an embedded data folder (DATA_DIR/pg) from before migration 135');
  const db = await openPglite(dir, undefined, { defaultMs: HOUR_LIMIT, longMs: HOUR_LIMIT });
  const applied = await db.query<{ name: string }>("select name from app.migration where name like '135%'");
  if (applied.length) throw new Error('migration 135 is applied in this folder already');
  const days = Number(process.env.BENCH_DAYS ?? 3);
  const vehicles = Number(process.env.BENCH_VEHICLES ?? 800);
  const everyS = Number(process.env.BENCH_EVERY_S ?? 6);
  const [{ first }] = await db.query<{ first: Date | null }>('select min(tm) as first from app.track');
  const firstDay = Math.floor((first ? new Date(first).getTime() : Date.now()) / DAY) * DAY;
  const [{ low }] = await db.query<{ low: number }>('select min(id)::int as low from mgt.vehicles');
  for (let d = days; d >= 1; d--) {
    const started = performance.now();
    await db.query(fillDay('app.track'), [new Date(firstDay - d * DAY).toISOString(), everyS, low, vehicles]);
    console.log(`filled ${new Date(firstDay - d * DAY).toISOString().slice(0, 10)} in ${seconds(performance.now() - started)}`);
  }
  await db.exec('checkpoint');
  const [{ n }] = await db.query<{ n: number }>('select count(*)::int as n from app.track');
  const size = (await db.query<{ size: string }>("select pg_size_pretty(pg_total_relation_size('app.track')) as size"))[0].size;
  const started = performance.now();
  const done = await migrate(db);
  const ms = performance.now() - started;
  const [{ parts }] = await db.query<{ parts: number }>(
    "select count(*)::int as parts from pg_inherits where inhparent = 'app.track'::regclass",
  );
  const [{ moved }] = await db.query<{ moved: number }>('select count(*)::int as moved from app.track');
  console.log(
    `migration ${done.join(', ')} on the embedded engine: ${count(n)} positions (${size}) moved into ${parts} partitions in ${seconds(ms)} (${count(Math.round(n / (ms / 1000)))} rows/s); rows after ${count(moved)}`,
  );
  await db.close();
}

async function main(): Promise<void> {
  console.log(
    `load average ${loadavg()
      .map((x) => x.toFixed(1))
      .join(' ')}`,
  );
  if (PART === 'migrate') return migration();
  const { db, done } = await openEngine();
  try {
    console.log(`engine: ${db.engine}`);
    await migrate(db);
    // The table as it was before migration 135, beside the partitioned one.
    await db.exec(`create table app.track_unpartitioned (like app.track including defaults, primary key (vehicle_id, tm));
      create index track_unpartitioned_tm_brin on app.track_unpartitioned using brin (tm)`);
    const partitions = new DayPartitions(db, { table: 'app.track', retentionDays: 30 }, silent);
    const now = Date.now();
    await partitions.maintain(now);
    await ingestion(db, partitions);
    await dropBesideDelete(db, partitions, now);
    if (db.engine === 'postgres') await dropUnderReader(db, partitions, now);
  } finally {
    await done();
  }
}

await main();
