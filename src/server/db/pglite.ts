import { mkdirSync } from 'node:fs';
import { PGlite, type Transaction } from '@electric-sql/pglite';
import { postgis } from '@electric-sql/pglite-postgis';
import { TYPE_PARSERS, type Db, type Queryable } from './types';

/**
 * The embedded engine: PGlite with PostGIS, persisted in a folder (or in memory when dir is undefined),
 * optionally started from a dumped data folder (tests clone a prepared database that way).
 */
export async function openPglite(dir?: string, loadDataDir?: Blob): Promise<Db & { dumpDataDir(): Promise<Blob> }> {
  if (dir) mkdirSync(dir, { recursive: true });
  const pg = await PGlite.create({ dataDir: dir, loadDataDir, extensions: { postgis }, parsers: TYPE_PARSERS });
  const wrap = (target: PGlite | Transaction): Queryable => ({
    async query<T>(sql: string, params?: unknown[]) {
      return (await target.query<T>(sql, params)).rows;
    },
  });
  return {
    engine: 'pglite',
    ...wrap(pg),
    async exec(sql) {
      await pg.exec(sql);
    },
    transaction: (work) => pg.transaction((tx) => work(wrap(tx))),
    close: () => pg.close(),
    dumpDataDir: () => pg.dumpDataDir('gzip'),
  };
}
