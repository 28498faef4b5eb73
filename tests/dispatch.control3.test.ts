import GtfsRealtimeBindings from 'gtfs-realtime-bindings';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/server/config';
import { operatorDate, operatorMidnight } from '../src/server/platform/operatorDay';
import { createSource } from '../src/server/telemetry/http/sourceKeys';
import type { BoardList, RouteLine, StopArrivals, ExitsList } from '../src/shared/dispatch/api';
import type { ChangesList, RouteStops, ServiceChange } from '../src/shared/dispatch/control';
import { PERMISSION_CODES } from '../src/shared/permissionCodes';
import { eastOf, insertLineRoute, lineDrive, type PostedFix } from './dispatch.tracks';
import { ENGINES } from './helpers/engines';
import { startTestApp, type TestApp } from './helpers/testApp';
import { createUserWith, TEST_PASSWORD } from './helpers/users';

const { transit_realtime: rt } = GtfsRealtimeBindings;
const TZ = 180;
const LAT = 55.86;
const LON = 37.55;
const point = eastOf(LAT, LON);
const M_LAT = 1 / 110_574;
const grants = (...ids: number[]) => {
  const out: Record<string, number> = {};
  for (const id of ids)
    for (const [key, bits] of Object.entries(PERMISSION_CODES.find((c) => c.id === id)!.grants)) out[key] = (out[key] ?? 0) | bits;
  return out;
};
/** Metres east of the line's origin of a posted fix. */
const metresOf = (f: PostedFix) => (f.lon - LON) * 111_320 * Math.cos((LAT * Math.PI) / 180);

/**
 * Closed stops and detours on two lines of eight stops 500 m apart: route «77» with a bus on its run now (set out
 * six minutes ago), route «78» whose bus set out twelve minutes ago and drives a detour 300 m north of the line
 * between its second and fifth stops. Each change's effect on the engine, TripUpdates, the arrivals and the line
 * diagram, its journal row, revoking, the rights and the refusals.
 */
describe.each(ENGINES)('closed stops and detours on %s', (engine) => {
  let t: TestApp;
  let routeId: number;
  let stopIds: number[];
  let detourRoute: number;
  let detourStops: number[];
  let serviceDate: string;
  let working: number;
  let detouring: number;
  let changer: string;
  let viewer: string;
  let key: string;
  let detourDrive: PostedFix[];
  const get = (url: string, token: string) => t.app.inject({ method: 'GET', url, headers: { authorization: token } });
  const post = (url: string, token: string, payload: unknown) =>
    t.app.inject({ method: 'POST', url, headers: { authorization: token }, payload: payload as object });
  const count = async (sql: string) => (await t.db.query<{ n: number }>(sql)).at(0)!.n;
  const stored = () => count('select count(*)::int as n from dispatch.service_change');
  const journaled = () => count(`select count(*)::int as n from app.user_action where object = 'dispatch.service_change'`);
  const send = async (positions: PostedFix[]) => {
    const posted = await t.app.inject({
      method: 'POST',
      url: '/api/v1/telemetry/positions',
      headers: { 'x-telemetry-key': key },
      payload: { positions },
    });
    expect(posted.statusCode).toBe(200);
    await t.app.dispatch.settle();
  };
  const feed = async () => rt.FeedMessage.decode((await t.app.inject({ method: 'GET', url: '/api/v1/gtfs-rt/trip-updates' })).rawPayload);
  const period = (fromMin: number, toMin: number) => ({
    activeFrom: new Date(Date.now() + fromMin * 60_000).toISOString(),
    activeTo: new Date(Date.now() + toMin * 60_000).toISOString(),
  });
  const path = () => [point(500), { ...point(500), lat: LAT + 300 * M_LAT }, { ...point(2000), lat: LAT + 300 * M_LAT }, point(2000)];
  const pairs = () => path().map((p) => [p.lat, p.lon]);

  beforeAll(async () => {
    t = await startTestApp(engine, { switches: loadConfig({ DEMO_DATA: 'false', MODULES: 'dispatch' }).switches });
    const now = Date.now();
    serviceDate = operatorDate(now, TZ);
    const midnight = operatorMidnight(serviceDate, TZ);
    const minuteOf = (ms: number) => Math.floor((ms - midnight) / 60_000);
    let variant: number;
    ({ routeId, stopIds, variant } = await insertLineRoute(t.db, point, serviceDate, '77'));
    let detourVariant: number;
    ({ routeId: detourRoute, stopIds: detourStops, variant: detourVariant } = await insertLineRoute(t.db, point, serviceDate, '78'));
    const first = minuteOf(now - 6 * 60_000);
    const detourFirst = minuteOf(now - 12 * 60_000);
    for (const [v, ids, start] of [
      [variant, stopIds, first],
      [detourVariant, detourStops, detourFirst],
    ] as const)
      for (const [i, stopId] of ids.entries())
        await t.db.query(
          `insert into mgt.rasp_time ("RaspVariant_id", graph, smena, racetype, racenum, "order", stop_id, time) values ($1, 1, '1', 'A', 1, $2, $3, $4)`,
          [v, i + 1, stopId, start + 2 * i],
        );
    const vehicle = async (n: number) =>
      (
        await t.db.query<{ id: number }>('insert into mgt.vehicles (depot_number, peer_address) values ($1, $2) returning id', [
          770100 + n,
          8770000 + n,
        ])
      )[0].id;
    [working, detouring] = [await vehicle(1), await vehicle(2)];
    const [{ driver_id: driver }] = await t.db.query<{ driver_id: number }>(
      `insert into mgt.driver (last_name, first_name, table_number) values ('Орлов', 'Пётр', 27) returning driver_id`,
    );
    for (const [v, id] of [
      [variant, working],
      [detourVariant, detouring],
    ])
      await t.db.query(
        `insert into mgt.vehicle_task (date, "RaspVariant_id", graph, smena, vehicle_id, driver_id) values ($1, $2, 1, '1', $3, $4)`,
        [serviceDate, v, id, driver],
      );
    await t.app.telemetry.devices.refresh();
    await t.app.map.directory.refresh();
    await t.app.dispatch.reload();
    ({ key } = await createSource(t.db, 'Бортовые терминалы', null));
    await send(lineDrive(point, '8770001', midnight + first * 60_000, 0, now - 20_000));
    // the detour's bus: 300 m north of the line between the second stop (500 m) and the fifth (2000 m)
    detourDrive = lineDrive(point, '8770002', midnight + detourFirst * 60_000, 0, now - 20_000).map((f) => {
      const m = metresOf(f);
      return m > 560 && m < 1940 ? { ...f, lat: Number((LAT + 300 * M_LAT).toFixed(6)) } : f;
    });
    await createUserWith(t.db, 'viewer44c', grants(44));
    await createUserWith(t.db, 'changer46c', grants(44, 46));
    viewer = await t.login('viewer44c', TEST_PASSWORD);
    changer = await t.login('changer46c', TEST_PASSWORD);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('closes a stop: SKIPPED in TripUpdates, no arrivals there, closed on the line diagram and listed; revoking reopens it', async () => {
    const closedStop = stopIds[5];
    expect(t.app.dispatch.engine.state(working)!.run?.routeId).toBe(routeId);
    const arrivals = async () =>
      (await get(`/api/v1/dispatch/stops/${closedStop}/arrivals`, viewer)).json<StopArrivals>().routes.flatMap((r) => r.arrivals);
    expect((await arrivals()).length).toBeGreaterThan(0);
    const [before, journalBefore] = [await stored(), await journaled()];
    const response = await post('/api/v1/dispatch/changes/closed-stops', changer, {
      stopId: closedStop,
      routeId,
      ...period(-60, 120),
      reason: 'Ремонт павильона',
    });
    expect(response.statusCode, response.body).toBe(200);
    const change = response.json<ServiceChange>();
    expect(change).toMatchObject({
      kind: 'close_stop',
      stopId: closedStop,
      stopName: 'Остановка 6',
      routeId,
      runKey: null,
      revokedAt: null,
    });
    expect([await stored(), await journaled()]).toEqual([before + 1, journalBefore + 1]);
    const [row] = await t.db.query<{ action: string }>(
      `select action from app.user_action where object = 'dispatch.service_change' and object_id = $1`,
      [String(change.id)],
    );
    expect(row.action).toBe('close stop');

    const run = t.app.dispatch.engine.state(working)!.run!;
    const updates = (await feed()).entity.find((e) => e.id === String(working))!.tripUpdate!.stopTimeUpdate!;
    const skipped = updates.filter((u) => u.scheduleRelationship === rt.TripUpdate.StopTimeUpdate.ScheduleRelationship.SKIPPED);
    expect(skipped.map((u) => u.stopSequence)).toEqual([run.sequences[5]]);
    expect(skipped[0].arrival ?? null).toBeNull();
    expect(await arrivals()).toEqual([]);
    const line = (await get(`/api/v1/dispatch/routes/${routeId}/line`, viewer)).json<RouteLine>();
    expect(line.directions[0].stops.filter((s) => s.closed).map((s) => s.stopId)).toEqual([closedStop]);
    const list = (await get('/api/v1/dispatch/changes', viewer)).json<ChangesList>();
    expect(list.list.find((c) => c.id === change.id)).toMatchObject({ kind: 'close_stop', reason: 'Ремонт павильона' });
    // the same stop again over the period: refused
    const again = await post('/api/v1/dispatch/changes/closed-stops', changer, { stopId: closedStop, ...period(0, 30), reason: 'Ещё' });
    expect([again.statusCode, again.json().messages[0]]).toEqual([409, 'dispatch_change_exists']);

    const revoked = await post(`/api/v1/dispatch/changes/${change.id}/revoke`, changer, { reason: 'Открыли' });
    expect(revoked.statusCode, revoked.body).toBe(200);
    const after = (await feed()).entity.find((e) => e.id === String(working))!.tripUpdate!.stopTimeUpdate!;
    expect(after.some((u) => u.scheduleRelationship === rt.TripUpdate.StopTimeUpdate.ScheduleRelationship.SKIPPED)).toBe(false);
    expect((await arrivals()).length).toBeGreaterThan(0);
    const again2 = await post(`/api/v1/dispatch/changes/${change.id}/revoke`, changer, {});
    expect([again2.statusCode, again2.json().messages[0]]).toEqual([409, 'dispatch_change_revoked']);
  });

  it('detours a route: a bus on the detour path is not off route, the skipped stops have no passages; revoking restores the line', async () => {
    const stops = (await get(`/api/v1/dispatch/changes/route-stops?route=${detourRoute}`, viewer)).json<RouteStops>();
    expect(stops.directions.map((d) => d.stops.map((s) => s.stopId))).toEqual([detourStops]);
    const response = await post('/api/v1/dispatch/changes/detours', changer, {
      routeId: detourRoute,
      direction: 0,
      fromStopId: detourStops[1],
      toStopId: detourStops[4],
      path: pairs(),
      ...period(-60, 60),
      reason: 'Перекрыта улица',
    });
    expect(response.statusCode, response.body).toBe(200);
    const change = response.json<ServiceChange>();
    expect(change).toMatchObject({ kind: 'detour', routeId: detourRoute, direction: 0, stopId: detourStops[1], toStopId: detourStops[4] });
    expect(change.path).toEqual(pairs());
    await send(detourDrive);
    const state = t.app.dispatch.engine.state(detouring)!;
    expect(state.run?.routeId).toBe(detourRoute);
    expect(state.offRouteSince).toBeNull();
    const board = (await get(`/api/v1/dispatch/exceptions?route=${detourRoute}`, viewer)).json<BoardList>();
    expect(board.list.filter((e) => e.kind === 'off_route')).toEqual([]);
    const passed = await t.db.query<{ stop_id: number }>(
      'select stop_id from dispatch.stop_passage where vehicle_id = $1 order by stop_sequence',
      [detouring],
    );
    const ids = passed.map((p) => p.stop_id);
    expect(ids).toContain(detourStops[1]);
    expect(ids).not.toContain(detourStops[2]);
    expect(ids).not.toContain(detourStops[3]);
    const line = (await get(`/api/v1/dispatch/routes/${detourRoute}/line`, viewer)).json<RouteLine>();
    expect(line.directions[0].stops.filter((s) => s.closed).map((s) => s.stopId)).toEqual([detourStops[2], detourStops[3]]);
    // the plan and fact counts only the stops the run is to call at
    const stopsToPass = async () =>
      (await get(`/api/v1/dispatch/exits?date=${state.run!.serviceDate}&route=${detourRoute}`, viewer))
        .json<ExitsList>()
        .list.find((r) => r.graph === state.run!.graph && r.raceNum === state.run!.raceNum)!.stops;
    expect(await stopsToPass()).toBe(detourStops.length - 2);
    // the other route's bus, before a detour of its own: the stops it skips are SKIPPED in its trip update
    const ahead = await post('/api/v1/dispatch/changes/detours', changer, {
      routeId,
      fromStopId: stopIds[4],
      toStopId: stopIds[7],
      path: [point(2000), { ...point(2000), lat: LAT - 300 * M_LAT }, { ...point(3500), lat: LAT - 300 * M_LAT }, point(3500)].map((p) => [
        p.lat,
        p.lon,
      ]),
      ...period(-60, 60),
      reason: 'Авария',
    });
    expect(ahead.statusCode, ahead.body).toBe(200);
    const run = t.app.dispatch.engine.state(working)!.run!;
    const updates = (await feed()).entity.find((e) => e.id === String(working))!.tripUpdate!.stopTimeUpdate!;
    const skipped = updates.filter((u) => u.scheduleRelationship === rt.TripUpdate.StopTimeUpdate.ScheduleRelationship.SKIPPED);
    expect(skipped.map((u) => u.stopSequence)).toEqual([run.sequences[5], run.sequences[6]]);
    expect((await post(`/api/v1/dispatch/changes/${ahead.json<ServiceChange>().id}/revoke`, changer, {})).statusCode).toBe(200);

    const revoked = await post(`/api/v1/dispatch/changes/${change.id}/revoke`, changer, {});
    expect(revoked.statusCode, revoked.body).toBe(200);
    expect(t.app.dispatch.engine.isDetoured(state.run!.key)).toBe(false);
    const reopened = (await get(`/api/v1/dispatch/routes/${detourRoute}/line`, viewer)).json<RouteLine>();
    expect(reopened.directions[0].stops.some((s) => s.closed)).toBe(false);
    expect(await stopsToPass()).toBe(detourStops.length);
  });

  it('refuses bad closures and detours with a message code and changes nothing; checks the rights', async () => {
    const [before, journalBefore] = [await stored(), await journaled()];
    const close = (body: object) => post('/api/v1/dispatch/changes/closed-stops', changer, body);
    const detour = (body: object) => post('/api/v1/dispatch/changes/detours', changer, body);
    const good = { stopId: stopIds[2], routeId, ...period(0, 60), reason: 'Причина' };
    const goodDetour = { routeId, fromStopId: stopIds[1], toStopId: stopIds[4], path: pairs(), ...period(0, 60), reason: 'Причина' };
    const cases: [Promise<{ statusCode: number; json: () => { messages: string[] } }>, number, string][] = [
      [close({ ...good, reason: '  ' }), 400, 'dispatch_change_reason'],
      [close({ ...good, activeFrom: 'сегодня утром' }), 400, 'dispatch_change_bad_time'],
      [close({ ...good, ...period(60, 30) }), 400, 'dispatch_change_period'],
      [close({ ...good, ...period(-120, -60) }), 400, 'dispatch_change_period'],
      [close({ ...good, ...period(0, 25 * 60) }), 400, 'dispatch_change_period'],
      [close({ ...good, routeId: detourRoute }), 400, 'dispatch_stop_not_on_route'],
      [close({ ...good, stopId: 99_999_999 }), 404, 'dispatch_stop_not_found'],
      [close({ ...good, routeId: 99_999_999 }), 404, 'dispatch_route_not_found'],
      [detour({ ...goodDetour, path: [pairs()[0]] }), 400, 'dispatch_detour_path'],
      [detour({ ...goodDetour, fromStopId: stopIds[4], toStopId: stopIds[1] }), 400, 'dispatch_detour_stops'],
      [detour({ ...goodDetour, toStopId: detourStops[4] }), 400, 'dispatch_detour_stops'],
      [detour({ ...goodDetour, direction: 1 }), 400, 'dispatch_detour_stops'],
      [detour({ ...goodDetour, routeId: 99_999_999 }), 404, 'dispatch_route_not_found'],
      [detour({ ...goodDetour, reason: '' }), 400, 'dispatch_change_reason'],
    ];
    for (const [pending, status, code] of cases) {
      const response = await pending;
      expect([response.statusCode, response.json().messages[0]]).toEqual([status, code]);
    }
    expect([await stored(), await journaled()]).toEqual([before, journalBefore]);
    expect((await post('/api/v1/dispatch/changes/closed-stops', viewer, good)).statusCode).toBe(403);
    expect((await post('/api/v1/dispatch/changes/detours', viewer, goodDetour)).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'POST', url: '/api/v1/dispatch/changes/detours', payload: goodDetour })).statusCode).toBe(401);
    expect([await stored(), await journaled()]).toEqual([before, journalBefore]);
    // the whole network's closure of a stop (no route) and a detour of both directions are taken
    const all = await close({ stopId: stopIds[2], ...period(0, 60), reason: 'Закрыта на всех маршрутах' });
    expect(all.statusCode, JSON.stringify(all.json())).toBe(200);
    const both = await detour(goodDetour);
    expect(both.statusCode, JSON.stringify(both.json())).toBe(200);
    expect(both.json()).toMatchObject({ direction: null });
    for (const id of [all.json().id, both.json().id])
      expect((await post(`/api/v1/dispatch/changes/${id}/revoke`, changer, {})).statusCode).toBe(200);
  });
});
