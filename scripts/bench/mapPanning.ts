/**
 * Map panning benchmark: the built console (dist/client, `npx vite build` first; STATIC_DIR for another folder)
 * served by the real server (in process, embedded database, small demo data), the map in Chromium showing a geo
 * stream of 5,000 moving vehicles, panned continuously for 10 s with map.panBy on every animation frame; prints
 * frames per second.
 *
 *   npx tsx scripts/bench/mapPanning.ts            # BENCH_VEHICLES=5000 BENCH_SECONDS=10 BENCH_UPDATE_MS=250
 *
 * The stream is synthetic and unclustered (every vehicle drawn on its own, a worse case than the server's
 * clustered stream): the page's request for /geoapi/v1/geo/1 is routed to a small event-stream server in
 * this process that sends the whole picture, then a delta every 250 ms, as the real one does. Tiles are a generated
 * 256×256 PNG (the product has none without TILE_SOURCE). Everything else (login, map calls) is the real
 * server. Target: ≥ 30 fps while panning. BENCH_PROFILE=1 prints where the page's JavaScript spent its time;
 * BENCH_TRACE=file.json writes a Chromium trace.
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, loadavg } from 'node:os';
import { crc32, deflateSync } from 'node:zlib';
import { chromium } from '@playwright/test';
import { buildApp } from '../../src/server/app';
import { loadConfig } from '../../src/server/config';
import { openDatabase } from '../../src/server/db/open';
import { DEFAULT_MAP } from '../../src/shared/constants';
import { deltaVehicle, type GeoDelta, type MapCluster } from '../../src/shared/map';

const VEHICLES = Number(process.env.BENCH_VEHICLES ?? 5000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const UPDATE_MS = Number(process.env.BENCH_UPDATE_MS ?? 250);
const VIEWPORT = { width: 1600, height: 900 };

/** A 256×256 background tile (light ground, a street grid), as a map tile server would send. */
function tilePng(): Buffer {
  const size = 256;
  const raw = Buffer.alloc((size * 3 + 1) * size);
  for (let y = 0; y < size; y++) {
    raw[y * (size * 3 + 1)] = 0;
    for (let x = 0; x < size; x++) {
      const street = x % 64 < 3 || y % 64 < 3 || (x + y) % 181 < 2;
      const [r, g, b] = street ? [255, 255, 255] : [236 + ((x * y) % 7), 234, 226];
      raw.set([r, g, b], y * (size * 3 + 1) + 1 + x * 3);
    }
  }
  const chunk = (type: string, data: Buffer) => {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(data.length, 0);
    head.write(type, 4, 'ascii');
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
    return Buffer.concat([head, data, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
}

/** Vehicles on circles around the city centre, each moving at its own speed. */
function fleet(t: number): MapCluster[] {
  const items: MapCluster[] = [];
  const date = new Date().toISOString();
  for (let i = 0; i < VEHICLES; i++) {
    const ring = 0.01 + ((i * 7919) % 1000) / 1000 * 0.09;
    const angle = (i * 2.399963) + t * (0.0004 + (i % 13) * 0.00005);
    items.push({
      type: 'vehicle', id: i + 1, count: 1, routeType: 'А', route: String(1 + (i % 150)), classRank: 1 + (i % 4),
      course: Math.round(((angle * 180) / Math.PI + 90) % 360), on: i % 17 !== 0, date, depotNumber: 1000 + i, averageSpeed: 20,
      center: [Number((DEFAULT_MAP.lat + Math.sin(angle) * ring * 0.9).toFixed(6)), Number((DEFAULT_MAP.lon + Math.cos(angle) * ring * 2.2).toFixed(6))],
    });
  }
  return items;
}

/**
 * The synthetic geo stream, as the real one: hello, the whole picture, then every UPDATE_MS a delta of the
 * vehicles that reported since (a quarter of the fleet at the default 250 ms: each vehicle moves once a second).
 */
function startStream(): Promise<{ url: string; close: () => void; sent: () => number }> {
  const clients = new Set<ServerResponse>();
  let frames = 0;
  let version = 1;
  let slot = 0;
  const started = Date.now();
  const slots = Math.max(1, Math.round(1000 / UPDATE_MS));
  const picture = fleet(0);
  const server = createServer((request, response) => {
    if (request.method === 'PUT') return response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
    response.write(`event: hello\ndata: ${JSON.stringify({ streamId: 'bench' })}\n\n`);
    response.write(`event: points\ndata: ${JSON.stringify({ time: new Date().toISOString(), v: version, items: picture })}\n\n`);
    clients.add(response);
    request.on('close', () => clients.delete(response));
  });
  const timer = setInterval(() => {
    const at = Date.now();
    const next = fleet((at - started) / 1000);
    const moved = next.filter((_, i) => i % slots === slot % slots);
    slot++;
    for (const item of moved) picture[item.id - 1] = item;
    version++;
    const delta: GeoDelta = {
      time: new Date(at).toISOString(), at, v: version, base: version - 1, gone: [], groups: [],
      vehicles: moved.map((item) => deltaVehicle(item, item, at - Date.parse(item.date))),
    };
    if (clients.size === 0) return;
    const frame = `event: delta\ndata: ${JSON.stringify(delta)}\n\n`;
    for (const client of clients) client.write(frame);
    frames++;
  }, UPDATE_MS);
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => {
      clearInterval(timer);
      for (const client of clients) client.end();
      server.close();
    },
    sent: () => frames,
  })));
}

interface ProfileNode { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }

/** BENCH_PROFILE=1: the functions the page spent its time in while panning (self time). */
function printProfile(profile: { nodes: ProfileNode[]; samples?: number[]; timeDeltas?: number[] }): void {
  const self = new Map<number, number>();
  (profile.samples ?? []).forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas?.[i] ?? 0)));
  const byName = new Map<string, number>();
  for (const node of profile.nodes) {
    const { functionName, url, lineNumber } = node.callFrame;
    const key = `${functionName || '(anonymous)'} ${url.split('/').pop()}:${lineNumber}`;
    byName.set(key, (byName.get(key) ?? 0) + (self.get(node.id) ?? 0) / 1000);
  }
  for (const [name, ms] of [...byName].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log(`  ${ms.toFixed(0).padStart(6)} ms  ${name}`);
}

interface PanResult { frames: number; seconds: number; p50: number; p95: number; max: number; updates: number; items: number }

async function main(): Promise<void> {
  process.env.EGTS_PORT ??= '0';
  const config = { ...loadConfig(), dataDir: undefined, staticDir: process.env.STATIC_DIR ?? 'dist/client', logLevel: process.env.LOG_LEVEL ?? 'warn', demoData: true, demoScale: 'test' as const };
  const db = await openDatabase(config);
  const app = await buildApp(config, { db, seedDemo: true });
  const base = await app.listen({ port: 0, host: '127.0.0.1' });
  const stream = await startStream();
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  try {
    const page = await browser.newPage({ viewport: VIEWPORT, locale: 'ru-RU', timezoneId: 'Europe/Moscow' });
    // The page's Leaflet (the UMD build sets window.L): keep a handle on the map it creates, for panBy.
    // tsx keeps function names with a __name helper that page functions do not carry along
    await page.addInitScript('window.__name = (fn) => fn;');
    await page.addInitScript(() => {
      let leaflet: unknown;
      Object.defineProperty(window, 'L', {
        configurable: true,
        get: () => leaflet,
        set(value: { Map: { addInitHook(fn: (this: unknown) => void): void } }) {
          leaflet = value;
          value.Map.addInitHook(function hook(this: unknown) { (window as unknown as { benchMap: unknown }).benchMap = this; });
        },
      });
    });
    // the product serves no tiles without TILE_SOURCE: real images, as with a tile source, keep the figure honest
    const tile = tilePng();
    await page.route(/\/tile\/\d+\/\d+\/\d+\.png$/, (route) => route.fulfill({ status: 200, contentType: 'image/png', body: tile, headers: { 'cache-control': 'max-age=3600' } }));
    await page.route(/\/geoapi\/v1\/geo\/1(\/|\?)/, (route) => route.continue({ url: stream.url + new URL(route.request().url()).pathname }));
    await page.goto(`${base}/`);
    await page.getByLabel('Логин').fill('admin');
    await page.getByLabel('Пароль').fill('admin123');
    await page.getByTestId('login-submit').click();
    await page.waitForURL(/\/map/);
    const map = page.getByTestId('map');
    await map.waitFor();
    await page.locator('.leaflet-control-zoom-in').click();
    await page.waitForFunction((n) => Number((document.querySelector('[data-testid=map]') as HTMLElement | null)?.dataset.itemCount ?? 0) >= n, VEHICLES * 0.95, { timeout: 30_000 });
    await page.waitForTimeout(1500);

    if (process.env.BENCH_TRACE) await browser.startTracing(page, { path: process.env.BENCH_TRACE, categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'blink', 'cc', 'viz'] });
    const cdp = process.env.BENCH_PROFILE ? await page.context().newCDPSession(page) : null;
    if (cdp) {
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.start');
    }
    const result = await page.evaluate(async (seconds): Promise<PanResult> => {
      interface BenchMap { panBy(offset: [number, number], options: { animate: boolean }): void }
      const benchMap = (window as unknown as { benchMap: BenchMap }).benchMap;
      const container = document.querySelector('[data-testid=map]') as HTMLElement;
      const intervals: number[] = [];
      let updates = 0;
      let lastUpdate = container.dataset.lastUpdate;
      return new Promise((resolve) => {
        const start = performance.now();
        let previous = start;
        let previousPan = start;
        let frame = 0;
        const step = (now: number) => {
          if (frame > 0) intervals.push(now - previous);
          previous = now;
          frame++;
          // round a 300-pixel circle every 4 s (2π × 637 ms), whatever the frame rate: the fleet stays in view
          const at = (t: number): [number, number] => [300 * Math.cos((t - start) / 637), 300 * Math.sin((t - start) / 637)];
          const [x0, y0] = at(previousPan);
          const [x1, y1] = at(now);
          previousPan = now;
          benchMap.panBy([Math.round(x1 - x0), Math.round(y1 - y0)], { animate: false });
          if (container.dataset.lastUpdate !== lastUpdate) {
            updates++;
            lastUpdate = container.dataset.lastUpdate;
          }
          if (now - start < seconds * 1000) requestAnimationFrame(step);
          else {
            const sorted = [...intervals].sort((a, b) => a - b);
            const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
            resolve({ frames: intervals.length, seconds: (now - start) / 1000, p50: at(0.5), p95: at(0.95), max: sorted[sorted.length - 1], updates, items: Number(container.dataset.itemCount) });
          }
        };
        requestAnimationFrame(step);
      });
    }, SECONDS);

    if (process.env.BENCH_TRACE) await browser.stopTracing();
    if (cdp) printProfile((await cdp.send('Profiler.stop')).profile);
    const fps = result.frames / result.seconds;
    console.log(`map panning: ${result.items} vehicles drawn, ${result.updates} stream updates applied while panning (stream sent ${stream.sent()} pictures)`);
    console.log(`  ${result.frames} frames in ${result.seconds.toFixed(1)} s = ${fps.toFixed(1)} fps; frame interval p50 ${result.p50.toFixed(1)} ms, p95 ${result.p95.toFixed(1)} ms, max ${result.max.toFixed(1)} ms`);
    console.log(`  machine: ${cpus().length} cores, load average ${loadavg().map((l) => l.toFixed(1)).join(' ')} (other work on the machine lowers the figure)`);
    console.log(`  target ≥ 30 fps: ${fps >= 30 ? 'met' : 'NOT met'}`);
    await page.screenshot({ path: 'test-results/screens/map-bench.png' });
    process.exitCode = fps >= 30 ? 0 : 1;
  } finally {
    await browser.close();
    stream.close();
    await app.close();
    await db.close();
  }
}

await main();
