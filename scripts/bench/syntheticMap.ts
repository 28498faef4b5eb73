/**
 * What the map benchmarks share (mapPanning.ts for the console, mobileMap.ts for the field app): a generated
 * background tile, a synthetic unclustered geo stream of moving vehicles as the real one sends it, a handle on
 * the page's Leaflet map, and the panning loop that counts frames.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createSecureServer } from 'node:http2';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import type { CDPSession, Page } from '@playwright/test';
import { buildApp } from '../../src/server/app';
import { loadConfig, type Config } from '../../src/server/config';
import { openDatabase } from '../../src/server/db/open';
import type { Db } from '../../src/server/db/types';
import { DEFAULT_MAP } from '../../src/shared/constants';
import { selfSignedCertificate } from '../selfSignedCertificate';
import { deltaVehicle, parseGeoSubscription, type GeoDelta, type GeoSubscription, type MapCluster } from '../../src/shared/map';

/**
 * The real server in this process serving the built front ends (STATIC_DIR, default dist/client) on a fresh
 * embedded database with the small demo data; `close` stops it.
 */
export async function startFrontEndServer({ tls }: { tls?: BenchCertificate } = {}): Promise<{
  base: string;
  db: Db;
  close: () => Promise<void>;
}> {
  process.env.EGTS_PORT ??= '0';
  const config = {
    ...loadConfig(),
    dataDir: process.env.BENCH_DATA_DIR,
    staticDir: process.env.STATIC_DIR ?? 'dist/client',
    logLevel: process.env.LOG_LEVEL ?? 'warn',
    demoData: true,
    demoScale: 'test' as const,
    tls,
  };
  const db = await openDatabase(config);
  const app = await buildApp(config, { db, seedDemo: true });
  const base = await app.listen({ port: 0, host: '127.0.0.1' });
  // the demo's history fills the embedded engine in the background for a while after listen, and every call
  // waits behind it meanwhile: a server in service has none, so the figures start once it is done
  await app.demoHistory.done;
  return {
    base,
    db,
    close: async () => {
      await app.close();
      await db.close();
    },
  };
}

/** The server's TLS files (Config.tls). */
export type BenchCertificate = NonNullable<Config['tls']>;

/** A throw-away certificate for the server's TLS and the synthetic streams' (BENCH_HTTPS). */
export function benchCertificate(): BenchCertificate {
  return selfSignedCertificate(mkdtempSync(join(tmpdir(), 'bench-tls-')));
}

export const BENCH_BROWSER_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** A 256×256 background tile (light ground, a street grid), as a map tile server would send. */
export function tilePng(): Buffer {
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
  return Buffer.concat([
    Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Vehicles on circles around the city centre, each moving at its own speed. */
export function syntheticFleet(count: number, t: number): MapCluster[] {
  const items: MapCluster[] = [];
  const date = new Date().toISOString();
  for (let i = 0; i < count; i++) {
    const ring = 0.01 + (((i * 7919) % 1000) / 1000) * 0.09;
    const angle = i * 2.399963 + t * (0.0004 + (i % 13) * 0.00005);
    items.push({
      type: 'vehicle',
      id: i + 1,
      count: 1,
      routeType: 'А',
      route: String(1 + (i % 150)),
      classRank: 1 + (i % 4),
      course: Math.round(((angle * 180) / Math.PI + 90) % 360),
      on: i % 17 !== 0,
      date,
      depotNumber: 1000 + i,
      averageSpeed: 20,
      center: [
        Number((DEFAULT_MAP.lat + Math.sin(angle) * ring * 0.9).toFixed(6)),
        Number((DEFAULT_MAP.lon + Math.cos(angle) * ring * 2.2).toFixed(6)),
      ],
    });
  }
  return items;
}

/** What the synthetic stream uses of a request and its response, over HTTP/1.1 or HTTP/2. */
interface StreamRequest {
  method?: string;
  url?: string;
  on(event: 'data' | 'end' | 'close', listener: (chunk: Buffer) => void): unknown;
}
interface StreamResponse {
  write(chunk: string): boolean;
  end(body: string): unknown;
  writeHead(status: number, headers: Record<string, string>): unknown;
}

/**
 * The synthetic geo stream, as the real one: hello, the whole picture, then every `updateMs` a delta of the
 * vehicles that reported since (a quarter of the fleet at the default 250 ms: each vehicle moves once a second).
 */
export function startSyntheticStream(
  count: number,
  updateMs: number,
  { viewportOnly = false, tls }: { viewportOnly?: boolean; tls?: BenchCertificate } = {},
): Promise<{ url: string; close: () => void; sent: () => number }> {
  // viewportOnly: each client gets the vehicles of its subscribed region only, as whole pictures (the real
  // server sends a region's vehicles; the route that forwards the stream must keep the query then);
  // tls: over HTTPS and HTTP/2, as the server with TLS (a page reroutes a request only to its own protocol)
  const clients = new Map<StreamResponse, GeoSubscription['bounds'] | null>();
  let frames = 0;
  let version = 1;
  let slot = 0;
  const started = Date.now();
  const slots = Math.max(1, Math.round(1000 / updateMs));
  const picture = syntheticFleet(count, 0);
  const inView = (bounds: GeoSubscription['bounds'] | null | undefined) =>
    !bounds
      ? picture
      : picture.filter(({ center: [lat, lon] }) => lat >= bounds[0] && lat <= bounds[2] && lon >= bounds[1] && lon <= bounds[3]);
  const pointsFrame = (bounds: GeoSubscription['bounds'] | null | undefined) =>
    `event: points\ndata: ${JSON.stringify({ time: new Date().toISOString(), v: version, items: inView(bounds) })}\n\n`;
  const boundsOf = (q: string | null) => (viewportOnly && q ? (parseGeoSubscription(q)?.bounds ?? null) : null);
  const answer = (request: StreamRequest, response: StreamResponse) => {
    if (request.method === 'PUT') {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        if (viewportOnly) {
          const bounds = boundsOf((JSON.parse(Buffer.concat(chunks).toString() || '{}') as { q?: string }).q ?? null);
          for (const client of clients.keys()) {
            clients.set(client, bounds);
            client.write(pointsFrame(bounds));
          }
        }
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end('{}');
      });
      return;
    }
    const bounds = boundsOf(new URL(request.url ?? '/', 'http://x').searchParams.get('q'));
    response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
    response.write(`event: hello\ndata: ${JSON.stringify({ streamId: 'bench' })}\n\n`);
    response.write(pointsFrame(bounds));
    clients.set(response, bounds);
    request.on('close', () => clients.delete(response));
  };
  const server = tls
    ? createSecureServer({ allowHTTP1: true, cert: readFileSync(tls.certFile), key: readFileSync(tls.keyFile) }, answer)
    : createServer(answer);
  const timer = setInterval(() => {
    const at = Date.now();
    const next = syntheticFleet(count, (at - started) / 1000);
    const moved = next.filter((_, i) => i % slots === slot % slots);
    slot++;
    for (const item of moved) picture[item.id - 1] = item;
    version++;
    if (clients.size === 0) return;
    if (viewportOnly) {
      for (const [client, bounds] of clients) client.write(pointsFrame(bounds));
    } else {
      const delta: GeoDelta = {
        time: new Date(at).toISOString(),
        at,
        v: version,
        base: version - 1,
        gone: [],
        groups: [],
        vehicles: moved.map((item) => deltaVehicle(item, item, at - Date.parse(item.date))),
      };
      const frame = `event: delta\ndata: ${JSON.stringify(delta)}\n\n`;
      for (const client of clients.keys()) client.write(frame);
    }
    frames++;
  }, updateMs);
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        url: `${tls ? 'https' : 'http'}://127.0.0.1:${(server.address() as AddressInfo).port}`,
        close: () => {
          clearInterval(timer);
          for (const client of clients.keys()) client.end('');
          server.close();
        },
        sent: () => frames,
      }),
    ),
  );
}

export interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

/** Where the page spent its time (self time) while profiled, by function or by file. */
export function printProfile(
  profile: { nodes: ProfileNode[]; samples?: number[]; timeDeltas?: number[] },
  by: 'function' | 'file' = 'function',
): void {
  const self = new Map<number, number>();
  (profile.samples ?? []).forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas?.[i] ?? 0)));
  const byName = new Map<string, number>();
  for (const node of profile.nodes) {
    const { functionName, url, lineNumber } = node.callFrame;
    const file = url.split('/').pop();
    const key = by === 'file' ? file || functionName : `${functionName || '(anonymous)'} ${file}:${lineNumber}`;
    byName.set(key, (byName.get(key) ?? 0) + (self.get(node.id) ?? 0) / 1000);
  }
  for (const [name, ms] of [...byName].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log(`  ${ms.toFixed(0).padStart(6)} ms  ${name}`);
}

export interface PanResult {
  frames: number;
  seconds: number;
  p50: number;
  p95: number;
  max: number;
  updates: number;
  items: number;
}

/** Keeps the page's Leaflet map (the UMD build sets window.L) as window.benchMap, for panBy; before the page loads. */
export async function catchLeafletMap(page: Page): Promise<void> {
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
        value.Map.addInitHook(function hook(this: unknown) {
          (window as unknown as { benchMap: unknown }).benchMap = this;
        });
      },
    });
  });
}

/**
 * Pans the map (the container of data-testid `testId`) with map.panBy on every animation frame for `seconds`,
 * round a 300-pixel circle. Each panBy ends a move (moveend on every frame, which a finger's drag does not do):
 * measureDragging is the finger's way.
 */
export function measurePanning(page: Page, seconds: number, testId: string): Promise<PanResult> {
  return page.evaluate(
    async ({ seconds, testId }): Promise<PanResult> => {
      interface BenchMap {
        panBy(offset: [number, number], options: { animate: boolean }): void;
      }
      const benchMap = (window as unknown as { benchMap: BenchMap }).benchMap;
      const container = document.querySelector(`[data-testid=${testId}]`) as HTMLElement;
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
            resolve({
              frames: intervals.length,
              seconds: (now - start) / 1000,
              p50: at(0.5),
              p95: at(0.95),
              max: sorted[sorted.length - 1],
              updates,
              items: Number(container.dataset.itemCount),
            });
          }
        };
        requestAnimationFrame(step);
      });
    },
    { seconds, testId },
  );
}

/** A thumb's stroke on the screen before it lifts, and the pause before the next one. */
const STROKE_MS = 800;
const LIFT_MS = 100;
/** How often the finger reports its position (a phone's touch screen: 60 Hz or more; Chromium merges them per frame). */
const TOUCH_MS = 16;

/**
 * Drags the map (the container of data-testid `testId`) as a thumb does, for `seconds`: touches sent through
 * CDP (Input.dispatchTouchEvent, so the page gets real touch and pointer events and Leaflet's Draggable moves
 * the pane), a move every TOUCH_MS whatever the page does (as a touch screen: Chromium merges those a busy page
 * has not taken yet), strokes of STROKE_MS round a 200-pixel circle, lifted for LIFT_MS between them (moveend
 * and the map's inertia at each lift). Frames are counted by animation frames in the page over the whole time.
 */
export async function measureDragging(page: Page, cdp: CDPSession, seconds: number, testId: string): Promise<PanResult> {
  const box = await page.getByTestId(testId).boundingBox();
  if (!box) throw new Error(`no map ${testId}`);
  await page.evaluate((testId) => {
    const container = document.querySelector(`[data-testid=${testId}]`) as HTMLElement;
    const frames = { times: [] as number[], updates: 0, stop: false };
    (window as unknown as { benchFrames: typeof frames }).benchFrames = frames;
    let lastUpdate = container.dataset.lastUpdate;
    const step = (now: number) => {
      frames.times.push(now);
      if (container.dataset.lastUpdate !== lastUpdate) {
        frames.updates++;
        lastUpdate = container.dataset.lastUpdate;
      }
      if (!frames.stop) requestAnimationFrame(step);
    };
    requestAnimationFrame(step);
  }, testId);
  const centre = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
  // the finger's offset from where the stroke began: round a 200-pixel circle every 4 s, so the fleet stays in view
  const circle = (ms: number) => ({ x: 200 * Math.cos(ms / 637), y: 200 * Math.sin(ms / 637) });
  const touch = (type: 'touchStart' | 'touchMove' | 'touchEnd', x = 0, y = 0) =>
    cdp.send('Input.dispatchTouchEvent', {
      type,
      touchPoints: type === 'touchEnd' ? [] : [{ x: Math.round(x), y: Math.round(y), radiusX: 8, radiusY: 8, force: 1, id: 1 }],
    });
  const started = Date.now();
  while (Date.now() - started < seconds * 1000) {
    const strokeStart = Date.now() - started;
    const from = circle(strokeStart);
    const to = circle(strokeStart + STROKE_MS);
    // the stroke's middle at the screen's centre: the finger stays on the screen
    const origin = { x: centre.x - (to.x - from.x) / 2, y: centre.y - (to.y - from.y) / 2 };
    await touch('touchStart', origin.x, origin.y);
    const moves: Promise<unknown>[] = [];
    for (let at = strokeStart; at - strokeStart < STROKE_MS && at < seconds * 1000; at = Date.now() - started) {
      const p = circle(at);
      moves.push(touch('touchMove', origin.x + p.x - from.x, origin.y + p.y - from.y));
      await new Promise((resolve) => setTimeout(resolve, TOUCH_MS));
    }
    await touch('touchEnd');
    await Promise.all(moves);
    await new Promise((resolve) => setTimeout(resolve, LIFT_MS));
  }
  return page.evaluate((testId) => {
    const frames = (window as unknown as { benchFrames: { times: number[]; updates: number; stop: boolean } }).benchFrames;
    frames.stop = true;
    const intervals = frames.times.slice(1).map((t, i) => t - frames.times[i]);
    const sorted = [...intervals].sort((a, b) => a - b);
    const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
    const container = document.querySelector(`[data-testid=${testId}]`) as HTMLElement;
    return {
      frames: intervals.length,
      seconds: (frames.times[frames.times.length - 1] - frames.times[0]) / 1000,
      p50: at(0.5),
      p95: at(0.95),
      max: sorted[sorted.length - 1],
      updates: frames.updates,
      items: Number(container.dataset.itemCount),
    };
  }, testId);
}
