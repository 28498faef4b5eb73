import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import ExcelJS from 'exceljs';
import { ENGINES } from './helpers/engines';
import { startTestApp, type TestApp } from './helpers/testApp';
import type { Db } from '../src/server/db/types';

/** Report batches read after this many fail (the export's keyset reads carry "__sort"); Infinity: none. */
const staged = vi.hoisted(() => ({ failAfter: Infinity, reads: 0 }));
vi.mock('../src/server/reports/reportQuery', async (importOriginal) => {
  const original = await importOriginal<typeof import('../src/server/reports/reportQuery')>();
  const reportQuery: typeof original.reportQuery = (app, sql, params, options) => {
    if (sql.includes('"__sort"') && ++staged.reads > staged.failAfter) {
      return new Promise((_resolve, reject) => setTimeout(() => reject(new Error('staged failure of an export batch')), 20));
    }
    return original.reportQuery(app, sql, params, options);
  };
  return { ...original, reportQuery };
});

/** The database with its long-running queries failing after the first `ok` (what a broken later batch meets). */
function failingAfter(db: Db, ok: number): () => Db {
  const longRunning = db.longRunning.bind(db);
  return () => {
    let queries = 0;
    return new Proxy(longRunning(), {
      get(target, name) {
        const value: unknown = Reflect.get(target, name);
        if (name === 'query')
          return (...args: Parameters<Db['query']>) =>
            ++queries > ok ? Promise.reject(new Error('staged failure of a handbook batch')) : target.query(...args);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
  };
}

describe.each(ENGINES)('exports on %s', (engine) => {
  let t: TestApp;
  let admin: string;
  let base: string;
  beforeAll(async () => {
    t = await startTestApp(engine, { exportBatchRows: 5 });
    admin = await t.login('admin', 'admin123');
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  afterAll(() => t.close());

  const get = (url: string) => t.app.inject({ method: 'GET', url, headers: { authorization: admin, 'x-timezone-offset': '180' } });
  const handbookExport = (type: string) =>
    t.app.inject({ method: 'POST', url: '/api/table/export', headers: { authorization: admin }, payload: { config: { type } } });
  /** What a browser gets: the status, and the whole body or the error that cut it. */
  const download = async (url: string, init: RequestInit = {}) => {
    const response = await fetch(`${base}${url}`, {
      ...init,
      headers: { authorization: admin, 'content-type': 'application/json', ...init.headers },
    });
    const body = await response.text().then(
      (text) => ({ text }),
      (error: unknown) => ({ error }),
    );
    return { status: response.status, ...body };
  };
  const alive = async () => (await get('/api/v1/auth/current/')).statusCode;

  it("writes the handbook's coordinates to its precision and numbers without binary noise", async () => {
    // 59.9 + 0.004 in float8 is 59.903999999999996
    await t.db.query(
      `insert into mgt.stops (stop_name, stop_lat, stop_lon) values ('Шумная', 59.9::float8 + 0.004::float8, 30.1::float8 + 0.2::float8)`,
    );
    const [stored] = await t.db.query<{ stop_lat: number; stop_lon: number }>(
      `select stop_lat, stop_lon from mgt.stops where stop_name = 'Шумная'`,
    );
    expect(String(stored.stop_lat)).toBe('59.903999999999996');
    const response = await handbookExport('stops');
    expect(response.statusCode).toBe(200);
    const line = response.body.split('\r\n').find((l) => l.includes('Шумная'));
    expect(line).toMatch(/;Шумная;;59\.904;30\.3;/);
  });

  it("writes a journal's numbers to their declared decimals in XLSX", async () => {
    const [vehicle] = await t.db.query<{ id: number }>('select id from mgt.vehicles order by id limit 1');
    const [type] = await t.db.query<{ incident_type: number }>('select incident_type from adas.incident_type order by id limit 1');
    await t.db.query(
      `insert into adas.incident_event (tm, vehicle_id, incident_type, lat, lon, speed) values ('2017-05-05T10:00:00Z', $1, $2, 59.9::float8 + 0.004::float8, 30.1234567::float8, 0.1::float8 + 0.2::float8)`,
      [vehicle.id, type.incident_type],
    );
    const response = await get('/api/v1/journals/adas/export?from=2017-05-05T00:00:00Z&to=2017-05-06T00:00:00Z&format=xlsx');
    expect(response.statusCode).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(response.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0];
    const headers = (sheet.getRow(1).values as unknown[]).slice(1);
    const row = (sheet.getRow(2).values as unknown[]).slice(1);
    const cell = (header: string) => row[headers.indexOf(header)];
    expect([cell('Широта'), cell('Долгота')]).toEqual([59.904, 30.12346]);
  });

  it('ends a report download visibly when a later batch fails, logs why, and serves on', async () => {
    const n = 2000;
    await t.db.query(
      `insert into adas.incident_event (tm, vehicle_id, incident_type)
      select '2016-03-01T00:00:00Z'::timestamptz + n * interval '1 second', v.id, i.incident_type
        from generate_series(1, $1::int) n, (select min(id) as id from mgt.vehicles) v, (select min(incident_type) as incident_type from adas.incident_type) i`,
      [n],
    );
    const url = '/api/v1/journals/adas/export?from=2016-03-01T00:00:00Z&to=2016-03-02T00:00:00Z';
    const errors: unknown[] = [];
    const error = t.app.log.error.bind(t.app.log);
    t.app.log.error = ((...args: unknown[]) => {
      errors.push(args[0]);
      return (error as (...a: unknown[]) => void)(...args);
    }) as typeof t.app.log.error;
    const cut: string[] = [];
    try {
      for (const format of ['csv', 'xlsx']) {
        // early: nothing of the file has left, so the answer is an error; late: the connection is cut mid-file
        for (const failAfter of [1, 300]) {
          staged.reads = 0;
          staged.failAfter = failAfter;
          const answer = await download(`${url}&format=${format}`);
          if ('text' in answer) {
            expect(answer.status, `${format} after ${failAfter}: ${answer.text.slice(0, 200)}`).toBe(500);
            expect(JSON.parse(answer.text)).toEqual({ messages: ['internal_error'] });
          } else {
            expect(answer.status, `${format} after ${failAfter}`).toBe(200);
            cut.push(`${format} after ${failAfter}`);
          }
        }
      }
    } finally {
      staged.failAfter = Infinity;
      t.app.log.error = error;
    }
    // (an XLSX may have sent its first bytes even before the early failure: cut too)
    expect(cut, 'the late failures cut the download mid-file').toEqual(expect.arrayContaining(['csv after 300', 'xlsx after 300']));
    expect(
      errors.filter((e) => String((e as { err?: Error }).err?.message).includes('staged failure of an export batch')).length,
    ).toBeGreaterThanOrEqual(4);
    expect(await alive()).toBe(200);
    // and the same export whole once the database answers again
    const whole = await download(`${url}&format=csv`);
    expect(whole).toMatchObject({ status: 200 });
    expect((whole as { text: string }).text.trimEnd().split('\r\n')).toHaveLength(n + 1);
  });

  it('answers a report export whose first read fails with a JSON error before any byte of the file', async () => {
    staged.reads = 0;
    staged.failAfter = 0;
    try {
      const response = await get('/api/v1/journals/adas/export?from=2016-03-01T00:00:00Z&to=2016-03-02T00:00:00Z&format=csv');
      expect(response.statusCode).toBe(500);
      expect(response.headers['content-type']).toContain('application/json');
    } finally {
      staged.failAfter = Infinity;
    }
    expect(await alive()).toBe(200);
  });

  it('ends a handbook download visibly when a later batch fails, and serves on', async () => {
    const longRunning = t.app.db.longRunning;
    t.app.db.longRunning = failingAfter(t.app.db, 1);
    try {
      const answer = await download('/api/table/export', { method: 'POST', body: JSON.stringify({ config: { type: 'stops' } }) });
      expect(answer.status).toBe(200);
      expect('error' in answer).toBe(true);
    } finally {
      t.app.db.longRunning = longRunning;
    }
    expect(await alive()).toBe(200);
  });
});

describe('the process safety net', () => {
  it('logs a lost rejection and serves on; logs an uncaught exception and shuts down', async () => {
    const run = promisify(execFile)(process.execPath, ['--import', 'tsx', 'tests/fixtures/process/guarded.ts'], { timeout: 30_000 });
    const failure = await run.then(
      () => undefined,
      (error: { code?: number; stdout?: string }) => error,
    );
    expect(failure?.code).toBe(1);
    const out = failure?.stdout ?? '';
    expect(out).toContain('a lost export batch');
    expect(out).toContain('still serving');
    expect(out).toContain('a broken callback');
    expect(out).toContain('stopping: uncaughtException');
  });
});
