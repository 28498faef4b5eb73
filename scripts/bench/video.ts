/**
 * Video benchmark, in three parts:
 *
 * 1. viewers: the real server in a process of its own (src/server/main.ts, embedded PGlite, the small demo
 *    data, no simulator), and BENCH_VIEWERS (200) simulated viewers each watching a 4-camera grid of live demo
 *    streams for BENCH_SECONDS (60): per camera, the playlist every 2 s (its target duration) and each new
 *    segment, as hls.js does. Prints segments served per second, segment response p50/p95/max, the server's CPU
 *    (share of one core, from /proc) and stalls: a camera stalls when its playback (which starts once two
 *    segments are in) catches up with what it has fetched.
 * 2. archive jobs: in-process (buildApp), 1,000 archive requests created at once for 500 online vehicles with
 *    demo recorders (2-minute periods, one camera); the time until every one is final, with the worker's
 *    defaults (VIDEO_MAX_DOWNLOADS etc. apply).
 * 3. lists: 100,000 requests in app.video_request, then /video/requests and /video/myrequests pages (default
 *    sort, sorted by vehicle, filtered by status and by vehicle) over HTTP: p50 and p95.
 *
 *   npx tsx scripts/bench/video.ts                 # all three
 *   BENCH_PARTS=viewers npx tsx scripts/bench/video.ts
 *   DATABASE_URL=postgres://.../scratch BENCH_PARTS=jobs,lists npx tsx scripts/bench/video.ts
 *
 * Targets: no viewer stalls, segment p95 under 100 ms; list p95 under 100 ms.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import type { AddressInfo } from 'node:net';
import { Worker } from 'node:worker_threads';
import { buildApp } from '../../src/server/app';
import { loadConfig } from '../../src/server/config';
import { openDatabase } from '../../src/server/db/open';
import { demoCoverage, demoStoppedAt, piecesSeconds } from '../../src/server/video/demoArchive';
import { ACTIVE_STATUSES } from '../../src/shared/video/statuses';
import { ensureDatabase, percentile, startServerProcess } from './serverProcess';

const PARTS = (process.env.BENCH_PARTS ?? 'viewers,jobs,lists').split(',');
const VIEWERS = Number(process.env.BENCH_VIEWERS ?? 200);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 60);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 1000);
const VEHICLES = Number(process.env.BENCH_VEHICLES ?? 500);
const LIST_ROWS = Number(process.env.BENCH_LIST_ROWS ?? 100_000);
const PORT = Number(process.env.BENCH_PORT ?? 3412);
const MIN = 60_000;

const ms = (n: number) => `${n.toFixed(1)} ms`;
const cpuTicks = (pid: number) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return Number(fields[11]) + Number(fields[12]);
};

async function login(base: string, username = 'admin', password = 'admin123'): Promise<string> {
  const response = await fetch(`${base}/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  return `Bearer ${((await response.json()) as { token: string }).token}`;
}

/**
 * The viewers' side, in plain JavaScript for worker threads (BENCH_CLIENT_THREADS, default 2), so the client's
 * own event loop does not queue the responses it times. Each camera: the playlist every 2 s, each new segment
 * once, starting from the playlist's last two (hls.js starts near the live edge); playback starts once two
 * segments are in, and a stall is playback catching up with what was fetched.
 */
const VIEWER = `
const { parentPort, workerData } = require('node:worker_threads');
const { monitorEventLoopDelay } = require('node:perf_hooks');
const { base, playUrls, until } = workerData;
const times = [];
let stalls = 0;
const stalledCameras = new Set();
const lag = monitorEventLoopDelay({ resolution: 10 });
lag.enable();
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
async function camera(playUrl, index) {
  await sleep(Math.random() * 2000);
  const fetched = new Set();
  let media = 0, startedAt = null, stalled = false, first = true;
  const check = () => {
    if (startedAt === null) return;
    const under = (Date.now() - startedAt) / 1000 > media;
    if (under && !stalled) { stalls++; stalledCameras.add(index); }
    stalled = under;
  };
  while (Date.now() < until) {
    const tick = Date.now();
    const segments = (await (await fetch(base + playUrl)).text()).split('\\n').filter((l) => l && !l.startsWith('#'));
    if (first) for (const skipped of segments.slice(0, -2)) fetched.add(skipped);
    first = false;
    for (const line of segments) {
      if (fetched.has(line)) continue;
      const t0 = performance.now();
      const response = await fetch(new URL(line, base + playUrl));
      await response.arrayBuffer();
      if (response.ok) times.push(performance.now() - t0);
      fetched.add(line);
      media += 2;
      if (media >= 4 && startedAt === null) startedAt = Date.now();
    }
    check();
    await sleep(Math.max(0, 2000 - (Date.now() - tick)));
    check();
  }
}
Promise.all(playUrls.map((u, i) => camera(u, i))).then(() => {
  lag.disable();
  parentPort.postMessage({ times, stalls, stalledCameras: [...stalledCameras], lagP99: lag.percentile(99) / 1e6 });
});
`;

async function viewersPart(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'video-bench-'));
  console.log(`viewers: starting the server (PGlite, small demo data) on port ${PORT}…`);
  const server = await startServerProcess({
    PORT: String(PORT),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    DEMO_SCALE: 'test',
    SIMULATOR: 'false',
    EGTS_PORT: '0',
  });
  const base = `http://127.0.0.1:${PORT}`;
  try {
    const authorization = await login(base);
    const headers = { authorization, 'content-type': 'application/json' };
    const { list } = (await (await fetch(`${base}/api/v1/video/vehicles?recordCount=200`, { headers })).json()) as {
      list: { vehicleId: number; cameras: { index: number }[] }[];
    };
    const withFour = list.filter((v) => v.cameras.length >= 4);
    const playUrls: string[] = [];
    for (let i = 0; i < VIEWERS; i++) {
      const vehicle = withFour[i % withFour.length];
      const id = await (
        await fetch(`${base}/api/v1/video/empty`, { method: 'POST', headers, body: JSON.stringify({ vehicleId: vehicle.vehicleId }) })
      ).json();
      for (const camera of vehicle.cameras.slice(0, 4)) {
        playUrls.push(
          ((await (await fetch(`${base}/api/v1/video/online/${id}/${camera.index}`, { headers })).json()) as { playUrl: string }).playUrl,
        );
      }
    }
    const threads = Number(process.env.BENCH_CLIENT_THREADS ?? 2);
    console.log(
      `viewers: ${VIEWERS} viewers × 4 cameras (${withFour.length} vehicles with 4 cameras), ${SECONDS} s, clients in ${threads} threads`,
    );
    const cpuStart = cpuTicks(server.pid);
    const started = Date.now();
    const until = started + SECONDS * 1000;
    // A viewer's four cameras stay in one thread (cameras 4k..4k+3 are viewer k).
    const share = Math.ceil(VIEWERS / threads) * 4;
    const results = await Promise.all(
      Array.from(
        { length: threads },
        (_, t) =>
          new Promise<{ times: number[]; stalls: number; stalledCameras: number[]; lagP99: number }>((resolve, reject) => {
            const worker = new Worker(VIEWER, {
              eval: true,
              workerData: { base, playUrls: playUrls.slice(t * share, (t + 1) * share), until },
            });
            worker.once('message', resolve);
            worker.once('error', reject);
          }),
      ),
    );
    const elapsed = (Date.now() - started) / 1000;
    const cpu = ((cpuTicks(server.pid) - cpuStart) / 100 / elapsed) * 100;
    const sorted = results.flatMap((r) => r.times).sort((a, b) => a - b);
    const stalls = results.reduce((sum, r) => sum + r.stalls, 0);
    const stalledViewers = new Set(results.flatMap((r, t) => r.stalledCameras.map((c) => Math.floor((t * share + c) / 4)))).size;
    console.log(
      `viewers: ${sorted.length} segments in ${elapsed.toFixed(0)} s = ${(sorted.length / elapsed).toFixed(0)} segments/s; response p50 ${ms(percentile(sorted, 50))}, p95 ${ms(percentile(sorted, 95))}, max ${ms(sorted.at(-1) ?? 0)}`,
    );
    console.log(
      `viewers: server CPU ${cpu.toFixed(0)} % of a core, RSS ${server.rssMb()} MB; stalls ${stalls} (viewers stalled: ${stalledViewers} of ${VIEWERS}); client event-loop delay p99 ${results.map((r) => ms(r.lagP99)).join(', ')}`,
    );
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function inProcessApp() {
  const config = {
    ...loadConfig(),
    dataDir: undefined,
    staticDir: undefined,
    logLevel: process.env.LOG_LEVEL ?? 'warn',
    demoData: true,
    demoScale: 'test' as const,
  };
  process.env.SIMULATOR = 'false';
  if (config.databaseUrl) await ensureDatabase(config.databaseUrl);
  const db = await openDatabase(config);
  const app = await buildApp(config, { db, seedDemo: true });
  await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, db, base: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}` };
}

async function jobsPart(): Promise<void> {
  const { app, db, base } = await inProcessApp();
  try {
    // 500 vehicles with a demo recorder of one camera whose last minutes are held (stopped recorders left out).
    const now = Date.now();
    const [template] = await db.query<{ depot_id: number; vehicle_type_id: number; capacity_type_id: number }>(
      'select depot_id, vehicle_type_id, capacity_type_id from mgt.vehicles order by id limit 1',
    );
    const made = await db.query<{ vehicle_id: number; dvr_id: number }>(
      `with v as (insert into mgt.vehicles (depot_id, vehicle_type_id, capacity_type_id, depot_number, state_number)
                  select $1, $2, $3, 900000 + g, 'Б' || g from generate_series(1, $4) g returning id),
            d as (insert into mgt.dvr (vehicle_id, ip, port, login, password) select id, '10.9.0.1', 8000, 'admin', 'Dvr123456' from v returning id, vehicle_id)
       select vehicle_id, id as dvr_id from d`,
      [template.depot_id, template.vehicle_type_id, template.capacity_type_id, Math.round(VEHICLES * 1.3)],
    );
    await db.query('insert into mgt.dev_camera (index, dvr_id, camera_addr) select 1, x, 1 from unnest($1::int[]) x', [
      made.map((m) => m.dvr_id),
    ]);
    const chosen = made
      .filter((m) => demoStoppedAt(m.dvr_id, now) === null && piecesSeconds(demoCoverage(m.dvr_id, 1, now - 12 * MIN, now, now, 72)) >= 718)
      .slice(0, VEHICLES);
    const online = () =>
      app.telemetry.pipeline.ingest(
        chosen.map((c) => ({
          vehicleId: c.vehicle_id,
          time: Date.now(),
          lat: 59.9,
          lon: 30.3,
          speed: 10,
          course: 0,
          valid: true,
          history: false,
        })),
      );
    online();
    const keepOnline = setInterval(online, 30_000);
    // A demo start makes a few requests of its own (demoRequests.ts): not the bench's, and their vehicles are offline here.
    await db.query('delete from app.video_request');
    const authorization = await login(base);
    const headers = { authorization, 'content-type': 'application/json' };
    console.log(
      `jobs: ${REQUESTS} requests for ${chosen.length} vehicles, worker: tick ${app.video.config.tickMs} ms, connect ${app.video.config.connectMs} ms, ${app.video.config.downloadRate} s of recording a second, ${app.video.config.maxDownloads} at once`,
    );
    const started = Date.now();
    const created = await Promise.all(
      Array.from({ length: REQUESTS }, async (_, i) => {
        const vehicle = chosen[i % chosen.length];
        const to = now - (2 + (i % 5)) * MIN;
        const response = await fetch(`${base}/api/v1/video/requests`, {
          method: 'POST',
          headers,
          body: JSON.stringify({
            vehicleId: vehicle.vehicle_id,
            cameras: [1],
            from: new Date(to - 2 * MIN).toISOString(),
            to: new Date(to).toISOString(),
          }),
        });
        return response.status;
      }),
    );
    const createdS = (Date.now() - started) / 1000;
    console.log(
      `jobs: created ${created.filter((s) => s === 201).length} of ${REQUESTS} in ${createdS.toFixed(1)} s (other answers: ${JSON.stringify(created.filter((s) => s !== 201))})`,
    );
    let reported = Date.now();
    for (;;) {
      const [{ open }] = await db.query<{ open: number }>(
        'select count(*)::int as open from app.video_request where status = any($1::int[])',
        [ACTIVE_STATUSES],
      );
      if (open === 0) break;
      if (Date.now() - reported > 15_000) {
        reported = Date.now();
        const byStatus = await db.query<{ status: number; count: number }>(
          'select status, count(*)::int as count from app.video_request group by status order by status',
        );
        console.log(
          `jobs: ${((Date.now() - started) / 1000).toFixed(0)} s, ${open} open (${byStatus.map((r) => `${r.status}: ${r.count}`).join(', ')})`,
        );
      }
      await delay(500);
    }
    const total = (Date.now() - started) / 1000;
    const statuses = await db.query<{ status: number; count: number }>(
      'select status, count(*)::int as count from app.video_request group by status order by status',
    );
    console.log(
      `jobs: all final after ${total.toFixed(1)} s (${(REQUESTS / total).toFixed(1)} requests/s); statuses ${statuses.map((s) => `${s.status}: ${s.count}`).join(', ')}`,
    );
    clearInterval(keepOnline);
  } finally {
    await app.close();
    await db.close();
  }
}

async function listsPart(): Promise<void> {
  const { app, db, base } = await inProcessApp();
  try {
    const [user] = await db.query<{ id: number }>("select id from app.users where username = 'admin'");
    const vehicles = (await db.query<{ id: number }>('select id from mgt.vehicles order by id')).map((v) => v.id);
    // The worker would start on them: the rows are final ones (performed, errors, viewed), as a long-running archive holds.
    await app.video.worker.stop();
    await db.query('delete from app.video_request');
    const started = Date.now();
    await db.longRunning().query(
      `insert into app.video_request (user_id, username, vehicle_id, cameras, period_from, period_to, status, progress, size_bytes, created_at, viewed_at, reason)
       select case when g % 4 = 0 then $1::int else null end, case when g % 4 = 0 then 'admin' else 'user' || (g % 50) end,
              ($2::int[])[1 + g % array_length($2::int[], 1)], array[1, 2], now() - make_interval(mins => g % 10000 + 5), now() - make_interval(mins => g % 10000),
              (array[6, 6, 6, 12, 13, 10, 6, 11])[1 + g % 8], 100, 2000000 + g, now() - make_interval(secs => g * 30),
              case when g % 3 = 0 then now() end, case when g % 8 in (3, 4, 5, 7) then 'причина' end
         from generate_series(1, $3) g`,
      [user.id, vehicles, LIST_ROWS],
    );
    if (db.engine === 'postgres') await db.query('analyze app.video_request');
    console.log(`lists: ${LIST_ROWS} requests inserted in ${((Date.now() - started) / 1000).toFixed(1)} s (${db.engine})`);
    const authorization = await login(base);
    const queries = [
      '/api/v1/reports/video/requests',
      '/api/v1/reports/video/requests?skipCount=300',
      '/api/v1/reports/video/requests?sortField=username&sortOrder=ASC',
      '/api/v1/reports/video/requests?sortField=period_from&sortOrder=DESC',
      '/api/v1/reports/video/requests?status=12,13',
      `/api/v1/reports/video/requests?vehicle=${vehicles.slice(0, 3).join(',')}`,
      '/api/v1/reports/video/myrequests',
      '/api/v1/reports/video/archive',
    ];
    for (const q of queries) await fetch(`${base}${q}`, { headers: { authorization } });
    const times: number[] = [];
    const perQuery = new Map<string, number[]>();
    for (let i = 0; i < 210; i++) {
      const q = queries[i % queries.length];
      const t0 = performance.now();
      const response = await fetch(`${base}${q}`, { headers: { authorization } });
      await response.json();
      const t = performance.now() - t0;
      times.push(t);
      perQuery.set(q, [...(perQuery.get(q) ?? []), t]);
    }
    const sorted = times.sort((a, b) => a - b);
    console.log(
      `lists: ${sorted.length} pages, p50 ${ms(percentile(sorted, 50))}, p95 ${ms(percentile(sorted, 95))}, max ${ms(sorted.at(-1)!)}`,
    );
    for (const [q, t] of perQuery) {
      const s = t.sort((a, b) => a - b);
      console.log(`  ${q.replace('/api/v1/reports', '')}: p50 ${ms(percentile(s, 50))}, p95 ${ms(percentile(s, 95))}`);
    }
  } finally {
    await app.close();
    await db.close();
  }
}

if (PARTS.includes('viewers')) await viewersPart();
if (PARTS.includes('jobs')) await jobsPart();
if (PARTS.includes('lists')) await listsPart();
process.exit(0);
