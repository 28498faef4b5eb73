import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { pino } from 'pino';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/server/app';
import { Bus } from '../../src/server/bus/bus';
import { RedisTransport } from '../../src/server/bus/redisTransport';
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
  const { db, drop } =
    engine === 'pglite' ? await clonePglite(overrides.queryLimits, onDisk) : await clonePostgres(overrides.queryLimits, via);
  const config: Config = {
    ...loadConfig({ LOG_LEVEL: 'silent', DEMO_DATA: 'false' }),
    dataDir: undefined,
    staticDir: undefined,
    demoData: false,
    ...overrides,
  };
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
    login: (username, password) => loginTo(app, username, password),
  };
}

export interface TestCluster {
  /** The server processes' apps, each with its own connections to the database and to Redis. */
  apps: TestApp[];
  /** The cloned database they share. */
  databaseUrl: string;
  /** The channels' prefix they share. */
  busPrefix: string;
  close(): Promise<void>;
}

/**
 * Several apps on one PostgreSQL database cloned from the template, each with a bus of its own over Redis (as
 * separate server processes have): what one changes, the others must learn over the bus.
 */
export async function startTestCluster(count: number, redisUrl: string, overrides: Partial<Config> = {}): Promise<TestCluster> {
  const { url, drop } = await clonePostgresDatabase();
  const busPrefix = `${PG_PREFIX}:${randomBytes(4).toString('hex')}`;
  const apps: TestApp[] = [];
  for (let i = 0; i < count; i++) {
    const db = await openPostgres(url, 4, { limits: overrides.queryLimits });
    const log = buildLogger();
    const bus = new Bus(new RedisTransport(redisUrl, log), busPrefix, log);
    const config: Config = {
      ...loadConfig({ LOG_LEVEL: 'silent', DEMO_DATA: 'false' }),
      dataDir: undefined,
      staticDir: undefined,
      demoData: false,
      ...overrides,
    };
    const app = await buildApp(config, { db, bus });
    await app.ready();
    apps.push({
      app,
      db,
      async close() {
        await app.close();
        await bus.close();
        await db.close();
      },
      login: (username, password) => loginTo(app, username, password),
    });
  }
  return {
    apps,
    databaseUrl: url,
    busPrefix,
    async close() {
      for (const t of apps) await t.close();
      await drop();
    },
  };
}

async function loginTo(app: FastifyInstance, username: string, password: string): Promise<string> {
  const response = await app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { username, password } });
  if (response.statusCode !== 200) throw new Error(`login ${username}: ${response.statusCode} ${response.body}`);
  return `Bearer ${response.json().token}`;
}

/** A silent logger for a bus made outside an app. */
function buildLogger() {
  return pino({ level: 'silent' });
}

async function clonePglite(limits: QueryLimits | undefined, onDisk: boolean): Promise<{ db: Db; drop: () => Promise<void> }> {
  const dump = new Blob([readFileSync(TEMPLATE_DUMP)]);
  const dir = onDisk ? mkdtempSync(join(tmpdir(), 'pglite-test-')) : undefined;
  return {
    db: await openPglite(dir, dump, limits),
    drop: async () => {
      if (dir) rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function clonePostgres(
  limits: QueryLimits | undefined,
  via: (url: string) => string = (url) => url,
): Promise<{ db: Db; drop: () => Promise<void> }> {
  const { url, drop } = await clonePostgresDatabase();
  return { db: await openPostgres(via(url), 4, { limits }), drop };
}

/** A new PostgreSQL database from the prepared template, and its drop. */
export async function clonePostgresDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `${PG_PREFIX}_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await admin.connect();
  await admin.query(`create database ${name} template ${PG_TEMPLATE_DB}`);
  await admin.end();
  return {
    url: databaseUrlFor(name),
    async drop() {
      const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}
