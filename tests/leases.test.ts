import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { pino } from 'pino';
import { openPostgres } from '../src/server/db/postgres';
import type { Db, Queryable } from '../src/server/db/types';
import { LeaseLostError, Leases, UNFENCED } from '../src/server/jobs/leases';
import type { PassageRecord } from '../src/server/dispatch/engineTypes';
import { writePassages } from '../src/server/dispatch/store';
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

  it('fences the writes of a pass: once the lease is taken over, the old holder writes nothing more', async () => {
    const raw = await connect();
    const a = killable(raw);
    const other = await connect();
    const first = new Leases(a.db, log, { ttlMs: TTL_MS });
    const second = new Leases(other, log, { ttlMs: TTL_MS });
    const [one, two] = [first.lease('writer'), second.lease('writer')];
    await first.start();
    await second.start();
    expect([one.held, two.held]).toEqual([true, false]);
    await raw.query('create table fenced_write (pass text not null)');
    const write = (fence: (tx: Queryable) => Promise<void>, pass: string) =>
      raw.transaction(async (tx) => {
        await fence(tx);
        await tx.query('insert into fenced_write values ($1)', [pass]);
      });

    // a pass begins while this process holds the lease: its first batch is written
    const fence = one.fence();
    await write(fence, 'before');

    // a transaction under way holds the lease: the other process's takeover waits for it to end
    let release!: () => void;
    const holding = raw.transaction(async (tx) => {
      await fence(tx);
      await new Promise<void>((resolve) => (release = resolve));
      await tx.query('insert into fenced_write values ($1)', ['during']);
    });
    a.kill(); // the holder stalls: no renewal from here on
    await new Promise((resolve) => setTimeout(resolve, TTL_MS * 1.5));
    await second.renew();
    expect(two.held).toBe(false);
    release();
    await holding;
    await vi.waitUntil(
      async () => {
        await second.renew();
        return two.held;
      },
      { timeout: 5000, interval: 50 },
    );
    expect(two.generation).toBe(2);

    // the same pass goes on past the takeover: each later batch is refused, nothing is written
    await expect(write(fence, 'after')).rejects.toBeInstanceOf(LeaseLostError);
    // the dispatch writer's passages likewise
    const run = {
      key: 'k',
      serviceDate: new Date().toISOString().slice(0, 10),
      routeId: 1,
      direction: 0,
      variantId: 1,
      graph: 1,
      smena: '1',
      raceNum: 1,
      tripId: null,
      stopIds: [1],
      sequences: [1],
      dayType: 0,
      times: [Date.now()],
    };
    const passage = {
      run,
      stopIndex: 0,
      vehicleId: 1,
      arrival: Date.now(),
      departure: Date.now(),
      interpolated: false,
    } as unknown as PassageRecord;
    await expect(writePassages(raw, [passage], undefined, fence)).rejects.toBeInstanceOf(LeaseLostError);
    expect(await raw.query('select 1 from dispatch.stop_passage')).toEqual([]);
    // and a fence taken by the old holder now (not holding it) refuses too
    await expect(write(one.fence(), 'late')).rejects.toBeInstanceOf(LeaseLostError);
    // the new holder's pass writes
    await write(two.fence(), 'new holder');
    expect((await raw.query<{ pass: string }>('select pass from fenced_write')).map((row) => row.pass)).toEqual([
      'before',
      'during',
      'new holder',
    ]);
    await first.stop();
    await second.stop();
  });
});
