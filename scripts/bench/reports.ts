/**
 * Report benchmark: adas.incident_event filled with 5,000,000 incidents over a year (generate_series), then
 * /adas/incidents-dynamic grouped by day and type for the last 30 days through the HTTP API, against the
 * same SQL run directly (pg on PostgreSQL, the engine itself on PGlite) in the same run; then the XLSX
 * export of 100,000 rows of /journal/adas: rows/s and the server's RSS growth while it streams.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/tc_bench_reports node --expose-gc --import tsx
 * scripts/bench/reports.ts   # database re-created
 *   (a name outside TEST_DB_PREFIX, e.g. not tc_reports_…: the API tests drop those databases when they start)
 *   BENCH_ROWS=1000000 npx tsx scripts/bench/reports.ts                                                  # embedded PGlite
 *
 * Targets on PostgreSQL: p95 < 300 ms, the API within 1.3× of the raw query; the export under 100 MB of
 * RSS growth at 20,000 rows/s or more. BENCH_PORT (default 3304) is the server's port.
 */
import { cpus, loadavg } from 'node:os';
import pg from 'pg';
import type { Db } from '../../src/server/db/types';
import { ADAS_SOURCES } from '../../src/server/adas/incidentReports';
import { orderBy, reportSort, wrap } from '../../src/server/reports/reportQuery';
import { SUMMARY_MAX_ROWS } from '../../src/server/reports/reportsRoutes';
import { parseReportFilters } from '../../src/shared/reports/filters';
import { defaultSwitches } from '../../src/shared/modules';
import { recreateDatabase, startDemoServer } from './benchServer';

const ROWS = Number(process.env.BENCH_ROWS ?? 5_000_000);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 40);
const EXPORT_ROWS = Number(process.env.BENCH_EXPORT_ROWS ?? 100_000);
const PORT = Number(process.env.BENCH_PORT ?? 3304);
const DAY_MS = 86_400_000;

/** ROWS incidents, one every year/ROWS seconds up to now, over the demo's vehicles, types and routes. */
async function fillIncidents(db: Db, rows: number): Promise<void> {
  await db.exec('truncate adas.incident_event');
  // one statement of millions of rows without the rollup triggers, then the rollups made once
  await db.exec('alter table adas.incident_event disable trigger user');
  const step = (365 * 86_400) / rows;
  await db.query(
    `with v as (select array_agg(id order by id) ids, array_agg(depot_number order by id) numbers from mgt.vehicles),
          t as (select array_agg(incident_type order by id) a from adas.incident_type),
          r as (select array_agg(route_id order by route_id) a from mgt.routes)
     insert into adas.incident_event (tm, vehicle_id, depot_number, incident_type, speed, lat, lon, grade, route_id)
     select now() - make_interval(secs => g * $2::float8), v.ids[1 + (g * 31) % cardinality(v.ids)], v.numbers[1 + (g * 31) % cardinality(v.ids)],
            t.a[1 + (g * g + g) % cardinality(t.a)], (g % 90)::real, 59.9 + (g % 1000) / 10000.0, 30.3 + (g % 777) / 10000.0,
            1 + g % 3, r.a[1 + (g * 17) % cardinality(r.a)]
       from generate_series(0::int8, $1::int8 - 1) g, v, t, r`,
    [rows, step],
  );
  await db.exec('alter table adas.incident_event enable trigger user');
  await db.query('select adas.rebuild_rollups()');
  await db.exec('vacuum analyze adas.incident_event');
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const summary = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p95: percentile(sorted, 95) };
};

async function main(): Promise<void> {
  process.env.SIMULATOR = 'false';
  process.env.EGTS_PORT = '0';
  // BENCH_KEEP=1 reuses a database an earlier run filled (migrations still apply)
  const keep = process.env.BENCH_KEEP === '1';
  if (process.env.DATABASE_URL && !keep) await recreateDatabase(process.env.DATABASE_URL);
  const { app, db, address, authorization } = await startDemoServer(PORT);
  const headers = { authorization, 'x-timezone-offset': '180' };

  console.log(`engine ${db.engine}; filling adas.incident_event with ${ROWS.toLocaleString('en')} incidents over a year...`);
  let started = performance.now();
  const [{ present }] = await db.query<{ present: number }>('select count(*)::int as present from adas.incident_event');
  if (keep && present >= ROWS) await db.exec('vacuum analyze adas.incident_event');
  else await fillIncidents(db.longRunning(), ROWS);
  console.log(`ready in ${((performance.now() - started) / 1000).toFixed(1)} s`);

  // The report: the last 30 days by day and type, as the console asks for it.
  const to = new Date();
  const from = new Date(to.getTime() - 30 * DAY_MS);
  const query = new URLSearchParams({ from: from.toISOString(), to: to.toISOString(), step: 'day' });
  const [{ report, source }] = ADAS_SOURCES;
  const parsed = parseReportFilters(report, Object.fromEntries(query));
  if (!parsed.ok) throw new Error('bad filters');
  const sql = source.select(parsed.values, { switches: defaultSwitches(), offsetMinutes: 180, userId: 0 });
  const rawText = `select * from ${wrap(sql)} ${orderBy(report, source, reportSort(report, source, undefined, undefined))} limit ${SUMMARY_MAX_ROWS + 1}`;
  const direct = db.engine === 'postgres' ? new pg.Client({ connectionString: process.env.DATABASE_URL }) : undefined;
  await direct?.connect();
  // the same SQL under the same settings as the API's (reportQuery: no JIT)
  await direct?.query('set jit = off');
  const raw = async () => (direct ? (await direct.query(rawText, sql.params)).rows : await db.query(rawText, sql.params));
  const api = async () => {
    const response = await fetch(`${address}/api/v1/reports/adas/incidents-dynamic?${query}`, { headers });
    if (response.status !== 200) throw new Error(`report ${response.status}: ${await response.text()}`);
    return (await response.json()) as { count: number; totals: { count: number } };
  };
  const [{ n }] = await db.query<{ n: number }>('select count(*)::int as n from adas.incident_event where tm >= $1 and tm <= $2', [
    from,
    to,
  ]);
  const first = await api();
  console.log(
    `report: ${first.count} rows (days × types) over ${first.totals.count.toLocaleString('en')} incidents of the 30 days (${n.toLocaleString('en')} in the table's range)`,
  );
  const apiTimes: number[] = [];
  const rawTimes: number[] = [];
  for (let i = 0; i < 3; i++) {
    await api();
    await raw();
  }
  for (let i = 0; i < REQUESTS; i++) {
    let t0 = performance.now();
    await raw();
    rawTimes.push(performance.now() - t0);
    t0 = performance.now();
    await api();
    apiTimes.push(performance.now() - t0);
  }
  const a = summary(apiTimes);
  const r = summary(rawTimes);
  console.log(`\n/adas/incidents-dynamic, 30 days by day and type, ${REQUESTS} requests each, interleaved, on ${db.engine}:`);
  console.log(`  API  p50 ${a.p50.toFixed(1)} ms, p95 ${a.p95.toFixed(1)} ms`);
  console.log(`  raw  p50 ${r.p50.toFixed(1)} ms, p95 ${r.p95.toFixed(1)} ms`);
  console.log(`  API / raw: p50 ${(a.p50 / r.p50).toFixed(2)}×, p95 ${(a.p95 / r.p95).toFixed(2)}×`);

  // XLSX export of EXPORT_ROWS incidents of /journal/adas: the period that holds exactly that many.
  const [{ tm }] = await db.query<{ tm: string }>('select tm::text as tm from adas.incident_event order by tm desc offset $1 limit 1', [
    EXPORT_ROWS - 1,
  ]);
  const exportQuery = new URLSearchParams({ from: new Date(tm).toISOString(), format: 'xlsx' });
  const [{ selected }] = await db.query<{ selected: number }>('select count(*)::int as selected from adas.incident_event where tm >= $1', [
    new Date(tm).toISOString(),
  ]);
  global.gc?.();
  const rssBefore = process.memoryUsage().rss;
  let rssPeak = rssBefore;
  const sampler = setInterval(() => {
    rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
  }, 20);
  started = performance.now();
  const response = await fetch(`${address}/api/v1/journals/adas/export?${exportQuery}`, { headers });
  if (response.status !== 200 || !response.body) throw new Error(`export ${response.status}`);
  let bytes = 0;
  const reader = response.body.getReader();
  for (let part = await reader.read(); !part.done; part = await reader.read()) bytes += part.value.byteLength;
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  console.log(
    `\nXLSX export of /journal/adas, ${selected.toLocaleString('en')} rows: ${seconds.toFixed(1)} s, ${Math.round(selected / seconds).toLocaleString('en')} rows/s, ${(bytes / 2 ** 20).toFixed(1)} MB;` +
      ` RSS ${(rssBefore / 2 ** 20).toFixed(0)} → peak ${(rssPeak / 2 ** 20).toFixed(0)} MB (+${((rssPeak - rssBefore) / 2 ** 20).toFixed(0)} MB, server and this client in one process)`,
  );
  console.log(
    `machine load average ${loadavg()
      .map((x) => x.toFixed(1))
      .join(' ')} on ${cpus().length} CPUs`,
  );
  await direct?.end();
  await app.close();
  await db.close();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
