import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgres } from '../src/server/db/postgres';
import { runAsCaller, type QueryCaller } from '../src/server/db/queryCaller';
import type { Db } from '../src/server/db/types';

const caller = (key: string, signal: AbortSignal): QueryCaller => ({ key: () => key, signal });

/** PostgreSQL runs a statement to its end unless told: a request whose client went away must not keep a backend busy. */
describe.skipIf(!process.env.TEST_DATABASE_URL)('PostgreSQL: a statement is cancelled when its client goes away', () => {
  let db: Db;
  beforeAll(async () => {
    db = await openPostgres(process.env.TEST_DATABASE_URL!, 3);
  });
  afterAll(() => db.close());

  it('cancels the running statement, and the connection serves the next one', async () => {
    const left = new AbortController();
    const started = performance.now();
    const slow = runAsCaller(caller('user 1', left.signal), () => db.query('select pg_sleep(20)'));
    setTimeout(() => left.abort(), 300);
    await expect(slow).rejects.toMatchObject({ code: '57014' });
    expect(performance.now() - started).toBeLessThan(5000);
    // every connection of the small pool still answers (none was left with a pending cancel)
    const answers = await Promise.all([1, 2, 3, 4, 5, 6].map((n) => db.query<{ n: number }>('select $1::int as n, pg_sleep(0.05)', [n])));
    expect(answers.map(([row]) => row.n)).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it("leaves another caller's statement alone, and refuses to start one for a client already gone", async () => {
    const left = new AbortController();
    const stays = new AbortController();
    const mine = runAsCaller(caller('user 1', left.signal), () => db.query('select pg_sleep(20)'));
    const theirs = runAsCaller(caller('user 2', stays.signal), () => db.query<{ done: boolean }>('select true as done from pg_sleep(0.6)'));
    setTimeout(() => left.abort(), 200);
    await expect(mine).rejects.toMatchObject({ code: '57014' });
    expect(await theirs).toEqual([{ done: true }]);
    await expect(runAsCaller(caller('user 1', left.signal), () => db.query('select 1'))).rejects.toMatchObject({ code: '57014' });
  });

  it('cancels a statement under a longer limit too (reports, exports)', async () => {
    const left = new AbortController();
    const slow = runAsCaller(caller('user 3', left.signal), () => db.longRunning().query('select pg_sleep(20)'));
    setTimeout(() => left.abort(), 300);
    await expect(slow).rejects.toMatchObject({ code: '57014' });
  });
});
