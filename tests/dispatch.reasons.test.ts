import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/server/config';
import { notPerformedReason } from '../src/server/dispatch/exits';
import { operatorDate, operatorMidnight } from '../src/server/platform/operatorDay';
import type { ExitsList } from '../src/shared/dispatch/api';
import { PERMISSION_CODES } from '../src/shared/permissionCodes';
import { eastOf, insertLineRoute, LINE_STOPS, watchedSince } from './dispatch.tracks';
import { ENGINES } from './helpers/engines';
import { startTestApp, type TestApp } from './helpers/testApp';
import { createUserWith, TEST_PASSWORD } from './helpers/users';

const TZ = 180;
const point = eastOf(55.86, 37.61);
const grants = (...ids: number[]) => {
  const out: Record<string, number> = {};
  for (const id of ids)
    for (const [key, bits] of Object.entries(PERMISSION_CODES.find((c) => c.id === id)!.grants)) out[key] = (out[key] ?? 0) | bits;
  return out;
};

describe('why a run was not performed (the rule)', () => {
  const run = (status: 'not_performed' | 'partial' | 'cancelled' | 'performed', vehicleId: number | null = 1, handedOver = false) => ({
    status,
    vehicleId,
    handedOver,
  });
  const seen = (seenDuring: boolean, seenBefore: boolean, otherExit: boolean) => ({ seenDuring, seenBefore, otherExit });
  it('orders the evidence: a change, the exit, the vehicle, then the track', () => {
    expect(notPerformedReason(run('performed'), undefined)).toBeNull();
    expect(notPerformedReason(run('cancelled'), undefined)).toBe('cancelled');
    expect(notPerformedReason(run('partial'), undefined)).toBe('ended_early');
    expect(notPerformedReason(run('not_performed', 7, true), seen(true, true, true))).toBe('handed_over');
    expect(notPerformedReason(run('not_performed', null), undefined)).toBe('no_vehicle');
    expect(notPerformedReason(run('not_performed'), seen(true, true, true))).toBe('other_exit');
    expect(notPerformedReason(run('not_performed'), seen(true, false, false))).toBe('off_route');
    expect(notPerformedReason(run('not_performed'), seen(false, true, false))).toBe('no_signal');
    expect(notPerformedReason(run('not_performed'), seen(false, false, false))).toBe('not_out');
  });
});

/**
 * «План и факт» says why each run was not performed: eight exits of one line, all due over an hour ago, each
 * with its own story in the stored passages, the track and the day's changes.
 */
describe.each(ENGINES)('the reasons on the plan and fact on %s', (engine) => {
  let t: TestApp;
  let viewer: string;
  let routeId: number;
  let serviceDate: string;
  const vehicles: Record<number, number> = {};

  beforeAll(async () => {
    t = await startTestApp(engine, { switches: loadConfig({ DEMO_DATA: 'false', MODULES: 'dispatch' }).switches });
    await watchedSince(t.db, Date.now() - 30 * 86_400_000);
    const now = Date.now();
    serviceDate = operatorDate(now - 150 * 60_000, TZ);
    const midnight = operatorMidnight(serviceDate, TZ);
    const first = Math.floor((now - 80 * 60_000 - midnight) / 60_000);
    const scheduled = (i: number) => midnight + (first + 2 * i) * 60_000;
    let stopIds: number[];
    let variant: number;
    ({ routeId, stopIds, variant } = await insertLineRoute(t.db, point, serviceDate, '88'));
    for (let graph = 1; graph <= 8; graph++)
      for (const [i, stopId] of stopIds.entries())
        await t.db.query(
          `insert into mgt.rasp_time ("RaspVariant_id", graph, smena, racetype, racenum, "order", stop_id, time) values ($1, $2, '1', 'A', 1, $3, $4, $5)`,
          [variant, graph, i + 1, stopId, first + 2 * i],
        );
    const [{ driver_id: driver }] = await t.db.query<{ driver_id: number }>(
      `insert into mgt.driver (last_name, first_name, table_number) values ('Лебедев', 'Иван', 8) returning driver_id`,
    );
    // exit 7 has no vehicle; the others one each
    for (const graph of [1, 2, 3, 4, 5, 6, 8]) {
      [{ id: vehicles[graph] }] = await t.db.query<{ id: number }>(
        'insert into mgt.vehicles (depot_number, peer_address) values ($1, $2) returning id',
        [880100 + graph, 8880000 + graph],
      );
      await t.db.query(
        `insert into mgt.vehicle_task (date, "RaspVariant_id", graph, smena, vehicle_id, driver_id) values ($1, $2, $3, '1', $4, $5)`,
        [serviceDate, variant, graph, vehicles[graph], driver],
      );
    }
    const passage = (graph: number, vehicle: number, i: number) =>
      t.db.query(
        `insert into dispatch.stop_passage (service_date, vehicle_id, route_id, direction, rasp_variant_id, graph, smena, race_num, stop_id,
           stop_sequence, day_type, schedule_arrival, schedule_departure, actual_arrival, actual_departure, interpolated)
         values ($1, $2, $3, 0, $4, $5, '1', 1, $6, $7, 0, $8, $8, $9, $10, false)`,
        [
          serviceDate,
          vehicle,
          routeId,
          variant,
          graph,
          stopIds[i],
          i + 1,
          new Date(scheduled(i)).toISOString(),
          new Date(scheduled(i) + 30_000).toISOString(),
          i === LINE_STOPS - 1 ? null : new Date(scheduled(i) + 50_000).toISOString(),
        ],
      );
    const fix = (vehicle: number, at: number, m: number) =>
      t.db.query('insert into app.track (vehicle_id, tm, lat, lon, speed, course, valid) values ($1, $2, $3, $4, 20, 90, true)', [
        vehicle,
        new Date(at).toISOString(),
        point(m).lat,
        point(m).lon,
      ]);
    // 1 performed; 2 left after three stops; 3 never came out; 4 seen before, silent then; 5 reported far from the
    // line; 6 worked exit 1's run (its passages are exit 1's); 7 no vehicle; 8 cancelled by a dispatcher
    for (let i = 0; i < LINE_STOPS; i++) await passage(1, vehicles[1], i);
    for (let i = 0; i < 3; i++) await passage(2, vehicles[2], i);
    await fix(vehicles[4], scheduled(0) - 40 * 60_000, 0);
    for (let k = 0; k < 5; k++) await fix(vehicles[5], scheduled(0) + k * 120_000, 20_000);
    for (let i = 0; i < LINE_STOPS; i++) await passage(1, vehicles[6], i);
    await t.app.dispatch.reload();
    await createUserWith(t.db, 'watcher', grants(44));
    await createUserWith(t.db, 'changer', grants(44, 46));
    viewer = await t.login('watcher', TEST_PASSWORD);
    const changer = await t.login('changer', TEST_PASSWORD);
    const cancelled = await t.app.inject({
      method: 'POST',
      url: '/api/v1/dispatch/changes',
      headers: { authorization: changer },
      payload: { runKey: `${serviceDate}|${variant}|8|1|1`, kind: 'cancel', reason: 'Нет водителя' },
    });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
  });
  afterAll(() => t?.close());

  it('gives each run not performed its reason, and none to the performed one', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: `/api/v1/dispatch/exits?date=${serviceDate}&route=${routeId}`,
      headers: { authorization: viewer },
    });
    expect(response.statusCode, response.body).toBe(200);
    const byGraph = new Map(response.json<ExitsList>().list.map((r) => [r.graph, r]));
    expect(byGraph.get(1)).toMatchObject({ status: 'performed', reason: null });
    expect(byGraph.get(2)).toMatchObject({ status: 'partial', reason: 'ended_early', passed: 3, stops: LINE_STOPS });
    expect(byGraph.get(3)).toMatchObject({ status: 'not_performed', reason: 'not_out' });
    expect(byGraph.get(4)).toMatchObject({ status: 'not_performed', reason: 'no_signal' });
    expect(byGraph.get(5)).toMatchObject({ status: 'not_performed', reason: 'off_route' });
    expect(byGraph.get(6)).toMatchObject({ status: 'not_performed', reason: 'other_exit' });
    expect(byGraph.get(7)).toMatchObject({ status: 'not_performed', reason: 'no_vehicle', vehicleId: null });
    expect(byGraph.get(8)).toMatchObject({ status: 'cancelled', reason: 'cancelled', cancelReason: 'Нет водителя' });
  });
});
