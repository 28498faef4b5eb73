import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cacheControlFor, IMMUTABLE, REVALIDATE } from '../src/server/http/staticAssets';
import { ENGINES } from './helpers/engines';
import { startTestApp, type TestApp } from './helpers/testApp';

/**
 * The built front ends as the server sends them ("fast on a phone"): the precompressed sibling the
 * browser accepts (brotli first), hashed files immutable for a year, pages and the service worker revalidated,
 * the console at / and the field app at /m both.
 */
const SCRIPT = `export const field = ${JSON.stringify('поле '.repeat(2000))};\n`;

function frontEnds(): string {
  const root = mkdtempSync(join(tmpdir(), 'front-ends-'));
  mkdirSync(join(root, 'assets'));
  mkdirSync(join(root, 'm'));
  const files: Record<string, string> = {
    'index.html': '<!doctype html><title>console</title>',
    'm/index.html': '<!doctype html><title>field</title>',
    'm/sw.js': 'self.addEventListener("fetch", () => {});',
    'm/manifest.webmanifest': '{"name":"field"}',
    'assets/mobile-abc123.js': SCRIPT,
    'favicon.svg': '<svg/>',
  };
  for (const [name, text] of Object.entries(files)) writeFileSync(join(root, name), text);
  writeFileSync(join(root, 'assets/mobile-abc123.js.br'), brotliCompressSync(SCRIPT));
  writeFileSync(join(root, 'assets/mobile-abc123.js.gz'), gzipSync(SCRIPT));
  return root;
}

describe('cache lifetimes by file', () => {
  it.each([
    ['assets/mobile-abc123.js', IMMUTABLE],
    ['assets/mobile-abc123.js.br', IMMUTABLE],
    ['assets/roboto-latin-400-normal-x.woff2', IMMUTABLE],
    ['index.html', REVALIDATE],
    ['m/index.html', REVALIDATE],
    ['m/sw.js', REVALIDATE],
    ['m/manifest.webmanifest', REVALIDATE],
    ['m/icons/icon-192.png', 'public, max-age=3600'],
  ])('%s: %s', (path, expected) => {
    expect(cacheControlFor(path)).toBe(expected);
  });
});

describe.each(ENGINES)('the front ends over HTTP on %s', (engine) => {
  let t: TestApp;
  let root: string;
  beforeAll(async () => {
    root = frontEnds();
    t = await startTestApp(engine, { staticDir: root });
  });
  afterAll(async () => {
    await t.close();
    rmSync(root, { recursive: true, force: true });
  });

  const get = (url: string, encoding?: string) =>
    t.app.inject({ method: 'GET', url, headers: encoding ? { 'accept-encoding': encoding } : {} });

  it('sends a hashed script brotli-compressed, immutable for a year', async () => {
    const response = await get('/assets/mobile-abc123.js', 'gzip, deflate, br');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBe('br');
    expect(response.headers['content-type']).toMatch(/javascript/);
    expect(response.headers['cache-control']).toBe(IMMUTABLE);
    expect(response.headers.vary).toMatch(/accept-encoding/i);
    expect(brotliDecompressSync(response.rawPayload).toString()).toBe(SCRIPT);
    expect(response.rawPayload.length).toBeLessThan(SCRIPT.length / 5);
  });

  it('gzip to a browser without brotli, the plain file to one that takes neither', async () => {
    const gz = await get('/assets/mobile-abc123.js', 'gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(SCRIPT);
    const plain = await get('/assets/mobile-abc123.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(SCRIPT);
    expect(plain.headers['cache-control']).toBe(IMMUTABLE);
  });

  it('revalidates the pages, the field app and the console alike, and the service worker', async () => {
    for (const url of [
      '/',
      '/m/',
      '/m/handbooks/stops',
      '/m/index.html',
      '/m/sw.js',
      '/m/manifest.webmanifest',
      '/handbooks/table/stops',
    ]) {
      const response = await get(url, 'br');
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['cache-control'], url).toBe(REVALIDATE);
    }
    expect((await get('/m/video/12', 'br')).body).toContain('field');
    expect((await get('/video/online', 'br')).body).toContain('console');
  });

  it('answers a missing asset 404, never a page', async () => {
    const response = await get('/assets/nothing-here.js', 'br');
    expect(response.statusCode).toBe(404);
  });
});
