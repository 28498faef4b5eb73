// EGTS ingestion benchmark: a simulated fleet of terminals on loopback against the real server.
//
//   ulimit -n 20000            # each connection is one descriptor on each side
//   npx tsx scripts/bench/egtsIngest.ts                     # 5,000 terminals, 60 s, embedded PGlite
//   BENCH_TERMINALS=2000 BENCH_SECONDS=30 npx tsx scripts/bench/egtsIngest.ts
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/bench npx tsx scripts/bench/egtsIngest.ts
//
// The server runs in a child process (buildApp + listen, EGTS on an ephemeral loopback port) so its CPU and
// memory are measured apart from the load generator's. Each terminal authenticates (TERM_IDENTITY), then
// sends one POS_DATA packet a second; the time from writing a packet to reading its RESPONSE is the
// acknowledgement latency. Target: no acknowledgement later than 1 s (terminals resend after 5 s).
// With DATABASE_URL, use a scratch database: the benchmark adds its vehicles (peer addresses 9000001...)
// and removes them, with their track, at the end.
import { fork, type ChildProcess } from 'node:child_process';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { BenchTerminal } from './egtsTerminal';
import { setTimeout as delay } from 'node:timers/promises';

const TERMINALS = Number(process.env.BENCH_TERMINALS ?? 5000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 60);
const PEER_BASE = 9_000_000;

interface ServerStats {
  cpuMicros: number;
  rss: number;
  heapUsed: number;
  /** Event-loop delay since the run started. */
  eventLoopP99Ms: number;
  eventLoopMaxMs: number;
  telemetry: {
    accepted: number;
    duplicates: number;
    rejected: number;
    vehicles: number;
    track: { written: number; buffered: number; failedFlushes: number; maxFlushMs: number };
  };
  egts: { connections: number; accepted: number; packets: number; positions: number; refused: number } | undefined;
}

type ToServer = { type: 'stats'; reset?: boolean } | { type: 'stop' };
type FromServer = { type: 'ready'; egtsPort: number; engine: string } | { type: 'stats'; stats: ServerStats } | { type: 'stopped' };

if (process.argv.includes('--server')) await runServer();
else await runLoad();

/* ------------------------------------------------------------------ server (child process) */

async function runServer(): Promise<void> {
  // Loopback only: the listener is started below on an ephemeral 127.0.0.1 port, never the configured one.
  process.env.EGTS_PORT = '0';
  const { buildApp } = await import('../../src/server/app');
  const { loadConfig } = await import('../../src/server/config');
  const config = {
    ...loadConfig({ ...process.env, LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn' }),
    dataDir: undefined,
    demoData: false,
    staticDir: undefined,
  };
  const app = await buildApp(config);
  const [{ n: existing }] = await app.db.query<{ n: number }>(
    'select count(*)::int as n from mgt.vehicles where peer_address > $1 and peer_address <= $2',
    [PEER_BASE, PEER_BASE + TERMINALS],
  );
  if (existing < TERMINALS) {
    await app.db.query(
      `insert into mgt.vehicles (depot_number, peer_address)
       select 900000 + g, $1::bigint + g from generate_series(1, $2::int) g
        where not exists (select 1 from mgt.vehicles v where v.peer_address = $1::bigint + g)`,
      [PEER_BASE, TERMINALS],
    );
  }
  await app.listen({ port: 0, host: '127.0.0.1' });
  await app.telemetry.devices.refresh();
  const egtsPort = await app.telemetry.startEgts(0, '127.0.0.1');
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  const send = (message: FromServer) => process.send!(message);
  process.on('message', async (message: ToServer) => {
    if (message.type === 'stats') {
      const telemetry = app.telemetry.pipeline.stats();
      const usage = process.cpuUsage();
      send({
        type: 'stats',
        stats: {
          cpuMicros: usage.user + usage.system,
          rss: process.memoryUsage().rss,
          heapUsed: process.memoryUsage().heapUsed,
          eventLoopP99Ms: loop.percentile(99) / 1e6,
          eventLoopMaxMs: loop.max / 1e6,
          telemetry,
          egts: app.telemetry.egts?.stats(),
        },
      });
      if (message.reset) loop.reset();
    } else if (message.type === 'stop') {
      await app.telemetry.egts?.close();
      await app.telemetry.track.writer.flush();
      if (config.databaseUrl) {
        await app.db.query(
          'delete from app.track where vehicle_id in (select id from mgt.vehicles where peer_address > $1 and peer_address <= $2)',
          [PEER_BASE, PEER_BASE + TERMINALS],
        );
        await app.db.query('delete from mgt.vehicles where peer_address > $1 and peer_address <= $2', [PEER_BASE, PEER_BASE + TERMINALS]);
      }
      await app.close();
      send({ type: 'stopped' });
      process.exit(0);
    }
  });
  send({ type: 'ready', egtsPort, engine: app.db.engine });
}

/* ------------------------------------------------------------------ load generator (parent process) */

async function runLoad(): Promise<void> {
  const child = fork(fileURLToPath(import.meta.url), ['--server'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const inbox = messages(child);
  const startedAt = performance.now();
  const ready = await inbox.next('ready');
  if (ready.type !== 'ready') throw new Error('server did not start');
  console.log(`server up in ${Math.round(performance.now() - startedAt)} ms (${ready.engine}), EGTS on 127.0.0.1:${ready.egtsPort}`);

  const latencies = new Float64Array(TERMINALS * (SECONDS + 5));
  let latencyCount = 0;
  let sent = 0;
  let acked = 0;
  let refused = 0;
  let measuring = false;
  const listener = {
    acked(latencyMs: number, wasRefused: boolean) {
      if (wasRefused) refused += 1;
      acked += 1;
      if (measuring && latencyCount < latencies.length) latencies[latencyCount++] = latencyMs;
    },
  };

  // Fix times advance one second per packet from a whole second: terminals send at 1 Hz of their own clock.
  const fixEpoch = Math.floor(Date.now() / 1000) * 1000;
  const terminals = Array.from({ length: TERMINALS }, (_, i) => new BenchTerminal(PEER_BASE + i + 1, i, listener));
  const connectStart = performance.now();
  for (let i = 0; i < terminals.length; i += 250) {
    await Promise.all(terminals.slice(i, i + 250).map((t) => t.open(ready.egtsPort)));
  }
  const connectMs = performance.now() - connectStart;
  const authStart = performance.now();
  for (let i = 0; i < terminals.length; i += 500) {
    await Promise.all(terminals.slice(i, i + 500).map((t) => t.authenticate()));
  }
  const authMs = performance.now() - authStart;
  const authenticated = terminals.filter((t) => t.authenticated).length;
  console.log(`${TERMINALS} connections opened in ${Math.round(connectMs)} ms, ${authenticated} authenticated in ${Math.round(authMs)} ms`);

  const clientLoop = monitorEventLoopDelay({ resolution: 10 });
  clientLoop.enable();
  const before = await stats(child, inbox, true);
  const cpuStart = process.cpuUsage();
  let peakRss = before.rss;
  let peakBuffered = 0;
  const sampler = setInterval(() => {
    void stats(child, inbox).then((s) => {
      peakRss = Math.max(peakRss, s.rss);
      peakBuffered = Math.max(peakBuffered, s.telemetry.track.buffered);
    });
  }, 1000);

  // 100 slots of 10 ms: terminal i sends in slot i % 100, so the fleet's packets spread evenly over each second.
  measuring = true;
  const runStart = performance.now();
  const sentStart = sent;
  for (let tick = 0; tick < SECONDS * 100; tick++) {
    const slot = tick % 100;
    for (let i = slot; i < terminals.length; i += 100) {
      terminals[i].sendFix(fixEpoch + terminals[i].fixes * 1000);
      sent += 1;
    }
    const next = runStart + (tick + 1) * 10;
    const wait = next - performance.now();
    if (wait > 0) await delay(wait);
  }
  const runMs = performance.now() - runStart;
  const sentInRun = sent - sentStart;
  const drainUntil = performance.now() + 5000;
  while (terminals.some((t) => t.outstanding > 0) && performance.now() < drainUntil) await delay(20);
  measuring = false;
  clearInterval(sampler);
  const after = await stats(child, inbox);
  const clientCpu = process.cpuUsage(cpuStart);
  const unacked = terminals.reduce((sum, t) => sum + t.outstanding, 0);

  const sorted = latencies.subarray(0, latencyCount).sort();
  const pct = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
  const over1s = sorted.length - lowerBound(sorted, 1000);
  const serverCpuPct = ((after.cpuMicros - before.cpuMicros) / 1000 / runMs) * 100;
  const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

  for (const t of terminals) t.destroy();
  child.send({ type: 'stop' } satisfies ToServer);
  await inbox.next('stopped').catch(() => undefined);
  const finalRows = after.telemetry.track.written;

  console.log(`
EGTS ingestion — ${TERMINALS} terminals × 1 POS_DATA/s for ${(runMs / 1000).toFixed(1)} s, ${ready.engine}
  packets sent            ${sentInRun}
  acknowledged            ${acked} (${(latencyCount / (runMs / 1000)).toFixed(0)}/s), refused ${refused}, unanswered ${unacked}
  ack latency             p50 ${pct(50).toFixed(1)} ms · p95 ${pct(95).toFixed(1)} ms · p99 ${pct(99).toFixed(1)} ms · max ${sorted[sorted.length - 1].toFixed(1)} ms
  acks later than 1 s     ${over1s}
  server CPU              ${serverCpuPct.toFixed(0)} % of one core (event-loop delay p99 ${after.eventLoopP99Ms.toFixed(0)} ms, max ${after.eventLoopMaxMs.toFixed(0)} ms)
  server RSS              ${mb(before.rss)} before, ${mb(peakRss)} peak, heap ${mb(after.heapUsed)}
  track rows written      ${finalRows} by the end of the run (buffered at most ${peakBuffered}, slowest flush ${after.telemetry.track.maxFlushMs.toFixed(0)} ms, failed flushes ${after.telemetry.track.failedFlushes})
  pipeline                accepted ${after.telemetry.accepted}, duplicates ${after.telemetry.duplicates}, rejected ${after.telemetry.rejected}, vehicles live ${after.telemetry.vehicles}
  load generator          CPU ${(((clientCpu.user + clientCpu.system) / 1000 / runMs) * 100).toFixed(0)} % of one core, event loop p99 ${(clientLoop.percentile(99) / 1e6).toFixed(0)} ms
  target (no ack > 1 s)   ${over1s === 0 && unacked === 0 ? 'met' : 'NOT met'}
`);
  process.exit(0);
}

function lowerBound(sorted: Float64Array, value: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid] < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function messages(child: ChildProcess) {
  const queue: FromServer[] = [];
  const waiting: { type: FromServer['type']; resolve: (m: FromServer) => void }[] = [];
  child.on('message', (message: FromServer) => {
    const index = waiting.findIndex((w) => w.type === message.type);
    if (index >= 0) waiting.splice(index, 1)[0].resolve(message);
    else queue.push(message);
  });
  child.on('exit', (code) => {
    if (code !== 0) {
      console.error(`server exited with code ${code}`);
      process.exit(1);
    }
  });
  return {
    next(type: FromServer['type']): Promise<FromServer> {
      const index = queue.findIndex((m) => m.type === type);
      if (index >= 0) return Promise.resolve(queue.splice(index, 1)[0]);
      return new Promise((resolve) => waiting.push({ type, resolve }));
    },
  };
}

async function stats(child: ChildProcess, inbox: ReturnType<typeof messages>, reset = false): Promise<ServerStats> {
  child.send({ type: 'stats', reset } satisfies ToServer);
  const message = await inbox.next('stats');
  if (message.type !== 'stats') throw new Error('unexpected message');
  return message.stats;
}
