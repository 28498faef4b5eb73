// Several server processes behind HAProxy (`npm run cluster`): what a second process adds, and what a process
// killed costs.
//
//   npx tsx scripts/bench/cluster.ts
//   BENCH_SECONDS=20 BENCH_CONCURRENCY=32 npx tsx scripts/bench/cluster.ts
//
// On its own database (CLUSTER_BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/tc_bench_cluster,
// created and migrated if missing: the platform's accounts, 1,000 vehicles, a telemetry source) and the Redis
// at BUS_URL (redis://127.0.0.1:6379), `npm run cluster` is started with 1, then 2 processes (EGTS off, no
// simulator; the server bundle is built, the front ends are not). Through HAProxy, for BENCH_SECONDS each:
// - requests: BENCH_CONCURRENCY clients asking a handbook page (25 vehicles, sorted) as fast as answered;
// - ingest: 8 clients posting batches of 100 positions (POST /api/v1/telemetry/positions) as fast as accepted;
// then, with 2 processes, the failover: 8 clients asking `auth/current` while one process is SIGKILLed, the
// failed requests and the longest wait for an answer around the kill. Prints requests/s, p50/p99, positions/s
// and the load average.
import { loadavg } from 'node:os';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSource } from '../../src/server/telemetry/http/sourceKeys';
import { freeConsecutivePorts, percentile, prepareClusterDatabase, startHaproxyCluster } from './serverProcess';

const URL_ = process.env.CLUSTER_BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/tc_bench_cluster';
const BUS_URL = process.env.BUS_URL ?? 'redis://127.0.0.1:6379';
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const VEHICLES = 1000;
const PEER_BASE = 8_400_000;
const USER = 'bench_cluster';
const PASSWORD = 'Bench-cluster-1';

// ---------------------------------------------------------------- database
let sourceKey: string;
{
  const db = await prepareClusterDatabase(
    URL_,
    { user: USER, password: PASSWORD },
    { vehicles: VEHICLES, depotBase: 840000, peerBase: PEER_BASE },
  );
  ({ key: sourceKey } = await createSource(db, `Стенд кластера ${new Date().toISOString()}`, null));
  await db.close();
}

// ---------------------------------------------------------------- load
interface Run {
  ok: number;
  failed: number;
  latencies: number[];
  seconds: number;
}

/** `clients` loops calling `request` for `seconds`; a request that is not 2xx (or throws) counts as failed. */
async function drive(
  clients: number,
  seconds: number,
  request: () => Promise<Response>,
  onAnswer?: (at: number, ok: boolean) => void,
): Promise<Run> {
  const run: Run = { ok: 0, failed: 0, latencies: [], seconds };
  const until = performance.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (performance.now() < until) {
        const started = performance.now();
        let ok = false;
        try {
          const response = await request();
          await response.arrayBuffer();
          ok = response.ok;
        } catch {
          ok = false;
        }
        const now = performance.now();
        if (ok) {
          run.ok += 1;
          run.latencies.push(now - started);
        } else run.failed += 1;
        onAnswer?.(now, ok);
      }
    }),
  );
  run.latencies.sort((a, b) => a - b);
  return run;
}

const describeRun = (run: Run, unit = 'requests') =>
  `${Math.round(run.ok / run.seconds)} ${unit}/s (${run.ok} ok, ${run.failed} failed), p50 ${percentile(run.latencies, 50).toFixed(1)} ms, p99 ${percentile(run.latencies, 99).toFixed(1)} ms`;
const load = () =>
  loadavg()
    .map((value) => value.toFixed(1))
    .join(' ');

let fixTime = Date.now() - 60_000;
function batch(): string {
  const positions = Array.from({ length: 100 }, () => {
    const peer = PEER_BASE + 1 + Math.floor(Math.random() * VEHICLES);
    fixTime = Math.min(Date.now(), fixTime + 1);
    return { device: String(peer), time: fixTime, lat: 59.9 + (peer % 100) * 1e-3, lon: 30.3 + (peer % 77) * 1e-3, speed: 0, course: 0 };
  });
  return JSON.stringify({ positions });
}

for (const count of [1, 2]) {
  const port = await freeConsecutivePorts(count + 1);
  const dataDir = mkdtempSync(join(tmpdir(), 'tc-bench-cluster-'));
  const cluster = await startHaproxyCluster({
    DATABASE_URL: URL_,
    BUS_URL,
    BUS_PREFIX: `tc:bench-cluster:${process.pid}:${count}`,
    PORT: String(port),
    HOST: '127.0.0.1',
    CLUSTER_PROCESSES: String(count),
    DEMO_DATA: 'false',
    SIMULATOR: 'false',
    DATA_DIR: dataDir,
  });
  const base = `http://127.0.0.1:${port}`;
  try {
    const login = await fetch(`${base}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: USER, password: PASSWORD }),
    });
    const authorization = `Bearer ${((await login.json()) as { token: string }).token}`;
    const headers = { authorization, 'content-type': 'application/json' };
    const page = JSON.stringify({ config: { type: 'vehicles' }, page: 1, perPage: 25, sort: { field: 'depot_number', order: 'DESC' } });
    await drive(4, 2, () => fetch(`${base}/api/table/list`, { method: 'POST', headers, body: page })); // warm-up
    const requests = await drive(CONCURRENCY, SECONDS, () => fetch(`${base}/api/table/list`, { method: 'POST', headers, body: page }));
    console.log(`${count} process(es), handbook page ×${CONCURRENCY} clients: ${describeRun(requests)}; load ${load()}`);
    const ingest = await drive(8, SECONDS, () =>
      fetch(`${base}/api/v1/telemetry/positions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-telemetry-key': sourceKey },
        body: batch(),
      }),
    );
    console.log(
      `${count} process(es), ingest ×8 clients, batches of 100: ${Math.round((ingest.ok * 100) / SECONDS)} positions/s; ${describeRun(ingest, 'batches')}; load ${load()}`,
    );

    if (count === 2) {
      let lastAnswer = performance.now();
      let longestWait = 0;
      let killedAt = 0;
      const failover = drive(
        8,
        6,
        () => fetch(`${base}/api/v1/auth/current/`, { headers }),
        (at, ok) => {
          if (!ok) return;
          if (killedAt && at > killedAt) longestWait = Math.max(longestWait, at - Math.max(lastAnswer, killedAt));
          lastAnswer = Math.max(lastAnswer, at);
        },
      );
      await new Promise((resolve) => setTimeout(resolve, 2000));
      const victim = cluster.processes[0];
      killedAt = performance.now();
      process.kill(victim.pid, 'SIGKILL');
      const run = await failover;
      console.log(
        `failover, ${victim.name} SIGKILLed under 8 clients of auth/current: ${run.failed} failed of ${run.ok + run.failed}; longest wait for an answer after the kill ${longestWait.toFixed(0)} ms; p99 ${percentile(run.latencies, 99).toFixed(1)} ms; load ${load()}`,
      );
    }
  } finally {
    await cluster.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
