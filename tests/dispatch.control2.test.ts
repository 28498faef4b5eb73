import GtfsRealtimeBindings from 'gtfs-realtime-bindings';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/server/config';
import { operatorDate, operatorMidnight } from '../src/server/platform/operatorDay';
import { createSource } from '../src/server/telemetry/http/sourceKeys';
import type { ExitsList } from '../src/shared/dispatch/api';
import type { ChangeRunList, DriverMessage, ServiceChange } from '../src/shared/dispatch/control';
import { PERMISSION_CODES } from '../src/shared/permissionCodes';
import { eastOf, insertLineRoute, lineDrive, type PostedFix } from './dispatch.tracks';
import { ENGINES } from './helpers/engines';
import { startTestApp, type TestApp } from './helpers/testApp';
import { createUserWith, TEST_PASSWORD } from './helpers/users';

const { transit_realtime: rt } = GtfsRealtimeBindings;
const TZ = 180;
const point = eastOf(55.84, 37.57);
const grants = (...ids: number[]) => {
  const out: Record<string, number> = {};
  for (const id of ids)
    for (const [key, bits] of Object.entries(PERMISSION_CODES.find((c) => c.id === id)!.grants)) out[key] = (out[key] ?? 0) | bits;
  return out;
};
const hhmm = (ms: number) => new Date(ms + TZ * 60_000).toISOString().slice(11, 16);

/**
 * More same-day service control on a line of eight stops: exit 1 under way (two races, the second later), exit 2
 * later today; an exit handed over to a spare vehicle, a run added to the day and driven, a message to an exit;
 * each change's effect on the engine, the plan and fact and TripUpdates, its journal row, and the refusals.
 */
describe.each(ENGINES)('handovers, added runs and messages to an exit on %s', (engine) => {
  let t: TestApp;
  let routeId: number;
  let variant: number;
  let serviceDate: string;
  let working: number;
  let spare: number;
  let extra: number;
  let later: number;
  let changer: string;
  let viewer: string;
  let sender: string;
  let key: string;
  const runKey = (graph: number, race: number) => `${serviceDate}|${variant}|${graph}|1|${race}`;
  const get = (url: string, token: string) => t.app.inject({ method: 'GET', url, headers: { authorization: token } });
  const post = (url: string, token: string, payload: unknown) =>
    t.app.inject({ method: 'POST', url, headers: { authorization: token }, payload: payload as object });
  const exits = async () => (await get(`/api/v1/dispatch/exits?date=${serviceDate}&route=${routeId}`, viewer)).json<ExitsList>();
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

  beforeAll(async () => {
    t = await startTestApp(engine, { switches: loadConfig({ DEMO_DATA: 'false', MODULES: 'dispatch' }).switches });
    const now = Date.now();
    serviceDate = operatorDate(now, TZ);
    const midnight = operatorMidnight(serviceDate, TZ);
    const minuteOf = (ms: number) => Math.floor((ms - midnight) / 60_000);
    const [{ agency_id: agency }] = await t.db.query<{ agency_id: number }>(
      `insert into mgt.agency (title, transporter_id) values ('АТП передачи', 1) returning agency_id`,
    );
    const [{ depot_id: depotId }] = await t.db.query<{ depot_id: number }>(
      `insert into mgt.depot (depot_name, agency_id) values ('Парк 6', $1) returning depot_id`,
      [agency],
    );
    let stopIds: number[];
    ({ routeId, stopIds, variant } = await insertLineRoute(t.db, point, serviceDate, '66', depotId));
    // exit 1: race 1 under way (set out six minutes ago), race 2 in forty minutes; exit 2: in two hours
    const races: [graph: number, race: number, first: number][] = [
      [1, 1, minuteOf(now - 6 * 60_000)],
      [1, 2, minuteOf(now + 40 * 60_000)],
      [2, 1, minuteOf(now + 120 * 60_000)],
    ];
    for (const [graph, race, first] of races)
      for (const [i, stopId] of stopIds.entries())
        await t.db.query(
          `insert into mgt.rasp_time ("RaspVariant_id", graph, smena, racetype, racenum, "order", stop_id, time) values ($1, $2, '1', 'A', $3, $4, $5, $6)`,
          [variant, graph, race, i + 1, stopId, first + 2 * i],
        );
    const vehicle = async (n: number) =>
      (
        await t.db.query<{ id: number }>(
          'insert into mgt.vehicles (depot_number, peer_address, depot_id) values ($1, $2, $3) returning id',
          [660100 + n, 8660000 + n, depotId],
        )
      )[0].id;
    [working, spare, extra, later] = [await vehicle(1), await vehicle(2), await vehicle(3), await vehicle(4)];
    const [{ driver_id: driver }] = await t.db.query<{ driver_id: number }>(
      `insert into mgt.driver (last_name, first_name, table_number) values ('Соколов', 'Иван', 19) returning driver_id`,
    );
    for (const [graph, id] of [
      [1, working],
      [2, later],
    ])
      await t.db.query(
        `insert into mgt.vehicle_task (date, "RaspVariant_id", graph, smena, vehicle_id, driver_id) values ($1, $2, $3, '1', $4, $5)`,
        [serviceDate, variant, graph, id, driver],
      );
    await t.app.telemetry.devices.refresh();
    await t.app.map.directory.refresh();
    await t.app.dispatch.reload();
    ({ key } = await createSource(t.db, 'Бортовые терминалы', null));
    await send(lineDrive(point, '8660001', midnight + races[0][2] * 60_000, 0, now - 20_000));
    await createUserWith(t.db, 'viewer44', grants(44));
    await createUserWith(t.db, 'changer46', grants(44, 46));
    await createUserWith(t.db, 'sender47', grants(44, 47));
    viewer = await t.login('viewer44', TEST_PASSWORD);
    changer = await t.login('changer46', TEST_PASSWORD);
    sender = await t.login('sender47', TEST_PASSWORD);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('hands an exit over: the broken vehicle let go, the spare takes its next run on the plan and fact; revoking gives it back', async () => {
    expect(t.app.dispatch.engine.state(working)!.run?.key).toBe(runKey(1, 1));
    const response = await post('/api/v1/dispatch/changes/handover', changer, {
      runKey: runKey(1, 1),
      vehicleId: spare,
      reason: 'Сломался, сход с линии',
    });
    expect(response.statusCode, response.body).toBe(200);
    const change = response.json<ServiceChange>();
    expect(change).toMatchObject({
      kind: 'handover',
      runKey: runKey(1, 1),
      vehicleId: spare,
      vehicleName: '660102',
      fromVehicleId: working,
      fromVehicleName: '660101',
      reason: 'Сломался, сход с линии',
      author: 'changer46',
    });
    expect(t.app.dispatch.engine.state(working)!.run).toBeNull();
    const day = t.app.dispatch.engine.schedules.find((d) => d.serviceDate === serviceDate)!;
    const block = runKey(1, 1).slice(0, runKey(1, 1).lastIndexOf('|'));
    expect(day.assignments.get(spare)).toEqual([expect.objectContaining({ blockKey: block, replacement: true })]);
    const race = (list: ExitsList, graph: number, n: number) => list.list.find((r) => r.graph === graph && r.raceNum === n)!;
    let plan = await exits();
    expect(race(plan, 1, 1)).toMatchObject({ vehicleId: working, handedOver: false });
    expect(race(plan, 1, 2)).toMatchObject({ vehicleId: spare, depotNumber: 660102, plannedVehicle: working, handedOver: true });
    const runs = (await get(`/api/v1/dispatch/changes/runs?vehicle=${spare}`, viewer)).json<ChangeRunList>();
    expect(runs.list.map((r) => r.runKey)).toEqual([runKey(1, 1), runKey(1, 2)]);
    const [journal] = await t.db.query<{ action: string; after: { vehicleId: number; fromVehicleId: number } }>(
      `select action, after from app.user_action where object = 'dispatch.service_change' order by id desc limit 1`,
    );
    expect(journal).toMatchObject({ action: 'hand exit over', after: { vehicleId: spare, fromVehicleId: working } });
    // a message to the exit goes to the vehicle working it from now: the spare
    const message = await post('/api/v1/dispatch/messages', sender, {
      text: 'Примите выход 1',
      target: 'exit',
      targetId: routeId,
      graph: 1,
    });
    expect(message.statusCode, message.body).toBe(200);
    expect(message.json<DriverMessage>()).toMatchObject({ target: 'exit', targetId: routeId, targetName: '66 / 1' });
    expect(message.json<DriverMessage>().deliveries.map((d) => d.vehicleId)).toEqual([spare]);

    const revoked = await post(`/api/v1/dispatch/changes/${change.id}/revoke`, changer, { reason: 'Починили' });
    expect(revoked.statusCode).toBe(200);
    expect(day.assignments.has(spare)).toBe(false);
    plan = await exits();
    expect(race(plan, 1, 2)).toMatchObject({ vehicleId: working, handedOver: false });
  });

  it('refuses a bad handover with a message code and changes nothing', async () => {
    const [rows, entries] = [await stored(), await journaled()];
    const refusals: [unknown, number, string][] = [
      [{ runKey: runKey(1, 1), vehicleId: 999999, reason: 'Поломка' }, 404, 'dispatch_vehicle_not_found'],
      [{ runKey: runKey(1, 1), vehicleId: working, reason: 'Поломка' }, 400, 'dispatch_handover_same_vehicle'],
      [{ runKey: runKey(1, 1), vehicleId: later, reason: 'Поломка' }, 409, 'dispatch_vehicle_busy'],
      [{ runKey: runKey(1, 1), vehicleId: spare, reason: ' ' }, 400, 'dispatch_change_reason'],
      [{ runKey: runKey(7, 1), vehicleId: spare, reason: 'Поломка' }, 404, 'dispatch_run_not_found'],
      [{ runKey: runKey(1, 1), vehicleId: 0, reason: 'Поломка' }, 400, 'bad_request'],
      [{ runKey: runKey(1, 1), reason: 'Поломка' }, 400, 'bad_request'],
    ];
    for (const [payload, status, code] of refusals) {
      const refused = await post('/api/v1/dispatch/changes/handover', changer, payload);
      expect(refused.statusCode, JSON.stringify(payload)).toBe(status);
      expect(refused.json().messages[0], JSON.stringify(payload)).toBe(code);
    }
    for (const token of [viewer, sender])
      expect(
        (await post('/api/v1/dispatch/changes/handover', token, { runKey: runKey(1, 1), vehicleId: spare, reason: 'Поломка' })).statusCode,
      ).toBe(403);
    expect(await stored()).toBe(rows);
    expect(await journaled()).toBe(entries);
    // confirmed, a vehicle tasked with another exit later today takes this one
    const confirmed = await post('/api/v1/dispatch/changes/handover', changer, {
      runKey: runKey(1, 1),
      vehicleId: later,
      reason: 'Поломка',
      confirm: true,
    });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(
      (await post('/api/v1/dispatch/changes/handover', changer, { runKey: runKey(1, 1), vehicleId: spare, reason: 'Поломка' })).json()
        .messages,
    ).toEqual(['dispatch_change_exists']);
    expect((await post(`/api/v1/dispatch/changes/${confirmed.json<ServiceChange>().id}/revoke`, changer, {})).statusCode).toBe(200);
  });

  it('adds a run: in the engine, driven and predicted, ADDED in TripUpdates, marked added on the plan and fact; revoking takes it out', async () => {
    const now = Date.now();
    const start = Math.floor((now - 3 * 60_000) / 60_000) * 60_000;
    const response = await post('/api/v1/dispatch/changes/added-runs', changer, {
      routeId,
      direction: 0,
      start: hhmm(start),
      vehicleId: extra,
      reason: 'Концерт на стадионе',
    });
    expect(response.statusCode, response.body).toBe(200);
    const change = response.json<ServiceChange>();
    expect(change).toMatchObject({
      kind: 'add',
      graph: 0,
      smena: `+${change.id}`,
      raceNum: 1,
      direction: 0,
      vehicleId: extra,
      vehicleName: '660103',
    });
    expect(change.runKey).toBe(`${serviceDate}|${variant}|0|+${change.id}|1`);
    expect(Date.parse(change.plannedStart!)).toBe(start);
    const run = t.app.dispatch.engine.schedules.find((d) => d.serviceDate === serviceDate)!.runByKey.get(change.runKey!)!;
    expect(run).toMatchObject({ added: true, start, end: start + 14 * 60_000 });
    const [journal] = await t.db.query<{ action: string }>(
      `select action from app.user_action where object = 'dispatch.service_change' order by id desc limit 1`,
    );
    expect(journal.action).toBe('add run');

    await send(lineDrive(point, '8660003', start, 30_000, Date.now() - 5_000));
    expect(t.app.dispatch.engine.state(extra)).toMatchObject({ run, matchedBy: 'task' });
    const entity = (await feed()).entity.find((e) => e.id === String(extra))!;
    expect(entity.tripUpdate!.trip).toMatchObject({
      tripId: `added-${serviceDate}-${change.id}`,
      routeId: String(routeId),
      scheduleRelationship: rt.TripDescriptor.ScheduleRelationship.ADDED,
    });
    expect(entity.tripUpdate!.stopTimeUpdate!.length).toBeGreaterThan(0);
    const added = (await exits()).list.find((r) => r.added)!;
    expect(added).toMatchObject({ graph: 0, raceNum: 1, vehicleId: extra, depotNumber: 660103, stops: 8, status: 'in_progress' });
    expect(added.passed).toBeGreaterThan(0);
    expect(Date.parse(added.plannedStart)).toBe(start);
    expect(Math.abs(added.startDeviation!)).toBeLessThan(90);
    const listed = (await get(`/api/v1/dispatch/changes/runs?route=${routeId}`, viewer)).json<ChangeRunList>();
    expect(listed.list.find((r) => r.runKey === change.runKey)).toMatchObject({ added: true, vehicleId: extra });

    expect((await post(`/api/v1/dispatch/changes/${change.id}/revoke`, changer, {})).statusCode).toBe(200);
    expect(t.app.dispatch.engine.schedules.find((d) => d.serviceDate === serviceDate)!.runByKey.has(change.runKey!)).toBe(false);
    expect(t.app.dispatch.engine.state(extra)!.run).toBeNull();
    expect((await exits()).list.some((r) => r.added)).toBe(false);
  });

  it('refuses a bad added run and a bad message to an exit, changing nothing', async () => {
    const [rows, entries] = [await stored(), await journaled()];
    const soon = hhmm(Date.now() + 10 * 60_000);
    const refusals: [unknown, number, string][] = [
      [{ routeId, direction: 0, start: soon, reason: '' }, 400, 'dispatch_change_reason'],
      [{ routeId, direction: 1, start: soon, reason: 'Концерт' }, 404, 'dispatch_added_run_template'],
      [{ routeId: 999999, direction: 0, start: soon, reason: 'Концерт' }, 404, 'dispatch_route_not_found'],
      [{ routeId, direction: 0, start: soon, vehicleId: 999999, reason: 'Концерт' }, 404, 'dispatch_vehicle_not_found'],
      [{ routeId, direction: 0, start: hhmm(Date.now() + 13 * 3_600_000), reason: 'Концерт' }, 400, 'dispatch_added_run_start'],
      [{ routeId, direction: 0, start: '25:00', reason: 'Концерт' }, 400, 'bad_request'],
      [{ routeId, direction: 2, start: soon, reason: 'Концерт' }, 400, 'bad_request'],
    ];
    for (const [payload, status, code] of refusals) {
      const refused = await post('/api/v1/dispatch/changes/added-runs', changer, payload);
      expect(refused.statusCode, JSON.stringify(payload)).toBe(status);
      expect(refused.json().messages[0], JSON.stringify(payload)).toBe(code);
    }
    expect(
      (await post('/api/v1/dispatch/changes/added-runs', viewer, { routeId, direction: 0, start: soon, reason: 'Концерт' })).statusCode,
    ).toBe(403);
    expect((await post('/api/v1/dispatch/changes', changer, { runKey: runKey(1, 2), kind: 'add', reason: 'Концерт' })).statusCode).toBe(
      400,
    );
    expect(await stored()).toBe(rows);
    expect(await journaled()).toBe(entries);

    const messages = () => count('select count(*)::int as n from dispatch.driver_message');
    const m = await messages();
    const bad: [unknown, number, string][] = [
      [{ text: 'Привет', target: 'exit', targetId: routeId }, 400, 'dispatch_message_graph'],
      [{ text: 'Привет', target: 'route', targetId: routeId, graph: 1 }, 400, 'dispatch_message_graph'],
      [{ text: 'Привет', target: 'exit', targetId: 999999, graph: 1 }, 404, 'dispatch_route_not_found'],
      [{ text: 'Привет', target: 'exit', targetId: routeId, graph: 9 }, 409, 'dispatch_message_no_recipients'],
    ];
    for (const [payload, status, code] of bad) {
      const refused = await post('/api/v1/dispatch/messages', sender, payload);
      expect(refused.statusCode, JSON.stringify(payload)).toBe(status);
      expect(refused.json().messages[0], JSON.stringify(payload)).toBe(code);
    }
    expect(
      (await post('/api/v1/dispatch/messages', changer, { text: 'Привет', target: 'exit', targetId: routeId, graph: 2 })).statusCode,
    ).toBe(403);
    expect(await messages()).toBe(m);
    const toExit = await post('/api/v1/dispatch/messages', sender, {
      text: 'Выход 2: в парк',
      target: 'exit',
      targetId: routeId,
      graph: 2,
    });
    expect(toExit.json<DriverMessage>().deliveries.map((d) => d.vehicleId)).toEqual([later]);
  });
});
