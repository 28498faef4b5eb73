import GtfsRealtimeBindings from 'gtfs-realtime-bindings';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/server/config';
import { operatorDate, operatorMidnight } from '../src/server/platform/operatorDay';
import { SimulatedTerminals } from '../src/server/simulator/simulatedTerminals';
import { createSource } from '../src/server/telemetry/http/sourceKeys';
import type { BoardList, ExitsList } from '../src/shared/dispatch/api';
import type {
  CannedList,
  ChangeRunList,
  ChangesList,
  DriverMessage,
  InboxList,
  MessageList,
  ServiceChange,
} from '../src/shared/dispatch/control';
import { PERMISSION_CODES } from '../src/shared/permissionCodes';
import { eastOf, insertLineRoute, lineDrive } from './dispatch.tracks';
import { ENGINES } from './helpers/engines';
import { startTestApp, type TestApp } from './helpers/testApp';
import { createUserWith, TEST_PASSWORD } from './helpers/users';

const { transit_realtime: rt } = GtfsRealtimeBindings;
const TZ = 180;
const point = eastOf(55.83, 37.56);
const grants = (...ids: number[]) => {
  const out: Record<string, number> = {};
  for (const id of ids)
    for (const [key, bits] of Object.entries(PERMISSION_CODES.find((c) => c.id === id)!.grants)) out[key] = (out[key] ?? 0) | bits;
  return out;
};
const gtfsTime = (minute: number) => `${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}:00`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Same-day service control: a line of eight stops with four exits (1 on time and finished, 2 sixteen minutes late
 * on its run, 3 due long ago and never run, 4 later today), service changes on their runs and their effects on
 * the board, the plan and fact and TripUpdates; messages to the drivers through simulated terminals.
 */
describe.each(ENGINES)('service changes and messages to drivers on %s', (engine) => {
  let t: TestApp;
  let routeId: number;
  let depotId: number;
  let variant: number;
  let serviceDate: string;
  let onTime: number;
  let late: number;
  let idle: number;
  /** A time past exit 3's end and the engine's wait for its passages: the run is reported not performed then. */
  let missedAt: number;
  let firstMinutes: Record<number, number>;
  let viewer: string;
  let changer: string;
  let sender: string;
  let stranger: string;
  let terminals: SimulatedTerminals;
  const runKey = (graph: number) => `${serviceDate}|${variant}|${graph}|1|1`;
  const get = (url: string, token: string) => t.app.inject({ method: 'GET', url, headers: { authorization: token } });
  const post = (url: string, token: string, payload: unknown) =>
    t.app.inject({ method: 'POST', url, headers: { authorization: token }, payload: payload as object });
  const board = async () => (await get('/api/v1/dispatch/exceptions', viewer)).json<BoardList>();
  const exits = async () => (await get(`/api/v1/dispatch/exits?date=${serviceDate}&route=${routeId}`, viewer)).json<ExitsList>();
  const count = async (sql: string) => (await t.db.query<{ n: number }>(sql)).at(0)!.n;

  beforeAll(async () => {
    t = await startTestApp(engine, { switches: loadConfig({ DEMO_DATA: 'false', MODULES: 'dispatch' }).switches });
    const now = Date.now();
    serviceDate = operatorDate(now - 100 * 60_000, TZ);
    const midnight = operatorMidnight(serviceDate, TZ);
    const minuteOf = (ms: number) => Math.floor((ms - midnight) / 60_000);
    const [{ agency_id: agency }] = await t.db.query<{ agency_id: number }>(
      `insert into mgt.agency (title, transporter_id) values ('АТП управления', 1) returning agency_id`,
    );
    [{ depot_id: depotId }] = await t.db.query<{ depot_id: number }>(
      `insert into mgt.depot (depot_name, agency_id) values ('Парк 5', $1) returning depot_id`,
      [agency],
    );
    let stopIds: number[];
    ({ routeId, stopIds, variant } = await insertLineRoute(t.db, point, serviceDate, '55', depotId));
    firstMinutes = {
      1: minuteOf(now - 20 * 60_000),
      2: minuteOf(now - 26 * 60_000),
      3: minuteOf(now - 13 * 60_000),
      4: minuteOf(now + 60 * 60_000),
    };
    for (const [graph, first] of Object.entries(firstMinutes)) {
      for (const [i, stopId] of stopIds.entries()) {
        await t.db.query(
          `insert into mgt.rasp_time ("RaspVariant_id", graph, smena, racetype, racenum, "order", stop_id, time) values ($1, $2, '1', 'A', 1, $3, $4, $5)`,
          [variant, Number(graph), i + 1, stopId, first + 2 * i],
        );
      }
    }
    const [{ driver_id: driver }] = await t.db.query<{ driver_id: number }>(
      `insert into mgt.driver (last_name, first_name, table_number) values ('Орлов', 'Олег', 9) returning driver_id`,
    );
    [{ id: onTime }] = await t.db.query<{ id: number }>(
      'insert into mgt.vehicles (depot_number, peer_address, depot_id) values (550101, 8550001, $1) returning id',
      [depotId],
    );
    [{ id: late }] = await t.db.query<{ id: number }>(
      'insert into mgt.vehicles (depot_number, peer_address, depot_id) values (550102, 8550002, $1) returning id',
      [depotId],
    );
    [{ id: idle }] = await t.db.query<{ id: number }>(
      'insert into mgt.vehicles (depot_number, peer_address, depot_id) values (550103, 8550003, $1) returning id',
      [depotId],
    );
    for (const [graph, vehicle] of [
      [1, onTime],
      [2, late],
      [3, idle],
    ]) {
      await t.db.query(
        `insert into mgt.vehicle_task (date, "RaspVariant_id", graph, smena, vehicle_id, driver_id) values ($1, $2, $3, '1', $4, $5)`,
        [serviceDate, variant, graph, vehicle, driver],
      );
    }
    await t.app.telemetry.devices.refresh();
    await t.app.map.directory.refresh();
    await t.app.dispatch.reload();
    const { key } = await createSource(t.db, 'Бортовые терминалы', null);
    const scheduled = (graph: 1 | 2) => midnight + firstMinutes[graph] * 60_000;
    const positions = [
      ...lineDrive(point, '8550001', scheduled(1), 0, scheduled(1) + 14 * 60_000 + 30_000),
      ...lineDrive(point, '8550002', scheduled(2), 16 * 60_000, now - 30_000),
    ].sort((a, b) => a.time.localeCompare(b.time));
    const posted = await t.app.inject({
      method: 'POST',
      url: '/api/v1/telemetry/positions',
      headers: { 'x-telemetry-key': key },
      payload: { positions },
    });
    expect(posted.statusCode).toBe(200);
    await t.app.dispatch.settle();
    const run3 = t.app.dispatch.engine.schedules.find((d) => d.serviceDate === serviceDate)!.runByKey.get(runKey(3))!;
    missedAt = run3.end + t.app.dispatch.engine.thresholds.runMissedSeconds * 1000 + 1000;

    await createUserWith(t.db, 'watcher', grants(44));
    await createUserWith(t.db, 'controller46', grants(44, 46));
    await createUserWith(t.db, 'messenger47', grants(44, 47));
    await createUserWith(t.db, 'mapper', grants(9));
    viewer = await t.login('watcher', TEST_PASSWORD);
    changer = await t.login('controller46', TEST_PASSWORD);
    sender = await t.login('messenger47', TEST_PASSWORD);
    stranger = await t.login('mapper', TEST_PASSWORD);
    terminals = new SimulatedTerminals(t.app.telemetry.commands, () => undefined, {
      delayMs: [0, 0],
      readDelayMs: [150, 150],
      temper: () => 'ok',
    });
  });
  afterAll(async () => {
    terminals?.stop();
    await t?.close();
  });

  it("lists the runs a change is made on, by route or by a vehicle's exits", async () => {
    const byRoute = (await get(`/api/v1/dispatch/changes/runs?route=${routeId}`, viewer)).json<ChangeRunList>();
    // (the same timetable runs on the next day too when the test runs past the operator's midnight)
    expect(
      byRoute.list
        .filter((r) => r.runKey.startsWith(serviceDate))
        .map((r) => r.graph)
        .sort(),
    ).toEqual([1, 2, 3, 4]);
    expect(byRoute.list.find((r) => r.graph === 2)).toMatchObject({
      runKey: runKey(2),
      routeName: '55',
      vehicleId: late,
      depotNumber: 550102,
      cancelled: false,
      shiftMinutes: null,
    });
    const byVehicle = (await get(`/api/v1/dispatch/changes/runs?vehicle=${late}`, viewer)).json<ChangeRunList>();
    expect(byVehicle.list.map((r) => r.runKey)).toEqual([runKey(2)]);
  });

  it('cancels a run with a reason: not expected on the board, cancelled on the plan and fact and in TripUpdates; restored on revoking', async () => {
    // by the run's key: a demo route's exit 3 may be missed meanwhile too (the template holds the small demo city)
    const missed = (b: BoardList) => b.list.filter((e) => e.key === `run_not_performed|${runKey(3)}`);
    // the engine reports exit 3's run not performed once it is past its end and the wait for its passages
    t.app.dispatch.engine.tick(missedAt);
    expect(missed(await board())).toHaveLength(1);
    expect((await exits()).list.find((r) => r.graph === 3)!.status).toBe('planned');

    const response = await post('/api/v1/dispatch/changes', changer, { runKey: runKey(3), kind: 'cancel', reason: 'Нет водителя' });
    expect(response.statusCode, response.body).toBe(200);
    const change = response.json<ServiceChange>();
    expect(change).toMatchObject({
      runKey: runKey(3),
      kind: 'cancel',
      reason: 'Нет водителя',
      author: 'controller46',
      routeName: '55',
      graph: 3,
      raceNum: 1,
      revokedAt: null,
    });
    expect(missed(await board())).toEqual([]);
    t.app.dispatch.engine.tick(missedAt);
    expect(missed(await board())).toEqual([]);
    const run3 = (await exits()).list.find((r) => r.graph === 3)!;
    expect(run3).toMatchObject({ status: 'cancelled', cancelReason: 'Нет водителя' });
    expect((await exits()).totals.cancelled).toBe(1);
    const feed = rt.FeedMessage.decode((await t.app.inject({ method: 'GET', url: '/api/v1/gtfs-rt/trip-updates' })).rawPayload);
    const cancelled = feed.entity.filter(
      (e) =>
        e.tripUpdate!.trip.scheduleRelationship === rt.TripDescriptor.ScheduleRelationship.CANCELED &&
        e.tripUpdate!.trip.routeId === String(routeId),
    );
    expect(cancelled.map((e) => e.tripUpdate!.trip.tripId)).toEqual([
      `${routeId}-${variant}-A${gtfsTime(firstMinutes[3]).slice(0, 5).replace(':', '')}`,
    ]);
    const listed = (await get('/api/v1/dispatch/changes', viewer)).json<ChangesList>();
    expect(listed.list.map((c) => c.id)).toContain(change.id);
    expect(
      (await get(`/api/v1/dispatch/changes/runs?route=${routeId}`, viewer)).json<ChangeRunList>().list.find((r) => r.graph === 3)!
        .cancelled,
    ).toBe(true);
    const [journal] = await t.db.query<{ action: string; username: string; after: { reason: string } }>(
      `select action, username, after from app.user_action where object = 'dispatch.service_change' order by id limit 1`,
    );
    expect(journal).toMatchObject({ action: 'cancel run', username: 'controller46', after: { reason: 'Нет водителя' } });

    const revoked = await post(`/api/v1/dispatch/changes/${change.id}/revoke`, changer, { reason: 'Водитель нашёлся' });
    expect(revoked.statusCode).toBe(200);
    expect(revoked.json<ServiceChange>()).toMatchObject({ revokedBy: 'controller46', revokeReason: 'Водитель нашёлся' });
    t.app.dispatch.engine.tick(missedAt);
    expect(missed(await board())).toHaveLength(1);
    expect((await exits()).list.find((r) => r.graph === 3)).toMatchObject({ status: 'planned', cancelReason: null });
    const again = await post(`/api/v1/dispatch/changes/${change.id}/revoke`, changer, {});
    expect(again.statusCode).toBe(409);
    expect(again.json().messages).toEqual(['dispatch_change_revoked']);
  });

  it("moves a run's start: its scheduled times shift for adherence and on the plan and fact", async () => {
    const lateOf = (b: BoardList) => b.list.find((e) => e.kind === 'late' && e.vehicleId === late);
    expect(lateOf(await board())).toBeDefined();
    const before = (await exits()).list.find((r) => r.graph === 2)!;
    const response = await post('/api/v1/dispatch/changes', changer, {
      runKey: runKey(2),
      kind: 'shift',
      shiftMinutes: 15,
      reason: 'Выход задержан в парке',
    });
    expect(response.statusCode, response.body).toBe(200);
    t.app.dispatch.engine.tick(Date.now());
    const card = (await get(`/api/v1/dispatch/vehicles/${late}/card`, viewer)).json<{ deviation: number; adherence: string }>();
    expect(Math.abs(card.deviation)).toBeLessThan(150);
    expect(lateOf(await board())).toBeUndefined();
    const after = (await exits()).list.find((r) => r.graph === 2)!;
    expect(Date.parse(after.plannedStart) - Date.parse(before.plannedStart)).toBe(15 * 60_000);
    expect(after.shiftMinutes).toBe(15);
    expect(after.startDeviation! - before.startDeviation!).toBe(-15 * 60);
    const run = (await get(`/api/v1/dispatch/changes/runs?vehicle=${late}`, viewer)).json<ChangeRunList>().list[0];
    expect(run.shiftMinutes).toBe(15);
    expect(run.plannedStart).toBe(before.plannedStart);

    const id = response.json<ServiceChange>().id;
    expect((await post(`/api/v1/dispatch/changes/${id}/revoke`, changer, {})).statusCode).toBe(200);
    t.app.dispatch.engine.tick(Date.now());
    expect((await get(`/api/v1/dispatch/vehicles/${late}/card`, viewer)).json<{ deviation: number }>().deviation).toBeGreaterThan(
      15 * 60 - 60,
    );
    expect(lateOf(await board())).toBeDefined();
  });

  it('refuses bad changes with a message code and changes nothing; checks the rights of every call', async () => {
    const stored = () => count('select count(*)::int as n from dispatch.service_change');
    const journaled = () => count(`select count(*)::int as n from app.user_action where object = 'dispatch.service_change'`);
    const [rows, entries] = [await stored(), await journaled()];
    const refusals: [unknown, number, string][] = [
      [{ runKey: runKey(4), kind: 'cancel', reason: '  ' }, 400, 'dispatch_change_reason'],
      [{ runKey: runKey(4), kind: 'shift', shiftMinutes: 0, reason: 'Пробка' }, 400, 'dispatch_shift_minutes'],
      [{ runKey: runKey(4), kind: 'shift', shiftMinutes: 500, reason: 'Пробка' }, 400, 'dispatch_shift_minutes'],
      [{ runKey: runKey(4), kind: 'shift', reason: 'Пробка' }, 400, 'dispatch_shift_minutes'],
      [{ runKey: runKey(4), kind: 'cancel', shiftMinutes: 5, reason: 'Пробка' }, 400, 'dispatch_shift_minutes'],
      [{ runKey: runKey(4), kind: 'shift', shiftMinutes: 1.5, reason: 'Пробка' }, 400, 'bad_request'],
      [{ runKey: runKey(4), kind: 'delete', reason: 'Пробка' }, 400, 'bad_request'],
      [{ runKey: runKey(4), kind: 'cancel', reason: 'x'.repeat(301) }, 400, 'too_long'],
      [{ runKey: runKey(4), kind: 'cancel', reason: 'Пробка', extra: 1 }, 400, 'bad_request'],
      [{ runKey: `${serviceDate}|${variant}|9|1|1`, kind: 'cancel', reason: 'Пробка' }, 404, 'dispatch_run_not_found'],
      [{ runKey: `2001-01-01|${variant}|4|1|1`, kind: 'cancel', reason: 'Пробка' }, 404, 'dispatch_run_not_found'],
    ];
    for (const [payload, status, code] of refusals) {
      const refused = await post('/api/v1/dispatch/changes', changer, payload);
      expect(refused.statusCode, JSON.stringify(payload)).toBe(status);
      expect(refused.json().messages[0], JSON.stringify(payload)).toBe(code);
    }
    for (const [url, code, status] of [
      ['/api/v1/dispatch/changes/999999/revoke', 'dispatch_change_not_found', 404],
      ['/api/v1/dispatch/changes/abc/revoke', 'bad_request', 400],
    ] as const) {
      const refused = await post(url, changer, {});
      expect(refused.statusCode).toBe(status);
      expect(refused.json().messages[0]).toBe(code);
    }
    const badReads: [string, string][] = [
      ['/api/v1/dispatch/changes?date=2025-02-30', 'dispatch_bad_date'],
      ['/api/v1/dispatch/changes/runs', 'dispatch_route_or_vehicle'],
      [`/api/v1/dispatch/changes/runs?route=${routeId}&vehicle=${late}`, 'dispatch_route_or_vehicle'],
    ];
    for (const [url, code] of badReads) {
      const refused = await get(url, viewer);
      expect(refused.statusCode, url).toBe(400);
      expect(refused.json().messages[0]).toBe(code);
    }
    // code 44 reads and does not change; code 46 changes; a stranger gets nothing
    expect((await post('/api/v1/dispatch/changes', viewer, { runKey: runKey(4), kind: 'cancel', reason: 'Пробка' })).statusCode).toBe(403);
    expect((await post('/api/v1/dispatch/changes', sender, { runKey: runKey(4), kind: 'cancel', reason: 'Пробка' })).statusCode).toBe(403);
    for (const url of ['/api/v1/dispatch/changes', `/api/v1/dispatch/changes/runs?route=${routeId}`])
      expect((await get(url, stranger)).statusCode, url).toBe(403);
    expect(await stored()).toBe(rows);
    expect(await journaled()).toBe(entries);

    const cancel = await post('/api/v1/dispatch/changes', changer, { runKey: runKey(4), kind: 'cancel', reason: 'Ремонт дороги' });
    expect(cancel.statusCode).toBe(200);
    const twice = await post('/api/v1/dispatch/changes', changer, { runKey: runKey(4), kind: 'cancel', reason: 'Ремонт дороги' });
    expect(twice.statusCode).toBe(409);
    expect(twice.json().messages).toEqual(['dispatch_change_exists']);
    expect((await post(`/api/v1/dispatch/changes/${cancel.json<ServiceChange>().id}/revoke`, viewer, {})).statusCode).toBe(403);
    expect((await post(`/api/v1/dispatch/changes/${cancel.json<ServiceChange>().id}/revoke`, changer, {})).statusCode).toBe(200);
  });

  it('sends a message to a vehicle: queued, sent over the terminal link, delivered, then read', async () => {
    terminals.connect(late);
    const response = await post('/api/v1/dispatch/messages', sender, {
      text: 'Свяжитесь с диспетчером',
      target: 'vehicle',
      targetId: late,
    });
    expect(response.statusCode, response.body).toBe(200);
    const message = response.json<DriverMessage>();
    expect(message).toMatchObject({
      text: 'Свяжитесь с диспетчером',
      target: 'vehicle',
      targetId: late,
      targetName: '550102',
      author: 'messenger47',
    });
    expect(message.deliveries).toHaveLength(1);
    const stateOf = async () =>
      (await get('/api/v1/dispatch/messages', viewer)).json<MessageList>().list.find((m) => m.id === message.id)!.deliveries[0];
    const seen = new Set<string>();
    for (let i = 0; i < 50 && (await stateOf()).state !== 'read'; i += 1) {
      seen.add((await stateOf()).state);
      await t.app.driverMessages.tick();
      await sleep(20);
    }
    const final = await stateOf();
    expect(final.state).toBe('read');
    expect(final.sentAt).not.toBeNull();
    expect(Date.parse(final.deliveredAt!)).toBeLessThanOrEqual(Date.parse(final.readAt!));
    expect([...seen].some((s) => s === 'sent' || s === 'delivered')).toBe(true);
    expect(terminals.stats.messages).toBeGreaterThan(0);
  });

  it("sends to a route's vehicles on the line; an unreachable terminal's copy expires after the time limit", async () => {
    const response = await post('/api/v1/dispatch/messages', sender, {
      text: 'Объезд по Садовой',
      target: 'route',
      targetId: routeId,
      ttlMinutes: 1,
    });
    expect(response.statusCode, response.body).toBe(200);
    const message = response.json<DriverMessage>();
    expect(message.deliveries.map((d) => d.vehicleId).sort((a, b) => a - b)).toEqual([onTime, late, idle].sort((a, b) => a - b));
    await t.app.driverMessages.tick();
    await t.app.driverMessages.tick(Date.now() + 2 * 60_000);
    const after = (await get('/api/v1/dispatch/messages', viewer)).json<MessageList>().list.find((m) => m.id === message.id)!;
    expect(after.deliveries.find((d) => d.vehicleId === onTime)!.state).toBe('expired');
    expect(['sent', 'delivered', 'read']).toContain(after.deliveries.find((d) => d.vehicleId === late)!.state);
    expect(after.deliveries.find((d) => d.vehicleId === idle)!.state).toBe('expired');
    expect(after.counts.expired).toBe(2);

    const depot = await post('/api/v1/dispatch/messages', sender, { text: 'Всем ТС парка', target: 'depot', targetId: depotId });
    expect(depot.json<DriverMessage>().deliveries).toHaveLength(3);
    const all = await post('/api/v1/dispatch/messages', sender, { text: 'Всем на линии', target: 'all' });
    expect(all.json<DriverMessage>().deliveries.map((d) => d.vehicleId)).toEqual(expect.arrayContaining([onTime, late]));
    const [entry] = await t.db.query<{ action: string; username: string }>(
      `select action, username from app.user_action where object = 'dispatch.driver_message' order by id limit 1`,
    );
    expect(entry).toMatchObject({ action: 'send driver message', username: 'messenger47' });
  });

  it("takes a driver's message from the terminal into the inbox and onto the board", async () => {
    terminals.connect(late);
    terminals.driverMessage(late, 'Пробка, опаздываю');
    await t.app.driverMessages.tick();
    const inbox = (await get('/api/v1/dispatch/messages/inbox', viewer)).json<InboxList>();
    expect(inbox.list[0]).toMatchObject({ vehicleId: late, depotNumber: 550102, text: 'Пробка, опаздываю', routeName: '55' });
    const row = (await board()).list.find((e) => e.kind === 'driver_message')!;
    expect(row).toMatchObject({ vehicleId: late, routeName: '55', note: 'Пробка, опаздываю', graph: 2 });
    expect((await board()).counters.find((c) => c.kind === 'driver_message')).toEqual({ kind: 'driver_message', count: 1, open: 1 });
  });

  it('keeps canned texts, and refuses bad messages with a message code, changing nothing', async () => {
    const canned = (await get('/api/v1/dispatch/messages/canned', viewer)).json<CannedList>();
    expect(canned.list.map((c) => c.text)).toContain('Свяжитесь с диспетчером');
    const added = await post('/api/v1/dispatch/messages/canned', sender, { text: 'Проверьте валидаторы' });
    expect(added.statusCode).toBe(200);
    expect((await post('/api/v1/dispatch/messages/canned', sender, { text: 'Проверьте валидаторы' })).json().messages).toEqual([
      'dispatch_canned_exists',
    ]);
    const removed = await t.app.inject({
      method: 'DELETE',
      url: `/api/v1/dispatch/messages/canned/${added.json<{ id: number }>().id}`,
      headers: { authorization: sender },
    });
    expect(removed.json<CannedList>().list.map((c) => c.text)).not.toContain('Проверьте валидаторы');

    const messages = () => count('select count(*)::int as n from dispatch.driver_message');
    const deliveries = () => count('select count(*)::int as n from dispatch.message_delivery');
    const [m, d] = [await messages(), await deliveries()];
    const [{ route_id: emptyRoute }] = await t.db.query<{ route_id: number }>(
      `insert into mgt.routes (route_long_name, route_type, "MarshType_id", route_short_name, route_desc, "Depot_id")
       values ('Пустой', 'А', (select id from mgt.marsh_type limit 1), '999', 'Тест', $1) returning route_id`,
      [depotId],
    );
    const refusals: [unknown, number, string][] = [
      [{ text: '   ', target: 'vehicle', targetId: late }, 400, 'dispatch_message_text'],
      [{ text: 'Привет', target: 'vehicle' }, 400, 'dispatch_message_target'],
      [{ text: 'Привет', target: 'all', targetId: 5 }, 400, 'dispatch_message_target'],
      [{ text: 'Привет', target: 'vehicle', targetId: late, ttlMinutes: 0 }, 400, 'dispatch_message_ttl'],
      [{ text: 'Привет', target: 'vehicle', targetId: 999999 }, 404, 'dispatch_vehicle_not_found'],
      [{ text: 'Привет', target: 'route', targetId: 999999 }, 404, 'dispatch_route_not_found'],
      [{ text: 'Привет', target: 'depot', targetId: 999999 }, 404, 'dispatch_depot_not_found'],
      [{ text: 'Привет', target: 'route', targetId: emptyRoute }, 409, 'dispatch_message_no_recipients'],
      [{ text: 'x'.repeat(201), target: 'all' }, 400, 'too_long'],
      [{ text: 'Привет', target: 'exit' }, 400, 'dispatch_message_target'],
      [{ text: 'Привет', target: 'lane' }, 400, 'bad_request'],
    ];
    for (const [payload, status, code] of refusals) {
      const refused = await post('/api/v1/dispatch/messages', sender, payload);
      expect(refused.statusCode, JSON.stringify(payload)).toBe(status);
      expect(refused.json().messages[0], JSON.stringify(payload)).toBe(code);
    }
    expect((await post('/api/v1/dispatch/messages', viewer, { text: 'Привет', target: 'all' })).statusCode).toBe(403);
    expect((await post('/api/v1/dispatch/messages', changer, { text: 'Привет', target: 'all' })).statusCode).toBe(403);
    expect((await post('/api/v1/dispatch/messages/canned', viewer, { text: 'Ещё' })).statusCode).toBe(403);
    for (const url of ['/api/v1/dispatch/messages', '/api/v1/dispatch/messages/canned', '/api/v1/dispatch/messages/inbox'])
      expect((await get(url, stranger)).statusCode, url).toBe(403);
    expect((await get('/api/v1/dispatch/messages?date=2025-13-01', viewer)).json().messages[0]).toBe('dispatch_bad_date');
    expect(await messages()).toBe(m);
    expect(await deliveries()).toBe(d);
  });
});
