/**
 * Geo stream benchmark: the real server (buildApp on embedded PGlite, loopback HTTP) with 5,000 vehicles moving
 * (positions fed into the telemetry pipeline in-process, each vehicle every 5 s, spread evenly), and 200 stream
 * clients in a worker thread each watching the whole city at zoom 11, 12 or 13. Prints frames (the whole
 * picture first, then deltas) and bytes delivered per second and the delay from a position's ingest (its fix
 * time is the ingest time) to the first frame that shows it, measured on single-vehicle items (a group's date
 * is its newest member's) by every tenth client (BENCH_MEASURE_EVERY), which keeps the picture as the console
 * does; the other clients read their streams to the end and count frames.
 *
 *   npx tsx scripts/bench/geoStream.ts
 *   BENCH_VEHICLES=5000 BENCH_CLIENTS=200 BENCH_SECONDS=30 GEO_REBUILD_MS=1000 npx tsx scripts/bench/geoStream.ts
 *   BENCH_VIEWPORTS=screen npx tsx scripts/bench/geoStream.ts   # 200 distinct screen-sized views instead of 3 shared ones
 *   DATABASE_URL=postgres://.../scratch npx tsx scripts/bench/geoStream.ts   # tracks written by a PostgreSQL server
 *
 * The embedded engine (PGlite) runs on the server's own thread: with it, writing 1,000 track rows a second
 * competes with the stream for that thread. The event-loop delay printed at the end shows how much.
 *
 * Target: delay p95 under 1 s.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { buildApp } from '../../src/server/app';
import { loadConfig } from '../../src/server/config';
import { openDatabase } from '../../src/server/db/open';
import { serializeGeoSubscription } from '../../src/shared/map';
import type { Position } from '../../src/server/telemetry/types';

const VEHICLES = Number(process.env.BENCH_VEHICLES ?? 5000);
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 200);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 30);
const WARMUP_S = 5;
/** Every n-th client parses its frames and measures delays; the others read and count them. */
const MEASURE_EVERY = Number(process.env.BENCH_MEASURE_EVERY ?? 10);
const REPORT_MS = 5000;
/**
 * Positions arrive in a batch every SLICE_MS (BENCH_SLICE_MS): terminals report at random moments, so slices much
 * shorter than the hub's coalescing window; slices as long as the window would fall in step with it and flatter
 * the delay.
 */
const SLICE_MS = Number(process.env.BENCH_SLICE_MS ?? 50);
const CITY: [number, number, number, number] = [59.75, 29.95, 60.1, 30.65];
/**
 * BENCH_VIEWPORTS=screen: every client watches its own screen-sized view (zoom 11 to 15, spread over the city), as
 * dispatchers do, instead of the whole city at one of three zooms (which all clients of a zoom share).
 */
const SCREENS = process.env.BENCH_VIEWPORTS === 'screen';

// The bench drives the fleet itself and needs many streams from one login.
process.env.SIMULATOR = 'false';
process.env.EGTS_ENABLED = 'false';
process.env.GEO_MAX_STREAMS_PER_USER ??= String(CLIENTS + 10);

/** The client side, in plain JavaScript for the worker: fetch streams, parse frames, measure delays. */
const CLIENT = `
const { parentPort, workerData } = require('node:worker_threads');
const { url, auth, queries, warmupUntil, measureEvery } = workerData;
const delays = [], waits = [], transits = [], groupAges = [];
let frames = 0, bytes = 0, samples = 0, parsed = 0;
const MARKS = [Buffer.from('event: points'), Buffer.from('event: delta')];
/** Most clients only drain their stream (counting frames): one thread parsing 200 streams would measure itself. */
async function drain(q) {
  const response = await fetch(url + '?q=' + encodeURIComponent(q), { headers: { authorization: auth } });
  const reader = response.body.getReader();
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    bytes += value.length;
    const chunk = Buffer.from(value.buffer, value.byteOffset, value.length);
    for (const mark of MARKS) for (let at = chunk.indexOf(mark); at >= 0; at = chunk.indexOf(mark, at + 1)) frames += 1;
  }
}
async function client(q) {
  const response = await fetch(url + '?q=' + encodeURIComponent(q), { headers: { authorization: auth } });
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  // The fix time of each single vehicle in the picture: from 'points', then 'delta's applied to it.
  let picture = new Map();
  let buffer = '';
  let parts = [];
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    const now = Date.now();
    bytes += value.length;
    const text = decoder.decode(value, { stream: true });
    // Frames are large: join the pieces only once a frame is complete.
    if (!text.includes('\\n\\n')) { parts.push(text); continue; }
    buffer += parts.join('') + text;
    parts = [];
    let cut;
    while ((cut = buffer.indexOf('\\n\\n')) >= 0) {
      const block = buffer.slice(0, cut);
      buffer = buffer.slice(cut + 2);
      const whole = block.startsWith('event: points');
      if (!whole && !block.startsWith('event: delta')) continue;
      const frame = JSON.parse(block.slice(block.indexOf('data: ') + 6));
      frames += 1;
      parsed += 1;
      const built = Date.parse(frame.time);
      if (now >= warmupUntil) transits.push(now - built);
      // A vehicle counts only if shown on its own in the previous picture too: one coming out of a group shows
      // a fix that may be seconds old without any delay of the stream.
      const vehicle = (key, time) => {
        const before = picture.get(key);
        picture.set(key, time);
        if (before !== undefined && time > before && now >= warmupUntil) {
          delays.push(now - time);
          waits.push(built - time);
          samples += 1;
        }
      };
      const group = (time) => { if (now >= warmupUntil) groupAges.push(now - time); };
      if (whole) {
        const previous = picture;
        picture = new Map();
        for (const item of frame.items) {
          const time = Date.parse(item.date);
          if (item.type !== 'vehicle') { group(time); continue; }
          const key = 'v' + item.id;
          const before = previous.get(key);
          if (before !== undefined) picture.set(key, before);
          vehicle(key, time);
        }
      } else {
        for (const key of frame.gone) picture.delete(key);
        for (const row of frame.vehicles) vehicle('v' + row[0], frame.at - row[6]);
        for (const row of frame.groups) group(frame.at - row[6]);
      }
    }
  }
}
queries.forEach((q, i) => (i % measureEvery === 0 ? client(q) : drain(q)).catch(() => {}));
setInterval(() => {
  parentPort.postMessage({ frames, bytes, delays: delays.splice(0), waits: waits.splice(0), transits: transits.splice(0), groupAges: groupAges.splice(0, 20000), samples });
  groupAges.length = 0;
  frames = 0; bytes = 0;
}, ${REPORT_MS}).unref();
parentPort.on('message', () => process.exit(0));
`;

const percentile = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : NaN;

async function main(): Promise<void> {
  const config = {
    ...loadConfig(),
    dataDir: undefined,
    staticDir: undefined,
    logLevel: 'warn',
    demoData: true,
    demoScale: 'test' as const,
  };
  const db = await openDatabase(config);
  const app = await buildApp(config, { db, seedDemo: true });
  // The bench fleet: VEHICLES more buses of the demo depots, so that labels come from the real directory.
  // A scratch PostgreSQL database keeps the previous run's bench buses: start from none.
  await db.query('delete from mgt.vehicles where depot_number > 50000');
  await db.query(
    `insert into mgt.vehicles (depot_id, vehicle_type_id, model, capacity_type_id, depot_number, state_number)
     select 1 + g % 3, 1, 'Bench bus', 1 + g % 4, 50000 + g, null from generate_series(1, $1::int) g`,
    [VEHICLES],
  );
  const ids = (await db.query<{ id: number }>('select id from mgt.vehicles where depot_number > 50000 order by id')).map((r) => r.id);
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  await app.map.directory.refresh();
  const login = await fetch(`${address}/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: 'admin123' }),
  });
  const { token } = (await login.json()) as { token: string };

  // Vehicles wander around the city at bus speeds; each reports every 5 s, a hundredth of the fleet per 50 ms.
  // Dense in the centre, sparse in the outskirts (a normal-ish spread of ~6 km), as a city's fleet is.
  const state = ids.map((id, i) => {
    const r = Math.min(18, Math.sqrt(-2 * Math.log(1 - (((i * 7919) % 997) + 0.5) / 997)) * 6);
    const a = (((i * 104729) % 1009) / 1009) * 2 * Math.PI;
    return { id, lat: 59.93 + (r * Math.sin(a)) / 111.2, lon: 30.31 + (r * Math.cos(a)) / 55.6, course: (i * 37) % 360 };
  });
  const slices = Math.round(5000 / SLICE_MS);
  let slice = 0;
  let ingested = 0;
  const feed = setInterval(() => {
    const now = Date.now();
    const batch: Position[] = [];
    for (let i = slice % slices; i < state.length; i += slices) {
      const v = state[i];
      v.course = (v.course + Math.round((Math.random() - 0.5) * 30) + 360) % 360;
      const metres = 25 + Math.random() * 25; // 18-36 km/h over 5 s
      v.lat += (metres * Math.cos((v.course * Math.PI) / 180)) / 111_000;
      v.lon += (metres * Math.sin((v.course * Math.PI) / 180)) / 55_600;
      if (v.lat < CITY[0] || v.lat > CITY[2] || v.lon < CITY[1] || v.lon > CITY[3]) v.course = (v.course + 180) % 360;
      batch.push({
        vehicleId: v.id,
        time: now,
        lat: v.lat,
        lon: v.lon,
        speed: (metres / 5) * 3.6,
        course: v.course,
        valid: true,
        history: false,
      });
    }
    slice += 1;
    ingested += app.telemetry.pipeline.ingest(batch, now).accepted;
  }, SLICE_MS);

  const zooms = SCREENS ? [11, 12, 13, 14, 15] : [11, 12, 13];
  const queries = Array.from({ length: CLIENTS }, (_, i) => {
    // the measuring clients (every MEASURE_EVERY-th) get every zoom too
    const zoom = zooms[(i + Math.floor(i / MEASURE_EVERY)) % zooms.length];
    if (!SCREENS) return serializeGeoSubscription({ bounds: CITY, zoom, vehicles: [] });
    // a 1600×900 screen somewhere in the city (within ~6 km of the centre), each dispatcher elsewhere
    const r = (((i * 7919) % 101) / 101) * 6;
    const a = (((i * 104729) % 1009) / 1009) * 2 * Math.PI;
    const lat = 59.93 + (r * Math.sin(a)) / 111.2;
    const lon = 30.31 + (r * Math.cos(a)) / 55.6;
    const degPerPx = 360 / (256 * 2 ** zoom);
    const [halfLon, halfLat] = [800 * degPerPx, 450 * degPerPx * Math.cos((lat * Math.PI) / 180)];
    return serializeGeoSubscription({ bounds: [lat - halfLat, lon - halfLon, lat + halfLat, lon + halfLon], zoom, vehicles: [] });
  });
  const warmupUntil = Date.now() + WARMUP_S * 1000;
  const worker = new Worker(CLIENT, {
    eval: true,
    workerData: { url: `${address}/geoapi/v1/geo/1`, auth: `Bearer ${token}`, queries, warmupUntil, measureEvery: MEASURE_EVERY },
  });
  const delays: number[] = [];
  const waits: number[] = [];
  const transits: number[] = [];
  const groupAges: number[] = [];
  let frames = 0;
  let bytes = 0;
  worker.on(
    'message',
    (report: { frames: number; bytes: number; delays: number[]; waits: number[]; transits: number[]; groupAges: number[] }) => {
      if (Date.now() < warmupUntil + REPORT_MS) return;
      frames += report.frames;
      bytes += report.bytes;
      for (const d of report.delays) delays.push(d);
      for (const d of report.waits) waits.push(d);
      for (const d of report.transits) transits.push(d);
      for (const d of report.groupAges) groupAges.push(d);
      console.log(
        `  ${(report.frames / (REPORT_MS / 1000)).toFixed(0)} frames/s, ${(report.bytes / (REPORT_MS / 1000) / 1e6).toFixed(1)} MB/s, ${app.geo.hub.size} streams, last build ${app.geo.hub.stats.lastBuildMs.toFixed(1)} ms for ${app.geo.hub.stats.lastPoints} vehicles`,
      );
    },
  );

  const [load1] = (await import('node:os')).loadavg();
  console.log(`machine: ${(await import('node:os')).cpus().length} cores, load average ${load1.toFixed(1)} at start`);
  console.log(
    `geo stream benchmark: ${VEHICLES.toLocaleString('en')} vehicles reporting every 5 s (a batch every ${SLICE_MS} ms), ${CLIENTS} clients (${SCREENS ? 'each its own 1600×900 view at zoom 11-15' : 'zoom 11/12/13, whole city'}; every ${MEASURE_EVERY}th parses and measures), coalescing window ${app.geo.config.rebuildMs} ms, ${SECONDS} s after ${WARMUP_S} s warm-up`,
  );
  const loopDelay = monitorEventLoopDelay({ resolution: 10 });
  setTimeout(() => loopDelay.enable(), WARMUP_S * 1000).unref();
  const cpuStart = process.cpuUsage();
  const wallStart = performance.now();
  await new Promise((resolve) => setTimeout(resolve, (WARMUP_S + SECONDS) * 1000 + REPORT_MS));
  const cpu = process.cpuUsage(cpuStart);
  const wall = performance.now() - wallStart;
  clearInterval(feed);
  worker.postMessage('stop');
  await new Promise((resolve) => worker.once('exit', resolve));

  for (const list of [delays, waits, transits, groupAges]) list.sort((a, b) => a - b);
  const measured = SECONDS;
  console.log(`\nresults over ${measured} s:`);
  console.log(`  positions ingested: ${(ingested / (wall / 1000)).toFixed(0)}/s`);
  console.log(
    `  frames delivered: ${(frames / measured).toFixed(0)}/s (${(frames / measured / CLIENTS).toFixed(2)} per client per second), ${(bytes / measured / 1e6).toFixed(1)} MB/s`,
  );
  console.log(
    `  ingest → client delay over ${delays.length.toLocaleString('en')} vehicle updates: p50 ${percentile(delays, 50)} ms, p95 ${percentile(delays, 95)} ms, p99 ${percentile(delays, 99)} ms, max ${delays.at(-1)} ms`,
  );
  console.log(`    of which ingest → frame built (the rebuild throttle): p50 ${percentile(waits, 50)} ms, p95 ${percentile(waits, 95)} ms`);
  console.log(
    `    and frame built → parsed by the client (serialise, send, receive, parse): p50 ${percentile(transits, 50)} ms, p95 ${percentile(transits, 95)} ms`,
  );
  console.log(
    `  age of a group's newest member on receipt (sampled): p50 ${percentile(groupAges, 50)} ms, p95 ${percentile(groupAges, 95)} ms`,
  );
  const hub = app.geo.hub.stats;
  console.log(
    `  hub: ${hub.builds} builds (last ${hub.lastBuildMs.toFixed(1)} ms, with diffs and sends ${hub.lastCycleMs.toFixed(1)} ms), ${hub.framesSent} frames sent (${hub.fullFrames} whole pictures, ${hub.deltaFrames} deltas; ${(hub.bytesSent / Math.max(1, hub.framesSent) / 1000).toFixed(1)} KB on average), ${hub.framesUnchanged} unchanged views skipped`,
  );
  console.log(
    `  server event-loop delay: p50 ${(loopDelay.percentile(50) / 1e6).toFixed(0)} ms, p95 ${(loopDelay.percentile(95) / 1e6).toFixed(0)} ms, max ${(loopDelay.max / 1e6).toFixed(0)} ms (engine ${db.engine})`,
  );
  console.log(
    `  process CPU (server, feeder and client worker together): ${(((cpu.user + cpu.system) / 1000 / wall) * 100).toFixed(0)} % of one core`,
  );
  await app.close();
  await db.close();
}

await main();
