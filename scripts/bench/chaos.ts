// Chaos: EGTS ingestion while PostgreSQL restarts. Nothing acknowledged may be lost.
//
//   npx tsx scripts/bench/chaos.ts                       # 1,000 terminals × 1 Hz, 90 s, PostgreSQL restarted at 20 s and 50 s
//   CHAOS_TERMINALS=200 CHAOS_SECONDS=40 CHAOS_RESTARTS=15,30 npx tsx scripts/bench/chaos.ts
//   CHAOS_DATABASE_URL=postgres://postgres@127.0.0.1:5432/tc_faults_load SIMULATOR=true npx tsx scripts/bench/chaos.ts
//
// A real server process (src/server/main.ts) on its own database (CHAOS_DATABASE_URL, default
// postgres://postgres@127.0.0.1:5432/tc_faults_chaos, created if missing) takes EGTS from a simulated fleet
// and HTTP telemetry from one source, while the local cluster is restarted (CHAOS_RESTART_COMMAND, default
// `pg_ctlcluster --skip-systemctl-redirect <version> main restart`: this disturbs every other user of the
// server for a few seconds). Afterwards every acknowledged position (EGTS RESPONSE, HTTP 200) is looked up in
// app.track: stored, missing, duplicates. Ports: HTTP 3302, EGTS 4202 (CHAOS_PORT, CHAOS_EGTS_PORT).
import { spawn } from 'node:child_process';
import { readdirSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import pg from 'pg';
import { openPostgres } from '../../src/server/db/postgres';
import { migrate } from '../../src/server/db/migrate';
import { FrameReader } from '../../src/server/telemetry/egts/frameReader';
import { authPacket, positionsPacket } from '../../src/server/telemetry/egts/terminalPackets';
import { createSource } from '../../src/server/telemetry/http/sourceKeys';
import { ensureDatabase, percentile, startServerProcess } from './serverProcess';

const TERMINALS = Number(process.env.CHAOS_TERMINALS ?? 1000);
const SECONDS = Number(process.env.CHAOS_SECONDS ?? 90);
const RESTARTS = (process.env.CHAOS_RESTARTS ?? '20,50')
  .split(',')
  .map(Number)
  .filter((s) => s > 0);
const URL_ = process.env.CHAOS_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/tc_faults_chaos';
const PORT = Number(process.env.CHAOS_PORT ?? 3302);
const EGTS_PORT = Number(process.env.CHAOS_EGTS_PORT ?? 4202);
const DATA_DIR = process.env.CHAOS_DATA_DIR ?? '/tmp/tc-faults-chaos';
const PEER_BASE = 9_100_000;
const HTTP_PEER = PEER_BASE + TERMINALS + 1;
const cluster = readdirSync('/etc/postgresql')[0];
const RESTART_COMMAND = (process.env.CHAOS_RESTART_COMMAND ?? `pg_ctlcluster --skip-systemctl-redirect ${cluster} main restart`).split(' ');

// ---------------------------------------------------------------- database and server
await ensureDatabase(URL_);
{
  const db = await openPostgres(URL_, 2);
  await migrate(db);
  await db.query('truncate app.track');
  await db.query(
    `insert into mgt.vehicles (depot_number, peer_address)
     select 910000 + g, $1::bigint + g from generate_series(1, $2::int + 1) g
      where not exists (select 1 from mgt.vehicles v where v.peer_address = $1::bigint + g)`,
    [PEER_BASE, TERMINALS],
  );
  await db.close();
}
const source = await (async () => {
  const db = await openPostgres(URL_, 1);
  const created = await createSource(db, `chaos ${new Date().toISOString()}`, null);
  await db.close();
  return created;
})();

rmSync(DATA_DIR, { recursive: true, force: true });
const server = await startServerProcess({
  DATABASE_URL: URL_,
  PORT: String(PORT),
  HOST: '127.0.0.1',
  EGTS_PORT: String(EGTS_PORT),
  EGTS_HOST: '127.0.0.1',
  // SIMULATOR=true on a database holding the demo city (LOAD's) adds the simulator's writes to the outage.
  DATA_DIR,
  DEMO_DATA: 'false',
  SIMULATOR: process.env.SIMULATOR ?? 'false',
});
// The device index loaded before the vehicles were all there is refreshed each minute: wait for ours.
await delay(1000);
const rssStart = server.rssMb();

// ---------------------------------------------------------------- EGTS fleet
const ackLatencies: number[] = [];
const acked = new Set<string>();
let sent = 0;
let refused = 0;

class Terminal {
  socket!: Socket;
  private readonly reader = new FrameReader(65_553);
  private readonly counters = { pid: 0, rn: 0 };
  private readonly waiting = new Map<number, { at: number; time: number }>();
  ready = false;

  constructor(readonly peer: number) {}

  open(): Promise<void> {
    return new Promise((resolve, reject) => {
      this.socket = connect({ port: EGTS_PORT, host: '127.0.0.1', noDelay: true }, () => resolve());
      this.socket.once('error', reject);
      this.socket.on('data', (chunk: Buffer) => this.onData(chunk));
    });
  }

  authenticate(): void {
    this.socket.write(authPacket(this.next('pid'), this.next('rn'), { tid: this.peer }));
  }

  send(time: number): void {
    const pid = this.next('pid');
    this.waiting.set(pid, { at: performance.now(), time });
    sent += 1;
    this.socket.write(
      positionsPacket(pid, [
        {
          rn: this.next('rn'),
          fixes: [{ time, lat: 59.9 + (this.peer % 1000) * 1e-4, lon: 30.3 + (time % 100_000) * 1e-7, speed: 25, course: 90, valid: true }],
        },
      ]),
    );
  }

  get outstanding(): number {
    return this.waiting.size;
  }

  private onData(chunk: Buffer): void {
    const now = performance.now();
    for (const event of this.reader.push(chunk)) {
      if (event.kind !== 'frame') continue;
      if (event.header.pt === 1) {
        this.ready = event.body[event.body.length - 1] === 0;
        continue;
      }
      const entry = this.waiting.get(event.body.readUInt16LE(0));
      if (!entry) continue;
      this.waiting.delete(event.body.readUInt16LE(0));
      if (event.body[2] !== 0) {
        refused += 1;
        continue;
      }
      acked.add(`${this.peer}:${entry.time}`);
      ackLatencies.push(now - entry.at);
    }
  }

  private next(kind: 'pid' | 'rn'): number {
    const value = this.counters[kind];
    this.counters[kind] = (value + 1) & 0xffff;
    return value;
  }
}

const terminals = Array.from({ length: TERMINALS }, (_, i) => new Terminal(PEER_BASE + i + 1));
for (let i = 0; i < terminals.length; i += 200) await Promise.all(terminals.slice(i, i + 200).map((t) => t.open()));
for (const t of terminals) t.authenticate();
await delay(2000);
const authenticated = terminals.filter((t) => t.ready).length;
if (authenticated < TERMINALS)
  console.log(`warning: ${authenticated} of ${TERMINALS} terminals authenticated (device index not refreshed yet?)`);

// ---------------------------------------------------------------- HTTP source, 5 batches a second
const http = { sent: 0, ok: 0, unavailable: 0, other: 0, codes: new Set<string>() };
const httpAcked = new Set<number>();
let httpTime = Math.floor(Date.now() / 1000) * 1000 - 60_000;
async function httpTick(): Promise<void> {
  const time = (httpTime += 200);
  http.sent += 1;
  try {
    const response = await fetch(`http://127.0.0.1:${PORT}/api/v1/telemetry/positions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-telemetry-key': source.key },
      body: JSON.stringify({ positions: [{ device: String(HTTP_PEER), time, lat: 59.95, lon: 30.3, speed: 10, course: 0 }] }),
    });
    const body = (await response.json()) as { messages?: string[] };
    if (response.status === 200) {
      http.ok += 1;
      httpAcked.add(time);
    } else if (response.status === 503) {
      http.unavailable += 1;
      for (const code of body.messages ?? []) http.codes.add(code);
    } else http.other += 1;
  } catch {
    http.other += 1;
  }
}

// ---------------------------------------------------------------- run, restarting PostgreSQL
const restarts: { at: number; ms: number }[] = [];
const fixEpoch = Math.floor(Date.now() / 1000) * 1000;
const runStart = performance.now();
const pendingRestarts = [...RESTARTS];
const httpTimer = setInterval(() => void httpTick(), 200);
for (let tick = 0; tick < SECONDS * 100; tick += 1) {
  const slot = tick % 100;
  const second = Math.floor(tick / 100);
  for (let i = slot; i < terminals.length; i += 100) terminals[i].send(fixEpoch + second * 1000);
  if (slot === 0 && pendingRestarts[0] === second) {
    pendingRestarts.shift();
    // In the background: the fleet keeps sending while PostgreSQL goes down and comes back.
    const started = performance.now();
    const child = spawn(RESTART_COMMAND[0], RESTART_COMMAND.slice(1), { stdio: 'ignore' });
    child.on('exit', () => restarts.push({ at: second, ms: Math.round(performance.now() - started) }));
  }
  const wait = runStart + (tick + 1) * 10 - performance.now();
  if (wait > 0) await delay(wait);
}
clearInterval(httpTimer);
const until = performance.now() + 10_000;
while (terminals.some((t) => t.outstanding > 0) && performance.now() < until) await delay(50);
const unanswered = terminals.reduce((sum, t) => sum + t.outstanding, 0);
const rssEnd = server.rssMb();

// ---------------------------------------------------------------- every acknowledged position stored?
const check = new pg.Client({ connectionString: URL_ });
await check.connect();
const expected = acked.size + httpAcked.size;
let stored: { peer: string; tm: Date }[] = [];
const drainStart = performance.now();
for (;;) {
  stored = (
    await check.query<{ peer: string; tm: Date }>(
      `select v.peer_address::text as peer, t.tm from app.track t join mgt.vehicles v on v.id = t.vehicle_id
      where v.peer_address > $1 and v.peer_address <= $2`,
      [PEER_BASE, HTTP_PEER],
    )
  ).rows;
  if (stored.length >= expected || performance.now() - drainStart > 60_000) break;
  await delay(500);
}
const storedKeys = new Set(stored.map((row) => `${row.peer}:${row.tm.getTime()}`));
const missingEgts = [...acked].filter((key) => !storedKeys.has(key)).length;
const missingHttp = [...httpAcked].filter((time) => !storedKeys.has(`${HTTP_PEER}:${time}`)).length;
const [{ duplicates }] = (
  await check.query<{ duplicates: number }>(`select (count(*) - count(distinct (vehicle_id, tm)))::int as duplicates from app.track`)
).rows;
const afterRestart = await fetch(`http://127.0.0.1:${PORT}/api/v1/telemetry/positions`, {
  method: 'POST',
  headers: { 'content-type': 'application/json', 'x-telemetry-key': source.key },
  body: JSON.stringify({ positions: [] }),
}).then(
  (r) => r.status,
  () => 0,
);
await check.end();

for (const t of terminals) t.socket.destroy();
const alive = server.alive();
const errors = server.errors();
await server.stop();

const sorted = [...ackLatencies].sort((a, b) => a - b);
const pct = (p: number) => percentile(sorted, p);
console.log(`
Chaos — ${TERMINALS} EGTS terminals × 1 Hz for ${SECONDS} s, PostgreSQL restarted at ${RESTARTS.join(' s, ')} s (${restarts.map((r) => `${r.ms} ms`).join(', ')} each)
  EGTS sent               ${sent}
  EGTS acknowledged       ${acked.size}, refused ${refused}, unanswered ${unanswered}
  ack latency             p50 ${pct(50).toFixed(1)} ms · p95 ${pct(95).toFixed(1)} ms · p99 ${pct(99).toFixed(1)} ms · max ${sorted.at(-1)?.toFixed(1)} ms
  stored (EGTS + HTTP)    ${stored.length} rows (${Math.round(performance.now() - drainStart)} ms after the run to catch up)
  missing                 ${missingEgts} acknowledged EGTS positions, ${missingHttp} HTTP positions answered 200
  duplicates              ${duplicates}
  HTTP batches            ${http.sent} sent: ${http.ok} × 200, ${http.unavailable} × 503 (${[...http.codes].join(', ') || '—'}), ${http.other} other
  server                  ${alive ? 'alive throughout' : `EXITED (${server.exitCode()})`}; answers after the restarts: HTTP ${afterRestart}; RSS ${rssStart} → ${rssEnd} MB; ${errors.length} error lines logged
  verdict                 ${missingEgts + missingHttp === 0 && duplicates === 0 && alive ? 'nothing acknowledged was lost' : 'LOSS OR FAILURE'}
`);
if (errors.length)
  console.log(
    `first error lines:\n${errors
      .slice(0, 5)
      .map((line) => line.slice(0, 300))
      .join('\n')}`,
  );
process.exit(0);
