/**
 * Stall benchmark: while one low-privilege user (the demo's `viewer`) runs the heaviest things the API lets
 * them, without pause, how fast are everyone else's requests? The heavy user's loops: 3 free-text searches of
 * 200 characters over the schedule times, the schedule times' CSV export, a 366-day report and a 366-day
 * report export. Another user (`operator`) meanwhile asks a database-backed list every 200 ms, and
 * auth/current every 200 ms; 200 EGTS terminals send a position a second each.
 * Targets on the embedded engine: the other user's list p99 < 300 ms, auth/current p99 < 200 ms, EGTS
 * acknowledgements < 1 s.
 *
 *   npx tsx scripts/bench/stall.ts                                  # embedded PGlite, the city demo loaded first (minutes)
 *   BENCH_DATA_DIR=.tmp/city npx tsx scripts/bench/stall.ts         # a copy of a data folder the city demo was loaded into
 *   DATABASE_URL=postgres://... npx tsx scripts/bench/stall.ts      # a SCRATCH database with the city demo
 *   BENCH_SECONDS=60 BENCH_TERMINALS=200 BENCH_ROWS=<fill mgt.rasp_time with this many rows instead of the demo's>
 *
 * The server runs in a child process (buildApp + listen, EGTS on an ephemeral loopback port), the clients
 * here. The EGTS acknowledgement measured is the durable one: sent once the position is fsync'd to the track
 * spool (TRACK_SPOOL_SYNC_MS), before the track writer moves it into the database.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as delay } from 'node:timers/promises';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 60);
const ROWS = Number(process.env.BENCH_ROWS ?? 0);
const TERMINALS = Number(process.env.BENCH_TERMINALS ?? 200);
const PEER_BASE = 9_100_000;
/** The other user's pace, as the probe: one request every 200 ms. */
const OTHER_EVERY_MS = 200;
const PROBE_TIMEOUT_MS = 30_000;
/** A search of 200 characters: the longest the list accepts (FILTER_TEXT_MAX), found nowhere. */
const LONG_SEARCH = 'Смена поиска без совпадений '.repeat(8).slice(0, 200);

type FromServer =
  | { type: 'ready'; address: string; egtsPort: number; engine: string; raspTimes: number }
  | { type: 'stats'; rss: number; buffered: number; written: number };

/** Latencies of one kind of request, with the statuses other than 200. */
class Timings {
  readonly ms: number[] = [];
  readonly statuses = new Map<string, number>();
  add(ms: number, status: number, text = ''): void {
    this.ms.push(ms);
    if (status === 200) return;
    const key = `${status}${text ? ` ${text.slice(0, 50)}` : ''}`;
    this.statuses.set(key, (this.statuses.get(key) ?? 0) + 1);
  }
  line(): string {
    const sorted = [...this.ms].sort((a, b) => a - b);
    const pct = (p: number) => (sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN).toFixed(0);
    const others = [...this.statuses].map(([key, n]) => `${n}× ${key}`).join('; ');
    return `p50 ${pct(50)} ms · p99 ${pct(99)} ms · max ${(sorted.at(-1) ?? NaN).toFixed(0)} ms (${sorted.length})${others ? `; not 200: ${others}` : ''}`;
  }
  p99(): number {
    const sorted = [...this.ms].sort((a, b) => a - b);
    return sorted[Math.min(sorted.length - 1, Math.floor(0.99 * sorted.length))] ?? NaN;
  }
}

if (process.argv.includes('--server')) await runServer();
else await runClients();

async function runServer(): Promise<void> {
  process.env.SIMULATOR = 'false';
  process.env.EGTS_PORT = '0';
  const { buildApp } = await import('../../src/server/app');
  const { loadConfig } = await import('../../src/server/config');
  // PGlite on disk as in production: a query past its limit restarts the worker on the same data.
  const dataDir = process.env.DATABASE_URL ? undefined : mkdtempSync(join(tmpdir(), 'stall-bench-'));
  if (dataDir && process.env.BENCH_DATA_DIR) cpSync(process.env.BENCH_DATA_DIR, dataDir, { recursive: true });
  const config = {
    ...loadConfig({ ...process.env, LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn' }),
    dataDir,
    staticDir: undefined,
    demoData: true,
    demoScale: 'city' as const,
  };
  const app = await buildApp(config, { seedDemo: true });
  if (ROWS) {
    const { fillRaspTime } = await import('./tableList');
    await fillRaspTime(app.db, ROWS);
  }
  const [{ n: raspTimes }] = await app.db.query<{ n: number }>('select count(*)::int as n from mgt.rasp_time');
  await app.db.query(
    `insert into mgt.vehicles (depot_number, peer_address)
     select 910000 + g, $1::bigint + g from generate_series(1, $2::int) g
      where not exists (select 1 from mgt.vehicles v where v.peer_address = $1::bigint + g)`,
    [PEER_BASE, TERMINALS],
  );
  await app.telemetry.devices.refresh();
  const egtsPort = await app.telemetry.startEgts(0, '127.0.0.1');
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  const send = (message: FromServer) => process.send!(message);
  process.on('message', async (message: { type: 'stats' | 'stop' }) => {
    if (message.type === 'stats') {
      const { track } = app.telemetry.pipeline.stats();
      send({ type: 'stats', rss: process.memoryUsage().rss, buffered: track.buffered, written: track.written });
      return;
    }
    await app.telemetry.egts?.close();
    if (config.databaseUrl)
      await app.db
        .query('delete from mgt.vehicles where peer_address > $1 and peer_address <= $2', [PEER_BASE, PEER_BASE + TERMINALS])
        .catch(() => {});
    await app.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    process.exit(0);
  });
  send({ type: 'ready', address, egtsPort, engine: app.db.engine, raspTimes });
}

async function login(address: string, username: string, password: string): Promise<string> {
  const response = await fetch(`${address}/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  return `Bearer ${((await response.json()) as { token: string }).token}`;
}

/** The last 366 days as the report filters take them. */
function lastYear(): string {
  const to = new Date();
  const from = new Date(to.getTime() - 365 * 86_400_000);
  from.setUTCHours(0, 0, 0, 0);
  return `from=${encodeURIComponent(from.toISOString())}&to=${encodeURIComponent(to.toISOString())}`;
}

async function runClients(): Promise<void> {
  const { FrameReader } = await import('../../src/server/telemetry/egts/frameReader');
  const { authPacket, positionsPacket } = await import('../../src/server/telemetry/egts/terminalPackets');
  const child = fork(fileURLToPath(import.meta.url), ['--server'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const next = () => new Promise<FromServer>((resolve) => child.once('message', resolve));
  const ready = await next();
  if (ready.type !== 'ready') throw new Error('server did not start');
  const { address } = ready;

  const heavyUser = await login(address, 'viewer', 'viewer123');
  const otherUser = await login(address, 'operator', 'operator123');
  // Aborted at the end: an export still streaming would otherwise keep the server from closing.
  const heavyRequests = new AbortController();
  const request = (authorization: string, path: string, body?: unknown, signal?: AbortSignal) =>
    fetch(`${address}${path}`, {
      method: body ? 'POST' : 'GET',
      headers: body ? { 'content-type': 'application/json', authorization } : { authorization },
      body: body ? JSON.stringify(body) : undefined,
      signal: signal ? AbortSignal.any([signal, heavyRequests.signal]) : heavyRequests.signal,
    });

  // Terminals: authenticated, then one position a second each; the time to its acknowledgement is measured.
  const ackLatencies: number[] = [];
  let running = true;
  const terminals = await Promise.all(Array.from({ length: TERMINALS }, (_, index) => openTerminal(index)));
  async function openTerminal(index: number): Promise<{ socket: Socket; send(): void; unanswered(): number }> {
    const reader = new FrameReader(65_553);
    const sentAt = new Map<number, number>();
    let pid = 0;
    const socket = connect({ port: ready.type === 'ready' ? ready.egtsPort : 0, host: '127.0.0.1', noDelay: true });
    await new Promise((resolve) => socket.once('connect', resolve));
    const authenticated = new Promise<void>((resolve) => {
      socket.on('data', (chunk: Buffer) => {
        for (const event of reader.push(chunk)) {
          if (event.kind !== 'frame') continue;
          if (event.header.pt === 1) resolve();
          const at = sentAt.get(event.body.readUInt16LE(0));
          if (at === undefined) continue;
          sentAt.delete(event.body.readUInt16LE(0));
          ackLatencies.push(performance.now() - at);
        }
      });
    });
    socket.write(authPacket(pid++, 0, { tid: PEER_BASE + index + 1 }));
    await authenticated;
    let fixes = 0;
    return {
      socket,
      send() {
        const id = pid++ & 0xffff;
        const time = Math.floor(Date.now() / 1000) * 1000 + fixes++;
        sentAt.set(id, performance.now());
        socket.write(
          positionsPacket(id, [{ rn: id, fixes: [{ time, lat: 59.9 + index * 1e-4, lon: 30.3, speed: 20, course: 90, valid: true }] }]),
        );
      },
      unanswered: () => sentAt.size,
    };
  }
  const egtsTimer = setInterval(
    () => terminals.forEach((terminal, i) => setTimeout(() => running && terminal.send(), (i * 1000) / TERMINALS)),
    1000,
  );

  // The consoles are open before the heavy work starts: their sessions and current users have been read once.
  for (const authorization of [heavyUser, otherUser]) await (await request(authorization, '/api/v1/auth/current/')).arrayBuffer();

  // The heavy user's loops: each starts its next request as soon as the last ended (a refusal: 200 ms later).
  const year = lastYear();
  const heavyKinds = {
    'search (200 chars)': () =>
      request(heavyUser, '/api/table/list', { config: { type: 'rasptimes' }, filters: { q: LONG_SEARCH }, perPage: 100 }),
    'schedule times export': () =>
      request(heavyUser, '/api/table/export', { config: { type: 'rasptimes' }, sort: { field: 'time', order: 'ASC' } }),
    '366-day report': () => request(heavyUser, `/api/v1/reports/adas/incidents-detailing?${year}&recordCount=1000`),
    '366-day report export': () => request(heavyUser, `/api/v1/journals/adas/export?${year}&format=csv`),
  };
  type HeavyKind = keyof typeof heavyKinds;
  const heavy = new Map<HeavyKind, Timings>(Object.keys(heavyKinds).map((kind) => [kind as HeavyKind, new Timings()]));
  const heavyLoop = async (kind: HeavyKind) => {
    while (running && !heavyRequests.signal.aborted) {
      const started = performance.now();
      const response = await heavyKinds[kind]().catch(() => undefined);
      if (!response) break;
      // an export's time is its whole download
      const text = response.status === 200 ? '' : await response.text().catch(() => '');
      if (response.status === 200) await response.arrayBuffer().catch(() => undefined);
      if (!running) break;
      heavy.get(kind)!.add(performance.now() - started, response.status, text);
      if (response.status !== 200) await delay(200);
    }
  };
  const kinds: HeavyKind[] = [
    'search (200 chars)',
    'search (200 chars)',
    'search (200 chars)',
    'schedule times export',
    '366-day report',
    '366-day report export',
  ];
  const loops = kinds.map(heavyLoop);
  await delay(2000); // every heavy request under way

  // The other user: a database-backed list every 200 ms, and auth/current every 200 ms, each one at a time.
  const otherList = new Timings();
  const current = new Timings();
  const until = performance.now() + SECONDS * 1000;
  ackLatencies.length = 0;
  // A request unanswered after PROBE_TIMEOUT_MS is given up and counted as such (status 0).
  const probe = async (timings: Timings, ask: (signal: AbortSignal) => Promise<Response>) => {
    while (performance.now() < until) {
      const started = performance.now();
      try {
        const response = await ask(AbortSignal.timeout(PROBE_TIMEOUT_MS));
        const text = await response.text();
        timings.add(performance.now() - started, response.status, response.status === 200 ? '' : text);
      } catch {
        timings.add(performance.now() - started, 0, `no answer within ${PROBE_TIMEOUT_MS / 1000} s`);
      }
      await delay(OTHER_EVERY_MS);
    }
  };
  await Promise.all([
    probe(otherList, (signal) => request(otherUser, '/api/table/list', { config: { type: 'routes' }, perPage: 25 }, signal)),
    probe(current, (signal) => request(otherUser, '/api/v1/auth/current/', undefined, signal)),
  ]);
  running = false;
  clearInterval(egtsTimer);
  // Positions sent in the last second have until the target to be acknowledged; any still unanswered then is late.
  await delay(1000);
  const acks = new Timings();
  for (const ms of ackLatencies) acks.add(ms, 200);
  const unanswered = terminals.reduce((sum, terminal) => sum + terminal.unanswered(), 0);
  child.send({ type: 'stats' });
  const stats = await next();
  heavyRequests.abort();
  await Promise.allSettled(loops);

  const met = (ok: boolean) => (ok ? 'met' : 'NOT met');
  console.log(`
Stall — ${ready.engine}, ${SECONDS} s; the heavy user (viewer) runs ${kinds.length} requests at all times over ${ready.raspTimes.toLocaleString('en')} schedule times
  heavy user's own requests
${[...heavy].map(([kind, timings]) => `    ${kind.padEnd(24)}${timings.line()}`).join('\n')}
  other user (operator), every ${OTHER_EVERY_MS} ms
    handbook list           ${otherList.line()}
    auth/current            ${current.line()}
  EGTS acknowledgements     ${acks.line()}, unanswered at the end ${unanswered}, later than 1 s ${acks.ms.filter((ms) => ms > 1000).length}
  server                    RSS ${stats.type === 'stats' ? `${Math.round(stats.rss / 1048576)} MB, track rows written ${stats.written}, buffered ${stats.buffered}` : '?'}
  load average              ${loadavg()
    .map((n) => n.toFixed(1))
    .join(' ')}
  targets                   other user's list p99 < 300 ms: ${met(otherList.p99() < 300)}; auth/current p99 < 200 ms: ${met(current.p99() < 200)}; acks < 1 s: ${met(Math.max(...acks.ms) < 1000 && !unanswered)}
`);
  terminals.forEach((terminal) => terminal.socket.destroy());
  child.send({ type: 'stop' });
  await new Promise((resolve) => (child as ChildProcess).once('exit', resolve));
  process.exit(0);
}
