/**
 * GTFS benchmark: a generated feed of a large city (300 routes, 8,000 stops, 60,000 trips, 2,520,000 stop times,
 * 600 shapes at BENCH_SCALE=1) imported into the real server (its own process) on PostgreSQL and on the embedded
 * engine, beside a bare COPY of the same stop times into the same table in the same run; the server's peak RSS
 * during the import above its idle RSS; the export of the network and the validation of the feed and of the
 * export. Prints figures, asserts nothing.
 *
 *   npx tsx scripts/bench/gtfs.ts                       # full size, both engines
 *   BENCH_SCALE=0.02 npx tsx scripts/bench/gtfs.ts      # a small city first
 *   BENCH_ENGINES=postgres|pglite                       # one engine only
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/tc_bench_gtfs   # the scratch database (created and dropped)
 *
 * Targets on PostgreSQL: the import at least half of COPY's rate; the import at most 300 MB above idle.
 */
import { createReadStream, createWriteStream, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { once } from 'node:events';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { setTimeout as delay } from 'node:timers/promises';
import archiver from 'archiver';
import pg from 'pg';
import { from as copyFrom, to as copyTo } from 'pg-copy-streams';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { NOTICE_SEVERITY, type NoticeCode } from '../../src/shared/gtfs/notices';
import { postgisTrimmed } from '../../src/server/db/postgisBundle';
import { formatGtfsDate, formatGtfsTime } from '../../src/server/gtfs/feed/gtfsValues';
import { inspectFeed } from '../../src/server/gtfs/feed/inspectFeed';
import { addDays } from '../../src/server/platform/operatorDay';
import { Random } from '../../src/server/db/demo/random';
import { recreateDatabase } from './benchServer';
import { startServerProcess, type ServerProcess } from './serverProcess';

const SCALE = Number(process.env.BENCH_SCALE ?? process.argv[2] ?? 1);
const ROUTES = Math.max(2, Math.round(300 * SCALE));
const STOPS = Math.max(100, Math.round(8000 * SCALE));
/** 200 trips a route (120 on weekdays, 40 each weekend day) of 42 stops: 2,520,000 stop times at full size. */
const STOPS_PER_TRIP = 42;
const ENGINES = (process.env.BENCH_ENGINES ?? 'postgres,pglite').split(',');
const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/tc_bench_gtfs';
const PORT = Number(process.env.BENCH_PORT ?? 3213);
const TIME_COLUMNS = '"RaspVariant_id", graph, smena, racetype, racenum, "order", stop_id, time';

/** A seeded generator (the demo data's), so every run benches the same city. */
function random(seed: number): () => number {
  const generator = new Random(seed);
  return () => generator.next();
}

const csv = (cells: readonly (string | number)[]) => `${cells.join(',')}\n`;

/**
 * The city: stops on a grid 350 m apart around a centre, each route a walk of 42 stops across it, both
 * directions with a shape through the stops (three bends between two stops); weekday, Saturday and Sunday
 * services over a year with three holidays; each route's trips run by vehicles in blocks, A and B in turn.
 */
async function writeCityFeed(path: string, today: string): Promise<{ stopTimes: number; trips: number }> {
  const next = random(28);
  const side = Math.ceil(Math.sqrt(STOPS));
  const latStep = 350 / 111_320;
  const lonStep = 350 / (111_320 * Math.cos((55.75 * Math.PI) / 180));
  const at = (i: number): [number, number] => [
    55.75 + (Math.floor(i / side) - side / 2) * latStep,
    37.62 + ((i % side) - side / 2) * lonStep,
  ];
  const routes: number[][] = [];
  for (let r = 0; r < ROUTES; r++) {
    let cell = Math.floor(next() * STOPS);
    let walk = [cell];
    let dir = Math.floor(next() * 4);
    let tries = 0;
    while (walk.length < STOPS_PER_TRIP) {
      // A walk that has boxed itself in starts again elsewhere.
      if (++tries > 50) [cell, tries] = [Math.floor(next() * STOPS), 0];
      if (!tries) walk = [cell];
      if (next() < 0.25) dir = Math.floor(next() * 4);
      const row = Math.floor(cell / side);
      const col = cell % side;
      const [dr, dc] = [
        [0, 1],
        [1, 0],
        [0, -1],
        [-1, 0],
      ][dir];
      const to = (row + dr) * side + (col + dc);
      if (row + dr < 0 || col + dc < 0 || col + dc >= side || to >= STOPS || walk.includes(to)) {
        dir = (dir + 1 + Math.floor(next() * 3)) % 4;
        continue;
      }
      walk.push((cell = to));
      tries = 0;
    }
    routes.push(walk);
  }
  const end = addDays(today, 364);
  const holidays = [addDays(today, 30), addDays(today, 120), addDays(today, 200)];
  const zip = archiver('zip', { zlib: { level: 1 } });
  const out = createWriteStream(path);
  zip.pipe(out);
  zip.append(
    csv(['agency_id', 'agency_name', 'agency_url', 'agency_timezone']) +
      csv(['city', 'Городской транспорт', 'https://example.org', 'Europe/Moscow']),
    { name: 'agency.txt' },
  );
  let stops = csv(['stop_id', 'stop_name', 'stop_lat', 'stop_lon']);
  for (let i = 0; i < STOPS; i++) stops += csv([`s${i}`, `Остановка ${i}`, ...at(i).map((x) => x.toFixed(6))]);
  zip.append(stops, { name: 'stops.txt' });
  zip.append(
    csv(['route_id', 'agency_id', 'route_short_name', 'route_long_name', 'route_type']) +
      routes.map((_, r) => csv([`r${r}`, 'city', r + 1, `Маршрут ${r + 1}`, r % 10 === 0 ? 0 : r % 10 === 1 ? 11 : 3])).join(''),
    { name: 'routes.txt' },
  );
  zip.append(
    csv(['service_id', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday', 'start_date', 'end_date']) +
      [
        ['wd', 1, 1, 1, 1, 1, 0, 0],
        ['sa', 0, 0, 0, 0, 0, 1, 0],
        ['su', 0, 0, 0, 0, 0, 0, 1],
      ]
        .map((row) => csv([...row, formatGtfsDate(today), formatGtfsDate(end)]))
        .join(''),
    { name: 'calendar.txt' },
  );
  zip.append(
    csv(['service_id', 'date', 'exception_type']) +
      holidays.flatMap((d) => [csv(['wd', formatGtfsDate(d), 2]), csv(['su', formatGtfsDate(d), 1])]).join(''),
    { name: 'calendar_dates.txt' },
  );

  // A trip: [route, service, direction, block, first departure (s)]; 120 weekday trips by 10 vehicles, 40 each
  // on Saturday and Sunday by 4.
  const hop = 105;
  const duration = (STOPS_PER_TRIP - 1) * hop;
  const trips: [number, string, number, string, number][] = [];
  for (let r = 0; r < ROUTES; r++) {
    for (const [service, vehicles, each] of [
      ['wd', 10, 12],
      ['sa', 4, 10],
      ['su', 4, 10],
    ] as const) {
      for (let v = 0; v < vehicles; v++) {
        for (let k = 0; k < each; k++) trips.push([r, service, k % 2, `${service}-r${r}-${v}`, 5 * 3600 + v * 360 + k * (duration + 480)]);
      }
    }
  }
  zip.append(
    csv(['route_id', 'service_id', 'trip_id', 'direction_id', 'block_id', 'shape_id']) +
      trips.map(([r, service, direction, block], t) => csv([`r${r}`, service, `t${t}`, direction, block, `r${r}-${direction}`])).join(''),
    { name: 'trips.txt' },
  );
  let stopTimes = 0;
  async function* stopTimeLines(): AsyncGenerator<string> {
    yield csv(['trip_id', 'arrival_time', 'departure_time', 'stop_id', 'stop_sequence']);
    for (let t = 0; t < trips.length; t++) {
      const [r, , direction, , start] = trips[t];
      const stopsOf = direction ? [...routes[r]].reverse() : routes[r];
      let chunk = '';
      stopsOf.forEach((stop, i) => {
        const departure = start + i * hop;
        chunk += csv([`t${t}`, formatGtfsTime(i ? departure - 20 : departure), formatGtfsTime(departure), `s${stop}`, i + 1]);
      });
      stopTimes += stopsOf.length;
      yield chunk;
    }
  }
  zip.append(Readable.from(stopTimeLines()), { name: 'stop_times.txt' });
  function* shapeLines(): Generator<string> {
    yield csv(['shape_id', 'shape_pt_lat', 'shape_pt_lon', 'shape_pt_sequence']);
    for (let r = 0; r < ROUTES; r++) {
      for (const direction of [0, 1]) {
        const stopsOf = direction ? [...routes[r]].reverse() : routes[r];
        let chunk = '';
        let seq = 0;
        stopsOf.forEach((stop, i) => {
          const [lat, lon] = at(stop);
          chunk += csv([`r${r}-${direction}`, lat.toFixed(6), lon.toFixed(6), ++seq]);
          if (i + 1 === stopsOf.length) return;
          const [lat2, lon2] = at(stopsOf[i + 1]);
          for (const f of [0.25, 0.5, 0.75])
            chunk += csv([`r${r}-${direction}`, (lat + (lat2 - lat) * f + 0.00003).toFixed(6), (lon + (lon2 - lon) * f).toFixed(6), ++seq]);
        });
        yield chunk;
      }
    }
  }
  zip.append(Readable.from(shapeLines()), { name: 'shapes.txt' });
  await zip.finalize();
  await once(out, 'close');
  return { stopTimes, trips: trips.length };
}

interface ImportFigures {
  seconds: number;
  checkSeconds: number;
  writeSeconds: number;
  idleMb: number;
  peakMb: number;
  report: { written?: Record<string, number>; notices?: { code: string }[] };
}

/** Uploads the feed and follows the import to its end, sampling the server's RSS every 200 ms. */
async function runImport(server: ServerProcess, address: string, authorization: string, path: string): Promise<ImportFigures> {
  const idleMb = server.rssMb();
  let peakMb = idleMb;
  const sampler = setInterval(() => {
    peakMb = Math.max(peakMb, server.rssMb());
  }, 200);
  const started = performance.now();
  try {
    const upload = await fetch(`${address}/api/v1/gtfs/imports?file=city.zip`, {
      method: 'POST',
      headers: { authorization, 'content-type': 'application/zip' },
      body: Readable.toWeb(createReadStream(path)) as ReadableStream,
      duplex: 'half',
    } as RequestInit);
    if (upload.status !== 202) throw new Error(`upload ${upload.status}: ${await upload.text()}`);
    const { id } = (await upload.json()) as { id: number };
    const stageAt: Record<string, number> = {};
    for (;;) {
      await delay(250);
      const run = (await (await fetch(`${address}/api/v1/gtfs/imports/${id}`, { headers: { authorization } })).json()) as {
        status: string;
        stage: string;
        report: ImportFigures['report'];
      };
      stageAt[run.stage] ??= performance.now();
      if (run.status === 'running') continue;
      const seconds = (performance.now() - started) / 1000;
      if (run.status !== 'done') throw new Error(`import ${run.status}: ${JSON.stringify(run.report).slice(0, 2000)}`);
      // On the embedded engine the write transaction holds the database the poll reads: no write stage is seen.
      const writeAt = stageAt.write;
      return {
        seconds,
        idleMb,
        peakMb,
        report: run.report,
        checkSeconds: writeAt ? (writeAt - (stageAt.check ?? started)) / 1000 : Number.NaN,
        writeSeconds: writeAt ? (performance.now() - writeAt) / 1000 : Number.NaN,
      };
    }
  } finally {
    clearInterval(sampler);
  }
}

/** Downloads the static feed, sampling the server's RSS. */
async function runExport(
  server: ServerProcess,
  address: string,
  authorization: string,
  path: string,
): Promise<{ seconds: number; mb: number; peakMb: number }> {
  let peakMb = server.rssMb();
  const sampler = setInterval(() => {
    peakMb = Math.max(peakMb, server.rssMb());
  }, 200);
  const started = performance.now();
  try {
    const response = await fetch(`${address}/api/v1/gtfs/static.zip`, { headers: { authorization } });
    if (response.status !== 200) throw new Error(`export ${response.status}: ${await response.text()}`);
    await pipeline(Readable.fromWeb(response.body as import('node:stream/web').ReadableStream), createWriteStream(path));
    return { seconds: (performance.now() - started) / 1000, mb: statSync(path).size / 2 ** 20, peakMb };
  } finally {
    clearInterval(sampler);
  }
}

async function validate(path: string): Promise<{ seconds: number; errors: number; warnings: number; codes: string }> {
  const started = performance.now();
  const { notices } = await inspectFeed(path);
  const totals = Object.entries(notices.totals()) as [NoticeCode, number][];
  const errors = totals.filter(([code]) => NOTICE_SEVERITY[code] === 'error').reduce((n, [, c]) => n + c, 0);
  const warnings = totals.reduce((n, [, c]) => n + c, 0) - errors;
  return { seconds: (performance.now() - started) / 1000, errors, warnings, codes: totals.map(([code, n]) => `${code} ${n}`).join(', ') };
}

/** A bare COPY of the imported stop times, written again into mgt.rasp_time, on PostgreSQL. */
async function copyOnPostgres(url: string, folder: string): Promise<{ rows: number; seconds: number }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const file = join(folder, 'times.copy');
    const select = `select ${TIME_COLUMNS} from mgt.rasp_time where "RaspVariant_id" in (select local_id from gtfs.external_key where kind = 'variant')`;
    await pipeline(client.query(copyTo(`copy (${select}) to stdout`)), createWriteStream(file));
    const started = performance.now();
    const stream = client.query(copyFrom(`copy mgt.rasp_time (${TIME_COLUMNS}) from stdin`));
    await pipeline(createReadStream(file), stream);
    return { rows: Number(stream.rowCount), seconds: (performance.now() - started) / 1000 };
  } finally {
    await client.end();
  }
}

/** The same on the embedded engine's data folder, the server stopped. */
async function copyOnPglite(dir: string): Promise<{ rows: number; seconds: number }> {
  const db = await PGlite.create({ dataDir: dir, extensions: { postgis: postgisTrimmed('run'), pg_trgm } });
  try {
    const select = `select ${TIME_COLUMNS} from mgt.rasp_time where "RaspVariant_id" in (select local_id from gtfs.external_key where kind = 'variant')`;
    const { blob } = await db.query(`copy (${select}) to '/dev/blob'`);
    const started = performance.now();
    await db.query(`copy mgt.rasp_time (${TIME_COLUMNS}) from '/dev/blob'`, [], { blob });
    const seconds = (performance.now() - started) / 1000;
    const [{ n }] = (await db.query<{ n: number }>(`select count(*)::int n from (${select}) x`)).rows;
    return { rows: n / 2, seconds };
  } finally {
    await db.close();
  }
}

const mb = (n: number) => `${Math.round(n)} MB`;
const rate = (rows: number, seconds: number) => `${Math.round(rows / seconds).toLocaleString('en')} rows/s`;

async function benchEngine(engine: string, feedPath: string, stopTimes: number, folder: string): Promise<void> {
  const dataDir = join(folder, 'data');
  if (engine === 'postgres') await recreateDatabase(DATABASE_URL);
  const env: Record<string, string> = {
    PORT: String(PORT),
    DEMO_DATA: 'true',
    DEMO_SCALE: 'test',
    SIMULATOR: 'false',
    QUERY_TIMEOUT_LONG_MS: '600000',
    ...(engine === 'postgres' ? { DATABASE_URL } : { DATA_DIR: dataDir, DATABASE_URL: '' }),
  };
  const server = await startServerProcess(env, 900_000);
  try {
    const address = `http://127.0.0.1:${PORT}`;
    const login = await fetch(`${address}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: 'admin123' }),
    });
    const authorization = `Bearer ${((await login.json()) as { token: string }).token}`;
    await delay(5000);
    const imported = await runImport(server, address, authorization, feedPath);
    console.log(
      `\n${engine === 'postgres' ? 'PostgreSQL' : 'PGlite'} (load average ${loadavg()
        .map((n) => n.toFixed(1))
        .join(' ')} on ${cpus().length} CPUs)`,
    );
    const stages = Number.isNaN(imported.writeSeconds)
      ? 'stages not seen'
      : `check ${imported.checkSeconds.toFixed(1)} s, write ${imported.writeSeconds.toFixed(1)} s, write stage ${rate(stopTimes, imported.writeSeconds)}`;
    console.log(`  import: ${imported.seconds.toFixed(1)} s (${stages}), ${rate(stopTimes, imported.seconds)} overall`);
    console.log(`  written: ${JSON.stringify(imported.report.written)}`);
    console.log(
      `  server RSS: idle ${mb(imported.idleMb)}, peak during the import ${mb(imported.peakMb)} (+${mb(imported.peakMb - imported.idleMb)})`,
    );
    const exportPath = join(folder, `export-${engine}.zip`);
    const exported = await runExport(server, address, authorization, exportPath);
    console.log(`  export: ${exported.seconds.toFixed(1)} s, ${exported.mb.toFixed(1)} MB zip, server RSS peak ${mb(exported.peakMb)}`);
    const checked = await validate(exportPath);
    console.log(
      `  validation of the export: ${checked.seconds.toFixed(1)} s, ${checked.errors} errors, ${checked.warnings} warnings (${checked.codes})`,
    );
    rmSync(exportPath, { force: true });
    if (engine === 'pglite') await server.stop();
    const copied = engine === 'postgres' ? await copyOnPostgres(DATABASE_URL, folder) : await copyOnPglite(join(dataDir, 'pg'));
    console.log(
      `  bare COPY of the same ${copied.rows.toLocaleString('en')} stop times into mgt.rasp_time: ${copied.seconds.toFixed(1)} s, ${rate(copied.rows, copied.seconds)}`,
    );
    const share = (seconds: number) => (stopTimes / seconds / (copied.rows / copied.seconds)).toFixed(2);
    console.log(
      `  import / COPY: overall ${share(imported.seconds)}${Number.isNaN(imported.writeSeconds) ? '' : `, write stage ${share(imported.writeSeconds)}`}`,
    );
    if (server.errors().length) console.log(`  server errors:\n${server.errors().slice(0, 5).join('\n')}`);
  } finally {
    await server.stop();
    if (engine === 'postgres') await dropDatabase(DATABASE_URL);
  }
}

async function dropDatabase(url: string): Promise<void> {
  const name = new URL(url).pathname.slice(1);
  const admin = new pg.Client({ connectionString: Object.assign(new URL(url), { pathname: '/postgres' }).toString() });
  await admin.connect();
  await admin.query(`drop database if exists ${name} with (force)`);
  await admin.end();
}

async function main(): Promise<void> {
  mkdirSync('.tmp', { recursive: true });
  const folder = mkdtempSync(join(tmpdir(), 'bench-gtfs-'));
  const feedPath = join('.tmp', `bench-gtfs-${SCALE}.zip`);
  const today = new Date(Date.now() + 180 * 60_000).toISOString().slice(0, 10);
  try {
    const started = performance.now();
    const { stopTimes, trips } = await writeCityFeed(feedPath, today);
    console.log(
      `feed: ${ROUTES} routes, ${STOPS} stops, ${trips.toLocaleString('en')} trips, ${stopTimes.toLocaleString('en')} stop times, ${ROUTES * 2} shapes; ` +
        `${(statSync(feedPath).size / 2 ** 20).toFixed(1)} MB zip, generated in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
    const checked = await validate(feedPath);
    console.log(
      `validation of the feed (read and check, in this process): ${checked.seconds.toFixed(1)} s, ${checked.errors} errors, ${checked.warnings} warnings (${checked.codes})`,
    );
    for (const engine of ENGINES) await benchEngine(engine, feedPath, stopTimes, folder);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
