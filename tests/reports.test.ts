import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { ENGINES } from './helpers/engines';
import { startTestApp, type TestApp } from './helpers/testApp';
import { createUserWith, TEST_PASSWORD } from './helpers/users';
import { READ } from '../src/shared/permissions';
import { loadConfig } from '../src/server/config';

/** The report scaffold through the API: journals and the ADAS incidents report, list and export. */
describe.each(ENGINES)('reports on %s', (engine) => {
  let t: TestApp;
  let admin: string;
  let vehicles: { id: number; depot_number: number; depot_id: number | null }[];
  let types: { incident_type: number; incident_name: string }[];
  let routeId: number;
  beforeAll(async () => {
    t = await startTestApp(engine);
    admin = await t.login('admin', 'admin123');
    vehicles = await t.db.query('select id, depot_number, depot_id from mgt.vehicles where depot_id is not null order by id limit 2');
    types = await t.db.query(
      'select distinct on (incident_type) incident_type, incident_name from adas.incident_type order by incident_type, id limit 2',
    );
    [{ route_id: routeId }] = await t.db.query<{ route_id: number }>('select route_id from mgt.routes order by route_id limit 1');
  });
  afterAll(() => t.close());

  const get = (url: string, authorization = admin, offset = '180') =>
    t.app.inject({ method: 'GET', url, headers: { authorization, 'x-timezone-offset': offset } });

  const readXlsx = async (body: Buffer) => {
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(body as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0];
    const rows: unknown[][] = [];
    sheet.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
    return rows;
  };

  describe('the ADAS incidents over time', () => {
    const url = '/api/v1/reports/adas/incidents-dynamic';
    const period = 'from=2018-03-01T00:00:00%2B03:00&to=2018-03-03T23:59:59%2B03:00';
    beforeAll(async () => {
      const [a, b] = vehicles;
      const [x, y] = types;
      // times in UTC; the client is at +03:00, so 22:30 UTC on 1 March is 2 March for it
      const rows: [string, number, number, number | null][] = [
        ['2018-03-01T08:00:00Z', a.id, x.incident_type, routeId],
        ['2018-03-01T09:00:00Z', a.id, x.incident_type, null],
        ['2018-03-01T10:00:00Z', b.id, y.incident_type, routeId],
        ['2018-03-01T22:30:00Z', b.id, x.incident_type, null],
        ['2018-03-03T12:00:00Z', a.id, y.incident_type, null],
        ['2018-04-01T12:00:00Z', a.id, y.incident_type, null],
      ];
      for (const [tm, vehicle, type, route] of rows) {
        await t.db.query('insert into adas.incident_event (tm, vehicle_id, incident_type, route_id) values ($1, $2, $3, $4)', [
          tm,
          vehicle,
          type,
          route,
        ]);
      }
    });

    it('counts incidents per day of the client and type, with totals and the chart rows', async () => {
      const response = await get(`${url}?${period}&step=day`);
      expect(response.statusCode, response.body).toBe(200);
      const { list, count, totals, chart } = response.json();
      const [x, y] = types;
      expect(list.map((r: { period: string; incident_type: number; count: number }) => [r.period, r.incident_type, r.count])).toEqual([
        ['2018-03-01T00:00', x.incident_type, 2],
        ['2018-03-01T00:00', y.incident_type, 1],
        ['2018-03-02T00:00', x.incident_type, 1],
        ['2018-03-03T00:00', y.incident_type, 1],
      ]);
      expect(list[0].incident_name).toBe(x.incident_name);
      expect(count).toBe(4);
      expect(totals).toEqual({ count: 5, false_alarms: 0 });
      expect(chart).toHaveLength(4);
    });

    it('filters by vehicle, type, route and depot; groups by month; sorts and pages', async () => {
      const [a, b] = vehicles;
      const [x] = types;
      const total = async (query: string) => (await get(`${url}?${period}&${query}`)).json().totals.count;
      expect(await total(`vehicle=${a.id}`)).toBe(3);
      expect(await total(`type=${x.incident_type}`)).toBe(3);
      expect(await total(`route=${routeId}`)).toBe(2);
      expect(await total(`depot=${b.depot_id}`)).toBe(a.depot_id === b.depot_id ? 5 : 2);
      const month = (await get(`${url}?from=2018-01-01T00:00:00Z&to=2018-12-31T00:00:00Z&step=month`)).json();
      expect(month.list.map((r: { period: string; count: number }) => r.period)).toEqual([
        '2018-03-01T00:00',
        '2018-03-01T00:00',
        '2018-04-01T00:00',
      ]);
      const sorted = (await get(`${url}?${period}&sortField=count&sortOrder=DESC&recordCount=1&skipCount=0`)).json();
      expect(sorted).toMatchObject({ count: 4, list: [{ count: 2 }] });
    });

    it('refuses bad filters with catalogue codes before anything runs', async () => {
      const cases: [string, string][] = [
        ['', 'report_period_required'],
        ['from=2018-01-01T00:00:00Z&to=2019-06-01T00:00:00Z', 'report_period_too_long'],
        [`${period}&step=year`, 'bad_request'],
        [`${period}&vehicle=1,x`, 'bad_request'],
        [`${period}&vehicle=${'1,'.repeat(6000)}1`, 'too_long'],
        ['from=2018-03-05T00:00:00Z&to=2018-03-01T00:00:00Z', 'bad_request'],
        [`${period}&nosuch=1`, 'bad_request'],
      ];
      for (const [query, code] of cases) {
        for (const path of [url, `${url}/export`]) {
          const response = await get(`${path}?${query}`);
          expect(response.statusCode, `${path}?${query}`).toBe(400);
          expect(response.headers['content-type'], query).toContain('application/json');
          expect(response.json().messages[0], query).toBe(code);
        }
      }
    });

    it('exports what the filters select as XLSX and CSV, periods in DD.MM.YYYY', async () => {
      const xlsx = await get(`${url}/export?${period}&format=xlsx`);
      expect(xlsx.statusCode).toBe(200);
      expect(xlsx.headers['content-disposition']).toMatch(/^attachment; filename="incidents-dynamic-\d{4}-\d{2}-\d{2}\.xlsx"$/);
      const rows = await readXlsx(xlsx.rawPayload);
      expect(rows[0]).toEqual(['Период', 'Код инцидента', 'Инцидент', 'Количество', 'Ложные срабатывания', 'Доля ложных, %']);
      expect(rows.slice(1).map((r) => [r[0], r[3]])).toEqual([
        ['01.03.2018', 2],
        ['01.03.2018', 1],
        ['02.03.2018', 1],
        ['03.03.2018', 1],
      ]);
      const csv = await get(`${url}/export?${period}&format=csv&step=hour`);
      const lines = csv.body.slice(1).split('\r\n').filter(Boolean);
      expect(lines[0]).toBe('Период;Код инцидента;Инцидент;Количество;Ложные срабатывания;Доля ложных, %');
      expect(lines[1]).toMatch(/^01\.03\.2018 11:00;/);
      expect(lines).toHaveLength(6);
    });

    it('is refused without its permission (code 34), and gives the filter modal its lists', async () => {
      await createUserWith(t.db, 'reports_journal_only', { '/journal/adas': READ });
      await createUserWith(t.db, 'reports_adas', { '/adas/incidents-dynamic': READ });
      const journalOnly = await t.login('reports_journal_only', TEST_PASSWORD);
      const adas = await t.login('reports_adas', TEST_PASSWORD);
      expect((await get(`${url}?${period}`, journalOnly)).statusCode).toBe(403);
      expect((await get(`${url}/export?${period}`, journalOnly)).statusCode).toBe(403);
      expect((await get(`${url}/options/type`, journalOnly)).statusCode).toBe(403);
      expect((await get(`${url}?${period}`, adas)).statusCode).toBe(200);
      const options = (await get(`${url}/options/type`, adas)).json();
      expect(options).toContainEqual({ id: types[0].incident_type, name: `${types[0].incident_type} ${types[0].incident_name}` });
      expect((await get(`${url}/options/vehicle`, adas)).json().length).toBeGreaterThan(0);
    });
  });

  describe('journals through the scaffold', () => {
    const period = 'from=2019-06-01T00:00:00Z&to=2019-06-30T00:00:00Z';
    const rowsCount = loadConfig({}).exportBatchRows * 2 + 7;
    beforeAll(async () => {
      // several export batches, with equal times across a batch boundary, to prove the keyset walks them all once
      await t.db.query(
        `insert into adas.incident_event (tm, vehicle_id, incident_type, speed, grade)
         select '2019-06-10T00:00:00Z'::timestamptz + make_interval(secs => n / 3), case n % 3 when 1 then $1::int when 2 then $4::int end, $2, n % 100, 1 + n % 3
           from generate_series(1, $3::int) n`,
        // three vehicles (one unknown) share each second: the same vehicle, type and time would be one incident
        [vehicles[0].id, types[0].incident_type, rowsCount, vehicles[1].id],
      );
    });

    it('lists a page and the count', async () => {
      const page = (await get(`/api/v1/journals/adas?${period}&recordCount=5&sortField=tm&sortOrder=ASC`)).json();
      expect(page.count).toBe(rowsCount);
      expect(page.list).toHaveLength(5);
      expect(page.list[0]).toMatchObject({
        vehicle_id: vehicles[0].id,
        depot_number: vehicles[0].depot_number,
        incident_type: types[0].incident_type,
        incident_name: types[0].incident_name,
      });
    });

    it('exports every selected row as XLSX, newest first, once each', async () => {
      const response = await get(`/api/v1/journals/adas/export?${period}&format=xlsx`);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toContain('spreadsheetml');
      const rows = await readXlsx(response.rawPayload);
      expect(rows[0].slice(0, 3)).toEqual(['№', 'Дата и время', 'ID ТС']);
      const ids = rows.slice(1).map((r) => r[0] as number);
      expect(ids).toHaveLength(rowsCount);
      expect(new Set(ids).size).toBe(rowsCount);
      const times = rows.slice(1).map((r) => r[1] as string);
      // the last row (n / 3 seconds after 00:00 UTC, integer division) at the client's +03:00
      const last = new Date(Date.UTC(2019, 5, 10, 3, 0, Math.floor(rowsCount / 3)));
      expect(times[0]).toBe(`10.06.2019 ${last.toISOString().slice(11, 19)}`);
      expect(times[times.length - 1]).toBe('10.06.2019 03:00:00');
    });

    it('exports the same sort as CSV in keyset batches, ascending and by a column with nulls', async () => {
      const asc = await get(`/api/v1/journals/adas/export?${period}&sortField=speed&sortOrder=ASC`);
      const lines = asc.body.slice(1).split('\r\n').filter(Boolean).slice(1);
      expect(lines).toHaveLength(rowsCount);
      expect(new Set(lines.map((l) => l.split(';')[0])).size).toBe(rowsCount);
      const speeds = lines.map((l) => Number(l.split(';')[9].replace(',', '.')));
      expect(speeds).toEqual([...speeds].sort((p, q) => p - q));
      const byRoute = await get(`/api/v1/journals/adas/export?${period}&sortField=depot_number&sortOrder=DESC`);
      expect(byRoute.body.split('\r\n').filter(Boolean)).toHaveLength(rowsCount + 1);
    });

    it('answers 403 for a journal without its permission, 404 while its section is off', async () => {
      await createUserWith(t.db, 'reports_video', { '/journal/video': READ });
      const video = await t.login('reports_video', TEST_PASSWORD);
      expect((await get('/api/v1/journals/adas/export', video)).statusCode).toBe(403);
      expect((await get('/api/v1/journals/video/export?format=xlsx', video)).statusCode).toBe(200);
      await t.app.inject({
        method: 'PUT',
        url: '/api/v1/settings/journals',
        payload: { sections: { 'journals.videoEvents': false } },
        headers: { authorization: admin },
      });
      expect((await get('/api/v1/journals/video/export', video)).statusCode).toBe(404);
      await t.app.inject({
        method: 'PUT',
        url: '/api/v1/settings/journals',
        payload: { sections: { 'journals.videoEvents': true } },
        headers: { authorization: admin },
      });
    });
  });
});
