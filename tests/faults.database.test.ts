import { Readable } from 'node:stream';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HANDBOOKS } from '../schemas/index';
import { CSV_BOM } from '../src/shared/handbooks/csv';
import { isDatabaseUnavailable } from '../src/server/db/availability';
import { openPostgres } from '../src/server/db/postgres';
import { createSource } from '../src/server/telemetry/http/sourceKeys';
import { PgProxy } from './helpers/pgProxy';
import { startTestApp, type TestApp } from './helpers/testApp';
import { tableCount } from './tableFixtures';

const PG_URL = process.env.TEST_DATABASE_URL;
const CURRENT = '/api/v1/auth/current/';

describe('which errors mean the database is out of reach', () => {
  it('counts restarts, refusals and cut connections, not faults of the request', () => {
    for (const error of [
      Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }),
      Object.assign(new Error('the database system is starting up'), { code: '57P03' }),
      Object.assign(new Error('connection failure'), { code: '08006' }),
      Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }),
      new Error('Connection terminated unexpectedly'),
      new Error('Client has encountered a connection error and is not queryable'),
      new AggregateError([
        Object.assign(new Error('a'), { code: 'ECONNREFUSED' }),
        Object.assign(new Error('b'), { code: 'ECONNREFUSED' }),
      ]),
    ])
      expect(isDatabaseUnavailable(error), error.message).toBe(true);
    for (const error of [
      Object.assign(new Error('duplicate key'), { code: '23505' }),
      Object.assign(new Error('syntax error'), { code: '42601' }),
      Object.assign(new Error('canceling statement due to statement timeout'), { code: '57014' }),
      new Error('something else'),
      new AggregateError([]),
    ])
      expect(isDatabaseUnavailable(error), error.message).toBe(false);
  });
});

// Staging an outage needs a PostgreSQL server: the embedded engine lives in the process and cannot go away.
describe.skipIf(!PG_URL)('PostgreSQL going away and coming back', () => {
  const proxy = PG_URL ? PgProxy.forUrl(PG_URL) : undefined!;
  let t: TestApp;
  let auth: string;
  const admin = new pg.Client({ connectionString: PG_URL });

  beforeAll(async () => {
    await proxy.restore();
    t = await startTestApp('postgres', {}, { via: (url) => proxy.urlFor(url) });
    auth = await t.login('admin', 'admin123');
    await admin.connect();
  });
  afterAll(async () => {
    await admin.end();
    await proxy.restore().catch(() => undefined);
    await t.close();
    await proxy.cut();
  });

  const current = () => t.app.inject({ method: 'GET', url: CURRENT, headers: { authorization: auth } });
  /** Ends every server process of the test database (what a restart does to the pool's connections). */
  const terminateBackends = async () => {
    const [{ datname }] = await t.db.query<{ datname: string }>('select current_database() as datname');
    const { rows } = await admin.query<{ ended: boolean }>(
      'select pg_terminate_backend(pid) as ended from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
      [datname],
    );
    return rows.length;
  };

  /**
   * A read after terminateBackends: the pool may still hand out an idle connection the server has just ended
   * (its error event not yet seen), which fails once as "unavailable" and is dropped; the read is tried again.
   */
  const countAfterOutage = async (read: () => Promise<number>): Promise<number> => {
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await read();
      } catch (error) {
        if (attempt >= 5 || !isDatabaseUnavailable(error)) throw error;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  };

  it('replaces connections the server ended: the next request succeeds', async () => {
    // Fill the pool with several idle connections first.
    await Promise.all(Array.from({ length: 4 }, () => current()));
    expect(await terminateBackends()).toBeGreaterThan(0);
    await new Promise((resolve) => setTimeout(resolve, 100));
    for (let i = 0; i < 6; i += 1) {
      const response = await current();
      expect(response.statusCode, response.body).toBe(200);
    }
  });

  // A handbook list reads the database on every call (auth/current may be answered from the 3 s session cache).
  const list = () =>
    t.app.inject({
      method: 'POST',
      url: '/api/table/list',
      headers: { authorization: auth },
      payload: { config: { type: 'holidays' }, perPage: 1 },
    });

  it('answers 503 database_unavailable during an outage, then serves again without a restart', async () => {
    await proxy.cut();
    try {
      const refused = await list();
      expect(refused.statusCode).toBe(503);
      expect(refused.json()).toEqual({ messages: ['database_unavailable'] });
      expect(refused.headers['retry-after']).toBe('5');
    } finally {
      await proxy.restore();
    }
    expect((await list()).statusCode).toBe(200);
    expect((await current()).statusCode).toBe(200);
  });

  it('refuses an import cut off mid-transaction with 503 and changes nothing', async () => {
    // Holidays import inserts straight into the table inside one transaction (the staged path only opens one
    // at the end).
    const before = await tableCount(t.db, HANDBOOKS.holidays);
    const rows = (from: number, n: number) =>
      Array.from(
        { length: n },
        (_, i) => `;${new Date(Date.UTC(2030, 0, 1) + (from + i) * 86_400_000).toISOString().slice(0, 10)};0\r\n`,
      ).join('');
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    async function* upload() {
      yield Buffer.from(`${CSV_BOM}route_id;date;dow\r\n${rows(0, 2000)}`);
      await held;
      yield Buffer.from(rows(2000, 2000));
    }
    const response = t.app.inject({
      method: 'POST',
      url: '/api/table/import?type=holidays',
      headers: { authorization: auth, 'content-type': 'text/csv; charset=utf-8' },
      payload: Readable.from(upload()),
    });
    // The import's transaction is open and waiting for the rest of the file: end its connection.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await terminateBackends()).toBeGreaterThan(0);
    release();
    const answer = await response;
    expect(answer.statusCode, answer.body).toBe(503);
    expect(answer.json()).toEqual({ messages: ['database_unavailable'] });
    expect(await countAfterOutage(() => tableCount(t.db, HANDBOOKS.holidays))).toBe(before);
  });

  it('HTTP telemetry refused during an outage is taken once the database is back', async () => {
    const [{ id }] = await t.db.query<{ id: number }>(
      'insert into mgt.vehicles (depot_number, peer_address) values (990301, 8300001) returning id',
    );
    await t.app.telemetry.devices.refresh();
    const { key } = await createSource(t.db, 'Источник при обрыве', null);
    const batch = {
      positions: [
        {
          device: '8300001',
          time: new Date(Math.floor(Date.now() / 1000 - 30) * 1000).toISOString(),
          lat: 59.9,
          lon: 30.3,
          speed: 10,
          course: 90,
        },
      ],
    };
    const post = () =>
      t.app.inject({ method: 'POST', url: '/api/v1/telemetry/positions', headers: { 'x-telemetry-key': key }, payload: batch });
    await proxy.cut();
    try {
      expect((await post()).statusCode).toBe(503);
    } finally {
      await proxy.restore();
    }
    const accepted = await post();
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json()).toEqual({ accepted: 1, duplicates: 0 });
    await t.app.telemetry.track.writer.flush();
    expect((await t.db.query<{ n: number }>('select count(*)::int as n from app.track where vehicle_id = $1', [id]))[0].n).toBe(1);
  });
});

describe.skipIf(!PG_URL)('starting while PostgreSQL is not up yet', () => {
  it('waits for the server and connects once it accepts connections', async () => {
    const proxy = PgProxy.forUrl(PG_URL!);
    await proxy.restore();
    const url = proxy.urlFor(PG_URL!);
    await proxy.cut();
    const warnings: string[] = [];
    const log = { warn: (_: object, message: string) => warnings.push(message), info: () => {} };
    const started = Date.now();
    setTimeout(() => void proxy.restore(), 1500);
    const db = await openPostgres(url, 2, { connectTimeoutS: 30, log });
    try {
      expect(Date.now() - started).toBeGreaterThanOrEqual(1400);
      expect(await db.query<{ one: number }>('select 1 as one')).toEqual([{ one: 1 }]);
      expect(warnings).toEqual(['PostgreSQL not reachable yet: waiting for it']);
    } finally {
      await db.close();
      await proxy.cut();
    }
  });

  it('gives up after the configured wait with the connection error', async () => {
    const proxy = PgProxy.forUrl(PG_URL!);
    await proxy.restore();
    const url = proxy.urlFor(PG_URL!);
    await proxy.cut();
    const started = Date.now();
    const error = await openPostgres(url, 2, { connectTimeoutS: 1 }).catch((e: unknown) => e);
    expect(isDatabaseUnavailable(error)).toBe(true);
    expect(Date.now() - started).toBeLessThan(5000);
  });
});
