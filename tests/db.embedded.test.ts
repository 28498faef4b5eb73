import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { openPglite } from '../src/server/db/pglite';

/**
 * The embedded engine opens an existing database with the smaller PostGIS bundle (no install script) and a new
 * one with the install script; a database that exists without PostGIS yet (a first start stopped before the
 * first migration) still gets it.
 */
describe('embedded engine: PostGIS bundles', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pglite-bundle-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const point = "select ST_AsText(ST_GeomFromText('POINT(30.3 59.9)', 4326)) as wkt";

  it('creates PostGIS in a database that exists without it, and opens it again with the installed extension', async () => {
    const bare = await PGlite.create({ dataDir: dir });
    await bare.query('create table kept (id int)');
    await bare.close();

    const first = await openPglite(dir);
    await first.longRunning().exec('create extension if not exists postgis');
    expect(await first.query(point)).toEqual([{ wkt: 'POINT(30.3 59.9)' }]);
    await first.close();

    const second = await openPglite(dir);
    expect(await second.query(point)).toEqual([{ wkt: 'POINT(30.3 59.9)' }]);
    expect(await second.query("select count(*)::int as n from pg_extension where extname = 'postgis'")).toEqual([{ n: 1 }]);
    // geography and ST_Transform read PROJ's data: without it in the bundle they answered no row at all
    const [{ metres }] = await second.query<{ metres: number }>(
      "select st_distance('SRID=4326;POINT(30 60)'::geography, 'SRID=4326;POINT(30.001 60)'::geography) as metres",
    );
    expect(metres).toBeCloseTo(55.8, 1);
    expect(await second.query("select st_astext(st_snaptogrid(st_transform('SRID=4326;POINT(30 60)'::geometry, 3857), 1)) as wkt")).toEqual(
      [{ wkt: 'POINT(3339585 8399738)' }],
    );
    await second.close();
  }, 120_000);
});
