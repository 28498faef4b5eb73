// /vehicle-work-data at scale: 1,500 vehicles × 30 days of rollup rows, the report's list (page, count,
// totals) timed through the real route.
//
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/tc_bench_mnt_wd npx tsx scripts/bench/vehicleWorkData.ts
//   BENCH_VEHICLES=300 npx tsx scripts/bench/vehicleWorkData.ts     # embedded PGlite
import { recreateDatabase, startDemoServer } from './benchServer';

const VEHICLES = Number(process.env.BENCH_VEHICLES ?? 1500);
const DAYS = Number(process.env.BENCH_DAYS ?? 30);
const RUNS = Number(process.env.BENCH_RUNS ?? 20);
const PORT = Number(process.env.PORT ?? 3241);

process.env.SIMULATOR = 'false';
process.env.EGTS_PORT = '0';
if (process.env.DATABASE_URL) await recreateDatabase(process.env.DATABASE_URL);
const { app, db, address, authorization } = await startDemoServer(PORT);
await db.query(
  `insert into mgt.vehicles (depot_id, depot_number, state_number)
   select (select array_agg(depot_id) from mgt.depot)[1 + g % (select count(*) from mgt.depot)::int], 700000 + g, 'Б' || g from generate_series(1, $1::int) g`,
  [VEHICLES],
);
const t0 = performance.now();
await db.longRunning().query(
  `insert into mnt.vehicle_work_day (day, vehicle_id, first_at, last_at, online_s, km, moving_s, standing_s, trips_done, trips_planned, deviations)
   select current_date - d, v.id, (current_date - d) + time '05:30' + (v.id % 60) * interval '1 minute', (current_date - d) + time '23:10',
          50000 + v.id % 9000, 180 + (v.id % 70), 36000 + v.id % 5000, 14000, 14 + v.id % 3, 16, (v.id + d) % 4
     from mgt.vehicles v cross join generate_series(1, $1::int) d where v.depot_number > 700000`,
  [DAYS],
);
const loadMs = performance.now() - t0;
const today = new Date();
const from = new Date(today.getTime() - DAYS * 86_400_000).toISOString();
const to = today.toISOString();
const time = async (query: string) => {
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    const res = await fetch(`${address}/api/v1/reports/vehicle-work-data?${query}`, {
      headers: { authorization, 'x-timezone-offset': '180' },
    });
    if (!res.ok) throw new Error(`${res.status} ${await res.text()}`);
    await res.json();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return {
    p50: Math.round(times[Math.floor(RUNS / 2)]),
    p95: Math.round(times[Math.min(RUNS - 1, Math.floor(RUNS * 0.95))]),
    max: Math.round(times[RUNS - 1]),
  };
};
const period = `from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`;
const depot = (await db.query<{ depot_id: number }>('select min(depot_id) as depot_id from mgt.depot'))[0].depot_id;
console.log(
  JSON.stringify(
    {
      engine: db.engine,
      vehicles: VEHICLES,
      days: DAYS,
      rows: VEHICLES * DAYS,
      loadMs: Math.round(loadMs),
      wholeFleetByDay: await time(`${period}&recordCount=100&skipCount=0`),
      wholeFleetByKm: await time(`${period}&sortField=km&sortOrder=DESC&recordCount=100&skipCount=0`),
      lastPage: await time(`${period}&recordCount=100&skipCount=${VEHICLES * DAYS - 100}`),
      oneDepot: await time(`${period}&depot=${depot}&recordCount=100&skipCount=0`),
    },
    null,
    2,
  ),
);
await app.close();
await db.close();
process.exit(0);
