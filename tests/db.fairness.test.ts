import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPglite, type PgliteDb } from '../src/server/db/pglite';
import { runAsCaller, type QueryCaller } from '../src/server/db/queryCaller';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const caller = (key: string, signal = new AbortController().signal): QueryCaller => ({ key: () => key, signal });

/**
 * The embedded engine runs one statement at a time: one user's pile of slow queries must not make another
 * user wait for all of them, and a query whose client went away must not run at all.
 */
describe("embedded engine: callers take turns, a gone client's queries are dropped", () => {
  let db: PgliteDb;
  beforeAll(async () => {
    db = await openPglite();
    await db.exec('create table visits (who text)');
  }, 120_000);
  afterAll(() => db.close());

  it("runs another caller's query after the one statement running, not after every queued one", async () => {
    const order: string[] = [];
    const heavy = caller('user 1');
    // user 1 has used the engine (one slow statement), then queues four more
    await runAsCaller(heavy, () => db.query('select pg_sleep(0.2)'));
    const pile = [1, 2, 3, 4].map((n) => runAsCaller(heavy, () => db.query('select pg_sleep(0.2)').then(() => order.push(`heavy ${n}`))));
    await pause(50); // the first of them is running
    const other = runAsCaller(caller('user 2'), async () => {
      await db.query('select 1');
      order.push('other 1');
      await db.query('select 2'); // the request's next query: still ahead of the pile
      order.push('other 2');
    });
    await Promise.all([...pile, other]);
    expect(order).toEqual(['heavy 1', 'other 1', 'other 2', 'heavy 2', 'heavy 3', 'heavy 4']);
  });

  it('queues reports and exports (the long-running view) after other work', async () => {
    const order: string[] = [];
    const someone = caller('user 3');
    const running = runAsCaller(someone, () => db.query('select pg_sleep(0.2)'));
    await pause(50);
    const report = runAsCaller(someone, () =>
      db
        .longRunning()
        .query('select 1')
        .then(() => order.push('report')),
    );
    const list = runAsCaller(someone, () => db.query('select 2').then(() => order.push('list')));
    await Promise.all([running, report, list]);
    expect(order).toEqual(['list', 'report']);
  });

  it('never starves a report behind a steady stream of lighter work: past its longest wait it goes first', async () => {
    let reportDone = 0;
    const started = Date.now();
    // other callers keep the queue busy with light statements for 4 s, several always waiting
    const loop = async () => {
      while (Date.now() - started < 4000) await db.query('select pg_sleep(0.05)');
    };
    const stream = (name: string) => runAsCaller(caller(name), () => Promise.all([loop(), loop(), loop()]));
    const streams = [stream('user 6'), stream('user 7')];
    await pause(200);
    const report = runAsCaller(caller('user 5'), () =>
      db
        .longRunning()
        .query('select 1')
        .then(() => (reportDone = Date.now())),
    );
    await Promise.all([report, ...streams]);
    expect(reportDone - started).toBeLessThan(3500);
  });

  it('drops a queued query when its client goes away: it never runs', async () => {
    const gone = new AbortController();
    const busy = db.query('select pg_sleep(0.3)');
    await pause(50);
    const write = runAsCaller(caller('user 4', gone.signal), () => db.query("insert into visits values ('gone')"));
    gone.abort();
    await expect(write).rejects.toMatchObject({ code: '57014' });
    await busy;
    // a query asked after the client went away is refused at once
    await expect(runAsCaller(caller('user 4', gone.signal), () => db.query('select 1'))).rejects.toMatchObject({ code: '57014' });
    expect(await db.query('select * from visits')).toEqual([]);
  });
});
