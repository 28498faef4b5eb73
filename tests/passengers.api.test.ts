import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSource } from '../src/server/telemetry/http/sourceKeys';
import { chainJourneys } from '../src/server/passengers/tripWriter';
import { EXCHANGE_SPANS, spanBlocks } from '../src/server/passengers/daySpans';
import { READ, UPDATE } from '../src/shared/permissions';
import { ENGINES } from './helpers/engines';
import { startTestApp, type TestApp } from './helpers/testApp';
import { createUserWith, TEST_PASSWORD } from './helpers/users';

type Row = Record<string, unknown>;

/**
 * Passenger flow against a hand-made day where every number is known. Route П-1 runs S1 → S4 (race 1, 08:00),
 * back S4 → S1 (race 2, 09:00) and a third race that is never run; route П-2 runs S4 → S5 (08:35). Stops are
 * 0.009° of latitude apart (1.00075 km on PostGIS's sphere). Counters report per door, one as a time window;
 * the counts of race 1 end one alighting short, so its last departure load is -1 (kept, as TIDES says).
 *   race 1: S1 +8 (two doors) → 8; S2 +2 −1 → 9; S3 −4 → 5; S4 −6 → −1       passenger-km 22 × 1.00075
 *   race 2: S4 +4 (window 09:00–09:01) → 4; S3 −4 → 0                        passenger-km  4 × 1.00075
 *   П-2:    S4 +3 → 3; S5 −3 → 0                                             passenger-km  3 × |S4 S5|
 * Validations: card A boards S1 (П-1) then S4 (П-2, 35 min later: a transfer); card B boards S2, then S4 on
 * race 2; card C boards S1 once. Chaining gives S1→S4 (A), S2→S4 and S4→S2 (B); C's ride has no inferable end.
 */
describe.each(ENGINES)('passenger flow on %s', (engine) => {
  let t: TestApp;
  let admin: string;
  let key: string;
  let r1: number;
  let r2: number;
  const stops: number[] = [];
  const KM = 1.00075;
  // two days ago in the operator's time (+03:00): inside the ingestion's one-year window, a whole past day
  const DAY = new Date(Date.now() + 3 * 3600_000 - 2 * 86_400_000).toISOString().slice(0, 10);
  const at = (clock: string) => new Date(`${DAY}T${clock}+03:00`).toISOString();
  const period = `from=${encodeURIComponent(`${DAY}T00:00:00+03:00`)}&to=${encodeURIComponent(`${DAY}T23:59:59+03:00`)}`;

  beforeAll(async () => {
    t = await startTestApp(engine);
    admin = await t.login('admin', 'admin123');
    ({ key } = await createSource(t.db, 'Счётчики и валидаторы', null));
    for (let i = 0; i < 4; i++) {
      stops.push(
        (
          await t.db.query<{ id: number }>(
            `insert into mgt.stops (stop_name, stop_lat, stop_lon) values ($1, $2, 30.3) returning stop_id as id`,
            [`S${i + 1}`, 59.9 + 0.009 * i],
          )
        )[0].id,
      );
    }
    stops.push(
      (
        await t.db.query<{ id: number }>(
          `insert into mgt.stops (stop_name, stop_lat, stop_lon) values ('S5', 59.927, 30.318) returning stop_id as id`,
        )
      )[0].id,
    );
    const [{ id: marshType }] = await t.db.query<{ id: number }>('select id from mgt.marsh_type order by id limit 1');
    const [{ id: bk }] = await t.db.query<{ id: number }>(`select id from mgt.capacity_type where code = 'БК' order by id limit 1`);
    const [{ driver_id: driver }] = await t.db.query<{ driver_id: number }>(
      `insert into mgt.driver (last_name, first_name, table_number) values ('Сидоров', 'Олег', 881101) returning driver_id`,
    );
    const vehicle = async (number: number) =>
      (
        await t.db.query<{ id: number }>('insert into mgt.vehicles (depot_number, capacity_type_id) values ($1, $2) returning id', [
          number,
          bk,
        ])
      )[0].id;
    const v1 = await vehicle(993001);
    const v2 = await vehicle(993002);
    // the validators handbook names the vehicle by its depot number
    await t.db.query('insert into mgt.validator (validator_id, vehicle_id) values (993101, 993001)');
    const route = async (name: string, trips: [string, number[]][]) => {
      const [{ route_id }] = await t.db.query<{ route_id: number }>(
        `insert into mgt.routes (route_long_name, route_type, "MarshType_id", route_short_name, route_desc) values ($1, '3', $2, $1, '') returning route_id`,
        [name, marshType],
      );
      const [{ id: mv }] = await t.db.query<{ id: number }>('insert into mgt.marsh_variants (route_id) values ($1) returning id', [
        route_id,
      ]);
      for (const [type, ids] of trips) {
        const [{ id: trip }] = await t.db.query<{ id: number }>(
          `insert into mgt.trip ("MarshVariant_id", race_type, trajectory) values ($1, $2, st_geomfromtext('LINESTRING(30.3 59.9, 30.3 59.927)', 4326)) returning id`,
          [mv, type],
        );
        for (const [i, stop] of ids.entries())
          await t.db.query('insert into mgt.trip_stops (trip_id, stop_id, stop_sequence) values ($1, $2, $3)', [trip, stop, i + 1]);
      }
      const [{ id: variant }] = await t.db.query<{ id: number }>(
        `insert into mgt.rasp_variant (route_id, srv_id, startdate) values ($1, 1, '2020-01-01') returning id`,
        [route_id],
      );
      return { route_id, variant };
    };
    const [s1, s2, s3, s4, s5] = stops;
    const one = await route('П-1', [
      ['A', [s1, s2, s3, s4]],
      ['B', [s4, s3, s2, s1]],
    ]);
    const two = await route('П-2', [['A', [s4, s5]]]);
    r1 = one.route_id;
    r2 = two.route_id;
    const times = async (variant: number, racetype: string, racenum: number, list: [number, number][]) => {
      for (const [i, [stop, time]] of list.entries()) {
        await t.db.query(
          `insert into mgt.rasp_time ("RaspVariant_id", graph, smena, racetype, racenum, "order", stop_id, time) values ($1, 1, '1', $2, $3, $4, $5, $6)`,
          [variant, racetype, racenum, i + 1, stop, time],
        );
      }
    };
    await times(one.variant, 'A', 1, [
      [s1, 480],
      [s2, 490],
      [s3, 500],
      [s4, 510],
    ]);
    await times(one.variant, 'B', 2, [
      [s4, 540],
      [s3, 550],
      [s2, 560],
      [s1, 570],
    ]);
    await times(one.variant, 'A', 3, [
      [s1, 600],
      [s2, 610],
      [s3, 620],
      [s4, 630],
    ]);
    await times(two.variant, 'A', 1, [
      [s4, 515],
      [s5, 525],
    ]);
    await t.db.query(
      `insert into mgt.vehicle_task (date, "RaspVariant_id", graph, smena, vehicle_id, driver_id) values ($1, $2, 1, '1', $3, $5), ($1, $4, 1, '1', $6, $5)`,
      [DAY, one.variant, v1, two.variant, driver, v2],
    );

    const counts = [
      { depot_number: 993001, door: 1, tm: at('08:00:20'), stop_id: s1, boardings: 5, alightings: 0 },
      { depot_number: 993001, door: 2, tm: at('08:00:25'), stop_id: s1, boardings: 3, alightings: 0 },
      { depot_number: 993001, door: 1, tm: at('08:10:20'), boardings: 2, alightings: 1 },
      { depot_number: 993001, door: 1, tm: at('08:20:20'), boardings: 0, alightings: 4 },
      { depot_number: 993001, door: 1, tm: at('08:30:10'), boardings: 0, alightings: 6 },
      { depot_number: 993001, door: 1, from: at('09:00:00'), to: at('09:01:00'), boardings: 4, alightings: 0 },
      { depot_number: 993001, door: 1, tm: at('09:10:15'), boardings: 0, alightings: 4 },
      { depot_number: 993002, door: 1, tm: at('08:35:15'), boardings: 3, alightings: 0 },
      { depot_number: 993002, door: 1, tm: at('08:45:15'), boardings: 0, alightings: 3 },
    ];
    const sent = await t.app.inject({
      method: 'POST',
      url: '/api/v1/telemetry/passenger-counts',
      payload: { items: counts },
      headers: { 'x-telemetry-key': key },
    });
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json()).toEqual({ accepted: 9, duplicates: 0, unmatched: 0 });
    const validations = [
      { validator: 993101, tm: at('08:00:30'), ticket_type: '101', card_token: 'CARD-A' },
      { depot_number: 993002, tm: at('08:35:20'), ticket_type: '101', card_token: 'CARD-A' },
      { validator: 993101, tm: at('08:10:10'), ticket_type: '201', card_token: 'CARD-B' },
      { validator: 993101, tm: at('09:00:30'), ticket_type: '201', card_token: 'CARD-B' },
      { validator: 993101, tm: at('08:00:40'), ticket_type: '401', card_token: 'CARD-C' },
    ];
    const paid = await t.app.inject({
      method: 'POST',
      url: '/api/v1/telemetry/validations',
      payload: { items: validations },
      headers: { 'x-telemetry-key': key },
    });
    expect(paid.statusCode, paid.body).toBe(200);
    expect(paid.json()).toMatchObject({ accepted: 5, duplicates: 0 });
    // the three cards fall in different parts of the chaining (pass.card_part): the day is the sum of its parts
    expect(await chainJourneys(t.db, DAY, 600, 60)).toBe(5);
  });
  afterAll(() => t.close());

  const headers = (authorization = admin) => ({ authorization, 'x-timezone-offset': '180' });
  const report = async (path: string, more = '', authorization = admin) => {
    const response = await t.app.inject({ method: 'GET', url: `/api/v1/reports${path}?${period}${more}`, headers: headers(authorization) });
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as { list: Row[]; count: number; totals?: Row; chart?: Row[] };
  };
  const byName = (rows: Row[], field: string) => Object.fromEntries(rows.map((row) => [String(row[field]), row]));

  it('refuses counts without a key, and a bad batch as a whole by index and field', async () => {
    const none = await t.app.inject({ method: 'POST', url: '/api/v1/telemetry/passenger-counts', payload: { items: [] } });
    expect(none.statusCode).toBe(401);
    const bad = await t.app.inject({
      method: 'POST',
      url: '/api/v1/telemetry/passenger-counts',
      headers: { 'x-telemetry-key': key },
      payload: {
        items: [
          { depot_number: 993001, door: 1, tm: at('08:50:00'), boardings: 1, alightings: 0 },
          { depot_number: 993001, door: 0, tm: 'yesterday', boardings: -1, alightings: 0 },
        ],
      },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors.map((e: { index: number; field: string }) => `${e.index}.${e.field}`)).toEqual([
      '1.door',
      '1.tm',
      '1.boardings',
    ]);
    expect((await t.db.query<{ n: number }>('select count(*)::int as n from pass.counter_report'))[0].n).toBe(9);
  });

  it('stores a resent count once', async () => {
    const again = await t.app.inject({
      method: 'POST',
      url: '/api/v1/telemetry/passenger-counts',
      headers: { 'x-telemetry-key': key },
      payload: { items: [{ depot_number: 993001, door: 1, tm: at('08:00:20'), stop_id: stops[0], boardings: 5, alightings: 0 }] },
    });
    expect(again.json()).toEqual({ accepted: 0, duplicates: 1, unmatched: 0 });
  });

  it('keeps boardings, alightings and raw departure loads per stop visit (a negative load kept)', async () => {
    const rows = await t.db.query<{
      route_id: number;
      direction: number;
      stop_sequence: number;
      boardings: number;
      alightings: number;
      departure_load: number;
    }>(
      'select route_id, direction, stop_sequence, boardings, alightings, departure_load from pass.stop_visit order by route_id, direction, stop_sequence',
    );
    expect(rows.map((r) => [r.route_id === r1 ? 1 : 2, r.direction, r.stop_sequence, r.boardings, r.alightings, r.departure_load])).toEqual(
      [
        [1, 0, 1, 8, 0, 8],
        [1, 0, 2, 2, 1, 9],
        [1, 0, 3, 0, 4, 5],
        [1, 0, 4, 0, 6, -1],
        [1, 1, 1, 4, 0, 4],
        [1, 1, 2, 0, 4, 0],
        [2, 0, 1, 3, 0, 3],
        [2, 0, 2, 0, 3, 0],
      ],
    );
  });

  it('reports passengers per route and direction, with passenger-km', async () => {
    const { list, totals } = await report('/passengers/passage');
    const key = (row: Row) => `${row.route_id === r1 ? 'П-1' : 'П-2'}/${row.direction}`;
    const rows = Object.fromEntries(list.map((row) => [key(row), row]));
    expect(rows['П-1/0']).toMatchObject({ boardings: 10, alightings: 11 });
    expect(rows['П-1/1']).toMatchObject({ boardings: 4, alightings: 4 });
    expect(rows['П-2/0']).toMatchObject({ boardings: 3, alightings: 3 });
    expect(Number(rows['П-1/0'].pkm)).toBeCloseTo(22 * KM, 1);
    expect(Number(rows['П-1/1'].pkm)).toBeCloseTo(4 * KM, 1);
    expect(totals).toMatchObject({ boardings: 17, alightings: 18 });
  });

  it('reports boardings and alightings per stop, and the stop exchange by hour', async () => {
    const { list } = await report('/passengers/stops');
    const s = byName(list, 'stop_name');
    expect(s.S1).toMatchObject({ boardings: 8, alightings: 0, exchange: 8 });
    expect(s.S4).toMatchObject({ boardings: 7, alightings: 6, routes: 2 });
    const exchange = await report('/passengers/turnstops/table', `&route=${r1}`);
    expect(exchange.totals).toMatchObject({ boardings: 14, alightings: 15 });
    // paged in SQL: the count and totals are of every row, the chart is by hour and sums the same
    const page = await report('/passengers/turnstops/table', `&route=${r1}&recordCount=1`);
    expect(page.list).toHaveLength(1);
    expect(page.count).toBe(exchange.count);
    expect(page.totals).toEqual(exchange.totals);
    const hours = (page.chart ?? []) as { hour: number; exchange: number }[];
    expect(hours.reduce((sum, row) => sum + row.exchange, 0)).toBe(29);
    expect(new Set(hours.map((row) => row.hour)).size).toBe(hours.length);
  });

  it('reports passenger-km by route', async () => {
    const { list } = await report('/passengers/passturn/table');
    const one = list.find((row) => row.key === String(r1))!;
    expect(Number(one.pkm)).toBeCloseTo(26 * KM, 1);
    expect(one.passengers).toBe(14);
  });

  it('reports validations per ticket type and per passenger counted', async () => {
    const types = byName((await report('/passengers/pay', '&group=ticketType')).list, 'key');
    const code = async (c: string) =>
      String(
        (
          await t.db.query<{ id: number }>(
            'select ticket_type_id as id from cat.ticket_type where ticket_type_code = $1 order by ticket_type_id limit 1',
            [c],
          )
        )[0].id,
      );
    expect(types[await code('101')].validations).toBe(2);
    expect(types[await code('201')].validations).toBe(2);
    expect(types[await code('401')].validations).toBe(1);
    const routes = byName((await report('/passengers/pay', '&group=route')).list, 'key');
    expect(routes[String(r1)]).toMatchObject({ validations: 4, passengers: 14 });
    expect(Number(routes[String(r1)].per_passenger)).toBeCloseTo(4 / 14, 2);
  });

  it('reports trips performed against planned', async () => {
    const rows = byName((await report('/reports/traffic')).list, 'route_id');
    expect(rows[String(r1)]).toMatchObject({ planned: 3, performed: 2 });
    expect(Number(rows[String(r1)].regularity)).toBeCloseTo(66.7, 1);
    expect(rows[String(r2)]).toMatchObject({ planned: 1, performed: 1, regularity: 100 });
    expect([rows[String(r1)].run_minutes, rows[String(r2)].run_minutes]).toEqual([19.5, 10]);
    // rolling stock: the vehicle starting each race, per hour of its actual start (pass.route_start)
    const stock = (await report('/passengers/rolling-stock', `&route=${r1}`)).list.filter((row) => Number(row.trips) > 0);
    expect(stock.map((row) => `${row.hour}:${row.vehicles}/${row.trips}`)).toEqual(['8:1/1', '9:1/1']);
  });

  it('hides the correspondence while its section is off, then shows the origin-destination pairs of trip chaining', async () => {
    const off = await t.app.inject({ method: 'GET', url: `/api/v1/reports/passengers/correspondence?${period}`, headers: headers() });
    expect(off.statusCode).toBe(404);
    const registryOff = await t.app.inject({ method: 'GET', url: `/api/v1/reports/passengers/registry?${period}`, headers: headers() });
    expect(registryOff.statusCode).toBe(404);
    const on = await t.app.inject({
      method: 'PUT',
      url: '/api/v1/settings/passengers',
      headers: headers(),
      payload: { sections: { 'passengers.correspondence': true, 'passengers.registry': true } },
    });
    expect(on.statusCode, on.body).toBe(200);
    t.app.settings.invalidate();
    const pairs = (await report('/passengers/correspondence')).list.map((row) => `${row.origin}→${row.destination}:${row.journeys}`).sort();
    expect(pairs).toEqual(['S1→S4:1', 'S2→S4:1', 'S4→S2:1']);
    // the matrix comes as its cells (busiest origins by busiest destinations, empty ones 0), not every pair
    const matrix = (await report('/passengers/correspondence')).chart ?? [];
    expect(matrix.map((row) => `${row.origin}→${row.destination}:${row.journeys}`).sort()).toEqual([
      'S1→S2:0',
      'S1→S4:1',
      'S2→S2:0',
      'S2→S4:1',
      'S4→S2:1',
      'S4→S4:0',
    ]);
    // chained again (the live flow does, every few minutes), the day's journeys and pairs are the same
    expect(await chainJourneys(t.db, DAY, 600, 60)).toBe(5);
    expect(
      (await report('/passengers/correspondence')).list.map((row) => `${row.origin}→${row.destination}:${row.journeys}`).sort(),
    ).toEqual(pairs);
    // forty days read as aligned spans of daily pairs (pass.od_span, kept by the chaining) and single days
    const forty = `&from=${encodeURIComponent(new Date(Date.parse(`${DAY}T00:00:00+03:00`) - 39 * 86_400_000).toISOString())}`;
    const spanned = await t.app.inject({
      method: 'GET',
      url: `/api/v1/reports/passengers/correspondence?${period.replace(/^from=[^&]*/, forty.slice(1))}`,
      headers: headers(),
    });
    expect(spanned.statusCode, spanned.body).toBe(200);
    expect((spanned.json() as { list: Row[] }).list.map((row) => `${row.origin}→${row.destination}:${row.journeys}`).sort()).toEqual(pairs);
    const transfers = (await report('/passengers/correspondence', '&view=transfers')).list;
    expect(transfers).toEqual([expect.objectContaining({ origin: 'П-1 П-1', destination: 'П-2 П-2', journeys: 1 })]);
    const registry = await report('/passengers/registry', `&route=${r1}`);
    expect(registry.count).toBe(6);
    expect(registry.list[0]).toMatchObject({ route_name: 'П-1 П-1', stop_name: 'S3', boardings: 0, alightings: 4, departure_load: 0 });
    expect((await report('/passengers/registry', `&route=${r1}&flag=imbalance`)).count).toBe(0);
  });

  it('counts the registry exactly up to 10,000 stop visits, then answers "more than 10,000"', async () => {
    const exact = await report('/passengers/registry');
    expect(exact.count).toBe(8);
    expect(exact).not.toHaveProperty('countExact');
    const [{ id: trip }] = await t.db.query<{ id: string }>(
      `insert into pass.trip_performed (service_date, vehicle_id, route_id, schedule_start) select $1::date, min(id), $2::int, $3::timestamptz from mgt.vehicles returning id`,
      [DAY, r2, at('23:00')],
    );
    const many = `insert into pass.stop_visit (trip_performed_id, service_date, vehicle_id, route_id, stop_id, stop_sequence, arrival, departure)
      select t.id, t.service_date, t.vehicle_id, t.route_id, $2::int, g, t.schedule_start, t.schedule_start from pass.trip_performed t, generate_series(1, 10000) g where t.id = $1::bigint`;
    await t.db.query(many, [trip, stops[0]]);
    try {
      const capped = await report('/passengers/registry', '&recordCount=5');
      expect(capped).toMatchObject({ count: 10_000, countExact: false });
      expect(capped.list).toHaveLength(5);
    } finally {
      await t.db.query('delete from pass.trip_performed where id = $1::bigint', [trip]);
    }
    expect((await report('/passengers/registry')).count).toBe(8);
  });

  it('draws the load profile against capacity, and follows the peak hours saved in the settings at once', async () => {
    const profile = (await report('/passengers/betweenstops/table', `&route=${r1}&direction=0`)).list;
    expect(profile.map((row) => row.load_avg)).toEqual([8, 9, 5, -1]);
    expect(profile[0]).toMatchObject({ capacity: 110, seats: 32, trips: 1, stop_name: 'S1', next_stop_name: 'S2' });
    const peak = async (from: number, to: number) => {
      const saved = await t.app.inject({
        method: 'PUT',
        url: '/api/v1/settings/passengers',
        headers: headers(),
        payload: { passengers: { morningPeakFrom: from, morningPeakTo: to } },
      });
      expect(saved.statusCode, saved.body).toBe(200);
      return (await report('/passengers/betweenstops/table', `&route=${r1}&direction=0&peak=morning`)).list.length;
    };
    expect(await peak(8, 9)).toBe(4);
    expect(await peak(9, 10)).toBe(0);
  });

  it('sums the analysis overview against the previous period', async () => {
    const response = await t.app.inject({ method: 'GET', url: `/api/v1/passengers/analysis/summary?${period}`, headers: headers() });
    expect(response.statusCode, response.body).toBe(200);
    const summary = response.json();
    expect(summary.current).toMatchObject({ passengers: 17, validations: 5, trips: 3 });
    expect(summary.previous).toMatchObject({ passengers: 0 });
    expect(summary.byHour[8]).toMatchObject({ hour: 8, passengers: 13 });
    // the busiest stops by exchange (boardings and alightings), ties by name
    expect(summary.topStops.map((s: { name: string; passengers: number }) => `${s.name}:${s.passengers}`)).toEqual([
      'S4:13',
      'S1:8',
      'S3:8',
      'S2:3',
      'S5:3',
    ]);
    const days = await report('/passengers/analysis');
    expect(days.list).toEqual([expect.objectContaining({ day: DAY, passengers: 17, validations: 5, trips: 3 })]);
  });

  it('reads the stop exchange of a month from spans of days, equal to the stop visits summed, through writes, an import and a rebuild', async () => {
    const shift = (date: string, n: number) => new Date(Date.parse(date) + n * 86_400_000).toISOString().slice(0, 10);
    // 31 days from an odd day since 2000-01-01: no span starts there, so the period is spans and single days
    const odd = (date: string) => (Date.parse(date) / 86_400_000 - Date.UTC(2000, 0, 1) / 86_400_000) % 2 === 1;
    const from = odd(shift(DAY, -40)) ? shift(DAY, -40) : shift(DAY, -39);
    const to = shift(from, 30);
    const blocks = spanBlocks(from, to, EXCHANGE_SPANS);
    expect(blocks.spans.length).toBeGreaterThan(0);
    expect(blocks.days.length).toBeGreaterThan(0);
    // three races a day for 45 days before DAY, four stops each, departures crossing the hours
    const write = (first: number, last: number) =>
      t.db.query(
        `with t as (
         insert into pass.trip_performed (service_date, vehicle_id, route_id, direction, schedule_start, actual_start, actual_end, counted)
         select $1::date - g, (select min(id) from mgt.vehicles where depot_number = 993001), case when k = 2 then $4::int else $3::int end, (k % 2)::smallint,
                ($1::date - g + make_interval(hours => 5 + 6 * k + g % 5, mins => g))::timestamp at time zone 'UTC' - interval '3 hours',
                ($1::date - g + make_interval(hours => 5 + 6 * k + g % 5, mins => g))::timestamp at time zone 'UTC' - interval '3 hours',
                ($1::date - g + make_interval(hours => 7 + 6 * k + g % 5, mins => g))::timestamp at time zone 'UTC' - interval '3 hours', true
           from generate_series($5::int, $6::int) g, generate_series(0, 2) k
         returning id, service_date, vehicle_id, route_id, direction, actual_start, ($1::date - service_date) as g)
       insert into pass.stop_visit (trip_performed_id, service_date, vehicle_id, route_id, direction, stop_id, stop_sequence, arrival, departure, boardings, alightings)
       select t.id, t.service_date, t.vehicle_id, t.route_id, t.direction, ($2::int[])[s + t.direction], s,
              t.actual_start + make_interval(mins => 25 * s), t.actual_start + make_interval(mins => 25 * s + 1), (t.g * 7 + s * 3 + t.id) % 9, (t.g * 5 + s * 11) % 8
         from t, generate_series(1, 4) s`,
        [DAY, stops, r1, r2, first, last],
      );
    const generated = `service_date < $1::date and vehicle_id = (select min(id) from mgt.vehicles where depot_number = 993001)`;
    await write(1, 45);
    const period = `from=${encodeURIComponent(`${from}T00:00:00+03:00`)}&to=${encodeURIComponent(`${to}T23:59:59+03:00`)}`;
    const cell = (row: Row) => `${row.stop_name}|${row.route_name}|${row.hour}|${row.boardings}|${row.alightings}|${row.exchange}`;
    const exchange = async () => {
      const response = await t.app.inject({
        method: 'GET',
        url: `/api/v1/reports/passengers/turnstops/table?${period}&recordCount=1000`,
        headers: headers(),
      });
      expect(response.statusCode, response.body).toBe(200);
      return response.json() as { list: Row[]; count: number; totals: Row; chart: Row[] };
    };
    // the period summed directly, per stop, route and operator hour: from its daily stop hours, and from its stop
    // visits (where a deleted visit's cell is gone, not zero as in the rollups)
    const direct = async (rows: 'hours' | 'visits') => {
      const cells = await t.db.query<Row>(
        rows === 'hours'
          ? `select ss.stop_name, concat_ws(' ', rr.route_short_name, rr.route_long_name) as route_name, h.hour::int as hour,
                  sum(h.boardings)::float8 as boardings, sum(h.alightings)::float8 as alightings, sum(h.boardings + h.alightings)::float8 as exchange
             from pass.stop_hour h join mgt.stops ss on ss.stop_id = h.stop_id join mgt.routes rr on rr.route_id = h.route_id
            where h.day between $1::date and $2::date group by h.stop_id, h.route_id, 1, 2, 3`
          : `select ss.stop_name, concat_ws(' ', rr.route_short_name, rr.route_long_name) as route_name, extract(hour from pass.local_time(v.departure))::int as hour,
                  sum(v.boardings)::float8 as boardings, sum(v.alightings)::float8 as alightings, sum(v.boardings + v.alightings)::float8 as exchange
             from pass.stop_visit v join mgt.stops ss on ss.stop_id = v.stop_id join mgt.routes rr on rr.route_id = v.route_id
            where v.service_date between $1::date and $2::date group by v.stop_id, v.route_id, 1, 2, 3`,
        [from, to],
      );
      const hours = new Map<number, Row>();
      for (const c of cells) {
        const h = hours.get(Number(c.hour)) ?? { hour: c.hour, boardings: 0, alightings: 0, exchange: 0 };
        for (const k of ['boardings', 'alightings', 'exchange']) h[k] = Number(h[k]) + Number(c[k]);
        hours.set(Number(c.hour), h);
      }
      const sum = (k: string) => cells.reduce((n, c) => n + Number(c[k]), 0);
      return {
        cells,
        chart: [...hours.values()].sort((a, b) => Number(a.hour) - Number(b.hour)),
        totals: { boardings: sum('boardings'), alightings: sum('alightings'), exchange: sum('exchange') },
      };
    };
    // and the spans themselves against the daily stop hours they sum
    const spansOff = async () =>
      (
        await t.db.query<{ n: number }>(
          `with want as (select s.span, pass.span_start(x.day, s.span) as first_day, x.hour, x.stop_id, x.route_id, sum(x.boardings) as b, sum(x.alightings) as a, count(*)::int as n
                       from pass.stop_hour x, unnest($1::int[]) s(span) group by 1, 2, 3, 4, 5),
            have as (select span, first_day, hour, stop_id, route_id, boardings as b, alightings as a, day_rows as n from pass.stop_hour_span)
       select count(*)::int as n from ((select * from want except select * from have) union all (select * from have except select * from want)) x`,
          [EXCHANGE_SPANS],
        )
      )[0].n;
    const nonZero = (rows: Row[]) =>
      rows
        .filter((row) => Number(row.exchange) !== 0)
        .map(cell)
        .sort();
    const expectEqual = async () => {
      const [report, hours, visits] = await Promise.all([exchange(), direct('hours'), direct('visits')]);
      expect(report.count).toBe(hours.cells.length);
      expect(report.list.map(cell).sort()).toEqual(hours.cells.map(cell).sort());
      expect(report.totals).toMatchObject(hours.totals);
      expect(report.chart).toEqual(hours.chart);
      expect(nonZero(report.list)).toEqual(nonZero(visits.cells));
      expect(report.totals).toMatchObject(visits.totals);
      expect(await spansOff()).toBe(0);
      return report;
    };
    const first = await expectEqual();
    expect(first.count).toBeGreaterThan(50);

    // validations imported into a day of the period: the exchange counts the stop visits, it stays as it was
    const csv = [
      'time;validator;depot_number;route;ticket_type;card_token',
      ...[1, 2, 3].map((i) => `${shift(from, 3)}T0${i}:10:00+03:00;993101;993001;;101;SPAN-${i}`),
      '',
    ].join('\n');
    const imported = await t.app.inject({
      method: 'POST',
      url: '/api/v1/passengers/validations/import?file=span.csv',
      payload: csv,
      headers: { ...headers(), 'content-type': 'text/csv' },
    });
    expect(imported.json(), imported.body).toMatchObject({ added: 3 });
    expect((await expectEqual()).list).toEqual(first.list);

    // counts corrected, a day's races deleted, the day chained again and its races written again
    await t.db.query(`update pass.stop_visit set boardings = boardings + 2 where service_date = $1::date`, [shift(from, 5)]);
    await expectEqual();
    await t.db.query(`delete from pass.trip_performed where ${generated} and service_date = $2::date`, [DAY, shift(from, 8)]);
    await chainJourneys(t.db, shift(from, 8), 600, 60);
    await expectEqual();
    const back = Math.round((Date.parse(DAY) - Date.parse(shift(from, 8))) / 86_400_000);
    await write(back, back);
    await expectEqual();

    // the stop hours of a day deleted outright (spans follow), then every rollup rebuilt (a new zone does)
    await t.db.query('delete from pass.stop_hour where day = $1::date', [shift(from, 12)]);
    expect(await spansOff()).toBe(0);
    await t.db.query('select pass.rebuild_rollups()');
    await expectEqual();
    await t.db.query(`delete from pass.trip_performed where ${generated}`, [DAY]);
    await expectEqual();
  });

  it('refuses every passenger route without its bit', async () => {
    await createUserWith(t.db, 'pass-nobody', { '/map/currentData': READ });
    await createUserWith(t.db, 'pass-settings', { '/system/passengers': READ | UPDATE });
    const nobody = await t.login('pass-nobody', TEST_PASSWORD);
    for (const path of [
      '/passengers/analysis',
      '/passengers/stops',
      '/reports/traffic',
      '/passengers/daily-data',
      '/import-data/tickets-validation',
    ]) {
      const response = await t.app.inject({ method: 'GET', url: `/api/v1/reports${path}?${period}`, headers: headers(nobody) });
      expect(response.statusCode, path).toBe(403);
    }
    const summary = await t.app.inject({ method: 'GET', url: `/api/v1/passengers/analysis/summary?${period}`, headers: headers(nobody) });
    expect(summary.statusCode).toBe(403);
    const upload = await t.app.inject({
      method: 'POST',
      url: '/api/v1/passengers/validations/import',
      headers: { ...headers(nobody), 'content-type': 'text/csv' },
      payload: 'time;validator;ticket_type;card_token\n',
    });
    expect(upload.statusCode).toBe(403);
  });
});
