/**
 * Stall benchmark: while 5 deliberately heavy requests run without pause (2 CSV exports of 1,000,000 schedule
 * times, 3 free-text searches that scan them all), how fast do /api/v1/auth/current/ and EGTS
 * acknowledgements answer? Targets: auth/current p99 < 200 ms, EGTS acknowledgements < 1 s.
 *
 *   npx tsx scripts/bench/stall.ts                                  # embedded PGlite (a temporary folder)
 *   DATABASE_URL=postgres://... npx tsx scripts/bench/stall.ts      # a SCRATCH database: rasp_time is replaced
 *   BENCH_SECONDS=60 BENCH_ROWS=1000000 BENCH_TERMINALS=200
 *
 * The server runs in a child process (buildApp + listen, EGTS on an ephemeral loopback port), the clients
 * here. The EGTS acknowledgement measured is the durable one: sent once the position is fsync'd to the track
 * spool (TRACK_SPOOL_SYNC_MS), before the track writer moves it into the database.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as delay } from 'node:timers/promises';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 60);
const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);
const TERMINALS = Number(process.env.BENCH_TERMINALS ?? 200);
const PEER_BASE = 9_100_000;

type FromServer = { type: 'ready'; address: string; egtsPort: number; engine: string } | { type: 'stats'; rss: number; buffered: number; written: number };

if (process.argv.includes('--server')) await runServer();
else await runClients();

async function runServer(): Promise<void> {
  process.env.SIMULATOR = 'false';
  process.env.EGTS_PORT = '0';
  const { buildApp } = await import('../../src/server/app');
  const { loadConfig } = await import('../../src/server/config');
  const { fillRaspTime } = await import('./tableList');
  // PGlite on disk as in production: a query past its limit restarts the worker on the same data.
  const dataDir = process.env.DATABASE_URL ? undefined : mkdtempSync(join(tmpdir(), 'stall-bench-'));
  const config = { ...loadConfig({ ...process.env, LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn' }), dataDir, staticDir: undefined, demoData: true, demoScale: 'test' as const };
  const app = await buildApp(config, { seedDemo: true });
  const started = performance.now();
  await fillRaspTime(app.db, ROWS);
  console.log(`mgt.rasp_time filled with ${ROWS.toLocaleString('en')} rows in ${((performance.now() - started) / 1000).toFixed(1)} s`);
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
    if (config.databaseUrl) await app.db.query('delete from mgt.vehicles where peer_address > $1 and peer_address <= $2', [PEER_BASE, PEER_BASE + TERMINALS]).catch(() => {});
    await app.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    process.exit(0);
  });
  send({ type: 'ready', address, egtsPort, engine: app.db.engine });
}

async function runClients(): Promise<void> {
  const { FrameReader } = await import('../../src/server/telemetry/egts/frameReader');
  const { authPacket, positionsPacket } = await import('../../src/server/telemetry/egts/terminalPackets');
  const child = fork(fileURLToPath(import.meta.url), ['--server'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const next = () => new Promise<FromServer>((resolve) => child.once('message', resolve));
  const ready = await next();
  if (ready.type !== 'ready') throw new Error('server did not start');
  const { address } = ready;

  const login = await fetch(`${address}/api/v1/auth/login`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'admin', password: 'admin123' }),
  });
  const authorization = `Bearer ${((await login.json()) as { token: string }).token}`;
  // Aborted at the end: an export still streaming would otherwise keep the server from closing.
  const heavyRequests = new AbortController();
  const post = (path: string, body: unknown) =>
    fetch(`${address}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', authorization }, body: JSON.stringify(body), signal: heavyRequests.signal });

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
        socket.write(positionsPacket(id, [{ rn: id, fixes: [{ time, lat: 59.9 + index * 1e-4, lon: 30.3, speed: 20, course: 90, valid: true }] }]));
      },
      unanswered: () => sentAt.size,
    };
  }
  const egtsTimer = setInterval(() => terminals.forEach((terminal, i) => setTimeout(() => running && terminal.send(), (i * 1000) / TERMINALS)), 1000);

  // The console is open before the heavy work starts: its session and current user have been read once.
  await (await fetch(`${address}/api/v1/auth/current/`, { headers: { authorization } })).arrayBuffer();

  // Five heavy requests at all times: each loop starts the next as soon as the last ended.
  const heavy = { exports: 0, searches: 0, exportRows: 0, failures: new Map<string, number>() };
  const heavyLoop = async (kind: 'export' | 'search', i: number) => {
    while (running && !heavyRequests.signal.aborted) {
      const response = kind === 'export'
        ? await post('/api/table/export', { config: { type: 'rasptimes' }, sort: { field: 'time', order: 'ASC' } })
        : await post('/api/table/list', { config: { type: 'rasptimes' }, filters: { q: `нет такого ${i}` }, perPage: 100 });
      if (response.status === 200 && kind === 'export') {
        // rows counted as they stream: a 1,000,000-row export may outlast the run
        const reader = response.body!.getReader();
        for (let part = await reader.read(); !part.done; part = await reader.read()) for (const byte of part.value) if (byte === 10) heavy.exportRows += 1;
        heavy.exports += 1;
        continue;
      }
      const text = await response.text();
      if (response.status !== 200) {
        const key = `${kind} ${response.status} ${text.slice(0, 60)}`;
        heavy.failures.set(key, (heavy.failures.get(key) ?? 0) + 1);
      } else heavy.searches += 1;
    }
  };
  const loops = [heavyLoop('export', 0), heavyLoop('export', 1), heavyLoop('search', 2), heavyLoop('search', 3), heavyLoop('search', 4)];
  await delay(2000); // every heavy request under way

  // The console's session check, every 100 ms, one at a time.
  const currentLatencies: number[] = [];
  const currentFailures: number[] = [];
  const until = performance.now() + SECONDS * 1000;
  ackLatencies.length = 0;
  while (performance.now() < until) {
    const started = performance.now();
    const response = await fetch(`${address}/api/v1/auth/current/`, { headers: { authorization } });
    await response.arrayBuffer();
    currentLatencies.push(performance.now() - started);
    if (response.status !== 200) currentFailures.push(response.status);
    await delay(100);
  }
  running = false;
  clearInterval(egtsTimer);
  // Positions sent in the last second have until the target to be acknowledged; any still unanswered then is late.
  await delay(1000);
  const acks = [...ackLatencies];
  const unanswered = terminals.reduce((sum, terminal) => sum + terminal.unanswered(), 0);
  child.send({ type: 'stats' });
  const stats = await next();
  heavyRequests.abort();
  await Promise.allSettled(loops);

  const pct = (values: number[], p: number) => {
    const sorted = [...values].sort((a, b) => a - b);
    return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
  };
  const line = (values: number[]) =>
    `p50 ${pct(values, 50).toFixed(1)} ms · p95 ${pct(values, 95).toFixed(1)} ms · p99 ${pct(values, 99).toFixed(1)} ms · max ${Math.max(...values).toFixed(1)} ms (${values.length})`;
  console.log(`
Stall — ${ready.engine}, ${SECONDS} s under 5 heavy requests (2 exports, 3 full-scan searches over ${ROWS.toLocaleString('en')} rows)
  heavy requests done     ${heavy.exports} exports finished (${heavy.exportRows.toLocaleString('en')} rows streamed), ${heavy.searches} searches; failed: ${[...heavy.failures].map(([k, n]) => `${n}× ${k}`).join('; ') || 'none'}
  auth/current            ${line(currentLatencies)}${currentFailures.length ? `, ${currentFailures.length} not 200` : ''}
  EGTS acknowledgements   ${line(acks)}, unanswered at the end ${unanswered}, later than 1 s ${acks.filter((ms) => ms > 1000).length}
  server                  RSS ${stats.type === 'stats' ? `${Math.round(stats.rss / 1048576)} MB, track rows written ${stats.written}, buffered ${stats.buffered}` : '?'}
  load average            ${loadavg().map((n) => n.toFixed(1)).join(' ')}
  targets                 auth/current p99 < 200 ms: ${pct(currentLatencies, 99) < 200 ? 'met' : 'NOT met'}; acks < 1 s: ${Math.max(...acks) < 1000 && !unanswered ? 'met' : 'NOT met'}
`);
  terminals.forEach((terminal) => terminal.socket.destroy());
  child.send({ type: 'stop' });
  await new Promise((resolve) => (child as ChildProcess).once('exit', resolve));
  process.exit(0);
}
