import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Db } from './types';

const MIGRATIONS_DIR = fileURLToPath(new URL('./migrations/', import.meta.url));
const MIGRATION_LIMIT_MS = 3_600_000;

/** Held while a migration runs: processes started together on one PostgreSQL apply each migration once. */
const MIGRATION_LOCK = 'select pg_advisory_xact_lock(7346001)';

/**
 * Applies the SQL files of migrations/ not yet applied, in name order, each in its own transaction. Each
 * transaction takes the migrations' lock and looks again whether another process applied it meanwhile.
 * `dir` is another folder of migrations (a test's fixture).
 */
export async function migrate(db: Db, dir: string = MIGRATIONS_DIR): Promise<string[]> {
  await db.transaction(async (tx) => {
    await tx.query(MIGRATION_LOCK);
    await tx.query('create schema if not exists app');
    await tx.query('create table if not exists app.migration (name text primary key, applied_at timestamptz not null default now())');
  });
  const done = new Set((await db.query<{ name: string }>('select name from app.migration')).map((row) => row.name));
  const applied: string[] = [];
  for (const name of readdirSync(dir)
    .filter((file) => file.endsWith('.sql'))
    .sort()) {
    if (done.has(name)) continue;
    const sql = readFileSync(join(dir, name), 'utf8');
    // A migration may build or rewrite what takes long on a slow or big server (PostGIS, rollups over a city's
    // month, weeks of positions moved into day partitions: 11.5 million took 36 s embedded); no start should
    // fail on it, so its statements get far beyond the long limit.
    const ran = await db.withLimit(MIGRATION_LIMIT_MS).transaction(async (tx) => {
      await tx.query(MIGRATION_LOCK);
      if ((await tx.query('select 1 from app.migration where name = $1', [name])).length) return false;
      for (const statement of splitStatements(sql)) await tx.query(statement);
      await tx.query('insert into app.migration (name) values ($1)', [name]);
      return true;
    });
    if (ran) applied.push(name);
  }
  return applied;
}

/** Splits a migration on semicolons that end a line, outside $$-quoted bodies. */
export function splitStatements(sql: string): string[] {
  const statements: string[] = [];
  let current = '';
  let inBody = false;
  for (const line of sql.split('\n')) {
    if (/^\s*--/.test(line)) continue;
    current += `${line}\n`;
    if ((line.match(/\$\$/g) ?? []).length % 2 === 1) inBody = !inBody;
    if (!inBody && /;\s*$/.test(line)) {
      statements.push(current.trim());
      current = '';
    }
  }
  if (current.trim()) statements.push(current.trim());
  return statements;
}
