import { mkdirSync, writeFileSync } from 'node:fs';
import pg from 'pg';
import { openPglite } from '../../src/server/db/pglite';
import { openPostgres } from '../../src/server/db/postgres';
import { prepareTestDatabase } from './prepare';
import { PG_PREFIX, PG_TEMPLATE_DB, TEMPLATE_DUMP, databaseUrlFor } from './engines';

/**
 * Builds the test database once per run (migrations, platform seed, the small demo data): a PGlite data
 * folder dump each test file loads, and a PostgreSQL template database each test file clones.
 */
export default async function setup(): Promise<void> {
  mkdirSync('.tmp', { recursive: true });
  const lite = await openPglite();
  await prepareTestDatabase(lite);
  writeFileSync(TEMPLATE_DUMP, Buffer.from(await (await lite.dumpDataDir()).arrayBuffer()));
  await lite.close();

  if (process.env.TEST_DATABASE_URL) {
    const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
    const stale = await admin.query<{ datname: string }>('select datname from pg_database where datname like $1', [`${PG_PREFIX}\\_%`]);
    for (const { datname } of stale.rows) await admin.query(`drop database if exists "${datname}" with (force)`);
    await admin.query(`create database ${PG_TEMPLATE_DB}`);
    await admin.end();
    const db = await openPostgres(databaseUrlFor(PG_TEMPLATE_DB), 2);
    await prepareTestDatabase(db);
    await db.close();
  }
}
