import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { pino } from 'pino';
import { openPostgres } from '../src/server/db/postgres';
import type { Db } from '../src/server/db/types';
import { Leases, UNFENCED } from '../src/server/jobs/leases';
import { PeriodicJob } from '../src/server/jobs/periodicJob';
import { clonePostgresDatabase } from './helpers/testApp';

const log = pino({ level: 'silent' });
const TTL_MS = 1000;

/** A process's view of the database that can be cut off, as by a kill: nothing renews, nothing lets go. */
function killable(db: Db): { db: Db; kill(): void; revive(): void } {
  let dead = false;
  const view = (inner: Db): Db =>
    new Proxy(inner, {
      get(target, property, receiver) {
        if (property === 'query')
          return (sql: string, params?: unknown[]) => (dead ? Promise.reject(new Error('killed')) : target.query(sql, params));
        if (property === 'withLimit') return (ms: number) => view(target.withLimit(ms));
        return Reflect.get(target, property, receiver);
      },
    });
  return {
    db: view(db),
    kill: () => {
      dead = true;
    },
    revive: () => {
      dead = false;
    },
  };
}

describe('PeriodicJob under a lease', () => {
  it('runs its passes only while the lease is held here', async () => {
    let held = false;
    let passes = 0;
    const lease = {
      name: 'test',
      generation: 1,
      get held() {
        return held;
      },
      onChange: () => () => undefined,
      fence: () => UNFENCED,
    };
    const job = new PeriodicJob(
      async () => {
        passes += 1;
      },
      log,
      'failed',
      lease,
    );
    job.runNow();
    await job.stop();
    expect(passes).toBe(0);
    held = true;
    job.runNow();
    await job.stop();
    expect(passes).toBe(1);
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('leases on PostgreSQL', () => {
  let url: string;
  let drop: () => Promise<void>;
  const opened: Db[] = [];
  beforeAll(async () => {
    ({ url, drop } = await clonePostgresDatabase());
  });
  afterAll(async () => {
    for (const db of opened) await db.close();
    await drop?.();
  });
  const connect = async () => {
    const db = await openPostgres(url, 2);
    opened.push(db);
    return db;
  };

  it('gives a job to one process, to another within the lifetime and a round after the holder dies, never to both at once', async () => {
    const a = killable(await connect());
    const first = new Leases(a.db, log, { ttlMs: TTL_MS });
    const second = new Leases(await connect(), log, { ttlMs: TTL_MS });
    const [one, two] = [first.lease('job'), second.lease('job')];
    const changes: boolean[] = [];
    two.onChange((held) => changes.push(held));
    await first.start();
    await second.start();
    expect([one.held, two.held, one.generation]).toEqual([true, false, 1]);

    let both = 0;
    const watch = setInterval(() => {
      if (one.held && two.held) both += 1;
    }, 5);
    a.kill();
    const killedAt = performance.now();
    await vi.waitUntil(() => two.held, { timeout: 5000, interval: 10 });
    const takeover = performance.now() - killedAt;
    // the dead holder's lease runs out (ttl after its last renewal), then the next round takes it
    expect(takeover).toBeLessThan(TTL_MS * 1.25 + 500);
    expect(one.held).toBe(false);
    expect(two.generation).toBe(2);
    expect(changes).toEqual([true]);

    // the old holder comes back: the lease stays with the new one
    a.revive();
    await first.renew();
    expect([one.held, two.held]).toEqual([false, true]);

    // a shutdown lets go at once: the next round elsewhere takes it, with the next generation
    await second.stop();
    expect(two.held).toBe(false);
    await first.renew();
    expect([one.held, one.generation]).toEqual([true, 3]);
    clearInterval(watch);
    expect(both).toBe(0);
    await first.stop();
    const [row] = await opened[0].query<{ holder: string; generation: number }>(
      "select holder, generation::int as generation from app.lease where name = 'job'",
    );
    expect(row).toEqual({ holder: first.holder, generation: 3 });
  });
});
