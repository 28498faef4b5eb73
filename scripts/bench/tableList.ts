/**
 * Handbook list benchmark: mgt.rasp_time filled with 1,000,000 rows, then 200 POST /api/table/list requests
 * mixing filters and sorts through the real HTTP server (app.listen on loopback, fetch), printing p50/p95.
 *
 *   npx tsx scripts/bench/tableList.ts                      # embedded PGlite, in memory
 *   DATABASE_URL=postgres://... npx tsx scripts/bench/tableList.ts   # a SCRATCH database: rasp_time is replaced
 *
 * Target on PostgreSQL: p95 < 50 ms.
 */
import { cpus, loadavg } from 'node:os';
import { buildApp } from '../../src/server/app';
import { loadConfig } from '../../src/server/config';
import { openDatabase } from '../../src/server/db/open';
import type { Db } from '../../src/server/db/types';

export const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 200);

/** Fills mgt.rasp_time with `rows` schedule times over the existing variants and stops, set-based. */
export async function fillRaspTime(database: Db, rows: number): Promise<void> {
  const db = database.longRunning(); // a million rows take longer than a request's query limit
  await db.exec('truncate mgt.rasp_time');
  await db.query(
    `with v as (select array_agg(id order by id) a from mgt.rasp_variant), s as (select array_agg(stop_id order by stop_id) a from mgt.stops)
     insert into mgt.rasp_time ("RaspVariant_id", graph, smena, racetype, racenum, "order", stop_id, time)
     select v.a[1 + (g / 2000) % cardinality(v.a)], 1 + (g / 200) % 30, (1 + (g / 100) % 2)::text,
            case when (g / 20) % 2 = 0 then 'AB' else 'BA' end, 1 + (g / 20) % 10, 1 + g % 20,
            s.a[1 + (g::int8 * 7919) % cardinality(s.a)], 300 + (g::int8 * 37) % 1140
       from generate_series(0, $1::int - 1) g, v, s`,
    [rows],
  );
  // What autovacuum does soon after a bulk load: statistics, and the visibility map index-only scans need.
  await db.exec('vacuum analyze mgt.rasp_time');
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

export async function startBenchServer() {
  // Only the handbook service is measured: no demo fleet driving, no terminal listener.
  process.env.SIMULATOR ??= 'false';
  process.env.EGTS_ENABLED ??= 'false';
  const config = {
    ...loadConfig(),
    dataDir: undefined,
    staticDir: undefined,
    logLevel: process.env.LOG_LEVEL ?? 'warn',
    demoData: true,
    demoScale: 'test' as const,
  };
  const db = await openDatabase(config);
  const app = await buildApp(config, { db, seedDemo: true });
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  const login = await fetch(`${address}/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: 'admin123' }),
  });
  const { token } = (await login.json()) as { token: string };
  return { app, db, address, auth: `Bearer ${token}` };
}

async function main(): Promise<void> {
  const { app, db, address, auth } = await startBenchServer();
  console.log(`engine ${db.engine}; filling mgt.rasp_time with ${ROWS.toLocaleString('en')} rows...`);
  let started = performance.now();
  await fillRaspTime(db, ROWS);
  console.log(`filled in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  const [{ variant, stop }] = await db.query<{ variant: number; stop: number }>(
    'select (select "RaspVariant_id" from mgt.rasp_time limit 1) as variant, (select stop_id from mgt.rasp_time limit 1) as stop',
  );

  // The mix a dispatcher produces: first page, filters by variant, stop and time, other sorts, later pages.
  const shapes: { name: string; body: Record<string, unknown> }[] = [
    { name: 'default page (id desc)', body: {} },
    { name: 'page 50', body: { page: 50 } },
    { name: 'variant filter', body: { filters: { RaspVariant_id: variant } } },
    {
      name: 'variant + exit, sort by time',
      body: { filters: { RaspVariant_id: variant, graph: 3 }, sort: { field: 'time', order: 'ASC' } },
    },
    { name: 'stop filter, sort by time', body: { filters: { stop_id: [stop] }, sort: { field: 'time', order: 'ASC' } } },
    { name: 'time range 07:00-07:30', body: { filters: { time: { from: '07:00', to: '07:30' } } } },
    { name: 'sort by time desc', body: { sort: { field: 'time', order: 'DESC' } } },
    { name: 'sort by graph', body: { sort: { field: 'graph', order: 'ASC' } } },
    { name: 'sort by stop', body: { sort: { field: 'stop_id', order: 'ASC' } } },
    { name: 'shift exact + sort by racenum', body: { filters: { smena: ['2'] }, sort: { field: 'racenum', order: 'DESC' } } },
  ];
  const timings = new Map<string, number[]>(shapes.map((shape) => [shape.name, []]));
  const all: number[] = [];
  // Warm-up: one of each, not counted.
  for (const shape of shapes) await list(address, auth, shape.body);
  started = performance.now();
  for (let i = 0; i < REQUESTS; i++) {
    const shape = shapes[i % shapes.length];
    const t0 = performance.now();
    const count = await list(address, auth, shape.body);
    const ms = performance.now() - t0;
    if (i < shapes.length) console.log(`  ${shape.name}: count ${count}`);
    timings.get(shape.name)!.push(ms);
    all.push(ms);
  }
  all.sort((a, b) => a - b);
  console.log(`\n${REQUESTS} list requests over ${ROWS.toLocaleString('en')} rows on ${db.engine}:`);
  console.log(
    `  p50 ${percentile(all, 50).toFixed(1)} ms, p95 ${percentile(all, 95).toFixed(1)} ms, max ${all[all.length - 1].toFixed(1)} ms, total ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  for (const [name, values] of timings) {
    values.sort((a, b) => a - b);
    console.log(
      `  ${name.padEnd(34)} p50 ${percentile(values, 50).toFixed(1).padStart(7)} ms   p95 ${percentile(values, 95).toFixed(1).padStart(7)} ms`,
    );
  }
  console.log(
    `  server RSS ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MB; machine load average ${loadavg()
      .map((n) => n.toFixed(1))
      .join(' ')} on ${cpus().length} CPUs`,
  );
  await app.close();
  await db.close();
}

async function list(address: string, auth: string, body: Record<string, unknown>): Promise<number> {
  const response = await fetch(`${address}/api/table/list`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: auth },
    body: JSON.stringify({ config: { type: 'rasptimes' }, ...body }),
  });
  if (response.status !== 200) throw new Error(`list ${response.status}: ${await response.text()}`);
  return ((await response.json()) as { count: number }).count;
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop()!)) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
