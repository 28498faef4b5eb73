// The real server (src/server/main.ts) in a process of its own, for benchmarks that measure it from outside.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { SERVER_NODE_ARGS, serverEnv } from '../serverLaunch.mjs';
import { hashPassword } from '../../src/server/auth/passwords';
import { migrate } from '../../src/server/db/migrate';
import { openPostgres } from '../../src/server/db/postgres';
import { ADMIN_ROLE_NAME, seedPlatform } from '../../src/server/db/seedPlatform';
import type { Db } from '../../src/server/db/types';

export interface ServerProcess {
  pid: number;
  /** The HTTP port it listens on (PORT). */
  port: number;
  /** Every line the server printed (pino JSON at LOG_LEVEL, and the start banner). */
  log: string[];
  alive(): boolean;
  exitCode(): number | null;
  /** Resident memory now, MB. */
  rssMb(): number;
  /** Lines logged at error or fatal level. */
  errors(): string[];
  stop(): Promise<void>;
  /** SIGKILL: no shutdown, nothing let go (leases run out, the spool waits for the next start). */
  kill(): Promise<void>;
}

/** Starts the server with the given environment and resolves once it listens (its banner printed). */
export async function startServerProcess(env: Record<string, string>, startTimeoutMs = 300_000): Promise<ServerProcess> {
  // With the memory settings `npm start` runs the server with: what is measured is what runs.
  const child = spawn(process.execPath, [...SERVER_NODE_ARGS, '--import', 'tsx', 'src/server/main.ts'], {
    env: serverEnv({ ...process.env, LOG_LEVEL: 'warn', STATIC_DIR: '/nonexistent', ...env }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const log: string[] = [];
  for (const stream of [child.stdout, child.stderr])
    stream.on('data', (chunk: Buffer) => log.push(...chunk.toString().split('\n').filter(Boolean)));
  let exitCode: number | null = null;
  child.on('exit', (code) => {
    exitCode = code ?? -1;
  });
  const until = Date.now() + startTimeoutMs;
  while (!log.some((line) => line.startsWith('Консоль запущена'))) {
    if (exitCode !== null || Date.now() > until) throw new Error(`server did not start:\n${log.join('\n')}`);
    await delay(100);
  }
  const exited = new Promise((resolve) => child.once('exit', resolve));
  return {
    pid: child.pid!,
    port: Number(env.PORT ?? process.env.PORT ?? 3000),
    log,
    alive: () => exitCode === null,
    exitCode: () => exitCode,
    rssMb() {
      const match = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
      return match ? Math.round(Number(match[1]) / 1024) : 0;
    },
    errors: () => log.filter((line) => /"level":(50|60)/.test(line)),
    async stop() {
      if (exitCode !== null) return;
      child.kill('SIGTERM');
      await exited;
    },
    async kill() {
      if (exitCode !== null) return;
      child.kill('SIGKILL');
      await exited;
    },
  };
}

/** Several server processes of one installation (docs/deployment.md, "several machines"). */
export interface ServerCluster {
  processes: ServerProcess[];
  /** Stops those still running and removes their data folders. */
  stop(): Promise<void>;
}

/**
 * Starts `count` server processes on one PostgreSQL (`env.DATABASE_URL`) and one bus (`env.BUS_URL`, with a
 * BUS_PREFIX of their own unless given), as behind a load balancer: each on a free port, with a data folder of
 * its own (its track spool), EGTS off unless `env` says otherwise; `each(i)` adds a process's own settings. They
 * start together; each resolves once it listens.
 */
export async function startServerCluster(
  count: number,
  env: Record<string, string>,
  startTimeoutMs?: number,
  each: (index: number) => Record<string, string> = () => ({}),
): Promise<ServerCluster> {
  const prefix = env.BUS_PREFIX ?? `tc:cluster:${process.pid}:${Date.now()}`;
  const folders = Array.from({ length: count }, (_, i) => mkdtempSync(join(tmpdir(), `tc-process-${i}-`)));
  const ports = await Promise.all(folders.map(() => freePort()));
  const started = await Promise.allSettled(
    folders.map((dataDir, i) =>
      startServerProcess(
        {
          EGTS_PORT: '0',
          BUS_PREFIX: prefix,
          ...env,
          PORT: String(ports[i]),
          DATA_DIR: dataDir,
          ...each(i),
        },
        startTimeoutMs,
      ),
    ),
  );
  const processes = started.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
  const stop = async () => {
    await Promise.all(processes.map((server) => server.stop()));
    for (const folder of folders) rmSync(folder, { recursive: true, force: true });
  };
  const failed = started.find((result): result is PromiseRejectedResult => result.status === 'rejected');
  if (failed) {
    await stop();
    throw failed.reason;
  }
  return { processes, stop };
}

/** A port nothing listens on now (the system's choice of a free one). */
async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Creates the database on its server when it does not exist yet (never drops anything). */
export async function ensureDatabase(url: string): Promise<void> {
  const { default: pg } = await import('pg');
  const name = new URL(url).pathname.slice(1);
  const adminUrl = new URL(url);
  adminUrl.pathname = '/postgres';
  const admin = new pg.Client({ connectionString: adminUrl.toString() });
  await admin.connect();
  try {
    if ((await admin.query('select 1 from pg_database where datname = $1', [name])).rowCount === 0)
      await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
}

export function percentile(sorted: readonly number[], p: number): number {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : Number.NaN;
}

/** `npm run cluster` (scripts/cluster.mjs) running: HAProxy on `port`, the processes behind it. */
export interface HaproxyCluster {
  port: number;
  processes: { name: string; port: number; pid: number }[];
  /** Everything it printed (its own lines, each process's and HAProxy's, headed by their names). */
  output(): string;
  alive(): boolean;
  /** SIGTERM, as a service manager stops it; resolves to its exit code. */
  stop(): Promise<number | null>;
}

/**
 * Runs scripts/cluster.mjs with `env` on top of this process's (DATABASE_URL, PORT, CLUSTER_PROCESSES, ...;
 * SKIP_BUILD unless given, EGTS off unless given) and resolves once HAProxy answers in front of every process.
 */
export async function startHaproxyCluster(env: Record<string, string>, startTimeoutMs = 120_000): Promise<HaproxyCluster> {
  const child = spawn(process.execPath, ['scripts/cluster.mjs'], {
    env: { ...process.env, SKIP_BUILD: 'true', EGTS_ENABLED: 'false', LOG_LEVEL: 'warn', STATIC_DIR: '/nonexistent', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  for (const stream of [child.stdout, child.stderr]) stream.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const until = Date.now() + startTimeoutMs;
  while (!output.includes('Кластер запущен')) {
    if (child.exitCode !== null || Date.now() > until) {
      child.kill('SIGTERM');
      throw new Error(`npm run cluster did not start:\n${output}`);
    }
    await delay(100);
  }
  return {
    port: Number(env.PORT ?? 3000),
    processes: [...output.matchAll(/\[cluster\] (tc\d+): порт (\d+).*, pid (\d+)/g)].map((m) => ({
      name: m[1],
      port: Number(m[2]),
      pid: Number(m[3]),
    })),
    output: () => output,
    alive: () => child.exitCode === null && child.signalCode === null,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}

/** A port with the next `count` - 1 free too (the cluster takes consecutive ports). */
export async function freeConsecutivePorts(count: number): Promise<number> {
  const free = (port: number) =>
    new Promise<boolean>((resolve) => {
      const server = createServer();
      server.once('error', () => resolve(false));
      server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
    });
  for (;;) {
    const base = 20_000 + Math.floor(Math.random() * 20_000);
    const all = await Promise.all(Array.from({ length: count }, (_, i) => free(base + i)));
    if (all.every(Boolean)) return base;
  }
}

/**
 * A cluster benchmark's database: created if missing, migrated, the platform seeded, an administrator `user` and
 * `vehicles` vehicles with depot numbers from `depotBase` and EGTS peer addresses from `peerBase` (kept across runs).
 * Answers the open database; the caller closes it.
 */
export async function prepareClusterDatabase(
  url: string,
  account: { user: string; password: string },
  fleet: { vehicles: number; depotBase: number; peerBase: number },
): Promise<Db> {
  await ensureDatabase(url);
  const db = await openPostgres(url, 2);
  await migrate(db.longRunning());
  await seedPlatform(db);
  if ((await db.query('select 1 from app.users where username = $1', [account.user])).length === 0) {
    const [user] = await db.query<{ id: number }>(
      `insert into app.users (username, password_hash, title) values ($1, $2, 'Стенд') returning id`,
      [account.user, await hashPassword(account.password)],
    );
    await db.query('insert into app.user_role (user_id, role_id) select $1, id from app.role where name = $2', [user.id, ADMIN_ROLE_NAME]);
  }
  await db.query(
    `insert into mgt.vehicles (depot_number, peer_address)
     select $3::int + g, $1::bigint + g from generate_series(1, $2::int) g
      where not exists (select 1 from mgt.vehicles v where v.peer_address = $1::bigint + g)`,
    [fleet.peerBase, fleet.vehicles, fleet.depotBase],
  );
  return db;
}
