/**
 * ADAS benchmark: 5,000,000 incidents over a year for 5,000 vehicles (on 200 routes, with a year of
 * their work in adas.route_work), then every ADAS report screen and every field-app call through HTTP over the
 * last 30 days and over 365 days; then HTTP ingestion at 1,000 incidents a second (10 batches of 100 a second)
 * with the acknowledgement times.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/bench_adas npx tsx scripts/bench/adas.ts   # database re-created
 *   (BENCH_KEEP=1 reuses a filled one; BENCH_REQUESTS per call and period, default 10; BENCH_INGEST_SECONDS, default 20)
 *
 * Targets on PostgreSQL: p95 < 300 ms over 30 days, < 1 s over 365 days; ingestion p95 acknowledgement < 100 ms.
 */
import { cpus, loadavg } from 'node:os';
import type { Db } from '../../src/server/db/types';
import { createSource } from '../../src/server/telemetry/http/sourceKeys';
import { recreateDatabase, startDemoServer } from './benchServer';

const ROWS = Number(process.env.BENCH_ROWS ?? 5_000_000);
const VEHICLES = 5000;
const ROUTES = 200;
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 10);
const INGEST_SECONDS = Number(process.env.BENCH_INGEST_SECONDS ?? 20);
const PORT = Number(process.env.BENCH_PORT ?? 3305);
const DAY_MS = 86_400_000;
const FIRST_NUMBER = 700_000;

/** The bench's fleet and network, a year of their work, and ROWS incidents, one every year/ROWS seconds up to now. */
async function fill(db: Db): Promise<void> {
  const long = db.withLimit(3_600_000);
  await long.exec('truncate adas.incident_event, adas.route_work');
  // filled without the rollup triggers (one statement of 5,000,000 rows), then the rollups are made once
  await long.exec('alter table adas.incident_event disable trigger user; alter table adas.route_work disable trigger user');
  await long.query(
    `insert into mgt.routes (route_long_name, route_type, "MarshType_id", route_short_name, route_desc)
     select 'Стенд ' || g, '3', (select min(id) from mgt.marsh_type), 'С' || g, '' from generate_series(1, $1::int) g`,
    [ROUTES],
  );
  await long.query(
    `insert into mgt.vehicles (depot_number, state_number, depot_id)
     select $2::int + g, 'С' || g, (select array_agg(depot_id order by depot_id) from mgt.depot)[1 + g % (select count(*)::int from mgt.depot)]
       from generate_series(0, $1::int - 1) g`,
    [VEHICLES, FIRST_NUMBER],
  );
  // each bench vehicle works one bench route: vehicle i on route i mod ROUTES
  await long.query(
    `with v as (select array_agg(id order by id) ids from mgt.vehicles where depot_number >= $1),
          r as (select array_agg(route_id order by route_id) ids from mgt.routes where route_long_name like 'Стенд %')
     insert into adas.route_work (day, vehicle_id, route_id, trips, km)
     select current_date - d, v.ids[1 + i], r.ids[1 + i % cardinality(r.ids)], 8 + (i + d) % 5, 120 + (i * 7 + d) % 90
       from v, r, generate_series(0, cardinality(v.ids) - 1) i, generate_series(0, 365) d`,
    [FIRST_NUMBER],
  );
  const step = (365 * 86_400) / ROWS;
  await long.query(
    `with v as (select array_agg(id order by id) ids from mgt.vehicles where depot_number >= $3),
          r as (select array_agg(route_id order by route_id) ids from mgt.routes where route_long_name like 'Стенд %'),
          t as (select array_agg(distinct incident_type) a from adas.incident_type)
     insert into adas.incident_event (tm, vehicle_id, depot_number, incident_type, speed, lat, lon, grade, route_id, review)
     select now() - make_interval(secs => g * $2::float8), v.ids[1 + k], $3::int + k,
            t.a[1 + (g * g + g) % cardinality(t.a)], (g % 90)::real, 59.9 + (g % 1000) / 10000.0, 30.3 + (g % 777) / 10000.0,
            1 + g % 3, r.ids[1 + k % cardinality(r.ids)],
            case when g % 10 = 0 then 'false_alarm' when g % 10 = 1 then 'confirmed' end
       from generate_series(0::int8, $1::int8 - 1) g, v, r, t, lateral (select ((g * 31) % cardinality(v.ids))::int as k) k`,
    [ROWS, step, FIRST_NUMBER],
  );
  await long.exec('alter table adas.incident_event enable trigger user; alter table adas.route_work enable trigger user');
  await long.query('select adas.rebuild_rollups()');
  for (const table of ['incident_event', 'route_work', 'incident_day', 'vehicle_day', 'route_day'])
    await long.exec(`vacuum analyze adas.${table}`);
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const stats = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p95: percentile(sorted, 95), p99: percentile(sorted, 99), max: sorted[sorted.length - 1] };
};

async function main(): Promise<void> {
  process.env.SIMULATOR = 'false';
  process.env.EGTS_PORT = '0';
  if (!process.env.DATABASE_URL) throw new Error("set DATABASE_URL (the targets are PostgreSQL's)");
  const keep = process.env.BENCH_KEEP === '1';
  if (!keep) await recreateDatabase(process.env.DATABASE_URL);
  const { app, db, address, authorization } = await startDemoServer(PORT);
  const headers = { authorization, 'x-timezone-offset': '180', 'content-type': 'application/json' };

  const [{ present }] = await db.query<{ present: number }>('select count(*)::int as present from adas.incident_event');
  let started = performance.now();
  if (!keep || present < ROWS) {
    console.log(`filling ${ROWS.toLocaleString('en')} incidents over a year for ${VEHICLES} vehicles on ${ROUTES} routes...`);
    await fill(db);
  }
  console.log(`ready in ${((performance.now() - started) / 1000).toFixed(1)} s`);

  // whole days of the client (+03:00), as the console's presets ask: the last 30 and the last 365 days
  const today = new Date(Date.now() + 3 * 3_600_000).toISOString().slice(0, 10);
  const period = (days: number) => ({
    from: new Date(Date.parse(`${today}T00:00:00+03:00`) - (days - 1) * DAY_MS).toISOString(),
    to: new Date(Date.parse(`${today}T23:59:59+03:00`)).toISOString(),
  });
  const calls: { name: string; run: (p: { from: string; to: string }) => Promise<Response> }[] = [
    ...['incidents-dynamic', 'incidents-distribution', 'incidents-detailing'].map((report) => ({
      name: `GET /adas/${report}`,
      run: (p: { from: string; to: string }) => fetch(`${address}/api/v1/reports/adas/${report}?${new URLSearchParams(p)}`, { headers }),
    })),
    { name: 'GET incidents-types', run: () => fetch(`${address}/api/v1/adas/incidents-types`, { headers }) },
    ...[
      'quantity-and-dynamics-incidents-report',
      'incidents-route-distribution-pie-chart',
      'incidents-route-distribution-report',
      'vehicle-list',
      'vehicle-on-route-list',
      'vehicle-incidents-detail-table',
      'incidents-journal',
    ].map((call) => ({
      name: `POST ${call}`,
      run: (p: { from: string; to: string }) =>
        fetch(`${address}/api/v1/adas/${call}`, { method: 'POST', headers, body: JSON.stringify(p) }),
    })),
  ];
  const table: string[] = [];
  for (const days of REQUESTS > 0 ? [30, 365] : []) {
    const p = period(days);
    const [{ n }] = await db.query<{ n: number }>('select count(*)::int as n from adas.incident_event where tm between $1 and $2', [
      p.from,
      p.to,
    ]);
    console.log(`\n${days} days: ${n.toLocaleString('en')} incidents; ${REQUESTS} requests per call after one warm-up`);
    for (const call of calls) {
      const times: number[] = [];
      for (let i = 0; i <= REQUESTS; i++) {
        const t0 = performance.now();
        const response = await call.run(p);
        const body = await response.text();
        if (response.status !== 200) throw new Error(`${call.name}: ${response.status} ${body.slice(0, 200)}`);
        if (i > 0) times.push(performance.now() - t0);
      }
      const s = stats(times);
      const line = `${String(days).padStart(3)} d  ${call.name.padEnd(52)} p50 ${s.p50.toFixed(0).padStart(5)} ms  p95 ${s.p95.toFixed(0).padStart(5)} ms`;
      console.log(line);
      table.push(line);
    }
  }

  // ingestion: 10 batches of 100 incidents a second, each sent on time whatever the previous answers
  const { key } = await createSource(db, `Стенд ИСПВ ${Date.now()}`, null);
  const types = (await db.query<{ t: number }>('select distinct incident_type as t from adas.incident_type order by 1')).map((r) => r.t);
  const acks: number[] = [];
  let sent = 0;
  let accepted = 0;
  let failures = 0;
  const pending: Promise<void>[] = [];
  started = performance.now();
  for (let batch = 0; batch < INGEST_SECONDS * 10; batch++) {
    const due = started + batch * 100;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const now = Date.now();
    const incidents = Array.from({ length: 100 }, (_, i) => {
      const n = sent + i;
      return {
        depot_number: FIRST_NUMBER + (n % VEHICLES),
        incident_type: types[n % types.length],
        tm: now - 1000 - (n % 7),
        speed: 30 + (n % 40),
        lat: 59.93,
        lon: 30.31,
        grade: n % 50 === 0 ? 3 : 1,
      };
    });
    sent += incidents.length;
    const t0 = performance.now();
    pending.push(
      fetch(`${address}/api/v1/telemetry/incidents`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-telemetry-key': key },
        body: JSON.stringify({ incidents }),
      }).then(async (response) => {
        const body = (await response.json()) as { accepted?: number };
        acks.push(performance.now() - t0);
        if (response.status === 200) accepted += body.accepted ?? 0;
        else failures += 1;
      }),
    );
  }
  await Promise.all(pending);
  const seconds = (performance.now() - started) / 1000;
  const s = stats(acks);
  const ingest =
    `ingestion: ${sent.toLocaleString('en')} incidents in ${acks.length} batches of 100 over ${seconds.toFixed(1)} s (${Math.round(sent / seconds)}/s), ` +
    `${accepted.toLocaleString('en')} stored, ${failures} failed; acknowledgement p50 ${s.p50.toFixed(0)} ms, p95 ${s.p95.toFixed(0)} ms, p99 ${s.p99.toFixed(0)} ms, max ${s.max.toFixed(0)} ms`;
  console.log(`\n${ingest}`);
  console.log(
    `machine load average ${loadavg()
      .map((x) => x.toFixed(1))
      .join(' ')} on ${cpus().length} CPUs`,
  );
  await app.close();
  await db.close();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
