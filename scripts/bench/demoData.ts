/**
 * How long the city-scale demo data takes to generate and to load: into a fresh in-memory PGlite, and into the
 * PostgreSQL database of DATABASE_URL when it is set (its demo tables must be empty: use a fresh database).
 * Run: npx tsx scripts/bench/demoData.ts [city|test]
 */
import os from 'node:os';
import { generateDemoData, type DemoScale } from '../../src/server/db/demo/generate';
import { loadDemoData } from '../../src/server/db/demo/loadDemoData';
import { TABLES } from '../../src/server/db/demo/tables';
import { migrate } from '../../src/server/db/migrate';
import { openPglite } from '../../src/server/db/pglite';
import { openPostgres } from '../../src/server/db/postgres';
import { seedPlatform } from '../../src/server/db/seedPlatform';
import type { Db } from '../../src/server/db/types';

const scale: DemoScale = process.argv[2] === 'test' ? 'test' : 'city';
const seconds = (from: number) => ((performance.now() - from) / 1000).toFixed(2);
/** CPU seconds of this process since `from`: on a busy machine a steadier figure than the wall clock (PGlite runs in-process). */
const cpuSeconds = (from: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(from);
  return ((used.user + used.system) / 1e6).toFixed(2);
};

async function bench(name: string, db: Db): Promise<void> {
  await migrate(db.longRunning());
  await seedPlatform(db);
  const started = performance.now();
  const cpu = process.cpuUsage();
  await loadDemoData(db.longRunning(), scale);
  const loaded = `${seconds(started)} s wall, ${cpuSeconds(cpu)} s CPU in this process`;
  const counts: Record<string, number> = {};
  for (const spec of Object.values(TABLES)) {
    const [{ n }] = await db.query<{ n: number }>(`select count(*)::int as n from ${spec.table}`);
    counts[spec.table] = n;
  }
  console.log(`${name}: loadDemoData(db, '${scale}') took ${loaded} (including the argon2 hashes of the demo logins)`);
  console.table(counts);
}

console.log(
  `load average ${os
    .loadavg()
    .map((n) => n.toFixed(1))
    .join(' ')} on ${os.availableParallelism()} CPUs`,
);
let started = performance.now();
const data = generateDemoData(scale);
const rows = Object.values(data).reduce((sum, list) => sum + list.length, 0);
console.log(`generation alone: ${seconds(started)} s, ${rows} rows`);

started = performance.now();
const lite = await openPglite();
console.log(`PGlite start: ${seconds(started)} s`);
await bench('PGlite (in memory)', lite);
await lite.close();

if (process.env.DATABASE_URL) {
  const db = await openPostgres(process.env.DATABASE_URL);
  await bench(`PostgreSQL (${new URL(process.env.DATABASE_URL).pathname.slice(1)})`, db);
  await db.close();
} else {
  console.log('DATABASE_URL is not set: PostgreSQL skipped');
}
