// EGTS terminals and live maps through HAProxy (`npm run cluster`), one process SIGKILLed under the load: is every
// acknowledged position stored, how long until its terminals and jobs are back elsewhere.
//
//   ulimit -n 20000
//   npx tsx scripts/bench/clusterEgts.ts
//   BENCH_TERMINALS=3000 BENCH_RATE=0.2 BENCH_MINUTES=3 BENCH_PROCESSES=2 npx tsx scripts/bench/clusterEgts.ts
//
// On its own database (CLUSTER_BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/tc_bench_cluster,
// created and migrated if missing) and the Redis at BUS_URL, `npm run cluster` is started with 1 process, then
// BENCH_PROCESSES (2), each with EGTS behind HAProxy's TCP port and its spool next to the others'
// (DATA_DIR/track-spool-<port>). BENCH_TERMINALS terminals (5,000) each send a position every 1/BENCH_RATE
// seconds (0.2: every 5 s), spread evenly, for BENCH_MINUTES (5); BENCH_VIEWERS (200) map viewers hold the
// geo stream of the whole city (zooms 13–15) through HAProxy (every tenth parses its frames and measures the delay from a
// position's sending to its frame), reopening it when it ends; 4 users ask `auth/current` every 100 ms. With
// several processes, the one holding the singleton jobs is SIGKILLed at BENCH_KILL_AT_S (120 s). A terminal
// whose connection is cut reconnects after 1–3 s through HAProxy and sends again what was not answered.
// Prints, per run: acknowledgement p50/p99, positions acknowledged vs stored (each acknowledged (vehicle, fix
// time) looked up in app.track), stream delay p95, the killed process's terminals back (reconnected and
// acknowledged again: p50 and all), its leases held by survivors, the users' failed requests, the load average.
import { rmSync, mkdtempSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { Worker } from 'node:worker_threads';
import { GEO_STREAM_PATH, serializeGeoSubscription } from '../../src/shared/map';
import { openPostgres } from '../../src/server/db/postgres';
import { BenchTerminal } from './egtsTerminal';
import { freeConsecutivePorts, percentile, prepareClusterDatabase, startHaproxyCluster } from './serverProcess';

const URL_ = process.env.CLUSTER_BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/tc_bench_cluster';
const BUS_URL = process.env.BUS_URL ?? 'redis://127.0.0.1:6379';
const TERMINALS = Number(process.env.BENCH_TERMINALS ?? 5000);
const RATE = Number(process.env.BENCH_RATE ?? 0.2);
const MINUTES = Number(process.env.BENCH_MINUTES ?? 5);
const VIEWERS = Number(process.env.BENCH_VIEWERS ?? 200);
const PROCESSES = Number(process.env.BENCH_PROCESSES ?? 2);
const KILL_AT_S = Number(process.env.BENCH_KILL_AT_S ?? 120);
const RUNS = (process.env.BENCH_RUNS ?? `1,${PROCESSES}`).split(',').map(Number);
const PEER_BASE = 8_600_000;
const USER = 'bench_cluster';
const PASSWORD = 'Bench-cluster-1';
const PERIOD_MS = Math.max(1000, Math.round(1000 / RATE / 1000) * 1000);
const TICK_MS = 10;

// ---------------------------------------------------------------- database
const vehicleOf = new Map<number, number>();
{
  const db = await prepareClusterDatabase(
    URL_,
    { user: USER, password: PASSWORD },
    { vehicles: TERMINALS, depotBase: 860000, peerBase: PEER_BASE },
  );
  for (const row of await db.query<{ id: number; peer: string }>(
    'select id, peer_address::text as peer from mgt.vehicles where peer_address > $1 and peer_address <= $2',
    [PEER_BASE, PEER_BASE + TERMINALS],
  ))
    vehicleOf.set(Number(row.peer), row.id);
  await db.close();
}

// ---------------------------------------------------------------- map viewers, in a worker thread
/** Streams of the whole city through HAProxy, reopened when they end; every tenth measures the delay. */
const VIEWER = `
const { parentPort, workerData } = require('node:worker_threads');
const { url, auth, queries, offsets } = workerData;
let delays = [], opened = 0, reopened = 0, failed = 0, stop = false;
const MARKS = [Buffer.from('event: points'), Buffer.from('event: delta')];
async function view(q, measure) {
  const response = await fetch(url + '?q=' + encodeURIComponent(q), { headers: { authorization: auth } });
  if (!response.ok) { failed += 1; await response.arrayBuffer(); return; }
  opened += 1;
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  const seen = new Map();
  let buffer = '';
  for (;;) {
    // a stream cut (its process killed) ends like a closed one: the viewer opens it again
    const { value, done } = await reader.read().catch(() => ({ done: true }));
    if (done) return;
    if (!measure) continue;
    const now = Date.now();
    buffer += decoder.decode(value, { stream: true });
    let cut;
    while ((cut = buffer.indexOf('\\n\\n')) >= 0) {
      const block = buffer.slice(0, cut);
      buffer = buffer.slice(cut + 2);
      const whole = block.startsWith('event: points');
      if (!whole && !block.startsWith('event: delta')) continue;
      const frame = JSON.parse(block.slice(block.indexOf('data: ') + 6));
      const vehicle = (id, time) => {
        const before = seen.get(id);
        seen.set(id, time);
        // the moment the terminal sent it: its fix time (whole seconds) and its place in the second
        if (before !== undefined && time > before) delays.push(now - time - (offsets[id] ?? 0));
      };
      if (whole) { for (const item of frame.items) if (item.type === 'vehicle') vehicle(item.id, Date.parse(item.date)); }
      else for (const row of frame.vehicles) vehicle(row[0], frame.at - row[6]);
    }
  }
}
queries.forEach(async (q, i) => {
  while (!stop) {
    await view(q, i % 10 === 0).catch(() => { failed += 1; });
    if (stop) break;
    reopened += 1;
    await new Promise((r) => setTimeout(r, 1000));
  }
});
setInterval(() => {
  parentPort.postMessage({ delays: delays.splice(0), opened, reopened, failed });
}, 1000).unref();
parentPort.on('message', () => { stop = true; process.exit(0); });
`;

// ---------------------------------------------------------------- one run
const load = () =>
  loadavg()
    .map((value) => value.toFixed(1))
    .join(' ');

async function run(count: number): Promise<string> {
  const port = await freeConsecutivePorts(count + 1);
  const egtsPort = await freeConsecutivePorts(count + 1);
  const dataDir = mkdtempSync(join(tmpdir(), 'tc-bench-cluster-egts-'));
  const cluster = await startHaproxyCluster({
    DATABASE_URL: URL_,
    BUS_URL,
    BUS_PREFIX: `tc:bench-cluster-egts:${process.pid}:${count}`,
    PORT: String(port),
    HOST: '127.0.0.1',
    EGTS_ENABLED: 'true',
    EGTS_PORT: String(egtsPort),
    CLUSTER_PROCESSES: String(count),
    DEMO_DATA: 'false',
    SIMULATOR: 'false',
    DATA_DIR: dataDir,
    GEO_MAX_STREAMS_PER_USER: String(VIEWERS + 50),
    EGTS_MAX_CONNECTIONS: String(TERMINALS + 1000),
  });
  const base = `http://127.0.0.1:${port}`;
  const lines: string[] = [];
  const say = (line: string) => {
    lines.push(line);
    console.log(`[${count}] ${line}`);
  };
  try {
    const login = await fetch(`${base}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: USER, password: PASSWORD }),
    });
    const authorization = `Bearer ${((await login.json()) as { token: string }).token}`;

    // terminals: acknowledged fixes by terminal, latencies, reconnections
    const latencies: number[] = [];
    const acked = new Map<number, Set<number>>();
    let refused = 0;
    let measuring = false;
    let killedAt = 0;
    /** Terminals cut by the kill: when each was acknowledged again. */
    const cut = new Map<number, number | null>();
    const pendingResend = new Map<number, number[]>();
    const terminals: BenchTerminal[] = [];
    const reconnecting = new Set<number>();
    const reconnect = async (t: BenchTerminal) => {
      if (reconnecting.has(t.index)) return;
      reconnecting.add(t.index);
      await delay(1000 + Math.random() * 2000);
      for (;;) {
        try {
          await t.open(egtsPort);
          if (await t.authenticate()) break;
          t.destroy();
        } catch {
          // refused: HAProxy has no live process yet
        }
        await delay(1000);
      }
      reconnecting.delete(t.index);
      for (const time of pendingResend.get(t.index) ?? []) t.sendFix(time);
      pendingResend.delete(t.index);
    };
    for (let i = 0; i < TERMINALS; i++) {
      const tid = PEER_BASE + i + 1;
      acked.set(tid, new Set());
      const terminal: BenchTerminal = new BenchTerminal(tid, i, {
        acked(latencyMs, wasRefused, time) {
          if (wasRefused) {
            refused += 1;
            return;
          }
          acked.get(tid)!.add(time);
          if (measuring) latencies.push(latencyMs);
          if (cut.get(i) === null) cut.set(i, performance.now());
        },
        closed() {
          if (!measuring) return;
          if (killedAt && !cut.has(i)) cut.set(i, null);
          pendingResend.set(i, [...(pendingResend.get(i) ?? []), ...terminal.takeUnanswered()]);
          void reconnect(terminal);
        },
      });
      terminals.push(terminal);
    }
    for (let i = 0; i < terminals.length; i += 250) await Promise.all(terminals.slice(i, i + 250).map((t) => t.open(egtsPort)));
    for (let i = 0; i < terminals.length; i += 500) await Promise.all(terminals.slice(i, i + 500).map((t) => t.authenticate()));
    say(`${terminals.filter((t) => t.authenticated).length} of ${TERMINALS} terminals authenticated through HAProxy`);

    // viewers: the whole city at zooms 13 to 15 (vehicles apart, not grouped)
    const periodTicks = PERIOD_MS / TICK_MS;
    const offsets: Record<number, number> = {};
    for (let i = 0; i < TERMINALS; i++) offsets[vehicleOf.get(PEER_BASE + i + 1)!] = ((i % periodTicks) * TICK_MS) % 1000;
    const queries = Array.from({ length: VIEWERS }, (_, i) =>
      serializeGeoSubscription({ bounds: [59.75, 29.95, 60.1, 30.65], zoom: 13 + (i % 3), vehicles: [] }),
    );
    const viewers = new Worker(VIEWER, {
      eval: true,
      workerData: { url: `${base}${GEO_STREAM_PATH}`, auth: authorization, queries, offsets },
    });
    const streamDelays: number[] = [];
    let viewerState = { opened: 0, reopened: 0, failed: 0 };
    viewers.on('message', (m: { delays: number[]; opened: number; reopened: number; failed: number }) => {
      if (measuring) for (const d of m.delays) streamDelays.push(d);
      viewerState = m;
    });

    // users asking auth/current: failures around the kill
    const users = { ok: 0, failed: 0, failedAround: 0 };
    let stopUsers = false;
    const userLoops = Array.from({ length: 4 }, async () => {
      while (!stopUsers) {
        let ok = false;
        try {
          const response = await fetch(`${base}/api/v1/auth/current/`, { headers: { authorization } });
          await response.arrayBuffer();
          ok = response.ok;
        } catch {
          ok = false;
        }
        if (ok) users.ok += 1;
        else {
          users.failed += 1;
          if (killedAt && performance.now() - killedAt < 30_000) users.failedAround += 1;
        }
        await delay(100);
      }
    });

    // the kill: the process holding the singleton jobs
    const health = async (p: number) => (await fetch(`http://127.0.0.1:${p}/api/health`).then((r) => r.json())) as { leases: string[] };
    let leasesBack: number | null = null;
    const killer =
      count > 1
        ? (async () => {
            await delay(KILL_AT_S * 1000);
            const held = await Promise.all(cluster.processes.map(async (p) => ({ p, leases: (await health(p.port)).leases })));
            held.sort((x, y) => y.leases.length - x.leases.length);
            const [{ p: victim, leases }] = held;
            const survivors = cluster.processes.filter((p) => p !== victim);
            const backlog = terminals.filter((t) => t.socket).length;
            process.kill(victim.pid, 'SIGKILL');
            killedAt = performance.now();
            say(`SIGKILL ${victim.name} (pid ${victim.pid}, ${leases.length} leases) at ${KILL_AT_S} s; ${backlog} terminals connected`);
            while (leasesBack === null && performance.now() - killedAt < 60_000) {
              await delay(250);
              const now = new Set(
                (await Promise.all(survivors.map((p) => health(p.port).catch(() => ({ leases: [] }))))).flatMap((h) => h.leases),
              );
              if (leases.every((name) => now.has(name))) leasesBack = performance.now() - killedAt;
            }
          })()
        : Promise.resolve();

    // the load: terminal i sends in slot i of each period
    measuring = true;
    const cpuLoadBefore = load();
    const runStart = Math.ceil(Date.now() / 1000) * 1000 + 1000;
    await delay(runStart - Date.now());
    const startedAt = performance.now();
    const ticks = (MINUTES * 60_000) / TICK_MS;
    for (let tick = 0; tick < ticks; tick++) {
      const intended = runStart + tick * TICK_MS;
      const fixTime = Math.floor(intended / 1000) * 1000;
      for (let i = tick % periodTicks; i < terminals.length; i += periodTicks) terminals[i].sendFix(fixTime);
      const wait = startedAt + (tick + 1) * TICK_MS - performance.now();
      if (wait > 0) await delay(wait);
    }
    const loadDuring = load();
    // the answers still on their way, the writers' last flush and an adoption round
    const drainUntil = performance.now() + 5000;
    while (terminals.some((t) => t.outstanding > 0) && performance.now() < drainUntil) await delay(50);
    measuring = false;
    await killer;
    stopUsers = true;
    await Promise.all(userLoops);
    viewers.postMessage('stop');
    await delay(12_000);

    // acknowledged vs stored
    const db = await openPostgres(URL_, 1);
    const rows = await db.query<{ vehicle_id: number; t: number }>(
      `select vehicle_id, (extract(epoch from tm) * 1000)::float8 as t from app.track
        where vehicle_id = any($1::int[]) and tm >= to_timestamp($2::float8 / 1000)`,
      [[...vehicleOf.values()], runStart - 60_000],
    );
    await db.close();
    const stored = new Set(rows.map((row) => `${row.vehicle_id}:${row.t}`));
    let acknowledged = 0;
    let lost = 0;
    for (const [tid, times] of acked) {
      const vehicle = vehicleOf.get(tid)!;
      for (const time of times) {
        acknowledged += 1;
        if (!stored.has(`${vehicle}:${time}`)) lost += 1;
      }
    }
    const unanswered = terminals.reduce((sum, t) => sum + t.outstanding, 0) + [...pendingResend.values()].reduce((s, v) => s + v.length, 0);

    latencies.sort((a, b) => a - b);
    streamDelays.sort((a, b) => a - b);
    const backTimes = [...cut.values()].map((at) => (at === null ? Number.POSITIVE_INFINITY : at - killedAt)).sort((a, b) => a - b);
    const s = (ms: number) => (Number.isFinite(ms) ? `${(ms / 1000).toFixed(1)} s` : 'never');
    say(
      `${count} process(es), ${TERMINALS} terminals × 1 per ${PERIOD_MS / 1000} s (${Math.round((TERMINALS * 1000) / PERIOD_MS)}/s), ${VIEWERS} viewers, ${MINUTES} min`,
    );
    say(
      `  ack p50 ${percentile(latencies, 50).toFixed(0)} ms, p99 ${percentile(latencies, 99).toFixed(0)} ms; acknowledged ${acknowledged}, stored ${acknowledged - lost}, lost ${lost}; refused ${refused}, unanswered at the end ${unanswered}`,
    );
    say(
      `  stream delay p50 ${percentile(streamDelays, 50).toFixed(0)} ms, p95 ${percentile(streamDelays, 95).toFixed(0)} ms (${streamDelays.length} samples); streams opened ${viewerState.opened}, reopened ${viewerState.reopened}, failed ${viewerState.failed}`,
    );
    if (count > 1)
      say(
        `  killed process's terminals: ${backTimes.length} cut, back (acknowledged again) p50 ${s(percentile(backTimes, 50))}, all ${s(backTimes[backTimes.length - 1] ?? Number.NaN)}; its leases held elsewhere after ${leasesBack === null ? 'never (60 s)' : s(leasesBack)}`,
      );
    say(
      `  users' auth/current: ${users.ok} ok, ${users.failed} failed (${users.failedAround} within 30 s of the kill); load ${cpuLoadBefore} before, ${loadDuring} at the end`,
    );
    for (const t of terminals) t.destroy();
    return lines.join('\n');
  } finally {
    await cluster.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const reports: string[] = [];
for (const count of RUNS) reports.push(await run(count));
console.log(`\nclusterEgts — ${new Date().toISOString()}\n${reports.join('\n')}`);
process.exit(0);
