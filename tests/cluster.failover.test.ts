import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startServerCluster, type ServerCluster, type ServerProcess } from '../scripts/bench/serverProcess';
import { clusterTestsRunnable, TEST_REDIS_URL } from './helpers/redis';
import { clonePostgresDatabase } from './helpers/testApp';

const runnable = await clusterTestsRunnable('failover of singleton jobs between server processes (cluster.failover.test.ts)');

/** The job watched: the PDM silence sweep, a pass every 200 ms in whichever process holds its lease. */
const JOB = 'pdm.sweep';
/** The bound: a dead holder's jobs run elsewhere within this. */
const TAKEOVER_LIMIT_MS = 15_000;

interface Pass {
  pid: number;
  generation: number;
  startedAt: number;
  endedAt: number;
}

/** The passes of JOB a process logged (its 'singleton pass' lines at debug level). */
function passesOf(server: ServerProcess): Pass[] {
  const passes: Pass[] = [];
  for (const line of server.log) {
    if (!line.includes('"singleton pass"')) continue;
    const entry = JSON.parse(line) as { lease: string; generation: number; startedAt: number; endedAt: number };
    if (entry.lease === JOB)
      passes.push({ pid: server.pid, generation: entry.generation, startedAt: entry.startedAt, endedAt: entry.endedAt });
  }
  return passes;
}

async function heldLeases(server: ServerProcess): Promise<string[]> {
  const health = await fetch(`http://127.0.0.1:${server.port}/api/health`).then(
    (r) => r.json() as Promise<{ leases: string[]; bus: string }>,
  );
  expect(health.bus).toBe('shared');
  return health.leases;
}

/**
 * Two real server processes on one PostgreSQL and the bus; the one running a singleton job is killed
 * (SIGKILL: nothing let go) and the job must run in one of the others within 15 s, never in two at once.
 */
describe.skipIf(!runnable)('singleton jobs when their process dies', () => {
  let cluster: ServerCluster;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    const database = await clonePostgresDatabase();
    drop = database.drop;
    cluster = await startServerCluster(
      2,
      {
        DATABASE_URL: database.url,
        BUS_URL: TEST_REDIS_URL,
        DEMO_DATA: 'false',
        SIMULATOR: 'false',
        LOG_LEVEL: 'debug',
        PDM_SWEEP_MS: '200',
      },
      120_000,
    );
  }, 150_000);
  afterAll(async () => {
    await cluster?.stop();
    await drop?.();
  });

  it('moves every lease of a killed process to the others within 15 s and runs each job in one process at a time', async () => {
    const { processes } = cluster;
    await vi.waitUntil(() => processes.some((server) => passesOf(server).length > 0), { timeout: 10_000, interval: 50 });
    const holder = processes.find((server) => passesOf(server).length > 0)!;
    const survivors = processes.filter((server) => server !== holder);
    expect(await heldLeases(holder)).toContain(JOB);
    const held = await heldLeases(holder);
    for (const server of survivors) expect(await heldLeases(server)).not.toContain(JOB);

    await holder.kill();
    const killedAt = Date.now();
    await vi.waitUntil(() => survivors.some((server) => passesOf(server).length > 0), { timeout: TAKEOVER_LIMIT_MS + 5000, interval: 50 });
    const firstElsewhere = Math.min(...survivors.flatMap((server) => passesOf(server).map((pass) => pass.startedAt)));
    expect(firstElsewhere - killedAt).toBeLessThan(TAKEOVER_LIMIT_MS);

    // every singleton the dead process held runs in a survivor now
    await vi.waitUntil(
      async () => {
        const now = new Set((await Promise.all(survivors.map(heldLeases))).flat());
        return held.every((name) => now.has(name));
      },
      { timeout: 5000, interval: 200 },
    );
    const bySurvivor = await Promise.all(survivors.map(heldLeases));
    for (const name of held) expect(bySurvivor.filter((names) => names.includes(name))).toHaveLength(1);

    // a few more passes, then: one process at a time, a higher generation after the takeover
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const passes = processes.flatMap(passesOf).sort((x, y) => x.startedAt - y.startedAt);
    const after = passes.filter((pass) => pass.pid !== holder.pid);
    expect(new Set(after.map((pass) => pass.pid)).size).toBe(1);
    const before = passes.filter((pass) => pass.pid === holder.pid);
    expect(Math.min(...after.map((pass) => pass.generation))).toBeGreaterThan(Math.max(...before.map((pass) => pass.generation)));
    // the dead process's pass under way (if any) ended with it
    for (let i = 1; i < passes.length; i++)
      expect(passes[i].startedAt).toBeGreaterThanOrEqual(
        passes[i - 1].pid === passes[i].pid ? passes[i - 1].endedAt : Math.max(passes[i - 1].endedAt, killedAt),
      );
  });
});
