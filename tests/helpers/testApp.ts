import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/server/app';
import { loadConfig, type Config } from '../../src/server/config';
import { openPglite } from '../../src/server/db/pglite';
import { openPostgres } from '../../src/server/db/postgres';
import type { Db, QueryLimits } from '../../src/server/db/types';
import { PG_PREFIX, PG_TEMPLATE_DB, TEMPLATE_DUMP, databaseUrlFor, type Engine } from './engines';

export interface TestApp {
  app: FastifyInstance;
  db: Db;
  close(): Promise<void>;
  /** Logs in and returns the Authorization header value. */
  login(username: string, password: string): Promise<string>;
}

/**
 * A fresh database cloned from the prepared template, and the server built on it exactly as main.ts does.
 * `overrides.queryLimits` sets the database's time limits; `onDisk` keeps a PGlite clone in a temporary
 * folder instead of memory (a worker restart after a time limit keeps the data only there); `via` rewrites the
 * PostgreSQL URL the server connects with (a relay staging outages, see pgProxy.ts).
 */
export async function startTestApp(
  engine: Engine,
  overrides: Partial<Config> = {},
  { onDisk = false, via }: { onDisk?: boolean; via?: (url: string) => string } = {},
): Promise<TestApp> {
  const { db, drop } = engine === 'pglite' ? await clonePglite(overrides.queryLimits, onDisk) : await clonePostgres(overrides.queryLimits, via);
  const config: Config = { ...loadConfig({ LOG_LEVEL: 'silent', DEMO_DATA: 'false' }), dataDir: undefined, staticDir: undefined, demoData: false, ...overrides };
  const app = await buildApp(config, { db });
  await app.ready();
  return {
    app,
    db,
    async close() {
      await app.close();
      await db.close();
      await drop();
    },
    async login(username, password) {
      const response = await app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { username, password } });
      if (response.statusCode !== 200) throw new Error(`login ${username}: ${response.statusCode} ${response.body}`);
      return `Bearer ${response.json().token}`;
    },
  };
}

async function clonePglite(limits: QueryLimits | undefined, onDisk: boolean): Promise<{ db: Db; drop: () => Promise<void> }> {
  const dump = new Blob([readFileSync(TEMPLATE_DUMP)]);
  const dir = onDisk ? mkdtempSync(join(tmpdir(), 'pglite-test-')) : undefined;
  return { db: await openPglite(dir, dump, limits), drop: async () => {
      if (dir) rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function clonePostgres(limits: QueryLimits | undefined, via: (url: string) => string = (url) => url): Promise<{ db: Db; drop: () => Promise<void> }> {
  const name = `${PG_PREFIX}_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await admin.connect();
  await admin.query(`create database ${name} template ${PG_TEMPLATE_DB}`);
  await admin.end();
  return {
    db: await openPostgres(via(databaseUrlFor(name)), 4, { limits }),
    async drop() {
      const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}
