import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/server/config';
import { BELL_LIMIT, ExceptionBell } from '../src/server/dispatch/exceptionBell';
import type { DispatchException } from '../src/server/dispatch/engineTypes';
import { operatorDate, operatorMidnight } from '../src/server/platform/operatorDay';
import { SimulatedTerminals } from '../src/server/simulator/simulatedTerminals';
import { createSource } from '../src/server/telemetry/http/sourceKeys';
import { PERMISSION_CODES } from '../src/shared/permissionCodes';
import { eastOf, insertLineRoute, lineDrive } from './dispatch.tracks';
import { ENGINES } from './helpers/engines';
import { startTestApp, type TestApp } from './helpers/testApp';
import { createUserWith, TEST_PASSWORD } from './helpers/users';

const TZ = 180;
const point = eastOf(55.84, 37.58);
const grants = (id: number) => PERMISSION_CODES.find((c) => c.id === id)!.grants;

interface Item {
  id: number;
  type: string;
  severity: string;
  title: string;
  body: string;
  link: string | null;
}

/**
 * The bell of the live timetable: an exit due long ago and never started, a late vehicle whose driver writes from
 * the terminal; each rings once, seen by who may read the dispatch screens; a fleet-wide outage rings once.
 */
describe.each(ENGINES)('the bell of the live timetable on %s', (engine) => {
  let t: TestApp;
  let late: number;
  let viewer: string;
  let stranger: string;
  let terminals: SimulatedTerminals;
  const get = (url: string, token: string) => t.app.inject({ method: 'GET', url, headers: { authorization: token } });
  const ring = async (token: string, type = '') =>
    (await get(`/api/v1/events/ring/list?recordCount=200${type ? `&type=${type}` : ''}`, token)).json<{ list: Item[]; count: number }>();
  const dispatchRows = () =>
    t.db.query<Item>(
      `select id::float8 as id, type, severity, title, body, link from app.notification where type like 'dispatch%' order by id`,
    );
  const logger = () => t.app.log;

  beforeAll(async () => {
    t = await startTestApp(engine, { switches: loadConfig({ DEMO_DATA: 'false', MODULES: 'dispatch' }).switches });
    const now = Date.now();
    const serviceDate = operatorDate(now - 60 * 60_000, TZ);
    const midnight = operatorMidnight(serviceDate, TZ);
    const minuteOf = (ms: number) => Math.floor((ms - midnight) / 60_000);
    const { stopIds, variant } = await insertLineRoute(t.db, point, serviceDate, '77');
    // exit 1: late on its run now; exit 2: due 13 minutes ago, its vehicle never came out
    const firsts = { 1: minuteOf(now - 26 * 60_000), 2: minuteOf(now - 13 * 60_000) };
    for (const [graph, first] of Object.entries(firsts))
      for (const [i, stopId] of stopIds.entries())
        await t.db.query(
          `insert into mgt.rasp_time ("RaspVariant_id", graph, smena, racetype, racenum, "order", stop_id, time) values ($1, $2, '1', 'A', 1, $3, $4, $5)`,
          [variant, Number(graph), i + 1, stopId, first + 2 * i],
        );
    [{ id: late }] = await t.db.query<{ id: number }>(
      'insert into mgt.vehicles (depot_number, peer_address) values (770101, 8770001) returning id',
    );
    const [{ id: idle }] = await t.db.query<{ id: number }>(
      'insert into mgt.vehicles (depot_number, peer_address) values (770102, 8770002) returning id',
    );
    const [{ driver_id: driver }] = await t.db.query<{ driver_id: number }>(
      `insert into mgt.driver (last_name, first_name, table_number) values ('Сомов', 'Пётр', 7) returning driver_id`,
    );
    // only this test's exits are due today (the base data's tasks would ring too)
    await t.db.query('delete from mgt.vehicle_task');
    for (const [graph, vehicle] of [
      [1, late],
      [2, idle],
    ])
      await t.db.query(
        `insert into mgt.vehicle_task (date, "RaspVariant_id", graph, smena, vehicle_id, driver_id) values ($1, $2, $3, '1', $4, $5)`,
        [serviceDate, variant, graph, vehicle, driver],
      );
    await t.app.telemetry.devices.refresh();
    await t.app.dispatch.reload();
    const { key } = await createSource(t.db, 'Бортовые терминалы', null);
    const posted = await t.app.inject({
      method: 'POST',
      url: '/api/v1/telemetry/positions',
      headers: { 'x-telemetry-key': key },
      payload: { positions: lineDrive(point, '8770001', midnight + firsts[1] * 60_000, 16 * 60_000, now - 30_000) },
    });
    expect(posted.statusCode).toBe(200);
    await createUserWith(t.db, 'watcher', grants(44));
    await createUserWith(t.db, 'mapper', grants(9));
    viewer = await t.login('watcher', TEST_PASSWORD);
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

  it('rings once for an exit not started, for who may read the board, and not for late vehicles', async () => {
    await t.app.dispatch.settle();
    await t.app.dispatch.settle();
    const rows = await dispatchRows();
    expect(rows).toEqual([
      expect.objectContaining({
        type: 'dispatch_exception',
        severity: 'warning',
        title: 'Выход не начат: маршрут 77, выход 2, ТС 770102',
        link: '/dispatch/board?kind=exit_not_started',
      }),
    ]);
    // the late vehicle is on the board, not in the bell
    expect(t.app.dispatch.engine.exception(`late|v${late}`)).toBeDefined();
    expect((await ring(viewer)).list.map((n) => n.id)).toContain(rows[0].id);
    expect((await ring(stranger)).list.filter((n) => n.type.startsWith('dispatch'))).toEqual([]);
    expect((await ring(stranger, 'dispatch_exception')).count).toBe(0);
  });

  it("rings for a driver's message with its text, linking to the inbox", async () => {
    terminals.connect(late);
    terminals.driverMessage(late, 'Прошу связаться');
    await t.app.driverMessages.tick();
    await t.app.dispatch.settle();
    await t.app.dispatch.settle();
    const messages = (await ring(viewer, 'dispatch_driver_message')).list;
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatchObject({
      title: 'Сообщение водителя: маршрут 77, ТС 770101',
      body: 'Прошу связаться',
      link: '/dispatch/messages',
    });
    expect((await ring(stranger, 'dispatch_driver_message')).count).toBe(0);
  });

  it('does not ring again for an occurrence already rung (a restart, another writer), and a process not writing rings nothing', async () => {
    const before = (await dispatchRows()).length;
    const active = [...t.app.dispatch.engine.exceptions()];
    const again = new ExceptionBell({ db: t.db, notifier: t.app.notifier, log: logger() });
    again.offer(active);
    await again.flush(true);
    expect(await dispatchRows()).toHaveLength(before);
    const reader = new ExceptionBell({ db: t.db, notifier: t.app.notifier, log: logger() });
    reader.offer([
      {
        key: 'off_route|v999999',
        kind: 'off_route',
        vehicleId: 999999,
        routeId: null,
        blockKey: null,
        runKey: null,
        since: Date.now(),
        value: 150,
      },
    ]);
    await reader.flush(false);
    expect(await dispatchRows()).toHaveLength(before);
    // the same process becoming the writer rings what it kept
    await reader.flush(true);
    const rows = await dispatchRows();
    expect(rows).toHaveLength(before + 1);
    expect(rows.at(-1)).toMatchObject({ title: 'Сход с маршрута: ТС 999999', link: '/dispatch/board?kind=off_route' });
  });

  it('sums a fleet-wide outage in one notification that grows, not one a vehicle', async () => {
    const before = (await dispatchRows()).length;
    let clock = Date.now();
    const bell = new ExceptionBell({ db: t.db, notifier: t.app.notifier, log: logger(), now: () => clock });
    const silent = (from: number, n: number): DispatchException[] =>
      Array.from({ length: n }, (_, i) => ({
        key: `no_signal|v${from + i}`,
        kind: 'no_signal' as const,
        vehicleId: from + i,
        routeId: null,
        blockKey: null,
        runKey: null,
        since: clock - 300_000,
        value: 300,
      }));
    bell.offer(silent(100_000, 800));
    await bell.flush(true);
    let rows = await dispatchRows();
    expect(rows).toHaveLength(before + 1);
    expect(rows.at(-1)).toMatchObject({
      type: 'dispatch_exception',
      severity: 'critical',
      title: 'Много исключений диспетчерской: 800',
      body: 'Нет связи — 800',
      link: '/dispatch/board',
    });
    // the outage goes on a tick later: the same notification counts them
    clock += 5_000;
    bell.offer([...silent(100_800, 9), { ...silent(200_000, 1)[0], key: 'run_not_performed|x', kind: 'run_not_performed' }]);
    await bell.flush(true);
    rows = await dispatchRows();
    expect(rows).toHaveLength(before + 1);
    expect(rows.at(-1)).toMatchObject({ title: 'Много исключений диспетчерской: 810', body: 'Нет связи — 809, Рейс не выполнен — 1' });
    // a quiet minute later single exceptions ring one each again, up to the window's limit
    clock += 61_000;
    bell.offer(silent(300_000, BELL_LIMIT));
    await bell.flush(true);
    rows = await dispatchRows();
    expect(rows).toHaveLength(before + 1 + BELL_LIMIT);
    expect(rows.at(-1)!.title).toMatch(/^Нет связи: ТС 30000\d$/);
  });
});
