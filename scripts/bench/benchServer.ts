import pg from 'pg';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/server/app';
import { loadConfig } from '../../src/server/config';
import { openDatabase } from '../../src/server/db/open';
import type { Db } from '../../src/server/db/types';

/** Drops and creates the benchmark's own database (a scratch one: the name is checked, never a shared one). */
export async function recreateDatabase(url: string): Promise<void> {
  const name = new URL(url).pathname.slice(1);
  if (!/^[a-z0-9_]+$/.test(name)) throw new Error(`unexpected database name ${name}`);
  const admin = new pg.Client({ connectionString: Object.assign(new URL(url), { pathname: '/postgres' }).toString() });
  await admin.connect();
  await admin.query(`drop database if exists ${name} with (force)`);
  await admin.query(`create database ${name}`);
  await admin.end();
}

/**
 * The server in this process on DATABASE_URL (or the embedded engine) with the small demo data, listening
 * on `port`, and the admin's authorization header for its API.
 */
export async function startDemoServer(port: number): Promise<{ app: FastifyInstance; db: Db; address: string; authorization: string }> {
  const config = {
    ...loadConfig(),
    dataDir: undefined,
    staticDir: undefined,
    logLevel: process.env.LOG_LEVEL ?? 'warn',
    demoData: true,
    demoScale: 'test' as const,
  };
  const db = await openDatabase(config);
  const app = await buildApp(config, { db, seedDemo: true });
  await app.listen({ port, host: '127.0.0.1' });
  const address = `http://127.0.0.1:${port}`;
  const login = await fetch(`${address}/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: 'admin123' }),
  });
  return { app, db, address, authorization: `Bearer ${((await login.json()) as { token: string }).token}` };
}
