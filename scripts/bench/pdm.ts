// PDM benchmark, on PostgreSQL (a scratch database, re-created unless BENCH_KEEP=1):
//
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/tc_bench_pdm npx tsx scripts/bench/pdm.ts
//   BENCH_PART=ingest|history, BENCH_TERMINALS=1500, BENCH_SECONDS=60, BENCH_VEHICLES=500, BENCH_DAYS=7
//
// ingest: the server in a child process (test-scale demo data, no simulator); BENCH_TERMINALS terminals over
//   EGTS each send a position every second, and every 10 s (staggered) that packet also carries 10 sensors
//   (AD_SENSORS_DATA A1..A8, COUNTERS_DATA C1, LIQUID_LEVEL_SENSOR L0). The acknowledgement waits for the
//   positions in the spool and the readings committed (states, rollups): its latency is measured per kind.
// history: BENCH_VEHICLES × 10 sensors × one reading a minute × BENCH_DAYS days written straight in SQL into
//   the daily partitions, the hour rollups built from them, six state changes a sensor a day (a warning and a
//   fault episode per shift); then p95 of a 10-sensor chart over the whole period, the equipment status report
//   of every vehicle over it, and the disk used.
import { fork, type ChildProcess } from 'node:child_process';
import { connect, type Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import { setTimeout as delay } from 'node:timers/promises';

const PART = process.env.BENCH_PART ?? 'all';
const TERMINALS = Number(process.env.BENCH_TERMINALS ?? 1500);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 60);
const VEHICLES = Number(process.env.BENCH_VEHICLES ?? 500);
const DAYS = Number(process.env.BENCH_DAYS ?? 7);
const PEER_BASE = 9_500_000;
const DEPOT_BASE = 800_000;
const PORT = Number(process.env.PORT ?? 3251);

const SENSORS = [
  ...Array.from({ length: 8 }, (_, i) => ({
    name: `Аналоговый ${i + 1}`,
    channel_kind: 'analog',
    channel: i + 1,
    sensor_type: i === 0 ? 'engine_temp' : i === 1 ? 'voltage' : 'other',
    normal_min: 100,
    normal_max: 900,
    fault_min: 20,
    fault_max: 980,
  })),
  {
    name: 'Двери',
    channel_kind: 'counter',
    channel: 1,
    sensor_type: 'door_cycles',
    normal_min: null,
    normal_max: null,
    fault_min: null,
    fault_max: null,
  },
  {
    name: 'Топливо',
    channel_kind: 'liquid',
    channel: 0,
    sensor_type: 'fuel_level',
    normal_min: 15,
    normal_max: null,
    fault_min: 5,
    fault_max: null,
  },
];

const pct = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : NaN;
};
const ms = (n: number) => `${n.toFixed(n < 10 ? 1 : 0)} ms`;

if (!process.env.DATABASE_URL) throw new Error('DATABASE_URL (a scratch PostgreSQL database, e.g. …/tc_bench_pdm) is required');
if (process.argv.includes('--server')) await runServer();
else await main();

async function setupFleet(
  db: import('../../src/server/db/types').Db,
  count: number,
  depotBase: number,
  peerBase: number | null,
): Promise<{ tree: number; vehicles: number[] }> {
  const vehicles = (
    await db.query<{ id: number }>(
      `insert into mgt.vehicles (depot_number, peer_address, model) select $1::int + g, case when $2::bigint is null then null else $2::bigint + g end, 'Бенч' from generate_series(1, $3::int) g returning id`,
      [depotBase, peerBase, count],
    )
  ).map((r) => r.id);
  const [{ id: tree }] = await db.query<{ id: number }>(`insert into pdm.tree (name, model) values ($1, 'Бенч') returning id`, [
    `Бенч ${depotBase}`,
  ]);
  const [{ id: root }] = await db.query<{ id: number }>(
    `insert into pdm.node (tree_id, name, kind) values ($1, 'Регистратор', 'logger') returning id`,
    [tree],
  );
  for (const [i, s] of SENSORS.entries()) {
    await db.query(
      `insert into pdm.node (tree_id, parent_id, position, name, kind, sensor_type, channel_kind, channel, normal_min, normal_max, fault_min, fault_max, silence_s)
       values ($1, $2, $3, $4, 'sensor', $5, $6, $7, $8, $9, $10, $11, 120)`,
      [tree, root, i, s.name, s.sensor_type, s.channel_kind, s.channel, s.normal_min, s.normal_max, s.fault_min, s.fault_max],
    );
  }
  await db.query('insert into pdm.tree_vehicle (vehicle_id, tree_id) select unnest($1::int[]), $2', [vehicles, tree]);
  return { tree, vehicles };
}

/* ------------------------------------------------------------------ ingest: server child */

async function runServer(): Promise<void> {
  process.env.EGTS_PORT = '0';
  process.env.SIMULATOR = 'false';
  const { startDemoServer } = await import('./benchServer');
  const { app, db } = await startDemoServer(PORT);
  await setupFleet(db, TERMINALS, DEPOT_BASE, PEER_BASE);
  await app.telemetry.devices.refresh();
  await app.pdm.nodes.refresh();
  const egtsPort = await app.telemetry.startEgts(0, '127.0.0.1');
  process.on('message', async (message: { type: string }) => {
    if (message.type !== 'stop') return;
    await app.pdm.writer.flush();
    const [{ n }] = await db.query<{ n: number }>(
      'select count(*)::int as n from pdm.reading r join mgt.vehicles v on v.id = r.vehicle_id where v.peer_address > $1',
      [PEER_BASE],
    );
    const usage = process.cpuUsage();
    process.send!({
      type: 'stopped',
      readings: n,
      cpuS: (usage.user + usage.system) / 1e6,
      rssMb: Math.round(process.memoryUsage().rss / 1e6),
    });
    await app.close();
    process.exit(0);
  });
  process.send!({ type: 'ready', egtsPort });
}

async function runIngest(): Promise<void> {
  const { FrameReader } = await import('../../src/server/telemetry/egts/frameReader');
  const { authPacket, positionsPacket } = await import('../../src/server/telemetry/egts/terminalPackets');
  const { encodeAdSensors, encodeCounters, encodeLiquidLevel } = await import('../../src/server/telemetry/egts/sensors');
  const child: ChildProcess = fork(fileURLToPath(import.meta.url), ['--server'], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    env: process.env,
  });
  const next = (type: string) =>
    new Promise<Record<string, number>>((resolve) => {
      const on = (m: Record<string, number> & { type: string }) => {
        if (m.type === type) {
          child.off('message', on);
          resolve(m);
        }
      };
      child.on('message', on);
    });
  const ready = await next('ready');
  const latency = { sensors: [] as number[], positions: [] as number[] };
  let measuring = false;
  let refused = 0;
  let sensorPackets = 0;

  class Terminal {
    socket!: Socket;
    private readonly reader = new FrameReader(65_553);
    private pid = 0;
    private rn = 0;
    private readonly sentAt = new Map<number, { at: number; sensors: boolean }>();
    private authed: (() => void) | null = null;
    constructor(readonly index: number) {}
    open(): Promise<void> {
      return new Promise((resolve, reject) => {
        this.socket = connect({ port: ready.egtsPort, host: '127.0.0.1', noDelay: true }, () => resolve());
        this.socket.once('error', reject);
        this.socket.on('data', (chunk: Buffer) => this.onData(chunk));
      });
    }
    auth(): Promise<void> {
      return new Promise((resolve) => {
        this.authed = resolve;
        this.socket.write(authPacket(this.pid++, this.rn++, { tid: PEER_BASE + this.index + 1 }));
      });
    }
    send(second: number): void {
      const time = Math.floor(Date.now() / 1000) * 1000;
      const sensors = (second + this.index) % 10 === 0;
      const wave = (k: number) => 500 + 300 * Math.sin(time / 60_000 + this.index + k);
      const extra = sensors
        ? [
            encodeAdSensors({ analog: Array.from({ length: 8 }, (_, k) => wave(k)) }),
            encodeCounters([second + this.index]),
            encodeLiquidLevel({ number: 0, value: 50 + 40 * Math.sin(time / 600_000 + this.index), unit: 'percent' }),
          ]
        : [];
      const pid = this.pid++ & 0xffff;
      this.sentAt.set(pid, { at: performance.now(), sensors });
      if (sensors) sensorPackets += 1;
      this.socket.write(
        positionsPacket(pid, [
          {
            rn: this.rn++ & 0xffff,
            fixes: [{ time, lat: 59.9 + this.index * 1e-5, lon: 30.3, speed: 30, course: 90, valid: true }],
            extra,
          },
        ]),
      );
    }
    private onData(chunk: Buffer): void {
      const now = performance.now();
      for (const event of this.reader.push(chunk)) {
        if (event.kind !== 'frame') continue;
        if (event.header.pt === 1) {
          this.authed?.();
          this.authed = null;
          continue;
        }
        const sent = this.sentAt.get(event.body.readUInt16LE(0));
        if (!sent) continue;
        this.sentAt.delete(event.body.readUInt16LE(0));
        if (event.body[2] !== 0) refused += 1;
        if (measuring) (sent.sensors ? latency.sensors : latency.positions).push(now - sent.at);
      }
    }
  }
  const terminals = Array.from({ length: TERMINALS }, (_, i) => new Terminal(i));
  for (let i = 0; i < terminals.length; i += 250) await Promise.all(terminals.slice(i, i + 250).map((t) => t.open()));
  for (let i = 0; i < terminals.length; i += 250) await Promise.all(terminals.slice(i, i + 250).map((t) => t.auth()));
  console.log(`ingest: ${TERMINALS} terminals authenticated; ${SECONDS} s of 1 position/s each, 10 sensors every 10 s`);
  const start = performance.now();
  for (let second = 0; second < SECONDS + 5; second += 1) {
    measuring = second >= 5;
    // spread each second's packets over the second, as real terminals' clocks are spread
    const slice = Math.ceil(terminals.length / 10);
    for (let part = 0; part < 10; part += 1) {
      for (const t of terminals.slice(part * slice, (part + 1) * slice)) t.send(second);
      await delay(100);
    }
    const behind = start + (second + 1) * 1000 - performance.now();
    if (behind > 0) await delay(behind);
  }
  await delay(3000);
  child.send({ type: 'stop' });
  const stopped = await next('stopped');
  for (const t of terminals) t.socket.destroy();
  const line = (name: string, v: number[]) =>
    `${name}: ${v.length} acks, p50 ${ms(pct(v, 50))}, p95 ${ms(pct(v, 95))}, p99 ${ms(pct(v, 99))}, max ${ms(Math.max(...v))}`;
  console.log(line('  packets with sensors', latency.sensors));
  console.log(line('  positions only', latency.positions));
  console.log(
    `  refused ${refused}; readings stored ${stopped.readings} of ${sensorPackets * 10} sent; server CPU ${stopped.cpuS.toFixed(1)} s, RSS ${stopped.rssMb} MB; load ${(await import('node:os')).loadavg()[0].toFixed(1)}`,
  );
}

/* ------------------------------------------------------------------ history */

async function runHistory(): Promise<void> {
  process.env.SIMULATOR = 'false';
  process.env.EGTS_PORT = '0';
  const { startDemoServer } = await import('./benchServer');
  const { app, db, address, authorization } = await startDemoServer(PORT);
  // A fill of tens of millions of rows outlasts the long query limit on a loaded machine.
  const big = db.withLimit(3_600_000);
  // Whole UTC days ending tonight, so an interrupted fill resumes (BENCH_KEEP=1) on the same days.
  const to = new Date(Math.floor(Date.now() / 86_400_000) * 86_400_000 + 86_400_000 - 60_000);
  const from = new Date(to.getTime() + 60_000 - DAYS * 86_400_000);
  let fleet = (
    await db.query<{ id: number }>(
      `select v.id from mgt.vehicles v join pdm.tree_vehicle tv on tv.vehicle_id = v.id where v.depot_number > $1 and v.depot_number <= $2 order by v.id`,
      [DEPOT_BASE + 100_000, DEPOT_BASE + 100_000 + VEHICLES],
    )
  ).map((r) => r.id);
  if (fleet.length < VEHICLES) fleet = (await setupFleet(db, VEHICLES, DEPOT_BASE + 100_000, null)).vehicles;
  const nodes = (
    await db.query<{ id: number }>(
      `select id from pdm.node where tree_id = (select tree_id from pdm.tree_vehicle where vehicle_id = $1) and channel_kind is not null order by id`,
      [fleet[0]],
    )
  ).map((r) => r.id);
  await big.query(
    "select app.ensure_day_partitions('pdm.reading', $1::date, $2::date), app.ensure_day_partitions('pdm.reading_minute', $1::date, $2::date)",
    [from.toISOString().slice(0, 10), to.toISOString().slice(0, 10)],
  );
  const fillStart = performance.now();
  for (let day = 0; day < DAYS; day += 1) {
    const a = new Date(from.getTime() + day * 86_400_000);
    const b = new Date(a.getTime() + 86_400_000 - 60_000);
    const [{ done }] = await db.query<{ done: boolean }>(
      "select exists (select 1 from pdm.reading_hour where vehicle_id = $1 and bucket = $2::timestamptz + interval '23 hours') as done",
      [fleet.at(-1), a.toISOString()],
    );
    if (done) continue;
    const t0 = performance.now();
    await big.transaction(async (tx) => {
      await tx.query('delete from pdm.reading where vehicle_id = any($1::int[]) and tm >= $2 and tm <= $3', [
        fleet,
        a.toISOString(),
        b.toISOString(),
      ]);
      await tx.query(
        `insert into pdm.reading (vehicle_id, node_id, tm, value, error)
         select v, n, t, 500 + 300 * sin(extract(epoch from t) / 3600 + v * 0.7 + n), false
           from unnest($1::int[]) v cross join unnest($2::int[]) n cross join generate_series($3::timestamptz, $4::timestamptz, interval '1 minute') t`,
        [fleet, nodes, a.toISOString(), b.toISOString()],
      );
      // the day's hour rollups while its partition is warm (the minute rollup of a 1-a-minute history would copy the
      // readings: not built here)
      await tx.query(
        `insert into pdm.reading_hour (vehicle_id, node_id, bucket, n, sum, min, max, last, last_tm, warn, fault, lat, lon)
         select r.vehicle_id, r.node_id, date_trunc('hour', r.tm), count(*)::int, sum(r.value), min(r.value), max(r.value), (array_agg(r.value order by r.tm desc))[1], max(r.tm),
                count(*) filter (where r.value > 900 or r.value < 100)::int, count(*) filter (where r.value > 980 or r.value < 20)::int,
                59.85 + (r.vehicle_id % 97) * 0.002, 30.2 + (r.vehicle_id % 89) * 0.003
           from pdm.reading r where r.vehicle_id = any($1::int[]) and r.tm >= $2 and r.tm <= $3 group by 1, 2, 3
         on conflict do nothing`,
        [fleet, a.toISOString(), b.toISOString()],
      );
    });
    console.log(
      `  day ${day + 1}/${DAYS}: ${(fleet.length * nodes.length * 1440).toLocaleString('en')} readings and their hour rollups in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    );
  }
  const [{ changes }] = await db.query<{ changes: number }>('select count(*)::int as changes from pdm.state_change where vehicle_id = $1', [
    fleet[0],
  ]);
  if (!changes) {
    const t2 = performance.now();
    // six changes a sensor a day: normal, warning at +2 h for 30 min, normal, fault at +6 h for 20 min, normal…
    await big.query(
      `insert into pdm.state_change (vehicle_id, node_id, tm, till, state, prev_state, value)
       select v, n, s.tm, s.tm + s.len, s.state, s.prev, 0
         from unnest($1::int[]) v cross join unnest($2::int[]) n cross join generate_series($3::timestamptz, $4::timestamptz, interval '8 hours') b
         cross join lateral (values
           (b + make_interval(mins => (v + n) % 60), interval '2 hours', 'normal', 'fault'),
           (b + make_interval(mins => (v + n) % 60) + interval '2 hours', interval '30 minutes', 'warning', 'normal'),
           (b + make_interval(mins => (v + n) % 60) + interval '2 hours 30 minutes', interval '3 hours 30 minutes', 'normal', 'warning'),
           (b + make_interval(mins => (v + n) % 60) + interval '6 hours', interval '20 minutes', 'fault', 'normal')) s(tm, len, state, prev)
        where s.tm < $4::timestamptz`,
      [fleet, nodes, from.toISOString(), to.toISOString()],
    );
    await big.query(
      'update pdm.state_change set till = null where id in (select distinct on (vehicle_id, node_id) id from pdm.state_change where vehicle_id = any($1::int[]) order by vehicle_id, node_id, tm desc)',
      [fleet],
    );
    console.log(`  state changes in ${((performance.now() - t2) / 1000).toFixed(1)} s`);
  }
  await big.query('analyze pdm.reading_hour');
  await big.query('analyze pdm.state_change');
  console.log(`  fill ${((performance.now() - fillStart) / 1000).toFixed(0)} s`);
  const [counts] = await db.query<{ readings: string; hours: string; changes: string }>(
    `select (select count(*) from pdm.reading)::text as readings, (select count(*) from pdm.reading_hour)::text as hours, (select count(*) from pdm.state_change)::text as changes`,
  );
  // partitioned tables: the sum of their partitions (pg_partition_tree lists none for a plain table)
  const sizes = await db.query<{ name: string; mb: number }>(
    `select t.name, round(coalesce((select sum(pg_total_relation_size(p.relid)) from pg_partition_tree(('pdm.' || t.name)::regclass) p),
                                   pg_total_relation_size(('pdm.' || t.name)::regclass)) / 1e6)::float8 as mb
       from (values ('reading'), ('reading_minute'), ('reading_hour'), ('state_change'), ('node_state')) t(name) order by t.name`,
  );
  console.log(
    `history: ${VEHICLES} vehicles × ${SENSORS.length} sensors × ${DAYS} days: ${Number(counts.readings).toLocaleString('en')} readings, ${Number(counts.hours).toLocaleString('en')} hour rollups, ${Number(counts.changes).toLocaleString('en')} state changes`,
  );
  console.log(`  disk: ${sizes.map((s) => `${s.name} ${s.mb} MB`).join(', ')}`);
  const q = `from=${encodeURIComponent(from.toISOString())}&to=${encodeURIComponent(to.toISOString())}`;
  const time = async (url: (i: number) => string, n: number) => {
    const took: number[] = [];
    for (let i = 0; i < n; i += 1) {
      const t = performance.now();
      const response = await fetch(`${address}${url(i)}`, { headers: { authorization, 'x-timezone-offset': '180' } });
      if (response.status !== 200) throw new Error(`${url(i)}: ${response.status} ${await response.text()}`);
      await response.arrayBuffer();
      took.push(performance.now() - t);
    }
    return `p50 ${ms(pct(took, 50))}, p95 ${ms(pct(took, 95))}, max ${ms(Math.max(...took))}`;
  };
  const vehicle = (i: number) => fleet[(i * 7919) % fleet.length];
  console.log(
    `  chart of 10 sensors over ${DAYS} days (report API, hourly): ${await time((i) => `/api/v1/reports/pdm/charts?${q}&vehicle=${vehicle(i)}&recordCount=100`, 20)}`,
  );
  console.log(`  the same chart's series (/api/v1/pdm/chart): ${await time((i) => `/api/v1/pdm/chart?${q}&vehicle=${vehicle(i)}`, 20)}`);
  console.log(
    `  equipment status report, every vehicle, ${DAYS} days: ${await time(() => `/api/v1/reports/pdm/equipment-status-report?${q}`, 10)}`,
  );
  console.log(`  service report, ${DAYS} days: ${await time(() => `/api/v1/reports/pdm/service?${q}`, 5)}`);
  console.log(
    `  heat layer and grid (/api/v1/pdm/heat, ${DAYS} days): ${await time(() => `/api/v1/pdm/heat?${q}&sensorType=engine_temp&step=day`, 5)}`,
  );
  console.log(
    `  heat map grid (${DAYS} days by day; by hour it is over the 50,000-row cap for 500 vehicles): ${await time(() => `/api/v1/reports/pdm/heatmap?${q}&sensorType=engine_temp&step=day`, 5)}`,
  );
  await app.close();
}

async function main(): Promise<void> {
  const { recreateDatabase } = await import('./benchServer');
  if (process.env.BENCH_KEEP !== '1') await recreateDatabase(process.env.DATABASE_URL!);
  if (PART === 'all' || PART === 'ingest') await runIngest();
  if (PART === 'all' || PART === 'history') await runHistory();
  console.log(
    `load average ${(await import('node:os'))
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
}
