import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setTimeout as sleep } from 'node:timers/promises';
import { HANDBOOKS } from '../schemas/index';
import { ENGINES } from './helpers/engines';
import { startTestApp, type TestApp } from './helpers/testApp';
import { preparedExample } from './tableFixtures';

/** Keeps the engine busy for the given seconds of CPU, as a heavy list or report does. */
const busyLoop = (seconds: number) => `while clock_timestamp() < statement_timestamp() + interval '${seconds} seconds' loop end loop;`;
const busy = (seconds: number) => `do $$ begin ${busyLoop(seconds)} end $$`;

describe.each(ENGINES)('%s: query time limits', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    // A short default limit so a test can pass it; on disk so PGlite's restart keeps the data.
    t = await startTestApp(engine, { queryLimits: { defaultMs: 1500, longMs: 30_000 } }, { onDisk: true });
    await t.db.exec('create table app.test_scratch (id int primary key)');
  });
  afterAll(async () => t?.close());

  const agencies = async () => (await t.db.query<{ n: number }>('select count(*)::int as n from mgt.agency'))[0].n;

  it('answers auth/current within a second while a heavy query runs', async () => {
    const authorization = await t.login('viewer', 'viewer123');
    const current = () => t.app.inject({ method: 'GET', url: '/api/v1/auth/current/', headers: { authorization } });
    expect((await current()).statusCode).toBe(200);
    let heavyEndedAt = Infinity;
    const heavy = t.db
      .longRunning()
      .exec(busy(6))
      .then(() => {
        heavyEndedAt = performance.now();
      });
    await sleep(300);
    // Past the 3 s the session and the profile are trusted, so the last answers need the database again.
    const latencies: number[] = [];
    for (let i = 0; i < 8; i++) {
      const started = performance.now();
      const response = await current();
      latencies.push(performance.now() - started);
      expect(response.statusCode).toBe(200);
      expect(response.json().username).toBe('viewer');
      await sleep(400);
    }
    const answeredAt = performance.now();
    await heavy;
    expect(heavyEndedAt).toBeGreaterThan(answeredAt);
    // A loose bound: this checks that nothing waits for the heavy query, it is not a benchmark.
    expect(Math.max(...latencies)).toBeLessThan(1000);
  });

  it('cancels a query past its limit, rolls its transaction back, and the next transaction works', async () => {
    const started = performance.now();
    const stopped = t.db.transaction(async (tx) => {
      await tx.query('insert into app.test_scratch (id) values (1)');
      await tx.query(`do $$ begin ${busyLoop(10)} end $$`);
    });
    // Queued behind it: runs once the limit has stopped the heavy one (on PGlite, on the restarted worker).
    const queued = t.db.query<{ one: number }>('select 1 as one');
    await expect(stopped).rejects.toMatchObject({ code: '57014' });
    expect(performance.now() - started).toBeLessThan(9000);
    expect(await queued).toEqual([{ one: 1 }]);
    await t.db.transaction(async (tx) => {
      await tx.query('insert into app.test_scratch (id) values (2)');
    });
    expect(await t.db.query('select id from app.test_scratch order by id')).toEqual([{ id: 2 }]);
  });

  it('gives a longer limit to work that asks for it', async () => {
    await expect(t.db.query(`do $$ begin ${busyLoop(2.5)} end $$`)).rejects.toMatchObject({ code: '57014' });
    await expect(t.db.longRunning().query(`do $$ begin ${busyLoop(2.5)} end $$`)).resolves.toEqual([]);
    await expect(t.db.withLimit(60_000).transaction((tx) => tx.query(`do $$ begin ${busyLoop(2.5)} end $$`))).resolves.toEqual([]);
    // The connection (PostgreSQL) or worker (PGlite) that ran the longer limit went back to the default.
    await expect(t.db.query(`do $$ begin ${busyLoop(2.5)} end $$`)).rejects.toMatchObject({ code: '57014' });
  });

  it('answers a save past its limit with query_timeout, saving nothing and leaving no transaction open', async () => {
    const { schema, name } = HANDBOOKS.agency.table;
    await t.db.exec(`
      create function app.test_slow_insert() returns trigger language plpgsql as $$ begin ${busyLoop(10)} return new; end $$;
      create trigger test_slow before insert on ${schema}.${name} for each row execute function app.test_slow_insert()`);
    const authorization = await t.login('admin', 'admin123');
    const row = await preparedExample(t.db, HANDBOOKS.agency);
    const before = await agencies();
    const save = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/table/element/save',
        headers: { authorization },
        payload: { config: { type: 'agency' }, row },
      });

    const response = await save();
    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({ messages: ['query_timeout'] });

    await t.db.exec(`drop trigger test_slow on ${schema}.${name}`);
    expect(await agencies()).toBe(before);
    if (engine === 'postgres') {
      const open = await t.db.query<{ n: number }>(
        `select count(*)::int as n from pg_stat_activity where datname = current_database() and state like 'idle in transaction%'`,
      );
      expect(open[0].n).toBe(0);
    }
    expect((await save()).statusCode).toBe(200);
    expect(await agencies()).toBe(before + 1);
  });

  it.runIf(engine === 'postgres')(
    'lets at most a quarter of the pool run reports and exports at once, ordinary queries alongside',
    async () => {
      // The test app's pool has 4 connections: one long-running query at a time.
      const long = t.db.longRunning();
      const sleepers = () =>
        t.db.query<{ n: number }>(
          "select count(*)::int as n from pg_stat_activity where datname = current_database() and query like 'select pg_sleep(0.8) as heavy%'",
        );
      const heavy = [long.query('select pg_sleep(0.8) as heavy_1'), long.query('select pg_sleep(0.8) as heavy_2')];
      await sleep(300);
      expect(await sleepers()).toEqual([{ n: 1 }]); // the second waits for the first; this ordinary query did not wait
      await Promise.all(heavy);
    },
  );
});
