import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import initSqlJs from 'sql.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CATALOGUE } from '../src/shared/errors';
import { READ, UPDATE } from '../src/shared/permissions';
import { ENGINES } from './helpers/engines';
import { startTestApp, type TestApp } from './helpers/testApp';
import { createUserWith, TEST_PASSWORD } from './helpers/users';

/** The smallest bytes the server takes for a PNG: its signature, then anything. */
const png = (tag: string) => Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from(tag)]);

describe.each(ENGINES)('the base map as a navigation setting on %s', (engine) => {
  const work = mkdtempSync(join(tmpdir(), 'tc-basemap-'));
  let upstream: Server;
  let upstreamTemplate: string;
  let t: TestApp;
  let admin: string;

  beforeAll(async () => {
    upstream = createServer((request, response) => {
      if (request.url === '/3/4/2.png') return response.writeHead(200, { 'content-type': 'image/png' }).end(png('upstream 3/4/2'));
      return response.writeHead(404).end();
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    upstreamTemplate = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/{z}/{x}/{y}.png`;

    mkdirSync(join(work, 'tiles', '1', '0'), { recursive: true });
    writeFileSync(join(work, 'tiles', '1', '0', '1.png'), png('dir 1/0/1'));
    const SQL = await initSqlJs();
    const db = new SQL.Database();
    db.run('create table tiles (zoom_level integer, tile_column integer, tile_row integer, tile_data blob)');
    db.run('insert into tiles values (2, 1, 2, ?)', [png('mbtiles 2/1/1')]);
    writeFileSync(join(work, 'city.mbtiles'), db.export());
    db.close();
    writeFileSync(join(work, 'not-sqlite.mbtiles'), 'plain text');

    // Whatever the machine's environment says, this app starts without a base map, caching upstream tiles here.
    const saved = { source: process.env.TILE_SOURCE, cache: process.env.TILE_CACHE_DIR };
    delete process.env.TILE_SOURCE;
    process.env.TILE_CACHE_DIR = join(work, 'cache');
    try {
      t = await startTestApp(engine, {});
    } finally {
      if (saved.source !== undefined) process.env.TILE_SOURCE = saved.source;
      if (saved.cache === undefined) delete process.env.TILE_CACHE_DIR;
      else process.env.TILE_CACHE_DIR = saved.cache;
    }
    admin = await t.login('admin', 'admin123');
  });
  afterAll(async () => {
    await t?.close();
    await new Promise((resolve) => upstream.close(resolve));
    rmSync(work, { recursive: true, force: true });
  });

  const put = (body: object, authorization = admin) =>
    t.app.inject({ method: 'PUT', url: '/api/v1/settings/navigation', payload: body, headers: { authorization } });
  const tile = (path: string) => t.app.inject({ method: 'GET', url: `/tile/${path}.png` });
  const publicBaseMap = async (authorization = admin) =>
    (await t.app.inject({ method: 'GET', url: '/api/v1/auth/current/', headers: { authorization } })).json().settings.baseMap;
  const stored = async () => (await t.db.query<{ value: unknown }>('select value from app.settings where id = 1'))[0]?.value ?? null;

  it('starts without a base map: no credit, no tiles', async () => {
    expect(await publicBaseMap()).toEqual({ kind: 'none', attribution: '', revision: '' });
    expect((await tile('1/0/1')).statusCode).toBe(404);
  });

  it('serves a folder of z/x/y tiles once an administrator sets it, with its credit, without a restart', async () => {
    const saved = await put({ baseMap: { kind: 'dir', location: join(work, 'tiles'), attribution: 'Тайлы депо' } });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().baseMap).toEqual({ kind: 'dir', location: join(work, 'tiles'), attribution: 'Тайлы депо' });
    const served = await tile('1/0/1');
    expect(served.statusCode).toBe(200);
    expect(served.rawPayload.equals(png('dir 1/0/1'))).toBe(true);
    const shown = await publicBaseMap();
    expect(shown).toEqual({ kind: 'dir', attribution: 'Тайлы депо', revision: expect.stringMatching(/^[0-9a-f]{12}$/) });
    // The location stays on the server: an upstream's address may carry an access key.
    expect(JSON.stringify(shown)).not.toContain(work);
  });

  it('serves an MBTiles file, and a new source gets a new revision', async () => {
    const before = (await publicBaseMap()).revision;
    expect((await put({ baseMap: { kind: 'mbtiles', location: join(work, 'city.mbtiles'), attribution: '' } })).statusCode).toBe(200);
    const served = await tile('2/1/1');
    expect(served.statusCode).toBe(200);
    expect(served.rawPayload.equals(png('mbtiles 2/1/1'))).toBe(true);
    expect((await tile('1/0/1')).statusCode).toBe(404);
    expect((await publicBaseMap()).revision).not.toBe(before);
  });

  it('serves an upstream tile server through the server', async () => {
    expect((await put({ baseMap: { kind: 'upstream', location: upstreamTemplate, attribution: '© OSM' } })).statusCode).toBe(200);
    const served = await tile('3/4/2');
    expect(served.statusCode).toBe(200);
    expect(served.rawPayload.equals(png('upstream 3/4/2'))).toBe(true);
  });

  it.each([
    [{ kind: 'upstream', location: 'ftp://tiles.example.org/{z}/{x}/{y}.png' }, 'base_map_url'],
    [{ kind: 'upstream', location: 'https://tiles.example.org/tiles.png' }, 'base_map_url'],
    [{ kind: 'mbtiles', location: join(work, 'missing.mbtiles') }, 'base_map_mbtiles'],
    [{ kind: 'mbtiles', location: join(work, 'not-sqlite.mbtiles') }, 'base_map_mbtiles'],
    [{ kind: 'mbtiles', location: 'city.mbtiles' }, 'base_map_mbtiles'],
    [{ kind: 'dir', location: join(work, 'nowhere') }, 'base_map_dir'],
    [{ kind: 'dir', location: join(work, 'city.mbtiles') }, 'base_map_dir'],
    [{ kind: 'dir', location: 'tiles' }, 'base_map_dir'],
    [{ kind: 'wms', location: 'https://x/{z}/{x}/{y}' }, 'bad_request'],
    [{ attribution: 'x'.repeat(301) }, 'bad_request'],
  ])('refuses %o with a translated message and changes nothing', async (baseMap, code) => {
    const [before, shown] = [await stored(), await publicBaseMap()];
    const refused = await put({ baseMap });
    expect(refused.statusCode).toBe(400);
    const { messages } = refused.json();
    expect(messages[0]).toBe(code);
    expect(ERROR_CATALOGUE).toHaveProperty(code);
    expect(ERROR_CATALOGUE[code as keyof typeof ERROR_CATALOGUE]).toEqual({ ru: expect.any(String), en: expect.any(String) });
    expect(await stored()).toEqual(before);
    expect(await publicBaseMap()).toEqual(shown);
  });

  it('is changed only by who may change the navigation settings', async () => {
    await createUserWith(t.db, 'nav_reader', { '/system/navigation': READ });
    await createUserWith(t.db, 'video_admin', { '/system/video': READ | UPDATE });
    await createUserWith(t.db, 'nav_admin', { '/system/navigation': READ | UPDATE });
    const before = await stored();
    const folder = { baseMap: { kind: 'dir', location: join(work, 'tiles'), attribution: '' } };
    expect((await put(folder, await t.login('nav_reader', TEST_PASSWORD))).statusCode).toBe(403);
    // The video page's right reaches its own fields only: the base map is no field of it.
    expect(
      (
        await t.app.inject({
          method: 'PUT',
          url: '/api/v1/settings/video',
          payload: folder,
          headers: { authorization: await t.login('video_admin', TEST_PASSWORD) },
        })
      ).statusCode,
    ).toBe(400);
    expect(await stored()).toEqual(before);
    expect((await put(folder, await t.login('nav_admin', TEST_PASSWORD))).statusCode).toBe(200);
  });

  it('goes back to no base map: no tiles and no credit', async () => {
    expect((await put({ baseMap: { kind: 'none', location: '', attribution: '' } })).statusCode).toBe(200);
    expect(await publicBaseMap()).toEqual({ kind: 'none', attribution: '', revision: '' });
    expect((await tile('1/0/1')).statusCode).toBe(404);
  });
});
