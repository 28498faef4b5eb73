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
import { cpus, loadavg } from 'node:os';
import { chromium } from '@playwright/test';
import {
  BENCH_BROWSER_ARGS,
  catchLeafletMap,
  measurePanning,
  printProfile,
  startFrontEndServer,
  startSyntheticStream,
  tilePng,
} from './syntheticMap';

const VEHICLES = Number(process.env.BENCH_VEHICLES ?? 5000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const UPDATE_MS = Number(process.env.BENCH_UPDATE_MS ?? 250);
const VIEWPORT = { width: 1600, height: 900 };

async function main(): Promise<void> {
  const server = await startFrontEndServer();
  const { base } = server;
  const stream = await startSyntheticStream(VEHICLES, UPDATE_MS);
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: BENCH_BROWSER_ARGS,
  });
  try {
    const page = await browser.newPage({ viewport: VIEWPORT, locale: 'ru-RU', timezoneId: 'Europe/Moscow' });
    await catchLeafletMap(page);
    // the product serves no tiles without TILE_SOURCE: real images, as with a tile source, keep the figure honest
    const tile = tilePng();
    await page.route(/\/tile\/\d+\/\d+\/\d+\.png$/, (route) =>
      route.fulfill({ status: 200, contentType: 'image/png', body: tile, headers: { 'cache-control': 'max-age=3600' } }),
    );
    await page.route(/\/geoapi\/v1\/geo\/1(\/|\?)/, (route) =>
      route.continue({ url: stream.url + new URL(route.request().url()).pathname }),
    );
    await page.goto(`${base}/`);
    await page.getByLabel('Логин').fill('admin');
    await page.getByLabel('Пароль').fill('admin123');
    await page.getByTestId('login-submit').click();
    await page.waitForURL(/\/map/);
    const map = page.getByTestId('map');
    await map.waitFor();
    await page.locator('.leaflet-control-zoom-in').click();
    await page.waitForFunction(
      (n) => Number((document.querySelector('[data-testid=map]') as HTMLElement | null)?.dataset.itemCount ?? 0) >= n,
      VEHICLES * 0.95,
      { timeout: 30_000 },
    );
    await page.waitForTimeout(1500);

    if (process.env.BENCH_TRACE)
      await browser.startTracing(page, {
        path: process.env.BENCH_TRACE,
        categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'blink', 'cc', 'viz'],
      });
    const cdp = process.env.BENCH_PROFILE ? await page.context().newCDPSession(page) : null;
    if (cdp) {
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.start');
    }
    const result = await measurePanning(page, SECONDS, 'map');

    if (process.env.BENCH_TRACE) await browser.stopTracing();
    if (cdp) printProfile((await cdp.send('Profiler.stop')).profile);
    const fps = result.frames / result.seconds;
    console.log(
      `map panning: ${result.items} vehicles drawn, ${result.updates} stream updates applied while panning (stream sent ${stream.sent()} pictures)`,
    );
    console.log(
      `  ${result.frames} frames in ${result.seconds.toFixed(1)} s = ${fps.toFixed(1)} fps; frame interval p50 ${result.p50.toFixed(1)} ms, p95 ${result.p95.toFixed(1)} ms, max ${result.max.toFixed(1)} ms`,
    );
    console.log(
      `  machine: ${cpus().length} cores, load average ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')} (other work on the machine lowers the figure)`,
    );
    console.log(`  target ≥ 30 fps: ${fps >= 30 ? 'met' : 'NOT met'}`);
    await page.screenshot({ path: 'test-results/screens/map-bench.png' });
    process.exitCode = fps >= 30 ? 0 : 1;
  } finally {
    await browser.close();
    stream.close();
    await server.close();
  }
}

await main();
