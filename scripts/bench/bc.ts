/**
 * Ticket-control benchmark, against the real server in a process of its own (src/server/main.ts):
 *
 * 1. submit: BENCH_CONTROLLERS (200) controllers, each with their own login and today's order, submit their
 *    reports at once: one photo of BENCH_PHOTO_MB (2) MB (multipart), the report (three vehicle checks) and
 *    the closing status, as the field app's queue sends them. Every report must be stored; prints the p50/p95
 *    of the whole submission and of each call, and the server's peak RSS.
 * 2. reports (PostgreSQL only): a year of orders for the same controllers (one a day each, three vehicle
 *    checks per closed order), then /bc/routerate (the year), /bc/reports by department, controller and
 *    route (the year) and /bc/resultuser (30 days) through the API: p50/p95 (target p95 < 500 ms).
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/tc_bench_bc npx tsx scripts/bench/bc.ts   # database re-created
 *   npx tsx scripts/bench/bc.ts                                                               # embedded PGlite: submit only
 *
 * BENCH_PORT (default 3314) is the server's port; BENCH_PART=submit|reports runs one part.
 */
import { rmSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openDatabase } from '../../src/server/db/open';
import { loadConfig } from '../../src/server/config';
import { hashPassword } from '../../src/server/auth/passwords';
import { operatorDate } from '../../src/server/platform/operatorDay';
import { newVehicleCheck } from '../../src/shared/bc/report';
import { percentile, startServerProcess, type ServerProcess } from './serverProcess';
import { recreateDatabase } from './benchServer';

const CONTROLLERS = Number(process.env.BENCH_CONTROLLERS ?? 200);
const PHOTO_BYTES = Number(process.env.BENCH_PHOTO_MB ?? 2) * 1024 * 1024;
const PORT = Number(process.env.BENCH_PORT ?? 3314);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 20);
const PART = process.env.BENCH_PART ?? 'all';
const DATABASE_URL = process.env.DATABASE_URL;
const DATA_DIR = '/tmp/bench-bc-data';
const BASE = `http://127.0.0.1:${PORT}`;
const PASSWORD = 'bench123';

const stats = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return `p50 ${percentile(sorted, 50).toFixed(0)} ms, p95 ${percentile(sorted, 95).toFixed(0)} ms, max ${sorted[sorted.length - 1].toFixed(0)} ms`;
};

const serverEnv = (): Record<string, string> => ({
  PORT: String(PORT),
  HOST: '127.0.0.1',
  DEMO_DATA: 'true',
  DEMO_SCALE: 'test',
  SIMULATOR: 'false',
  EGTS_PORT: '0',
  LOGIN_ACCOUNT_FAILURES: '1000',
  LOGIN_ADDRESS_FAILURES: '100000',
  ...(DATABASE_URL ? { DATABASE_URL } : { DATA_DIR }),
});

/** The controllers (employees of department 1 with logins) and today's order for each. */
async function addControllers(): Promise<void> {
  const config = { ...loadConfig(), dataDir: DATA_DIR, databaseUrl: DATABASE_URL };
  const db = await openDatabase(config);
  const hash = await hashPassword(PASSWORD);
  const today = operatorDate(Date.now(), 180);
  await db.transaction(async (tx) => {
    const workers = await tx.query<{ driver_id: number }>(
      `insert into mgt.driver (last_name, first_name, table_number, td_id) select 'Контролёр', 'Бенч ' || g, 700000 + g, 1
       from generate_series(1, $1::int) g returning driver_id`,
      [CONTROLLERS],
    );
    const ids = workers.map((w) => w.driver_id);
    await tx.query(
      `insert into app.users (username, password_hash, first_name, last_name, worker_id)
       select 'bench_c' || n, $2, 'Бенч', 'Контролёр', w from unnest($1::int[]) with ordinality as x(w, n)`,
      [ids, hash],
    );
    await tx.query(
      `insert into app.user_role (user_id, role_id) select u.id, r.id from app.users u, app.role r where u.username like 'bench_c%' and r.name = 'Контролёр'`,
    );
    const tasks = await tx.query<{ id: number }>(
      `insert into bc.controller_task (number, date, graphic_type_id, department_id)
       select 'B-' || n, $2::date, (select min(id) from cat.work_graphic_type where start is not null), 1 from unnest($1::int[]) with ordinality as x(w, n) order by n returning id`,
      [ids, today],
    );
    await tx.query('insert into bc.controller_task_worker (task_id, worker_id) select unnest($1::int[]), unnest($2::int[])', [
      tasks.map((t) => t.id),
      ids,
    ]);
    await tx.query(
      `insert into bc.controller_task_route (task_id, route_id, type) select t, (select min(route_id) from mgt.routes), 0 from unnest($1::int[]) t`,
      [tasks.map((t) => t.id)],
    );
  });
  await db.close();
}

async function login(username: string, password = PASSWORD): Promise<string> {
  const response = await fetch(`${BASE}/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  if (!response.ok) throw new Error(`login ${username}: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { token: string }).token;
}

async function timed(call: () => Promise<Response>): Promise<[number, Response]> {
  const started = performance.now();
  const response = await call();
  await response.arrayBuffer();
  return [performance.now() - started, response];
}

async function submitPart(server: ServerProcess): Promise<void> {
  const tokens: string[] = [];
  for (let i = 1; i <= CONTROLLERS; i++) tokens.push(await login(`bench_c${i}`));
  const photo = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), randomBytes(PHOTO_BYTES - 4)]);
  const sample = (await (
    await fetch(`${BASE}/api/v1/pass/controllertask/worker`, { headers: { authorization: `Bearer ${tokens[0]}` } })
  ).json()) as { id: number };
  const tickets = (
    (await (
      await fetch(`${BASE}/api/v1/pass/controllertask/result/${sample.id}`, { headers: { authorization: `Bearer ${tokens[0]}` } })
    ).json()) as { tickets: { id: number }[] }
  ).tickets.map((t) => t.id);
  const body = {
    check_tickets: Object.fromEntries(tickets.slice(0, 3).map((id) => [String(id), 20])),
    check_vehicles: [0, 1, 2].map((i) => ({
      ...newVehicleCheck(tickets),
      route_short_name: '1',
      depot_number: 100 + i,
      table_number: 5000 + i,
      kickout: i,
    })),
  };
  let peak = server.rssMb();
  const before = peak;
  const sampler = setInterval(() => {
    peak = Math.max(peak, server.rssMb());
  }, 100);
  const times = { total: [] as number[], photo: [] as number[], result: [] as number[], status: [] as number[] };
  const failures: string[] = [];
  const started = performance.now();
  await Promise.all(
    tokens.map(async (token, i) => {
      const auth = { authorization: `Bearer ${token}` };
      const begin = performance.now();
      const task = (await (await fetch(`${BASE}/api/v1/pass/controllertask/worker`, { headers: auth })).json()) as { id: number };
      const form = new FormData();
      form.append('file', new Blob([photo], { type: 'image/jpeg' }), `${Date.now()}.jpg`);
      const [photoMs, p] = await timed(() =>
        fetch(`${BASE}/api/v1/pass/controllertask/photo?controller_task_id=${task.id}&title=${Date.now()}-${i}.jpg`, {
          method: 'POST',
          headers: auth,
          body: form,
        }),
      );
      const [resultMs, r] = await timed(() =>
        fetch(`${BASE}/api/v1/pass/controllertask/result/${task.id}`, {
          method: 'PUT',
          headers: { ...auth, 'content-type': 'application/json', 'idempotency-key': `bench-result-${task.id}` },
          body: JSON.stringify(body),
        }),
      );
      const [statusMs, s] = await timed(() =>
        fetch(`${BASE}/api/v1/pass/controllertask/status?ids=${task.id}`, {
          method: 'PUT',
          headers: { ...auth, 'content-type': 'application/json', 'idempotency-key': `bench-status-${task.id}` },
          body: JSON.stringify({ status: 'closed' }),
        }),
      );
      for (const [name, response] of [
        ['photo', p],
        ['result', r],
        ['status', s],
      ] as const)
        if (!response.ok) failures.push(`${name} ${response.status}`);
      times.photo.push(photoMs);
      times.result.push(resultMs);
      times.status.push(statusMs);
      times.total.push(performance.now() - begin);
    }),
  );
  const wall = performance.now() - started;
  clearInterval(sampler);
  const admin = await login('admin', 'admin123');
  const closed = (await (
    await fetch(`${BASE}/api/v1/bc/tasks?status=closed&recordCount=1&from=${operatorDate(Date.now(), 180)}`, {
      headers: { authorization: `Bearer ${admin}` },
    })
  ).json()) as { count: number };
  console.log(
    `\n${CONTROLLERS} controllers submitting at once (a ${(PHOTO_BYTES / 2 ** 20).toFixed(0)} MB photo, the report, the status) on ${DATABASE_URL ? 'PostgreSQL' : 'PGlite'}:`,
  );
  console.log(
    `  all done in ${(wall / 1000).toFixed(1)} s; ${failures.length} failed calls${failures.length ? ` (${[...new Set(failures)].join(', ')})` : ''}; orders closed today: ${closed.count}`,
  );
  console.log(`  whole submission ${stats(times.total)}`);
  console.log(`  photo ${stats(times.photo)}; report ${stats(times.result)}; status ${stats(times.status)}`);
  console.log(`  server RSS ${before} MB before, peak ${peak} MB, ${server.rssMb()} MB after`);
}

async function reportsPart(): Promise<void> {
  if (!DATABASE_URL) {
    console.log('\nreports part: PostgreSQL only (set DATABASE_URL)');
    return;
  }
  const client = new pg.Client({ connectionString: DATABASE_URL });
  await client.connect();
  const started = performance.now();
  await client.query(
    `
    with w as (select driver_id, row_number() over (order by driver_id) as n from mgt.driver where table_number between 700001 and 700000 + $1),
         r as (select array_agg(route_id order by route_id) as ids, array_agg(route_short_name order by route_id) as names from mgt.routes),
         t as (
           insert into bc.controller_task (number, date, graphic_type_id, department_id, status, check_tickets, tickets_checked, vehicles_checked)
           select 'Y-' || w.driver_id || '-' || d, current_date - d, (select min(id) from cat.work_graphic_type where start is not null), 1,
                  case when (w.n + d) % 13 = 0 then 'not_achieved' else 'closed' end,
                  jsonb_build_object('1', 10 + (w.n + d) % 30, '2', 5 + (w.n * d) % 20), 15 + (w.n + d) % 30 + (w.n * d) % 20,
                  case when (w.n + d) % 13 = 0 then 0 else 3 end
           from w, generate_series(1, 365) d
           returning id, number)
    insert into bc.controller_task_worker (task_id, worker_id)
    select t.id, split_part(t.number, '-', 2)::int from t`,
    [CONTROLLERS],
  );
  await client.query(`
    insert into bc.controller_task_route (task_id, route_id, type)
    select t.id, r.ids[1 + (t.id % cardinality(r.ids))], 0
    from bc.controller_task t, (select array_agg(route_id order by route_id) as ids from mgt.routes) r where t.number like 'Y-%'`);
  await client.query(`
    insert into bc.check_vehicle (task_id, position, route_short_name, route_id, depot_number, sell_tickets, sold_total, take_sk, kickout, ovd_deliver, driver_raport)
    select t.id, k, m.route_short_name, m.route_id, 1000 + k, '[]', 0, (t.id + k) % 2, (t.id * k) % 4, (t.id + k) % 7 / 6, (t.id + k) % 11 / 10
    from bc.controller_task t join bc.controller_task_route rt on rt.task_id = t.id join mgt.routes m on m.route_id = rt.route_id, generate_series(0, 2) k
    where t.number like 'Y-%' and t.status = 'closed'`);
  await client.query(`
    update bc.controller_task t set kickout_total = s.kickout, ovd_total = s.ovd, raport_total = s.raport, seized_total = s.seized
    from (select task_id, sum(kickout)::int as kickout, sum(ovd_deliver)::int as ovd, sum(driver_raport)::int as raport, sum(take_sk)::int as seized
          from bc.check_vehicle group by task_id) s
    where s.task_id = t.id and t.number like 'Y-%'`);
  for (const table of ['controller_task', 'check_vehicle', 'controller_task_worker', 'controller_task_route'])
    await client.query(`vacuum analyze bc.${table}`);
  const [{ orders }] = (await client.query('select count(*)::int as orders from bc.controller_task')).rows;
  const [{ checks }] = (await client.query('select count(*)::int as checks from bc.check_vehicle')).rows;
  await client.end();
  console.log(
    `\na year of orders: ${orders.toLocaleString('en')} orders, ${checks.toLocaleString('en')} vehicle checks (filled in ${((performance.now() - started) / 1000).toFixed(1)} s)`,
  );

  const token = await login('admin', 'admin123');
  const year = `from=${new Date(Date.now() - 366 * 86_400_000).toISOString()}&to=${new Date().toISOString()}`;
  const month = `from=${new Date(Date.now() - 30 * 86_400_000).toISOString()}&to=${new Date().toISOString()}`;
  // the screens' default period (the last 30 days) over the year's table, and the whole year
  const screens: [string, string][] = [];
  for (const [label, period] of [
    ['30 days', month],
    ['a year', year],
  ]) {
    screens.push(
      [`/bc/routerate, ${label}`, `/api/v1/reports/bc/routerate?${period}`],
      [`/bc/reports by department, ${label}`, `/api/v1/reports/bc/reports?${period}&group=department`],
      [`/bc/reports by controller, ${label}`, `/api/v1/reports/bc/reports?${period}&group=controller`],
      [`/bc/reports by route, ${label}`, `/api/v1/reports/bc/reports?${period}&group=route`],
    );
  }
  screens.push(['/bc/resultuser, 30 days', `/api/v1/reports/bc/resultuser?${month}`]);
  for (const [name, url] of screens) {
    const times: number[] = [];
    let rows = 0;
    for (let i = 0; i < REQUESTS; i++) {
      const [ms, response] = await timed(() =>
        fetch(`${BASE}${url}`, { headers: { authorization: `Bearer ${token}`, 'x-timezone-offset': '180' } }),
      );
      if (!response.ok) throw new Error(`${name}: ${response.status}`);
      times.push(ms);
      if (i === 0)
        rows = ((await (await fetch(`${BASE}${url}`, { headers: { authorization: `Bearer ${token}` } })).json()) as { count: number })
          .count;
    }
    console.log(`  ${name}: ${rows} rows, ${stats(times)} (${REQUESTS} requests)`);
  }
}

async function main(): Promise<void> {
  if (DATABASE_URL) await recreateDatabase(DATABASE_URL);
  else rmSync(DATA_DIR, { recursive: true, force: true });
  // the first start migrates and loads the small demo; the controllers are added between two starts (PGlite has one owner)
  let server = await startServerProcess(serverEnv());
  await server.stop();
  await addControllers();
  server = await startServerProcess(serverEnv());
  try {
    if (PART !== 'reports') await submitPart(server);
    if (PART !== 'submit') await reportsPart();
    if (server.errors().length) console.log(`server errors logged: ${server.errors().length}\n${server.errors().slice(0, 3).join('\n')}`);
  } finally {
    await server.stop();
  }
  console.log(
    `machine load average ${loadavg()
      .map((x) => x.toFixed(1))
      .join(' ')} on ${cpus().length} CPUs`,
  );
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
