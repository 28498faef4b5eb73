import { createHash } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import initSqlJs from 'sql.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from './helpers/engines';
import { startTestApp, type TestApp } from './helpers/testApp';

/** The smallest bytes the server takes for a PNG: its signature, then anything. */
const png = (tag: string) => Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from(tag)]);
const jpeg = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.from('photo')]);

/** Starts an app with the given environment (the tiles area reads it when it registers) and restores it. */
async function appWith(engine: (typeof ENGINES)[number], env: Record<string, string>): Promise<TestApp> {
  const saved = Object.fromEntries(Object.keys(env).map((key) => [key, process.env[key]]));
  Object.assign(process.env, env);
  try {
    return await startTestApp(engine);
  } finally {
    for (const [key, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  }
}

describe.each(ENGINES)('map tiles and vehicle photos on %s', (engine) => {
  const work = mkdtempSync(join(tmpdir(), 'tc-tiles-'));
  let upstream: Server;
  const hits: { url: string; headers: IncomingHttpHeaders }[] = [];
  let fromUpstream: TestApp;
  let fromMbtiles: TestApp;
  let none: TestApp;
  let upstreamTemplate: string;
  /** Each upstream has a cache folder of its own, named by its template's hash: another one never mixes in. */
  const upstreamCache = () => join(work, 'cache', createHash('sha256').update(upstreamTemplate).digest('hex').slice(0, 16));

  beforeAll(async () => {
    upstream = createServer((request, response) => {
      hits.push({ url: request.url!, headers: request.headers });
      if (request.url === '/5/17/9.png') return response.writeHead(200, { 'content-type': 'image/png' }).end(png('5/17/9'));
      if (request.url === '/5/1/1.png') return response.writeHead(500).end('broken');
      if (request.url === '/5/2/2.png') return response.writeHead(200, { 'content-type': 'text/html' }).end('<html>quota exceeded</html>');
      return response.writeHead(404).end();
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    const port = (upstream.address() as AddressInfo).port;
    upstreamTemplate = `http://127.0.0.1:${port}/{z}/{x}/{y}.png`;
    fromUpstream = await appWith(engine, { TILE_SOURCE: upstreamTemplate, TILE_CACHE_DIR: join(work, 'cache') });

    // A tiny MBTiles file: one tile at z=2, x=1, XYZ y=1 (TMS row 2).
    const SQL = await initSqlJs();
    const db = new SQL.Database();
    db.run(
      'create table metadata (name text, value text); create table tiles (zoom_level integer, tile_column integer, tile_row integer, tile_data blob)',
    );
    db.run("insert into metadata values ('format', 'png')");
    db.run('insert into tiles values (2, 1, 2, ?)', [png('mbtiles 2/1/1')]);
    writeFileSync(join(work, 'city.mbtiles'), db.export());
    db.close();
    fromMbtiles = await appWith(engine, { TILE_SOURCE: `mbtiles:${join(work, 'city.mbtiles')}` });

    mkdirSync(join(work, 'photos', 'ab'), { recursive: true });
    writeFileSync(join(work, 'photos', 'ab', 'abc123.jpg'), jpeg);
    writeFileSync(join(work, 'photos', 'ab', 'abnotimage.jpg'), 'plain text');
    writeFileSync(join(work, 'secret.jpg'), jpeg);
    symlinkSync(join(work, 'secret.jpg'), join(work, 'photos', 'ab', 'ablink.jpg'));
    none = await appWith(engine, { TILE_SOURCE: '', PHOTO_DIR: join(work, 'photos') });
  });
  afterAll(async () => {
    await Promise.all([fromUpstream?.close(), fromMbtiles?.close(), none?.close()]);
    await new Promise((resolve) => upstream.close(resolve));
    rmSync(work, { recursive: true, force: true });
  });

  it('fetches an upstream tile once, with a User-Agent, and serves it from the disk cache after', async () => {
    const first = await fromUpstream.app.inject({ method: 'GET', url: '/tile/5/17/9.png' });
    expect(first.statusCode).toBe(200);
    expect(first.headers['content-type']).toBe('image/png');
    expect(first.headers['cache-control']).toMatch(/public, max-age=\d+/);
    expect(first.rawPayload.equals(png('5/17/9'))).toBe(true);
    expect(hits.filter((h) => h.url === '/5/17/9.png')).toHaveLength(1);
    expect(hits[0].headers['user-agent']).toMatch(/^transport-console\//);
    expect(existsSync(join(upstreamCache(), '5', '17', '9.png'))).toBe(true);

    const second = await fromUpstream.app.inject({ method: 'GET', url: '/tile/5/17/9.png' });
    expect(second.statusCode).toBe(200);
    expect(second.rawPayload.equals(png('5/17/9'))).toBe(true);
    expect(hits.filter((h) => h.url === '/5/17/9.png')).toHaveLength(1);
  });

  it('passes upstream misses and failures on without caching them', async () => {
    expect((await fromUpstream.app.inject({ method: 'GET', url: '/tile/5/3/3.png' })).statusCode).toBe(404);
    expect((await fromUpstream.app.inject({ method: 'GET', url: '/tile/5/1/1.png' })).statusCode).toBe(502);
    expect((await fromUpstream.app.inject({ method: 'GET', url: '/tile/5/2/2.png' })).statusCode).toBe(502);
    expect(existsSync(join(upstreamCache(), '5', '2', '2.png'))).toBe(false);
  });

  it('takes TILE_SOURCE as the initial base map, with the OpenStreetMap credit unless TILE_ATTRIBUTION says another', async () => {
    const settings = async (app: TestApp) =>
      (
        await app.app.inject({
          method: 'GET',
          url: '/api/v1/auth/current/',
          headers: { authorization: await app.login('admin', 'admin123') },
        })
      ).json().settings;
    expect((await settings(fromMbtiles)).baseMap).toMatchObject({
      kind: 'mbtiles',
      attribution: 'Картографические данные © участники OpenStreetMap',
    });
    expect((await settings(fromUpstream)).baseMap).toMatchObject({ kind: 'upstream' });
    expect((await settings(none)).baseMap).toEqual({ kind: 'none', attribution: '', revision: '' });
  });

  it('reads MBTiles with the TMS row flip', async () => {
    const tile = await fromMbtiles.app.inject({ method: 'GET', url: '/tile/2/1/1.png' });
    expect(tile.statusCode).toBe(200);
    expect(tile.rawPayload.equals(png('mbtiles 2/1/1'))).toBe(true);
    expect((await fromMbtiles.app.inject({ method: 'GET', url: '/tile/2/1/2.png' })).statusCode).toBe(404);
  });

  it('answers 404 at once without a source and 400 for coordinates outside the zoom', async () => {
    expect((await none.app.inject({ method: 'GET', url: '/tile/3/1/1.png' })).statusCode).toBe(404);
    for (const url of [
      '/tile/3/8/1.png',
      '/tile/3/1/8.png',
      '/tile/23/0/0.png',
      '/tile/-1/0/0.png',
      '/tile/a/0/0.png',
      '/tile/2/1/1.5.png',
    ]) {
      expect((await none.app.inject({ method: 'GET', url })).statusCode, url).toBe(400);
    }
  });

  it('serves vehicle photos by the first two characters of their names, refusing traversal and non-images', async () => {
    const photo = await none.app.inject({ method: 'GET', url: '/photo/ab/abc123.jpg' });
    expect(photo.statusCode).toBe(200);
    expect(photo.headers['content-type']).toBe('image/jpeg');
    expect(photo.rawPayload.equals(jpeg)).toBe(true);
    const refused = [
      '/photo/ab/..%2F..%2Fsecret.jpg',
      '/photo/ab/ab%2F..%2F..%2Fsecret.jpg',
      '/photo/..%2F/..%2Fsecret.jpg',
      '/photo/cd/abc123.jpg',
      '/photo/ab/ab..jpg',
      '/photo/ab/abc.txt',
      '/photo/ab/ab%00.jpg',
      '/photo/%2E%2E/secret.jpg',
    ];
    for (const url of refused) expect([400, 404], url).toContain((await none.app.inject({ method: 'GET', url })).statusCode);
    expect((await none.app.inject({ method: 'GET', url: '/photo/ab/abnotimage.jpg' })).statusCode).toBe(404);
    expect((await none.app.inject({ method: 'GET', url: '/photo/ab/ablink.jpg' })).statusCode).toBe(404);
    expect((await none.app.inject({ method: 'GET', url: '/photo/ab/abmissing.jpg' })).statusCode).toBe(404);
  });
});
