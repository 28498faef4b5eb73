import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from './helpers/engines';
import { startTestApp, type TestApp } from './helpers/testApp';
import { HANDBOOKS } from '../schemas/index';
import { buildWhere } from '../src/server/handbooks/filters';
import { Params, tableSql } from '../src/server/handbooks/sqlNames';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * One user's heavy work must not stall the others (spec: hardening): searches an index answers, at most one
 * export or report per user at once, and a request whose client went away runs no more queries.
 */
describe.each(ENGINES)("one user's heavy requests do not stall the others (%s)", (engine) => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await startTestApp(engine);
    admin = await t.login('admin', 'admin123');
  });
  afterAll(() => t?.close());

  it('answers a free-text search of the schedule times from the trigram indexes', async () => {
    const [{ id: variant }] = await t.db.query<{ id: number }>('select id from mgt.rasp_variant order by id limit 1');
    const [{ stop_id: stop }] = await t.db.query<{ stop_id: number }>('select stop_id from mgt.stops order by stop_id limit 1');
    await t.db.query(
      `insert into mgt.rasp_time ("RaspVariant_id", graph, smena, racetype, racenum, "order", stop_id, time)
       select $1, g % 50, case when g = 7 then 'Утренняя' else (g % 3)::text end, 'AB', g % 40, g % 30, $2, g % 1440
         from generate_series(1, 20000) g`,
      [variant, stop],
    );
    await t.db.exec('analyze mgt.rasp_time');
    const params = new Params();
    const where = buildWhere(HANDBOOKS.rasptimes, { q: 'УТРЕН' }, params);
    // the planner scans a table this small; with scans priced out it shows the index answers the condition
    const plan = await t.db.transaction(async (tx) => {
      await tx.query('set local enable_seqscan = off');
      return tx.query<Record<string, unknown>>(`explain select * from ${tableSql(HANDBOOKS.rasptimes)} t where ${where}`, params.values);
    });
    expect(JSON.stringify(plan)).toContain('rasp_time_smena_trgm_idx');

    const response = await t.app.inject({
      method: 'POST',
      url: '/api/table/list',
      headers: { authorization: admin },
      payload: { config: { type: 'rasptimes' }, filters: { q: 'утрен' } },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().list.map((row: { smena: string }) => row.smena)).toEqual(['Утренняя']);
  });

  it('refuses a second export of the same user while the first runs (429, translated), then takes the next', async () => {
    const exportRequest = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/table/export',
        headers: { authorization: admin },
        payload: { config: { type: 'agency' } },
      });
    // the handbook locked for a moment: the first export waits for its first batch
    const busy = t.db.transaction(async (tx) => {
      await tx.query('lock table mgt.agency in access exclusive mode');
      await tx.query('select pg_sleep(1)');
    });
    await pause(50);
    const first = exportRequest();
    await pause(200);
    const second = await exportRequest();
    expect(second.statusCode).toBe(429);
    expect(second.json()).toEqual({ messages: ['too_many_heavy_requests'] });
    // another user is not refused
    const viewer = await t.login('viewer', 'viewer123');
    const theirs = t.app.inject({
      method: 'POST',
      url: '/api/table/export',
      headers: { authorization: viewer },
      payload: { config: { type: 'agency' } },
    });
    await busy;
    expect((await first).statusCode).toBe(200);
    expect((await theirs).statusCode).toBe(200);
    expect((await exportRequest()).statusCode).toBe(200);
  });

  it.runIf(engine === 'pglite')('never runs the queued queries of a request whose client went away', async () => {
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const before = await t.db.query<{ n: number }>('select count(*)::int as n from mgt.agency');
    // the session is read once, so the save's own queries are what waits
    await fetch(`${address}/api/v1/auth/current/`, { headers: { authorization: admin } });
    const busy = t.db.query('select pg_sleep(1.5)');
    await pause(50);
    const gone = new AbortController();
    const save = fetch(`${address}/api/table/element/save`, {
      method: 'POST',
      headers: { authorization: admin, 'content-type': 'application/json' },
      signal: gone.signal,
      body: JSON.stringify({ config: { type: 'agency' }, row: { title: 'Ушедший клиент', transporter_id: 7 } }),
    }).catch(() => undefined);
    await pause(300);
    gone.abort();
    await save;
    await busy;
    await pause(300);
    expect(await t.db.query<{ n: number }>('select count(*)::int as n from mgt.agency')).toEqual(before);
    expect(await t.db.query(`select 1 from mgt.agency where title = 'Ушедший клиент'`)).toEqual([]);
    // the same save from a client that waits is made
    const kept = await fetch(`${address}/api/table/element/save`, {
      method: 'POST',
      headers: { authorization: admin, 'content-type': 'application/json' },
      body: JSON.stringify({ config: { type: 'agency' }, row: { title: 'Ушедший клиент', transporter_id: 7 } }),
    });
    expect(kept.status).toBe(200);
    expect(await t.db.query(`select title from mgt.agency where title = 'Ушедший клиент'`)).toEqual([{ title: 'Ушедший клиент' }]);
  });
});
