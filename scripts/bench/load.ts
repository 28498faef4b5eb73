// Load: N concurrent operators doing a dispatcher's mix against a real server process on PostgreSQL.
//
//   npx tsx scripts/bench/load.ts                          # 200 operators for 10 minutes
//   npx tsx scripts/bench/load.ts --operators 200 --minutes 3
//
// The server (src/server/main.ts) runs on its own database (LOAD_DATABASE_URL, default
// postgres://postgres@127.0.0.1:5432/tc_faults_load, created if missing) with the demo city loaded on first
// start and the simulator driving the fleet, HTTP on 3302 (LOAD_PORT). Each operator logs in (accounts
// load001… added as copies of the demo dispatcher `operator`), keeps a geo stream of the whole city open, and then,
// every 1–3 s (a person's pace),
// does one of (scripts/bench/operators.ts): a handbook list with a filter and a sort (55 %), a journal list (30 %),
// a handbook edit (an existing stop's note saved, 15 %). Prints errors (any answer other than 2xx, network failures, a stream
// that ended), throughput, latency p50/p95/p99 per kind and overall, and the server's RSS at the start and
// the end.
import { parseArgs } from 'node:util';
import { setTimeout as delay } from 'node:timers/promises';
import { openPostgres } from '../../src/server/db/postgres';
import { Operators } from './operators';
import { ensureDatabase, percentile, startServerProcess } from './serverProcess';

const { values: args } = parseArgs({
  options: { operators: { type: 'string', default: '200' }, minutes: { type: 'string', default: '10' } },
});
const OPERATORS = Number(args.operators);
const MINUTES = Number(args.minutes);
const URL_ = process.env.LOAD_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/tc_faults_load';
const PORT = Number(process.env.LOAD_PORT ?? 3302);
const BASE = `http://127.0.0.1:${PORT}`;

await ensureDatabase(URL_);
const startedAt = performance.now();
const server = await startServerProcess({
  DATABASE_URL: URL_,
  PORT: String(PORT),
  HOST: '127.0.0.1',
  EGTS_PORT: '0',
  DATA_DIR: '/tmp/tc-faults-load',
  DEMO_DATA: 'true',
});
console.log(`server up in ${((performance.now() - startedAt) / 1000).toFixed(1)} s (pid ${server.pid})`);
{
  // One account per operator (load001…), each a copy of the demo dispatcher: same password and roles.
  const db = await openPostgres(URL_, 1);
  await db.query(
    `insert into app.users (username, password_hash, first_name, last_name)
     select 'load' || lpad(g::text, 3, '0'), u.password_hash, 'Нагрузка', g::text
       from app.users u, generate_series(1, $1::int) g where u.username = 'operator'
     on conflict do nothing`,
    [OPERATORS],
  );
  await db.query(
    `insert into app.user_role (user_id, role_id)
     select n.id, r.role_id from app.users n, app.users o join app.user_role r on r.user_id = o.id
      where o.username = 'operator' and n.username like 'load%'
     on conflict do nothing`,
  );
  await db.close();
}

// ---------------------------------------------------------------- run
const operators = new Operators(BASE, { 'handbook list': 55, 'journal list': 30, 'handbook edit': 15 });
await operators.login(
  Array.from({ length: OPERATORS }, (_, i) => ({ username: `load${String(i + 1).padStart(3, '0')}`, password: 'operator123' })),
);
console.log(`${operators.loggedIn} operators logged in`);

const requestsAtStart = operators.requests;
await operators.start();
const rssStart = server.rssMb();
const runStart = performance.now();
let maxRss = rssStart;
const sampler = setInterval(() => {
  maxRss = Math.max(maxRss, server.rssMb());
  const minutes = (performance.now() - runStart) / 60_000;
  console.log(
    `${minutes.toFixed(1)} min: ${operators.requests - requestsAtStart} requests, ${operators.errorCount()} errors, ${operators.streamsOpen} streams open, RSS ${server.rssMb()} MB`,
  );
}, 30_000);
await delay(MINUTES * 60_000);
const rssEnd = server.rssMb();
const streamsAtEnd = await operators.stop();
const runS = (performance.now() - runStart) / 1000;
clearInterval(sampler);
const alive = server.alive();
const serverErrors = server.errors();
await server.stop();

const all: number[] = [];
const lines: string[] = [];
for (const [kind, values] of operators.latencies) {
  if (kind === 'login') continue;
  values.sort((a, b) => a - b);
  all.push(...values);
  lines.push(
    `  ${kind.padEnd(22)}  ${String(values.length).padStart(7)}  p50 ${percentile(values, 50).toFixed(1)} ms · p95 ${percentile(values, 95).toFixed(1)} ms · p99 ${percentile(values, 99).toFixed(1)} ms`,
  );
}
all.sort((a, b) => a - b);
const errorCount = operators.errorCount();
console.log(`
Load — ${operators.loggedIn} operators for ${(runS / 60).toFixed(1)} min on PostgreSQL (each: a geo stream open, an action every 1–3 s)
  requests                ${all.length} (${(all.length / runS).toFixed(1)}/s)
${lines.join('\n')}
  all                     p50 ${percentile(all, 50).toFixed(1)} ms · p95 ${percentile(all, 95).toFixed(1)} ms · p99 ${percentile(all, 99).toFixed(1)} ms · max ${all.at(-1)?.toFixed(0)} ms
  geo streams             ${streamsAtEnd} of ${operators.loggedIn} open at the end, ${(operators.streamBytes / runS / 1024 / 1024).toFixed(2)} MB/s received
  errors                  ${errorCount}${errorCount ? `: ${[...operators.errors].map(([what, n]) => `${n} × ${what}`).join('; ')}` : ''}
  server RSS              ${rssStart} MB at the start, ${rssEnd} MB at the end (peak ${maxRss} MB, ${(((rssEnd - rssStart) / rssStart) * 100).toFixed(0)} %)
  server                  ${alive ? 'alive' : 'EXITED'}, ${serverErrors.length} error lines logged
`);
if (serverErrors.length)
  console.log(
    serverErrors
      .slice(0, 5)
      .map((line) => line.slice(0, 300))
      .join('\n'),
  );
process.exit(0);
