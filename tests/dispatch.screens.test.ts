import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/server/config';
import { operatorDate, operatorMidnight } from '../src/server/platform/operatorDay';
import { createSource } from '../src/server/telemetry/http/sourceKeys';
import { PERMISSION_CODES } from '../src/shared/permissionCodes';
import type {
  AdherenceList,
  BoardException,
  BoardList,
  DispatchOptions,
  ExitsList,
  RouteLine,
  StopArrivals,
  VehicleCard,
} from '../src/shared/dispatch/api';
import { eastOf, insertLineRoute, LINE_STOPS, lineDrive, watchedSince } from './dispatch.tracks';
import { ENGINES } from './helpers/engines';
import { startTestApp, type TestApp } from './helpers/testApp';
import { createUserWith, TEST_PASSWORD } from './helpers/users';

const TZ = 180;
const LAT = 55.81;
const LON = 37.52;
/** The line's stops, scheduled two minutes apart. */
const STOPS = LINE_STOPS;
const point = eastOf(LAT, LON);
const grants = (...ids: number[]) => {
  const out: Record<string, number> = {};
  for (const id of ids)
    for (const [key, bits] of Object.entries(PERMISSION_CODES.find((c) => c.id === id)!.grants)) out[key] = (out[key] ?? 0) | bits;
  return out;
};

/** A bus along the line's stops (lineDrive), on this test's line. */
const drive = (device: string, scheduledFirst: number, offset: number, until: number) =>
  lineDrive(point, device, scheduledFirst, offset, until);

describe.each(ENGINES)("dispatcher screens' API on %s", (engine) => {
  let t: TestApp;
  let routeId: number;
  let depotId: number;
  let variant: number;
  let stopIds: number[];
  let onTime: number;
  let late: number;
  let serviceDate: string;
  let viewer: string;
  let acknowledger: string;
  let stranger: string;
  const get = (url: string, token: string) => t.app.inject({ method: 'GET', url, headers: { authorization: token } });

  beforeAll(async () => {
    t = await startTestApp(engine, { switches: loadConfig({ DEMO_DATA: 'false', MODULES: 'dispatch' }).switches });
    await watchedSince(t.db, Date.now() - 30 * 86_400_000);
    const now = Date.now();
    serviceDate = operatorDate(now - 100 * 60_000, TZ);
    const midnight = operatorMidnight(serviceDate, TZ);
    const minuteOf = (ms: number) => Math.floor((ms - midnight) / 60_000);
    const db = t.db;
    const [{ agency_id: agency }] = await db.query<{ agency_id: number }>(
      `insert into mgt.agency (title, transporter_id) values ('Проверочное АТП', 1) returning agency_id`,
    );
    [{ depot_id: depotId }] = await db.query<{ depot_id: number }>(
      `insert into mgt.depot (depot_name, agency_id) values ('Парк 1', $1) returning depot_id`,
      [agency],
    );
    ({ routeId, stopIds, variant } = await insertLineRoute(db, point, serviceDate, '77', depotId));
    // exit 1: on time, finished 6 min ago; exit 2: 16 min late, between stops 5 and 6; exit 3: due and never run; exit 4: later today
    const firstMinutes = {
      1: minuteOf(now - 20 * 60_000),
      2: minuteOf(now - 26 * 60_000),
      3: minuteOf(now - 90 * 60_000),
      4: minuteOf(now + 60 * 60_000),
    };
    for (const [graph, first] of Object.entries(firstMinutes)) {
      for (const [i, stopId] of stopIds.entries()) {
        await db.query(
          `insert into mgt.rasp_time ("RaspVariant_id", graph, smena, racetype, racenum, "order", stop_id, time) values ($1, $2, '1', 'A', 1, $3, $4, $5)`,
          [variant, Number(graph), i + 1, stopId, first + 2 * i],
        );
      }
    }
    const [{ driver_id: driver }] = await db.query<{ driver_id: number }>(
      `insert into mgt.driver (last_name, first_name, table_number) values ('Петров', 'Пётр', 7) returning driver_id`,
    );
    [{ id: onTime }] = await db.query<{ id: number }>(
      'insert into mgt.vehicles (depot_number, peer_address, depot_id) values (770101, 8700001, $1) returning id',
      [depotId],
    );
    [{ id: late }] = await db.query<{ id: number }>(
      'insert into mgt.vehicles (depot_number, peer_address, depot_id) values (770102, 8700002, $1) returning id',
      [depotId],
    );
    for (const [graph, vehicle] of [
      [1, onTime],
      [2, late],
    ]) {
      await db.query(
        `insert into mgt.vehicle_task (date, "RaspVariant_id", graph, smena, vehicle_id, driver_id) values ($1, $2, $3, '1', $4, $5)`,
        [serviceDate, variant, graph, vehicle, driver],
      );
    }
    await t.app.telemetry.devices.refresh();
    await t.app.dispatch.reload();
    const { key } = await createSource(t.db, 'Бортовые терминалы', null);
    const scheduled = (graph: 1 | 2) => midnight + firstMinutes[graph] * 60_000;
    const positions = [
      ...drive('8700001', scheduled(1), 0, scheduled(1) + 14 * 60_000 + 30_000),
      ...drive('8700002', scheduled(2), 16 * 60_000, now - 30_000),
    ].sort((a, b) => a.time.localeCompare(b.time));
    const posted = await t.app.inject({
      method: 'POST',
      url: '/api/v1/telemetry/positions',
      headers: { 'x-telemetry-key': key },
      payload: { positions },
    });
    expect(posted.statusCode).toBe(200);
    await t.app.dispatch.settle();

    await createUserWith(t.db, 'dispatcher', grants(44));
    await createUserWith(t.db, 'senior', grants(44, 45));
    await createUserWith(t.db, 'mapper', grants(9));
    viewer = await t.login('dispatcher', TEST_PASSWORD);
    acknowledger = await t.login('senior', TEST_PASSWORD);
    stranger = await t.login('mapper', TEST_PASSWORD);
  });
  afterAll(() => t?.close());

  it('lists the exceptions of the moment with counters by kind, filtered by depot, route and kind', async () => {
    const response = await get('/api/v1/dispatch/exceptions', viewer);
    expect(response.statusCode).toBe(200);
    const body = response.json<BoardList>();
    const row = body.list.find((e) => e.vehicleId === late && e.kind === 'late')!;
    expect(row).toMatchObject({
      routeId,
      routeName: '77',
      graph: 2,
      smena: '1',
      raceNum: 1,
      depotNumber: 770102,
      depotId,
      driver: 'Петров Пётр',
      acknowledged: null,
    });
    expect(row.deviation).toBeGreaterThan(15 * 60 - 60);
    expect(row.deviation).toBeLessThan(17 * 60 + 60);
    expect(body.list.some((e) => e.vehicleId === onTime && (e.kind === 'late' || e.kind === 'early'))).toBe(false);
    expect(body.counters.find((c) => c.kind === 'late')).toEqual({ kind: 'late', count: 1, open: 1 });
    expect(body.counters.map((c) => c.kind)).toEqual([
      'late',
      'early',
      'bunching',
      'gap',
      'off_route',
      'no_signal',
      'exit_not_started',
      'run_not_performed',
      'driver_message',
    ]);

    const ofKind = (await get('/api/v1/dispatch/exceptions?kind=early,gap', viewer)).json<BoardList>();
    expect(ofKind.list).toEqual([]);
    expect(ofKind.counters.find((c) => c.kind === 'late')!.count).toBe(1);
    expect((await get(`/api/v1/dispatch/exceptions?depot=${depotId}`, viewer)).json<BoardList>().list.map((e) => e.key)).toContain(row.key);
    expect((await get(`/api/v1/dispatch/exceptions?depot=${depotId + 1}&route=${routeId}`, viewer)).json<BoardList>().count).toBe(0);
    expect(
      (await get(`/api/v1/dispatch/exceptions?route=${routeId + 1}`, viewer)).json<BoardList>().counters.every((c) => c.count === 0),
    ).toBe(true);
  });

  it('acknowledges an exception with a comment for code 45 only, marks it on the board and journals it', async () => {
    const board = () => get('/api/v1/dispatch/exceptions', viewer).then((r) => r.json<BoardList>());
    const row = (await board()).list.find((e) => e.vehicleId === late && e.kind === 'late')!;
    const ack = (token: string, payload: unknown) =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/dispatch/exceptions/acknowledge',
        headers: { authorization: token },
        payload: payload as object,
      });
    const stored = async () => (await t.db.query<{ n: number }>('select count(*)::int as n from dispatch.exception_ack')).at(0)!.n;
    const journaled = async () =>
      (await t.db.query<{ n: number }>(`select count(*)::int as n from app.user_action where object = 'dispatch.exception'`)).at(0)!.n;

    expect((await ack(viewer, { key: row.key, since: row.since, comment: 'Пробка' })).statusCode).toBe(403);
    expect((await ack(stranger, { key: row.key, since: row.since, comment: 'Пробка' })).statusCode).toBe(403);
    const refusals: [unknown, number, string][] = [
      [{ key: row.key, since: row.since, comment: 'x'.repeat(501) }, 400, 'too_long'],
      [{ since: row.since, comment: 'Пробка' }, 400, 'bad_request'],
      [{ key: row.key, since: row.since, comment: 5 }, 400, 'bad_request'],
      [{ key: row.key, since: 'вчера', comment: 'Пробка' }, 400, 'dispatch_exception_since'],
      [{ key: row.key, since: new Date(Date.parse(row.since) - 1000).toISOString(), comment: 'Пробка' }, 404, 'dispatch_exception_gone'],
      [{ key: 'late|v999999', since: row.since, comment: 'Пробка' }, 404, 'dispatch_exception_gone'],
    ];
    for (const [payload, status, code] of refusals) {
      const refused = await ack(acknowledger, payload);
      expect(refused.statusCode, JSON.stringify(payload)).toBe(status);
      expect(refused.json().messages[0]).toBe(code);
    }
    expect(await stored()).toBe(0);
    expect(await journaled()).toBe(0);
    expect((await board()).list.find((e) => e.key === row.key)!.acknowledged).toBeNull();

    const done = await ack(acknowledger, { key: row.key, since: row.since, comment: 'Пробка на Ленинском' });
    expect(done.statusCode).toBe(200);
    expect(done.json<BoardException>().acknowledged).toMatchObject({ username: 'senior', comment: 'Пробка на Ленинском' });
    const after = await board();
    expect(after.list.find((e) => e.key === row.key)!.acknowledged).toMatchObject({ username: 'senior', comment: 'Пробка на Ленинском' });
    expect(after.counters.find((c) => c.kind === 'late')).toEqual({ kind: 'late', count: 1, open: 0 });
    const [saved] = await t.db.query<{ kind: string; vehicle_id: number; comment: string; since: Date }>(
      'select kind, vehicle_id, comment, since from dispatch.exception_ack',
    );
    expect(saved).toMatchObject({ kind: 'late', vehicle_id: late, comment: 'Пробка на Ленинском' });
    expect(new Date(saved.since).toISOString()).toBe(row.since);
    const [entry] = await t.db.query<{ action: string; object_id: string; username: string; after: { comment: string } }>(
      `select action, object_id, username, after from app.user_action where object = 'dispatch.exception'`,
    );
    expect(entry).toMatchObject({
      action: 'acknowledge dispatch exception',
      object_id: row.key,
      username: 'senior',
      after: { comment: 'Пробка на Ленинском' },
    });

    const again = await ack(acknowledger, { key: row.key, since: row.since, comment: 'ещё раз' });
    expect(again.statusCode).toBe(409);
    expect(again.json().messages).toEqual(['dispatch_exception_acknowledged']);
    expect(await stored()).toBe(1);
    expect(await journaled()).toBe(1);
  });

  it("gives a vehicle's card, the adherence of every vehicle and a stop's predicted arrivals", async () => {
    const card = (await get(`/api/v1/dispatch/vehicles/${late}/card`, viewer)).json<VehicleCard>();
    expect(card).toMatchObject({
      vehicleId: late,
      depotNumber: 770102,
      routeName: '77',
      graph: 2,
      raceNum: 1,
      status: 'in_service',
      adherence: 'late',
      driver: 'Петров Пётр',
    });
    expect(card.deviation).toBeGreaterThan(15 * 60);
    expect(card.nextStops.at(-1)).toMatchObject({ stopId: stopIds[STOPS - 1], name: `Остановка ${STOPS}` });
    expect(Date.parse(card.nextStops.at(-1)!.predicted)).toBeGreaterThan(Date.parse(card.nextStops.at(-1)!.scheduled) + 10 * 60_000);

    const adherence = (await get('/api/v1/dispatch/adherence', viewer)).json<AdherenceList>();
    expect(adherence.lateSeconds).toBe(180);
    expect(adherence.list.find((v) => v.vehicleId === late)).toMatchObject({ routeId, adherence: 'late' });
    // the on-time bus finished its only run: no run, no colour of adherence
    expect(adherence.list.find((v) => v.vehicleId === onTime)).toMatchObject({ adherence: 'none', routeId: null });

    const arrivals = (await get(`/api/v1/dispatch/stops/${stopIds[STOPS - 1]}/arrivals`, viewer)).json<StopArrivals>();
    expect(arrivals).toMatchObject({ stopId: stopIds[STOPS - 1], name: `Остановка ${STOPS}` });
    expect(arrivals.routes).toHaveLength(1);
    expect(arrivals.routes[0]).toMatchObject({ routeId, routeName: '77', direction: 0 });
    expect(arrivals.routes[0].arrivals.map((a) => a.vehicleId)).toEqual([late]);
    const predicted = Date.parse(arrivals.routes[0].arrivals[0].predicted);
    expect(predicted).toBeGreaterThanOrEqual(Date.now() - 5_000);
    expect(predicted).toBeLessThan(Date.now() + 3_600_000);
    expect((await get(`/api/v1/dispatch/stops/${stopIds[0]}/arrivals`, viewer)).json<StopArrivals>().routes).toEqual([]);
    const unknown = await get('/api/v1/dispatch/stops/999999/arrivals', viewer);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().messages).toEqual(['dispatch_stop_not_found']);
  });

  it("draws a route's line: its stops with distances and the vehicles on it with progress and adherence", async () => {
    const line = (await get(`/api/v1/dispatch/routes/${routeId}/line`, viewer)).json<RouteLine>();
    expect(line.routeName).toBe('77');
    expect(line.directions).toHaveLength(1);
    const [direction] = line.directions;
    expect(direction.stops.map((s) => s.name)).toEqual(stopIds.map((_, i) => `Остановка ${i + 1}`));
    direction.stops.forEach((s, i) => expect(Math.abs(s.distance - i * 500)).toBeLessThan(5));
    expect(line.vehicles.map((v) => v.vehicleId)).toEqual([late]);
    const [v] = line.vehicles;
    expect(v).toMatchObject({ direction: 0, status: 'in_service', graph: 2, adherence: 'late' });
    // it left its first stop about ten minutes ago: past stop 5, short of stop 7
    expect(v.distance).toBeGreaterThan(2000);
    expect(v.distance).toBeLessThan(3000);
    expect(v.progress).toBeCloseTo(v.distance / direction.length, 2);
    const missing = await get('/api/v1/dispatch/routes/999999/line', viewer);
    expect(missing.statusCode).toBe(404);
    expect(missing.json().messages).toEqual(['dispatch_route_not_found']);
  });

  it("gives a day's plan and fact of exits, the figures those of the stored passages", async () => {
    const response = await get(`/api/v1/dispatch/exits?date=${serviceDate}&route=${routeId}`, viewer);
    expect(response.statusCode).toBe(200);
    const body = response.json<ExitsList>();
    expect(body.list.map((r) => [r.graph, r.status])).toEqual([
      [1, 'performed'],
      [2, 'in_progress'],
      [3, 'not_performed'],
      [4, 'planned'],
    ]);
    expect(body.totals).toEqual({ planned: 4, performed: 1, partial: 0, notPerformed: 1, notWatched: 0, cancelled: 0 });
    const byDepot = (await get(`/api/v1/dispatch/exits?date=${serviceDate}&depot=${depotId}`, viewer)).json<ExitsList>();
    expect(byDepot.list).toEqual(body.list);

    const sql = await t.db.query<{ graph: number; passed: number; start: Date | null; end: Date | null; vehicle_id: number }>(
      `select graph, count(*)::int as passed, min(vehicle_id) as vehicle_id,
              min(actual_departure) filter (where stop_sequence = 1) as start, min(actual_arrival) filter (where stop_sequence = $3) as end
         from dispatch.stop_passage where service_date = $1::date and rasp_variant_id = $2 group by graph order by graph`,
      [serviceDate, variant, STOPS],
    );
    expect(sql.map((r) => r.graph)).toEqual([1, 2]);
    const ms = (value: Date | string | null) => (value === null ? null : new Date(value).getTime());
    for (const r of sql) {
      const run = body.list.find((x) => x.graph === r.graph)!;
      expect(run.passed).toBe(r.passed);
      expect(run.vehicleId).toBe(r.vehicle_id);
      expect(ms(run.actualStart)).toBe(ms(r.start));
      expect(ms(run.actualEnd)).toBe(ms(r.end));
      expect(run.startDeviation).toBe(Math.round((ms(r.start)! - Date.parse(run.plannedStart)) / 1000));
      if (r.end) expect(run.endDeviation).toBe(Math.round((ms(r.end)! - Date.parse(run.plannedEnd)) / 1000));
    }
    const [first, second] = body.list;
    expect(first).toMatchObject({ passed: STOPS, stops: STOPS, plannedVehicle: onTime, depotNumber: 770101, driver: 'Петров Пётр' });
    expect(Math.abs(first.startDeviation!)).toBeLessThan(30);
    expect(second.startDeviation).toBeGreaterThan(15 * 60);
    expect(second.actualEnd).toBeNull();
    expect(body.list[2]).toMatchObject({ passed: 0, actualStart: null, vehicleId: null, driver: null });
  });

  it('offers the routes of the timetable and the depots to the filters', async () => {
    const options = (await get('/api/v1/dispatch/options', viewer)).json<DispatchOptions>();
    expect(options.routes).toContainEqual({ id: routeId, name: '77', depotId });
    const names = options.routes.map((r) => r.name);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, 'ru', { numeric: true })));
    expect(options.depots).toContainEqual({ id: depotId, name: 'Парк 1' });
  });

  it('refuses bad input with a message code and gives the data to code 44 only', async () => {
    const refusals: [string, string][] = [
      [`/api/v1/dispatch/exits?date=2025-02-30&route=${routeId}`, 'dispatch_bad_date'],
      [`/api/v1/dispatch/exits?date=${serviceDate}`, 'dispatch_route_or_depot'],
      [`/api/v1/dispatch/exits?date=${serviceDate}&route=${routeId}&depot=${depotId}`, 'dispatch_route_or_depot'],
      [`/api/v1/dispatch/exits?date=${serviceDate}&route=0x10`, 'bad_request'],
      ['/api/v1/dispatch/exits?route=1', 'bad_request'],
      ['/api/v1/dispatch/exceptions?kind=late,nosuch', 'bad_request'],
      ['/api/v1/dispatch/exceptions?depot=1,,2', 'bad_request'],
      ['/api/v1/dispatch/exceptions?page=2', 'bad_request'],
      ['/api/v1/dispatch/routes/1e3/line', 'bad_request'],
      ['/api/v1/dispatch/stops/-1/arrivals', 'bad_request'],
      ['/api/v1/dispatch/vehicles/abc/card', 'bad_request'],
    ];
    for (const [url, code] of refusals) {
      const response = await get(url, viewer);
      expect(response.statusCode, url).toBe(400);
      expect(response.json().messages[0], url).toBe(code);
    }
    for (const url of [
      '/api/v1/dispatch/exceptions',
      '/api/v1/dispatch/adherence',
      '/api/v1/dispatch/options',
      `/api/v1/dispatch/vehicles/${late}/card`,
      `/api/v1/dispatch/stops/${stopIds[0]}/arrivals`,
      `/api/v1/dispatch/routes/${routeId}/line`,
      `/api/v1/dispatch/exits?date=${serviceDate}&route=${routeId}`,
    ]) {
      expect((await get(url, stranger)).statusCode, url).toBe(403);
      expect((await t.app.inject({ method: 'GET', url })).statusCode, url).toBe(401);
    }
  });
});
