import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { ENGINES } from './helpers/engines';
import { startTestApp, type TestApp } from './helpers/testApp';
import { createUserWith, TEST_PASSWORD } from './helpers/users';
import { READ, UPDATE } from '../src/shared/permissions';

type Row = Record<string, unknown>;

/**
 * The three ADAS reports and the field app's /api/v1/adas/* calls against a small hand-made set of incidents
 * (2018, far from the demo's history): counts per day and type, shares and rates per route, per vehicle, the
 * previous period, review and false alarms, permissions.
 */
describe.each(ENGINES)('ADAS reports and field-app calls on %s', (engine) => {
  let t: TestApp;
  let admin: string;
  const X = 9201;
  const Y = 9202;
  let v1: number;
  let v2: number;
  let v3: number;
  let d1: number;
  let d2: number;
  let r1: number;
  let r2: number;
  let falseOne: number;
  // the client is at +03:00: 1–2 March 2018 local; the previous period is 27–28 February
  const period = { from: '2018-03-01T00:00:00+03:00', to: '2018-03-02T23:59:59+03:00' };
  const query = `from=${encodeURIComponent(period.from)}&to=${encodeURIComponent(period.to)}`;

  beforeAll(async () => {
    t = await startTestApp(engine);
    admin = await t.login('admin', 'admin123');
    await t.db.query(
      `insert into adas.incident_type (incident_type, incident_name, incident_color) values ($1, 'Сближение', '#ff0000'), ($2, 'Выезд из полосы', '#0000ff')`,
      [X, Y],
    );
    [{ depot_id: d1 }, { depot_id: d2 }] = await t.db.query<{ depot_id: number }>(
      'select depot_id from mgt.depot order by depot_id limit 2',
    );
    const vehicle = async (number: number, depot: number) =>
      (
        await t.db.query<{ id: number }>(
          `insert into mgt.vehicles (depot_number, state_number, depot_id) values ($1, $2, $3) returning id`,
          [number, `А${number}`, depot],
        )
      )[0].id;
    v1 = await vehicle(992001, d1);
    v2 = await vehicle(992002, d1);
    v3 = await vehicle(992003, d2);
    const [{ id: marshType }] = await t.db.query<{ id: number }>('select id from mgt.marsh_type order by id limit 1');
    const route = async (name: string) =>
      (
        await t.db.query<{ route_id: number }>(
          `insert into mgt.routes (route_long_name, route_type, "MarshType_id", route_short_name, route_desc) values ($1, '3', $2, $1, '') returning route_id`,
          [name, marshType],
        )
      )[0].route_id;
    r1 = await route('Т-1');
    r2 = await route('Т-2');
    const incidents: [string, number, number, number | null, number][] = [
      ['2018-03-01T06:00:00Z', v1, X, r1, 3],
      ['2018-03-01T07:00:00Z', v1, X, r1, 1],
      ['2018-03-01T08:00:00Z', v2, Y, r1, 2],
      ['2018-03-01T22:30:00Z', v3, X, r2, 1], // 2 March 01:30 for the client
      ['2018-03-02T10:00:00Z', v3, Y, r2, 1], // reviewed as a false alarm below
      ['2018-03-02T11:00:00Z', v1, Y, null, 1],
      ['2018-02-27T10:00:00Z', v1, X, r1, 1], // previous period
      ['2018-02-28T10:00:00Z', v3, X, r2, 1],
      ['2018-02-28T11:00:00Z', v3, X, r2, 1],
      ['2018-03-05T10:00:00Z', v1, X, r1, 1], // after the period
    ];
    for (const [tm, v, type, route, grade] of incidents) {
      await t.db.query(
        'insert into adas.incident_event (tm, vehicle_id, incident_type, route_id, grade, lat, lon, speed) values ($1, $2, $3, $4, $5, 59.9, 30.3, 40)',
        [tm, v, type, route, grade],
      );
    }
    [{ id: falseOne }] = await t.db.query<{ id: number }>(
      `select id::float8 as id from adas.incident_event where tm = '2018-03-02T10:00:00Z' and vehicle_id = $1`,
      [v3],
    );
    const work: [string, number, number, number, number][] = [
      ['2018-03-01', v1, r1, 10, 100],
      ['2018-03-02', v1, r1, 10, 100],
      ['2018-03-01', v2, r1, 5, 50],
      ['2018-03-02', v3, r2, 8, 200],
      ['2018-03-03', v3, r2, 8, 200],
      ['2018-02-28', v3, r2, 8, 200],
    ];
    for (const [day, v, route, trips, km] of work) {
      await t.db.query('insert into adas.route_work (day, vehicle_id, route_id, trips, km) values ($1, $2, $3, $4, $5)', [
        day,
        v,
        route,
        trips,
        km,
      ]);
    }
  });
  afterAll(() => t.close());

  const headers = (authorization = admin) => ({ authorization, 'x-timezone-offset': '180' });
  const call = async (path: string, body: object = {}, authorization = admin) => {
    const response = await t.app.inject({
      method: 'POST',
      url: `/api/v1/adas/${path}`,
      payload: { ...period, ...body },
      headers: headers(authorization),
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as { list: Row[]; count?: number; total?: number };
  };
  const report = async (path: string, more = '') => {
    const response = await t.app.inject({ method: 'GET', url: `/api/v1/reports/adas/${path}?${query}${more}`, headers: headers() });
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as { list: Row[]; count: number; totals: Row; chart: Row[] };
  };
  const pick = (rows: Row[], keys: string[]) => rows.map((row) => keys.map((key) => row[key]));

  it('counts incidents per day of the client and type (report and call alike)', async () => {
    const { list } = await call('quantity-and-dynamics-incidents-report', { step: 'day', types: [X, Y] });
    expect(pick(list, ['period', 'incident_name', 'count', 'false_alarms'])).toEqual([
      ['2018-03-01T00:00', 'Сближение', 2, 0],
      ['2018-03-01T00:00', 'Выезд из полосы', 1, 0],
      ['2018-03-02T00:00', 'Сближение', 1, 0],
      ['2018-03-02T00:00', 'Выезд из полосы', 2, 0],
    ]);
    const screen = await report('incidents-dynamic', `&step=day&type=${X},${Y}&sortField=period&sortOrder=ASC`);
    expect(screen.totals.count).toBe(6);
    expect(new Set(screen.list.map((row) => JSON.stringify(row)))).toEqual(new Set(list.map((row) => JSON.stringify(row))));
  });

  it('distributes incidents per route with shares, rates per 100 km and per 1,000 trips, and the change', async () => {
    const { list } = await call('incidents-route-distribution-report', { types: [X, Y] });
    expect(
      pick(list, ['route_id', 'route_name', 'count', 'share', 'km', 'trips', 'per_100km', 'per_1000_trips', 'previous', 'change']),
    ).toEqual([
      [r1, 'Т-1', 3, 50, 250, 25, 1.2, 120, 1, 200],
      [r2, 'Т-2', 2, 33.3, 200, 8, 1, 250, 2, 0],
      [null, 'Без маршрута', 1, 16.7, null, null, null, null, 0, null],
    ]);
    const screen = await report('incidents-distribution', `&type=${X},${Y}`);
    expect(screen.list).toEqual(list);
    expect(screen.chart).toHaveLength(3);
    const pie = await call('incidents-route-distribution-pie-chart', { types: [X, Y], top: 1 });
    expect(pie.total).toBe(6);
    expect(pick(pie.list, ['route_name', 'count', 'share'])).toEqual([
      ['Т-1', 3, 50],
      ['Прочие', 3, 50],
    ]);
  });

  it('details per vehicle, vehicles per route, and single incidents', async () => {
    const { list } = await call('vehicle-list', { types: [X, Y] });
    expect(pick(list, ['vehicle_id', 'depot_number', 'count', 'high', 'km', 'per_100km'])).toEqual([
      [v1, 992001, 3, 1, 200, 1.5],
      [v3, 992003, 2, 0, 200, 1],
      [v2, 992002, 1, 0, 50, 2],
    ]);
    const screen = await report('incidents-detailing', `&type=${X},${Y}&sortField=count&sortOrder=DESC`);
    expect(screen.list).toEqual(list);
    expect(screen.chart.map((row) => row.vehicle_id)).toEqual([v1, v3, v2]); // the top vehicles only (at most 20)
    expect(pick((await call('vehicle-list', { types: [X, Y], depots: [d2] })).list, ['vehicle_id', 'count'])).toEqual([[v3, 2]]);
    const onRoutes = await call('vehicle-on-route-list', { types: [X, Y] });
    expect(pick(onRoutes.list, ['route_name', 'vehicle_id', 'count'])).toEqual([
      ['Без маршрута', v1, 1],
      ['Т-1', v1, 2],
      ['Т-1', v2, 1],
      ['Т-2', v3, 2],
    ]);
    const single = await call('vehicle-incidents-detail-table', { vehicles: [v3] });
    expect(single.count).toBe(2);
    expect(single.list.map((row) => [row.tm, row.incident_name, row.route_name])).toEqual([
      ['2018-03-02T10:00:00.000Z', 'Выезд из полосы', 'Т-2'],
      ['2018-03-01T22:30:00.000Z', 'Сближение', 'Т-2'],
    ]);
    const journal = await call('incidents-journal', { vehicles: [v3] });
    expect(journal.count).toBe(2);
  });

  it('answers the same from the daily rollups as from the incidents', async () => {
    // whole days of the operator's zone without a type filter: the detailing reads adas.vehicle_day
    const rolled = await call('vehicle-list', {});
    const raw = await call('vehicle-list', { types: [X, Y] });
    expect(rolled.list).toEqual(raw.list);
    // a whole month (March, from adas.vehicle_month) and the days before it (from adas.vehicle_day)
    const longer = { from: '2018-02-15T00:00:00+03:00', to: '2018-03-31T23:59:59+03:00' };
    expect((await call('vehicle-list', longer)).list).toEqual((await call('vehicle-list', { ...longer, types: [X, Y] })).list);
    expect((await call('vehicle-on-route-list', longer)).list).toEqual(
      (await call('vehicle-on-route-list', { ...longer, types: [X, Y] })).list,
    );
    expect(pick((await call('vehicle-list', longer)).list, ['vehicle_id', 'count', 'km'])).toEqual([
      [v1, 5, 200],
      [v3, 4, 600],
      [v2, 1, 50],
    ]);
    // a period not on the day's bounds reads the incidents themselves
    const shifted = await call('incidents-route-distribution-report', { types: [X, Y], from: '2018-03-01T00:00:01+03:00' });
    expect(pick(shifted.list, ['route_name', 'count', 'km'])).toEqual([
      ['Т-1', 3, 250],
      ['Т-2', 2, 200],
      ['Без маршрута', 1, null],
    ]);
  });

  it('keeps the rollups exact through inserts, reviews and deletes', async () => {
    const mismatches = async () =>
      (
        await t.db.query<{ n: number }>(
          `select count(*)::int as n from (
         select adas.rollup_day(tm) as day, coalesce(route_id, 0) as route_id, incident_type, count(*)::int as count,
                count(*) filter (where review = 'false_alarm')::int as false_alarms from adas.incident_event group by 1, 2, 3) raw
       full join (select * from adas.incident_day where count <> 0) d using (day, route_id, incident_type)
       where raw.count is distinct from d.count or raw.false_alarms is distinct from d.false_alarms
       union all
       select count(*)::int from (
         select adas.rollup_day(tm) as day, vehicle_id, coalesce(route_id, 0) as route_id, count(*)::int as count
           from adas.incident_event where vehicle_id is not null group by 1, 2, 3) raw
       full join (select * from adas.vehicle_day where count <> 0) d using (day, vehicle_id, route_id)
       where raw.count is distinct from d.count
       union all
       select count(*)::int from (
         select date_trunc('month', day)::date as month, vehicle_id, route_id, sum(count)::int as count, sum(km)::float8 as km from adas.vehicle_day group by 1, 2, 3) raw
       full join adas.vehicle_month m using (month, vehicle_id, route_id)
       where raw.count is distinct from m.count or raw.km is distinct from m.km`,
        )
      ).reduce((sum, row) => sum + row.n, 0);
    expect(await mismatches()).toBe(0);
    await t.db.query(`update adas.incident_event set review = 'false_alarm' where vehicle_id = $1`, [v2]);
    await t.db.query(
      `insert into adas.incident_event (tm, vehicle_id, incident_type, route_id) values ('2018-03-01T09:00:00Z', $1, $2, $3)`,
      [v2, X, r2],
    );
    await t.db.query(`delete from adas.incident_event where vehicle_id = $1 and tm = '2018-03-01T09:00:00Z'`, [v2]);
    await t.db.query(`update adas.incident_event set review = null where vehicle_id = $1`, [v2]);
    expect(await mismatches()).toBe(0);
  });

  it('refuses bad filters with catalogue codes', async () => {
    const bad = (body: object) => t.app.inject({ method: 'POST', url: '/api/v1/adas/vehicle-list', payload: body, headers: headers() });
    expect((await bad({})).json()).toEqual({ messages: ['report_period_required', 'period'] });
    expect((await bad({ from: '2017-01-01T00:00:00Z', to: '2018-03-01T00:00:00Z' })).json()).toEqual({
      messages: ['report_period_too_long', 'period'],
    });
    expect((await bad({ ...period, vehicles: ['x'] })).statusCode).toBe(400);
    expect((await bad({ ...period, extra: 1 })).statusCode).toBe(400);
  });

  it('reviews an incident: false alarms excluded on request, their share shown, both journals written', async () => {
    const put = (body: object, authorization = admin) =>
      t.app.inject({ method: 'PUT', url: `/api/v1/adas/incidents/${falseOne}/review`, payload: body, headers: headers(authorization) });
    const marked = await put({ review: 'false_alarm', comment: 'Тень на дороге' });
    expect(marked.statusCode, marked.body).toBe(200);
    expect(marked.json()).toMatchObject({ id: falseOne, review: 'false_alarm', review_comment: 'Тень на дороге', reviewed_by: 'admin' });
    expect((await put({ review: 'maybe' })).statusCode).toBe(400);
    expect(
      (await t.app.inject({ method: 'PUT', url: '/api/v1/adas/incidents/999999999/review', payload: { review: null }, headers: headers() }))
        .statusCode,
    ).toBe(404);

    const dynamics = (await call('quantity-and-dynamics-incidents-report', { types: [X, Y], falseAlarms: 'exclude' })).list;
    expect(pick(dynamics, ['period', 'incident_name', 'count', 'false_alarms', 'false_share']).at(-1)).toEqual([
      '2018-03-02T00:00',
      'Выезд из полосы',
      1,
      1,
      50,
    ]);
    const included = (await call('quantity-and-dynamics-incidents-report', { types: [X, Y] })).list;
    expect(pick(included, ['count', 'false_alarms']).at(-1)).toEqual([2, 1]);
    // the false alarms' share per type over the whole period, from the rollups and from the incidents alike
    for (const vehicles of [undefined, [v1, v2, v3]]) {
      const perType = (await call('quantity-and-dynamics-incidents-report', { types: [X, Y], step: 'period', vehicles })).list;
      expect(pick(perType, ['period', 'incident_name', 'count', 'false_alarms', 'false_share'])).toEqual([
        ['2018-03-01T00:00', 'Сближение', 3, 0, 0],
        ['2018-03-01T00:00', 'Выезд из полосы', 3, 1, 33.3],
      ]);
    }
    const routes = (await call('incidents-route-distribution-report', { types: [X, Y], falseAlarms: 'exclude' })).list;
    expect(
      pick(routes, ['route_name', 'count', 'share', 'per_100km', 'change', 'false_alarms', 'false_share']).find((row) => row[0] === 'Т-2'),
    ).toEqual(['Т-2', 1, 20, 0.5, -50, 1, 50]);
    expect((await call('vehicle-incidents-detail-table', { vehicles: [v3], falseAlarms: 'exclude' })).count).toBe(1);

    const [action] = await t.db.query<{ action: string; object: string; object_id: string; before: Row; after: Row }>(
      `select action, object, object_id, before, after from app.user_action where object = 'adas_incident' order by id desc limit 1`,
    );
    expect(action).toMatchObject({
      action: 'update',
      object_id: String(falseOne),
      before: { review: null },
      after: { review: 'false_alarm', review_comment: 'Тень на дороге' },
    });
    const journal = await t.app.inject({ method: 'GET', url: `/api/v1/journals/adas?vehicle=${v3}&${query}`, headers: headers() });
    expect(journal.json().list[0]).toMatchObject({
      id: falseOne,
      review: 'false_alarm',
      review_comment: 'Тень на дороге',
      reviewed_by: 'admin',
    });

    const cleared = await put({ review: null });
    expect(cleared.json()).toMatchObject({ review: null, review_comment: null, reviewed_by: null });
    await put({ review: 'false_alarm', comment: 'Тень на дороге' });
  });

  it('exports the distribution as XLSX with what the screen shows', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: `/api/v1/reports/adas/incidents-distribution/export?${query}&type=${X},${Y}&format=xlsx`,
      headers: headers(),
    });
    expect(response.statusCode).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(response.rawPayload as unknown as ArrayBuffer);
    const rows: unknown[][] = [];
    workbook.worksheets[0].eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
    expect(rows[0].slice(0, 4)).toEqual(['ID маршрута', 'Маршрут', 'Количество', 'Доля, %']);
    expect(rows[1].slice(1, 3)).toEqual(['Т-1', 3]);
  });

  it('refuses every ADAS route without code 34, and the review without the update right', async () => {
    await createUserWith(t.db, 'no_adas', { '/map/currentData': READ });
    await createUserWith(t.db, 'adas_reader', {
      '/adas/incidents-dynamic': READ,
      '/adas/incidents-distribution': READ,
      '/adas/incidents-detailing': READ,
    });
    await createUserWith(t.db, 'adas_reviewer', { '/adas/incidents-detailing': READ | UPDATE });
    const none = await t.login('no_adas', TEST_PASSWORD);
    const reader = await t.login('adas_reader', TEST_PASSWORD);
    const reviewer = await t.login('adas_reviewer', TEST_PASSWORD);
    const calls = [
      'vehicle-list',
      'vehicle-on-route-list',
      'quantity-and-dynamics-incidents-report',
      'vehicle-incidents-detail-table',
      'incidents-route-distribution-pie-chart',
      'incidents-route-distribution-report',
      'incidents-journal',
    ];
    const routes: [string, string, object?][] = [
      ['GET', '/api/v1/adas/incidents-types'],
      ['GET', `/api/v1/adas/incidents/${falseOne}`],
      ['PUT', `/api/v1/adas/incidents/${falseOne}/review`, { review: 'confirmed' }],
      ...calls.map((path): [string, string, object] => ['POST', `/api/v1/adas/${path}`, period]),
      ...['incidents-dynamic', 'incidents-distribution', 'incidents-detailing'].flatMap((path): [string, string][] => [
        ['GET', `/api/v1/reports/adas/${path}?${query}`],
        ['GET', `/api/v1/reports/adas/${path}/export?${query}`],
        ['GET', `/api/v1/reports/adas/${path}/options/vehicle`],
      ]),
    ];
    for (const [method, url, payload] of routes) {
      const response = await t.app.inject({ method: method as 'GET', url, payload, headers: headers(none) });
      expect(response.statusCode, `${method} ${url}`).toBe(403);
      const allowed = await t.app.inject({ method: method as 'GET', url, payload, headers: headers(reader) });
      expect(allowed.statusCode, `${method} ${url}`).toBe(method === 'PUT' ? 403 : 200);
    }
    const reviewed = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/adas/incidents/${falseOne}/review`,
      payload: { review: 'false_alarm' },
      headers: headers(reviewer),
    });
    expect(reviewed.statusCode).toBe(200);
  });
});
