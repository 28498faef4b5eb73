// Load: N concurrent operators doing a dispatcher's mix against a real server process on PostgreSQL.
//
//   npx tsx scripts/bench/load.ts                          # 200 operators for 10 minutes
//   npx tsx scripts/bench/load.ts --operators 200 --minutes 3
//
// The server (src/server/main.ts) runs on its own database (LOAD_DATABASE_URL, default
// postgres://postgres@127.0.0.1:5432/tc_faults_load, created if missing) with the demo city loaded on first
// start and the simulator driving the fleet, HTTP on 3302 (LOAD_PORT). Each operator logs in (accounts
// load001… added as copies of the demo dispatcher `operator`), keeps a geo stream of the whole city open, and then, every 1–3 s (a person's pace),
// does one of: a handbook list with a filter and a sort (55 %), a journal list (30 %), a handbook edit
// (an existing stop's note saved, 15 %). Prints errors (any answer other than 2xx, network failures, a stream
// that ended), throughput, latency p50/p95/p99 per kind and overall, and the server's RSS at the start and
// the end.
import { parseArgs } from 'node:util';
import { setTimeout as delay } from 'node:timers/promises';
import { serializeGeoSubscription } from '../../src/shared/map';
import { openPostgres } from '../../src/server/db/postgres';
import { ensureDatabase, percentile, startServerProcess } from './serverProcess';

const { values: args } = parseArgs({ options: { operators: { type: 'string', default: '200' }, minutes: { type: 'string', default: '10' } } });
const OPERATORS = Number(args.operators);
const MINUTES = Number(args.minutes);
const URL_ = process.env.LOAD_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/tc_faults_load';
const PORT = Number(process.env.LOAD_PORT ?? 3302);
const BASE = `http://127.0.0.1:${PORT}`;
const CITY: [number, number, number, number] = [59.75, 29.95, 60.1, 30.65];

await ensureDatabase(URL_);
const startedAt = performance.now();
const server = await startServerProcess({
  DATABASE_URL: URL_, PORT: String(PORT), HOST: '127.0.0.1', EGTS_PORT: '0', DATA_DIR: '/tmp/tc-faults-load', DEMO_DATA: 'true',
});
console.log(`server up in ${((performance.now() - startedAt) / 1000).toFixed(1)} s (pid ${server.pid})`);
{
  // One account per operator (load001…), each a copy of the demo dispatcher: same password and roles.
  const db = await openPostgres(URL_, 1);
  await db.query(
    `insert into app.users (username, password_hash, first_name, last_name)
     select 'load' || lpad(g::text, 3, '0'), u.password_hash, 'Нагрузка', g::text
       from app.users u, generate_series(1, $1::int) g where u.username = 'operator'
     on conflict do nothing`, [OPERATORS]);
  await db.query(
    `insert into app.user_role (user_id, role_id)
     select n.id, r.role_id from app.users n, app.users o join app.user_role r on r.user_id = o.id
      where o.username = 'operator' and n.username like 'load%'
     on conflict do nothing`);
  await db.close();
}

type Kind = 'login' | 'handbook list' | 'journal list' | 'handbook edit';
const latencies = new Map<Kind, number[]>();
const errors = new Map<string, number>();
let requests = 0;
const countError = (what: string) => errors.set(what, (errors.get(what) ?? 0) + 1);

async function call(kind: Kind, path: string, auth: string | undefined, body?: unknown): Promise<unknown> {
  const started = performance.now();
  try {
    const response = await fetch(`${BASE}${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { ...(auth ? { authorization: auth } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    requests += 1;
    if (!latencies.has(kind)) latencies.set(kind, []);
    latencies.get(kind)!.push(performance.now() - started);
    if (response.status >= 300) {
      countError(`${kind}: ${response.status} ${text.slice(0, 80)}`);
      return undefined;
    }
    return text ? JSON.parse(text) : undefined;
  } catch (error) {
    countError(`${kind}: ${(error as Error).message}`);
    return undefined;
  }
}

// ---------------------------------------------------------------- the operators' mix
const HANDBOOK_LISTS: { type: string; filters?: Record<string, unknown>; sort?: { field: string; order: 'ASC' | 'DESC' }; page?: number }[] = [
  { type: 'stops' },
  { type: 'stops', filters: { stop_name: 'про' }, sort: { field: 'stop_name', order: 'ASC' } },
  { type: 'stops', page: 5 },
  { type: 'routes', sort: { field: 'route_short_name', order: 'ASC' } },
  { type: 'vehicles', sort: { field: 'depot_number', order: 'DESC' } },
  { type: 'vehicles', page: 3 },
  { type: 'driver', sort: { field: 'id', order: 'ASC' } },
  { type: 'routevariants' },
  { type: 'raspvariants' },
];
const JOURNALS = ['useractions', 'eventsts', 'eventspo', 'adas'];

let stopIds: number[] = [];
let running = true;
let streamBytes = 0;
let streamsOpen = 0;

async function stream(auth: string, index: number): Promise<void> {
  const zoom = 11 + (index % 3);
  const q = serializeGeoSubscription({ bounds: CITY, zoom, vehicles: [] });
  const controller = new AbortController();
  const stop = setInterval(() => {
    if (!running) controller.abort();
  }, 500);
  try {
    const response = await fetch(`${BASE}/geoapi/v1/geo/1?q=${encodeURIComponent(q)}`, { headers: { authorization: auth }, signal: controller.signal });
    if (response.status !== 200 || !response.body) {
      countError(`geo stream: ${response.status}`);
      return;
    }
    streamsOpen += 1;
    try {
      const reader = response.body.getReader();
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        streamBytes += value.length;
      }
      if (running) countError('geo stream: ended by the server');
    } finally {
      streamsOpen -= 1;
    }
  } catch (error) {
    if (running) countError(`geo stream: ${(error as Error).message}`);
  } finally {
    clearInterval(stop);
  }
}

async function operator(auth: string, index: number): Promise<void> {
  let n = 0;
  while (running) {
    await delay(1000 + Math.random() * 2000);
    if (!running) break;
    const roll = Math.random();
    n += 1;
    if (roll < 0.55) {
      const list = HANDBOOK_LISTS[(index + n) % HANDBOOK_LISTS.length];
      await call('handbook list', '/api/table/list', auth, { config: { type: list.type }, filters: list.filters, sort: list.sort, page: list.page });
    } else if (roll < 0.85) {
      const journal = JOURNALS[(index + n) % JOURNALS.length];
      const from = new Date(Date.now() - 86_400_000).toISOString();
      await call('journal list', `/api/v1/journals/${journal}?from=${encodeURIComponent(from)}&recordCount=30`, auth);
    } else if (stopIds.length > 0) {
      const stopId = stopIds[(index * 7 + n) % stopIds.length];
      const found = (await call('handbook list', '/api/table/list', auth, { config: { type: 'stops' }, filters: { stop_id: [stopId] } })) as { list?: Record<string, unknown>[] } | undefined;
      const row = found?.list?.[0];
      if (!row) continue;
      await call('handbook edit', '/api/table/element/save', auth, {
        config: { type: 'stops' },
        row: { stop_id: row.stop_id, stop_name: row.stop_name, note: `нагрузка ${index}.${n}`, stop_lat: row.stop_lat, stop_lon: row.stop_lon, do_not_update: row.do_not_update },
      });
    }
  }
}

// ---------------------------------------------------------------- run
const tokens: string[] = [];
for (let i = 0; i < OPERATORS; i += 10) {
  const batch = await Promise.all(Array.from({ length: Math.min(10, OPERATORS - i) }, (_, j) => call('login', '/api/v1/auth/login', undefined, { username: `load${String(i + j + 1).padStart(3, '0')}`, password: 'operator123' })));
  for (const answer of batch) if (answer) tokens.push(`Bearer ${(answer as { token: string }).token}`);
}
const firstPage = (await call('handbook list', '/api/table/list', tokens[0], { config: { type: 'stops' }, perPage: 1000 })) as { list: { stop_id: number }[] };
stopIds = firstPage.list.map((row) => row.stop_id);
console.log(`${tokens.length} operators logged in; ${stopIds.length} stops to edit`);

const streams = tokens.map((auth, i) => stream(auth, i));
await delay(3000);
const rssStart = server.rssMb();
const requestsAtStart = requests;
for (const list of latencies.values()) list.length = 0;
const runStart = performance.now();
const operators = tokens.map((auth, i) => operator(auth, i));
let maxRss = rssStart;
const sampler = setInterval(() => {
  maxRss = Math.max(maxRss, server.rssMb());
  const minutes = (performance.now() - runStart) / 60_000;
  console.log(`${minutes.toFixed(1)} min: ${requests - requestsAtStart} requests, ${[...errors.values()].reduce((a, b) => a + b, 0)} errors, ${streamsOpen} streams open, RSS ${server.rssMb()} MB`);
}, 30_000);
await delay(MINUTES * 60_000);
const streamsAtEnd = streamsOpen;
running = false;
await Promise.all(operators);
const runS = (performance.now() - runStart) / 1000;
clearInterval(sampler);
const rssEnd = server.rssMb();
await Promise.all(streams);
const alive = server.alive();
const serverErrors = server.errors();
await server.stop();

const all: number[] = [];
const lines: string[] = [];
for (const [kind, values] of latencies) {
  if (kind === 'login') continue;
  values.sort((a, b) => a - b);
  all.push(...values);
  lines.push(`  ${kind.padEnd(22)}  ${String(values.length).padStart(7)}  p50 ${percentile(values, 50).toFixed(1)} ms · p95 ${percentile(values, 95).toFixed(1)} ms · p99 ${percentile(values, 99).toFixed(1)} ms`);
}
all.sort((a, b) => a - b);
const errorCount = [...errors.values()].reduce((a, b) => a + b, 0);
console.log(`
Load — ${tokens.length} operators for ${(runS / 60).toFixed(1)} min on PostgreSQL (each: a geo stream open, an action every 1–3 s)
  requests                ${all.length} (${(all.length / runS).toFixed(1)}/s)
${lines.join('\n')}
  all                     p50 ${percentile(all, 50).toFixed(1)} ms · p95 ${percentile(all, 95).toFixed(1)} ms · p99 ${percentile(all, 99).toFixed(1)} ms · max ${all.at(-1)?.toFixed(0)} ms
  geo streams             ${streamsAtEnd} of ${tokens.length} open at the end, ${(streamBytes / runS / 1024 / 1024).toFixed(2)} MB/s received
  errors                  ${errorCount}${errorCount ? `: ${[...errors].map(([what, n]) => `${n} × ${what}`).join('; ')}` : ''}
  server RSS              ${rssStart} MB at the start, ${rssEnd} MB at the end (peak ${maxRss} MB, ${(((rssEnd - rssStart) / rssStart) * 100).toFixed(0)} %)
  server                  ${alive ? 'alive' : 'EXITED'}, ${serverErrors.length} error lines logged
`);
if (serverErrors.length) console.log(serverErrors.slice(0, 5).map((line) => line.slice(0, 300)).join('\n'));
process.exit(0);
