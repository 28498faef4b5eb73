/**
 * Passenger-flow benchmark. PostgreSQL: one month at the scale of a large city — 1,500 vehicles,
 * 15,000,000 stop visits, 40,000,000 validations (times BENCH_SCALE) — then every passenger report through
 * HTTP for a day, a week and the month (p50/p95), the heaviest report's bare SQL beside its HTTP time, and the
 * validation import of a 5,000,000-row file (times BENCH_SCALE) streamed through HTTP with the server's memory
 * sampled. PGlite (BENCH_PGLITE=1, default): the demo's size (the test city with its 30 days of history).
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/tc_bench_passengers BENCH_SCALE=0.05 npx tsx scripts/bench/passengers.ts
 *   (BENCH_SCALE=1 is the full city; BENCH_KEEP=1 reuses a filled database; BENCH_REQUESTS per report and period, default 5;
 *   BENCH_REPORTS=0 measures the import only; BENCH_ONLY=correspondence times only the reports whose path holds it;
 *   BENCH_IMPORT_ROWS sets the import's rows)
 *
 * Targets on PostgreSQL: p95 under 1 s for the month and under 300 ms for a day; import ≥ 100,000 rows/s; memory bounded.
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import type { Db } from '../../src/server/db/types';
import { PASSENGER_REPORTS } from '../../src/shared/reports/passengers';
import { fillHistory } from '../../src/server/passengers/passengerHistory';
import { recreateDatabase, startDemoServer } from './benchServer';

const SCALE = Number(process.env.BENCH_SCALE ?? 0.05);
const VEHICLES = Math.max(20, Math.round(1500 * SCALE));
const VISITS = Math.round(15_000_000 * SCALE);
const VALIDATIONS = Math.round(40_000_000 * SCALE);
const IMPORT_ROWS = Number(process.env.BENCH_IMPORT_ROWS ?? Math.round(5_000_000 * SCALE));
const ROUTES = Math.max(10, Math.round(150 * Math.sqrt(SCALE)));
const STOPS = Math.max(200, Math.round(3000 * Math.sqrt(SCALE)));
const STOPS_PER_TRIP = 25;
const DAYS = 30;
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 5);
const PORT = Number(process.env.BENCH_PORT ?? 3312);
const FIRST_NUMBER = 800_000;

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const stats = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return { p50: Math.round(percentile(sorted, 50)), p95: Math.round(percentile(sorted, 95)), max: Math.round(sorted[sorted.length - 1]) };
};

/**
 * The bench's big tables: their secondary indexes are dropped for the fill and built again after (a sort is far faster
 * than 40,000,000 index inserts).
 */
const FILLED = ['stop_visit', 'fare_transaction', 'journey', 'od_day'];

/**
 * The bench city's month, generated in the database (rollup triggers off, rollups made once at the end). Each
 * vehicle runs one route; its validations are at the stops of its route and direction, and their journeys
 * alight one to ten stops further on, so the origin-destination pairs are those of a network (not a random
 * stop pair per journey).
 */
async function fill(db: Db): Promise<void> {
  const long = db.withLimit(6 * 3_600_000);
  const trips = Math.ceil(VISITS / STOPS_PER_TRIP);
  const step = (label: string, started: number) => console.log(`  ${label}: ${((performance.now() - started) / 1000).toFixed(1)} s`);
  let t = performance.now();
  await long.exec(
    'alter table pass.stop_visit disable trigger user; alter table pass.trip_performed disable trigger user; alter table pass.fare_transaction disable trigger user; alter table pass.journey disable trigger user; alter table pass.od_day disable trigger user',
  );
  const indexes = await long.query<{ name: string; definition: string }>(
    `select i.indexname as name, i.indexdef as definition from pg_indexes i
      where i.schemaname = 'pass' and i.tablename = any($1::text[])
        and not exists (select 1 from pg_constraint c where c.conname = i.indexname and c.connamespace = 'pass'::regnamespace)`,
    [FILLED],
  );
  for (const index of indexes) await long.exec(`drop index pass.${index.name}`);
  await long.query(
    `insert into mgt.routes (route_long_name, route_type, "MarshType_id", route_short_name, route_desc)
     select 'Стенд ' || g, '3', (select min(id) from mgt.marsh_type), 'Б' || g, '' from generate_series(1, $1::int) g`,
    [ROUTES],
  );
  await long.query(
    `insert into mgt.stops (stop_name, stop_lat, stop_lon) select 'Стенд-остановка ' || g, 59.8 + (g % 60) * 0.005, 30.1 + (g / 60) * 0.008 from generate_series(1, $1::int) g`,
    [STOPS],
  );
  await long.query(
    `insert into mgt.vehicles (depot_number, state_number, capacity_type_id)
     select $2::int + g, 'Б' || g, (select min(id) from mgt.capacity_type) + g % 4 from generate_series(0, $1::int - 1) g`,
    [VEHICLES, FIRST_NUMBER],
  );
  step('network and fleet', t);
  t = performance.now();
  // trips: vehicle g mod V on its route, each day from 05:00 every 40 minutes
  await long.query(
    `with v as (select array_agg(id order by id) ids from mgt.vehicles where depot_number >= $3),
          r as (select array_agg(route_id order by route_id) ids from mgt.routes where route_long_name like 'Стенд %')
     insert into pass.trip_performed (service_date, vehicle_id, route_id, direction, race_num, schedule_start, actual_start, actual_end, stops, km, counted)
     select current_date - 1 - (g % $2::int)::int, v.ids[1 + (g / $2::int) % cardinality(v.ids)], r.ids[1 + ((g / $2::int) % cardinality(v.ids)) % cardinality(r.ids)],
            (g / $2::int / cardinality(v.ids)) % 2, (g / $2::int / cardinality(v.ids))::int,
            (current_date - 1 - (g % $2::int)::int)::timestamp + interval '5 hours' + make_interval(mins => 40 * ((g / $2::int / cardinality(v.ids))::int)) - interval '3 hours',
            (current_date - 1 - (g % $2::int)::int)::timestamp + interval '5 hours' + make_interval(mins => 40 * ((g / $2::int / cardinality(v.ids))::int) + (g % 4)::int) - interval '3 hours',
            (current_date - 1 - (g % $2::int)::int)::timestamp + interval '5 hours' + make_interval(mins => 40 * ((g / $2::int / cardinality(v.ids))::int) + 38) - interval '3 hours',
            ${STOPS_PER_TRIP}, 12.5, g % 20 <> 0
       from generate_series(0::int8, $1::int8 - 1) g, v, r`,
    [trips, DAYS, FIRST_NUMBER],
  );
  step(`${trips.toLocaleString('en')} trips performed`, t);
  t = performance.now();
  // the stop of a route's direction at sequence s (direction 1 runs the other way)
  const routeStop = (route: string, direction: string, s: string) =>
    `(select min(stop_id) from mgt.stops) + ((${route} * 37 + (${s}) * (case when ${direction} = 0 then 1 else -1 end) + 1000 * ${STOPS}) % ${STOPS})`;
  await long.query(
    `insert into pass.stop_visit (trip_performed_id, service_date, vehicle_id, route_id, direction, stop_id, stop_sequence, arrival, departure,
       boardings, alightings, departure_load, km_to_next)
     select t.id, t.service_date, t.vehicle_id, t.route_id, t.direction, ${routeStop('t.route_id', 't.direction', 's')},
            s, t.actual_start + make_interval(secs => s * 90), t.actual_start + make_interval(secs => s * 90 + 30),
            case when s < ${STOPS_PER_TRIP} then (t.id * 7 + s * 3) % 9 else 0 end, case when s > 1 then (t.id * 5 + s * 11) % 8 else 0 end,
            (s * 7 + t.id % 13) % 60 - 2, case when s < ${STOPS_PER_TRIP} then 0.5 else 0 end
       from pass.trip_performed t, generate_series(1, ${STOPS_PER_TRIP}) s where t.counted`,
  );
  await long.query(`update pass.trip_performed t set boardings = s.b, alightings = s.a
    from (select trip_performed_id, sum(boardings)::int as b, sum(alightings)::int as a from pass.stop_visit group by 1) s where t.id = s.trip_performed_id`);
  step('stop visits', t);
  t = performance.now();
  const span = DAYS * 86_400;
  await long.query(
    `with v as (select array_agg(id order by id) ids from mgt.vehicles where depot_number >= $3),
          r as (select array_agg(route_id order by route_id) ids from mgt.routes where route_long_name like 'Стенд %'),
          tt as (select array_agg(ticket_type_id order by ticket_type_id) ids from cat.ticket_type)
     insert into pass.fare_transaction (tm, validator_id, vehicle_id, depot_number, route_id, direction, stop_id, ticket_type_id, card_token, source)
     -- the boarding stop hashed: residues of g would tie it to the route (g mod 600 fixed both)
     select current_date - make_interval(secs => (g * $2::float8 / $1::float8)::int + 1), 100000 + k, v.ids[1 + k], $3::int + k,
            route.id, (g % 2)::smallint, ${routeStop('route.id', '(g % 2)', `1 + abs(hashint8(g)) % ${STOPS_PER_TRIP - 1}`)},
            tt.ids[1 + (g * g) % cardinality(tt.ids)], 'C' || (g % greatest(1, $1::int8 / 3)), 'validator'
       from generate_series(0::int8, $1::int8 - 1) g, v, r, tt, lateral (select ((g * 31) % cardinality(v.ids))::int as k) k,
            lateral (select r.ids[1 + k.k % cardinality(r.ids)] as id) route`,
    [VALIDATIONS, span, FIRST_NUMBER],
  );
  step(`${VALIDATIONS.toLocaleString('en')} validations`, t);
  t = performance.now();
  // alighting 1–10 stops further along the route's direction (hashed: a residue of the id would tie it to the route and stop)
  await long.query(
    `insert into pass.journey (fare_transaction_id, service_date, card_token, board_tm, route_id, board_stop_id, alight_stop_id, next_route_id, transfer)
     select id, (tm + interval '3 hours')::date, card_token, tm, route_id, stop_id,
            (select min(stop_id) from mgt.stops) + ((stop_id - (select min(stop_id) from mgt.stops) + (1 + abs(hashint8(id)) % 10) * (case when direction = 0 then 1 else -1 end) + 1000 * ${STOPS}) % ${STOPS}),
            route_id + (id % 3), id % 5 = 0
       from pass.fare_transaction where source = 'validator'`,
  );
  step('journeys', t);
  t = performance.now();
  await long.exec('alter table pass.od_day enable trigger user');
  await long.query(`insert into pass.od_day (day, route_id, board_stop_id, alight_stop_id, journeys)
    select service_date, route_id, board_stop_id, alight_stop_id, count(*) from pass.journey group by 1, 2, 3, 4`);
  await long.query(
    `insert into pass.plan_hour (day, hour, route_id, trips, vehicles)
     select d, h, route_id, 3, 2 from generate_series(current_date - ${DAYS}, current_date - 1, interval '1 day') d, generate_series(5, 22) h,
            (select route_id from mgt.routes where route_long_name like 'Стенд %') r`,
  );
  step('daily origin-destination pairs and plan', t);
  t = performance.now();
  await long.exec(`set maintenance_work_mem = '1GB'; ${indexes.map((index) => `${index.definition};`).join(' ')}`);
  step(`${indexes.length} indexes built`, t);
  t = performance.now();
  await long.exec(
    'alter table pass.stop_visit enable trigger user; alter table pass.trip_performed enable trigger user; alter table pass.fare_transaction enable trigger user; alter table pass.journey enable trigger user',
  );
  await long.query('select pass.rebuild_rollups()');
  step('rollups', t);
  t = performance.now();
  await long.exec('vacuum analyze');
  step('vacuum analyze', t);
}

interface Timing {
  report: string;
  period: string;
  p50: number;
  p95: number;
  max: number;
  rows: number;
  refused?: string;
}

/**
 * Each report through HTTP with its defaults, then the cases a city's dispatcher narrows: the stop exchange by
 * route and hour (the whole network's month is 55,000 rows, paged in SQL) is also timed for ten routes. A
 * refusal (400 report_too_large of a summary over its cap) is recorded with its time, not thrown.
 */
async function timeReports(
  address: string,
  authorization: string,
  periods: Record<string, [Date, Date]>,
  tenRoutes: number[],
): Promise<Timing[]> {
  const headers = { authorization, 'x-timezone-offset': '180' };
  const timings: Timing[] = [];
  const cases = [
    ...PASSENGER_REPORTS.map((report) => ({ report, label: report.path, query: '' })),
    ...PASSENGER_REPORTS.filter((report) => report.path === '/passengers/turnstops/table').map((report) => ({
      report,
      label: `${report.path} (10 routes)`,
      query: `&route=${tenRoutes.join(',')}`,
    })),
  ];
  for (const { report, label: name, query } of cases) {
    if (process.env.BENCH_ONLY && !report.path.includes(process.env.BENCH_ONLY)) continue;
    const api = `/api/v1/reports${report.path}`;
    for (const [label, [from, to]] of Object.entries(periods)) {
      if (report.filters.some((f) => f.kind === 'period' && f.maxDays && (to.getTime() - from.getTime()) / 86_400_000 > f.maxDays))
        continue;
      const url = `${address}${api}?from=${from.toISOString()}&to=${to.toISOString()}${query}`;
      const times: number[] = [];
      let rows = 0;
      let refused: string | undefined;
      for (let i = 0; i < REQUESTS; i++) {
        const started = performance.now();
        const response = await fetch(url, { headers });
        const body = (await response.json()) as { count?: number; countExact?: boolean; messages?: string[] };
        if (response.status === 400 && body.messages?.[0] === 'report_too_large') refused = 'report_too_large';
        else if (response.status !== 200) throw new Error(`${api} ${label}: ${response.status} ${JSON.stringify(body).slice(0, 200)}`);
        times.push(performance.now() - started);
        rows = body.countExact === false ? -(body.count ?? 0) : (body.count ?? 0);
      }
      timings.push({ report: name, period: label, ...stats(times), rows, refused });
    }
  }
  return timings;
}

function printTimings(title: string, timings: Timing[]): void {
  console.log(`\n${title}`);
  console.log('report | period | p50 ms | p95 ms | max ms | rows');
  for (const t of timings)
    console.log(
      `${t.report} | ${t.period} | ${t.p50} | ${t.p95} | ${t.max} | ${t.refused ?? (t.rows < 0 ? `more than ${-t.rows}` : t.rows)}`,
    );
}

function periods(): Record<string, [Date, Date]> {
  const day = 86_400_000;
  const yesterday = new Date(Math.floor((Date.now() + 3 * 3600_000) / day) * day - 3 * 3600_000 - day);
  return {
    day: [yesterday, new Date(yesterday.getTime() + day - 1000)],
    week: [new Date(yesterday.getTime() - 6 * day), new Date(yesterday.getTime() + day - 1000)],
    month: [new Date(yesterday.getTime() - (DAYS - 1) * day), new Date(yesterday.getTime() + day - 1000)],
  };
}

/**
 * A validation file of `rows` rows written to disk before the upload, so that the server's time and memory are
 * measured without the file's generator in the same process (times are new on each run: the rows are added).
 */
async function validationFile(rows: number, depotNumbers: number[], ticket: string): Promise<string> {
  const path = join(tmpdir(), `bench-validations-${process.pid}.csv`);
  const base = Date.now() - 3 * 86_400_000; // 5,000,000 rows 37 ms apart span 2.1 days: all in the past
  let i = 0;
  await pipeline(
    Readable.from(
      (function* lines() {
        yield 'time;validator;depot_number;route;ticket_type;card_token\n';
        while (i < rows) {
          const chunk: string[] = [];
          for (let n = 0; n < 5000 && i < rows; n++, i++) {
            chunk.push(
              `${new Date(base + i * 37).toISOString()};${200000 + (i % 997)};${depotNumbers[i % depotNumbers.length]};;${ticket};IMP${i}\n`,
            );
          }
          yield chunk.join('');
        }
      })(),
    ),
    createWriteStream(path),
  );
  return path;
}

async function benchImport(address: string, authorization: string, db: Db): Promise<void> {
  const depots = (await db.query<{ depot_number: number }>('select depot_number from mgt.vehicles order by id limit 200')).map(
    (r) => r.depot_number,
  );
  const [{ code }] = await db.query<{ code: string }>(
    'select ticket_type_code as code from cat.ticket_type order by ticket_type_id limit 1',
  );
  const path = await validationFile(IMPORT_ROWS, depots, code);
  const { size } = await stat(path);
  let peak = process.memoryUsage().rss;
  const start = process.memoryUsage().rss;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 200);
  try {
    const started = performance.now();
    const response = await fetch(`${address}/api/v1/passengers/validations/import?file=bench.csv`, {
      method: 'POST',
      headers: { authorization, 'content-type': 'text/csv' },
      body: Readable.toWeb(createReadStream(path)) as ReadableStream,
      duplex: 'half',
    } as RequestInit & { duplex: 'half' });
    const body = (await response.json()) as { added?: number; rows?: number };
    const seconds = (performance.now() - started) / 1000;
    console.log(
      `\nimport of ${IMPORT_ROWS.toLocaleString('en')} rows (${Math.round(size / 1e6)} MB): HTTP ${response.status}, ${JSON.stringify({ rows: body.rows, added: body.added })}, ` +
        `${seconds.toFixed(1)} s = ${Math.round(IMPORT_ROWS / seconds).toLocaleString('en')} rows/s; server process RSS ${Math.round(start / 1e6)} → peak ${Math.round(peak / 1e6)} MB (load ${loadavg()[0].toFixed(1)})`,
    );
  } finally {
    clearInterval(sampler);
    await unlink(path);
  }
}

async function benchPostgres(): Promise<void> {
  const keep = process.env.BENCH_KEEP === '1';
  if (!keep) await recreateDatabase(process.env.DATABASE_URL!);
  const { app, db, address, authorization } = await startDemoServer(PORT);
  try {
    const [{ visits }] = await db.query<{ visits: number }>('select count(*)::int as visits from pass.stop_visit');
    if (!keep || visits === 0) {
      console.log(
        `filling: scale ${SCALE}: ${VEHICLES} vehicles, ${ROUTES} routes, ${STOPS} stops, ~${VISITS.toLocaleString('en')} stop visits, ${VALIDATIONS.toLocaleString('en')} validations`,
      );
      const started = performance.now();
      await fill(db);
      console.log(`filled in ${((performance.now() - started) / 1000).toFixed(0)} s`);
    }
    const tenRoutes = (
      await db.query<{ route_id: number }>(
        `select route_id from mgt.routes where route_long_name like 'Стенд %' order by route_id limit 10`,
      )
    ).map((r) => r.route_id);
    const timings = process.env.BENCH_REPORTS === '0' ? [] : await timeReports(address, authorization, periods(), tenRoutes);
    printTimings(`PostgreSQL, scale ${SCALE} (load ${loadavg()[0].toFixed(1)} on ${cpus().length} cores)`, timings);
    const heaviest = timings.filter((t) => t.period === 'month' && !t.refused && !t.report.includes(' ')).sort((a, b) => b.p95 - a.p95)[0];
    if (heaviest) {
      const { source } = (await import('../../src/server/passengers/passengerReports')).PASSENGER_SOURCES.find(
        (b) => b.report.path === heaviest.report,
      )!;
      const [from, to] = periods().month;
      const sql = source.select(
        { from: from.toISOString(), to: to.toISOString(), step: 'day', group: 'route', view: 'stops', direction: '0', peak: 'all' },
        { switches: await app.settings.switches(), offsetMinutes: 180, userId: 1 },
      );
      const times: number[] = [];
      for (let i = 0; i < REQUESTS; i++) {
        const started = performance.now();
        await db.longRunning().query(`select * from (${sql.text}) r limit 50001`, sql.params);
        times.push(performance.now() - started);
      }
      const bare = stats(times);
      console.log(
        `heaviest report ${heaviest.report} (month): HTTP p95 ${heaviest.p95} ms, bare SQL p95 ${bare.p95} ms, ratio ${(heaviest.p95 / Math.max(1, bare.p95)).toFixed(2)}`,
      );
    }
    await benchImport(address, authorization, db);
  } finally {
    await app.close();
    await db.close();
  }
}

async function benchPglite(): Promise<void> {
  const saved = process.env.DATABASE_URL;
  delete process.env.DATABASE_URL;
  const { app, db, address, authorization } = await startDemoServer(PORT + 1);
  try {
    const history = await fillHistory(db, { detailDays: DAYS, tzOffsetMinutes: 180, maxWalkMeters: 600, transferMinutes: 60 });
    console.log(
      `\nPGlite, demo size (test city): history of ${history.days} days: ${history.trips} trips, ${history.validations} validations in ${(history.ms / 1000).toFixed(1)} s ${JSON.stringify(history.phases)}`,
    );
    const tenRoutes = (await db.query<{ route_id: number }>('select route_id from mgt.routes order by route_id limit 10')).map(
      (r) => r.route_id,
    );
    printTimings(`PGlite, demo size (load ${loadavg()[0].toFixed(1)})`, await timeReports(address, authorization, periods(), tenRoutes));
  } finally {
    await app.close();
    await db.close();
    if (saved) process.env.DATABASE_URL = saved;
  }
}

async function main(): Promise<void> {
  process.env.SIMULATOR = 'false';
  process.env.EGTS_PORT = '0';
  if (process.env.DATABASE_URL) await benchPostgres();
  else console.log('DATABASE_URL not set: the PostgreSQL part is skipped');
  if (process.env.BENCH_PGLITE !== '0') await benchPglite();
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
