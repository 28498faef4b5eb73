import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPglite, type PgliteDb } from '../src/server/db/pglite';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The embedded engine runs one statement at a time: background work (Db.background, the demo history's fill)
 * must not make a request wait for every background statement queued before it.
 */
describe('embedded engine: background work goes after the requests', () => {
  let db: PgliteDb;
  beforeAll(async () => {
    db = await openPglite();
  }, 120_000);
  afterAll(() => db.close());

  it("runs a request's queries before queued background statements, and its next query within the grace", async () => {
    const order: string[] = [];
    const background = db.background();
    const first = background.query('select pg_sleep(0.4)').then(() => order.push('background 1'));
    await pause(100); // the first background statement is running
    const queued = [2, 3, 4].map((n) => background.query('select pg_sleep(0.1)').then(() => order.push(`background ${n}`)));
    // a login: a query, the server's own work for a moment (a password's hash), its next query
    const request = (async () => {
      await db.query('select 1');
      order.push('request 1');
      await pause(40);
      await db.transaction(async (tx) => tx.query('select 2'));
      order.push('request 2');
    })();
    await Promise.all([first, ...queued, request]);
    expect(order).toEqual(['background 1', 'request 1', 'request 2', 'background 2', 'background 3', 'background 4']);
  });

  it('keeps its place in a transaction it holds, and its time limit', async () => {
    const background = db.background().withLimit(200);
    await expect(background.query('select pg_sleep(1)')).rejects.toMatchObject({ code: '57014' });
    const held = await background.transaction(async (tx) => {
      await tx.query('create temporary table held (n int)');
      await tx.query('insert into held values (1), (2)');
      return tx.query<{ n: number }>('select count(*)::int as n from held');
    });
    expect(held).toEqual([{ n: 2 }]);
  });
});
