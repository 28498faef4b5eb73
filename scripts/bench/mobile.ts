/**
 * Field app on a phone ("fast on a phone"): the JavaScript the first screen (the login screen at /m/)
 * moves over the wire, and the time to that screen and to the landing page after login, in Chromium with 4× CPU
 * slowdown and DevTools' "Fast 3G" (CDP), a fresh browser cache every run. The map's frame rate and time to
 * vehicles are scripts/bench/mobileMap.ts.
 *
 *   npx vite build && npx tsx scripts/bench/mobile.ts        (BENCH_RUNS, default 3; BENCH_PORT, default 3232)
 *
 * BENCH_HTTPS=1: over HTTPS and HTTP/2 (the server's TLS_CERT_FILE/TLS_KEY_FILE, a throw-away certificate), as a
 * field deployment is; the phone then asks for brotli. Plain HTTP/1.1 (gzip) by default.
 *
 * The server runs in this process on the embedded engine with the small demo data and serves dist/client as
 * `npm start` does (precompressed files, cache headers).
 */
import { existsSync } from 'node:fs';
import { chromium, type CDPSession } from '@playwright/test';
import { buildApp } from '../../src/server/app';
import { loadConfig } from '../../src/server/config';
import { openDatabase } from '../../src/server/db/open';
import { benchCertificate } from './syntheticMap';

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const PORT = Number(process.env.BENCH_PORT ?? 3232);
/** DevTools' "Fast 3G" preset (the figures Chrome uses). */
const FAST_3G = { offline: false, latency: 562.5, downloadThroughput: (1.44 * 1024 * 1024) / 8, uploadThroughput: (675 * 1024) / 8 };
const CPU_SLOWDOWN = 4;
const BUDGET_KB = 200;

interface Transfer {
  url: string;
  type: string;
  bytes: number;
  encoding: string;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

/** Bytes on the wire per response (CDP encodedDataLength: headers and compressed body). */
function watchTransfers(cdp: CDPSession): Transfer[] {
  const transfers: Transfer[] = [];
  const pending = new Map<string, { url: string; type: string; encoding: string }>();
  cdp.on('Network.responseReceived', (event) => {
    const headers = event.response.headers as Record<string, string>;
    const encoding = Object.entries(headers).find(([name]) => name.toLowerCase() === 'content-encoding')?.[1] ?? 'identity';
    pending.set(event.requestId, { url: event.response.url, type: event.type ?? 'Other', encoding });
  });
  cdp.on('Network.loadingFinished', (event) => {
    const seen = pending.get(event.requestId);
    if (seen) transfers.push({ ...seen, bytes: event.encodedDataLength });
  });
  return transfers;
}

async function main(): Promise<void> {
  if (!existsSync('dist/client/m/index.html')) throw new Error('build the front end first: npx vite build');
  const tls = process.env.BENCH_HTTPS ? benchCertificate() : undefined;
  const config = {
    ...loadConfig(),
    port: PORT,
    dataDir: undefined,
    staticDir: 'dist/client',
    logLevel: 'warn',
    demoData: true,
    demoScale: 'test' as const,
    tls,
  };
  const db = await openDatabase(config);
  const app = await buildApp(config, { db, seedDemo: true });
  await app.listen({ port: PORT, host: '127.0.0.1' });
  const base = `${tls ? 'https' : 'http'}://127.0.0.1:${PORT}`;
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu', '--disable-quic'] });
  const firstScreen: number[] = [];
  const landing: number[] = [];
  let js: Transfer[] = [];
  let identity = 0;
  try {
    for (let run = 0; run < RUNS; run++) {
      const context = await browser.newContext({
        viewport: { width: 390, height: 844 },
        isMobile: true,
        hasTouch: true,
        locale: 'ru-RU',
        serviceWorkers: 'block',
        ignoreHTTPSErrors: true,
      });
      const page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      await cdp.send('Network.enable');
      await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
      // Chromium asks for brotli only from secure origins (127.0.0.1 is one): a phone on plain http asks for gzip
      if (!tls) await cdp.send('Network.setExtraHTTPHeaders', { headers: { 'accept-encoding': 'gzip, deflate' } });
      await cdp.send('Network.emulateNetworkConditions', FAST_3G);
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
      const transfers = watchTransfers(cdp);
      const started = Date.now();
      await page.goto(`${base}/m/`, { waitUntil: 'commit' });
      await page.getByTestId('login-submit').waitFor({ state: 'visible', timeout: 120_000 });
      firstScreen.push(Date.now() - started);
      await page.waitForLoadState('networkidle');
      if (run === 0) js = transfers.filter((t) => t.type === 'Script' || t.url.endsWith('.js'));
      await page.getByLabel('Логин').fill('operator');
      await page.getByLabel('Пароль').fill('operator123');
      const submitted = Date.now();
      await page.getByTestId('login-submit').click();
      await page.getByTestId('mobile-app-bar').waitFor({ state: 'visible', timeout: 120_000 });
      landing.push(Date.now() - submitted);
      await context.close();
    }
    // The same scripts without compression, for comparison.
    for (const script of js) {
      const { pathname } = new URL(script.url);
      const response = await app.inject({ method: 'GET', url: pathname, headers: { 'accept-encoding': 'identity' } });
      identity += response.rawPayload.byteLength;
    }
  } finally {
    await browser.close();
    await app.close();
  }

  const wire = js.reduce((sum, t) => sum + t.bytes, 0);
  console.log(
    `field app, first screen (/m/ login), Chromium ${CPU_SLOWDOWN}× CPU slowdown + Fast 3G, ${tls ? 'HTTPS and HTTP/2' : 'plain HTTP/1.1'}, ${RUNS} cold runs`,
  );
  for (const t of js) console.log(`  ${new URL(t.url).pathname.padEnd(48)} ${kb(t.bytes).padStart(10)}  ${t.encoding}`);
  console.log(
    `JavaScript over the wire: ${kb(wire)} in ${js.length} files (budget ${BUDGET_KB} KB: ${wire <= BUDGET_KB * 1024 ? 'within' : 'OVER'}); uncompressed ${kb(identity)}`,
  );
  console.log(`time to the login screen: median ${median(firstScreen)} ms (runs: ${firstScreen.join(', ')})`);
  console.log(`login to the landing page's app bar: median ${median(landing)} ms (runs: ${landing.join(', ')})`);
}

await main();
process.exit(0);
