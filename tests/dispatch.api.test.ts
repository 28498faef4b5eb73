import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/server/config';
import { operatorDate, operatorMidnight } from '../src/server/platform/operatorDay';
import { createSource } from '../src/server/telemetry/http/sourceKeys';
import { PERMISSION_CODES } from '../src/shared/permissionCodes';
import type { DispatchVehicleList } from '../src/shared/dispatch/api';
import { eastOf, insertLineRoute, LINE_STOPS } from './dispatch.tracks';
import { ENGINES } from './helpers/engines';
import { startTestApp, type TestApp } from './helpers/testApp';
import { createUserWith, TEST_PASSWORD } from './helpers/users';

const TZ = 180;
const LAT = 55.8;
const LON = 37.5;
/** The line's stops, scheduled two minutes apart. */
const STOPS = LINE_STOPS;
const point = eastOf(LAT, LON);

describe.each(ENGINES)('live timetable over the HTTP telemetry ingestion on %s', (engine) => {
  let t: TestApp;
  let key: string;
  let vehicleId: number;
  let stopIds: number[];
  let firstMinute: number;
  let serviceDate: string;
  let midnight: number;
  let viewer: string;
  let stranger: string;
  /** The true departures from each stop of the drive. */
  const departures: number[] = [];

  beforeAll(async () => {
    t = await startTestApp(engine, { switches: loadConfig({ DEMO_DATA: 'false', MODULES: 'dispatch' }).switches });
    const now = Date.now();
    // the run left its first stop ten minutes ago: stops 1-5 are behind the vehicle, 6-8 ahead
    serviceDate = operatorDate(now - 15 * 60_000, TZ);
    midnight = operatorMidnight(serviceDate, TZ);
    firstMinute = Math.floor((now - 10 * 60_000 - midnight) / 60_000);
    const db = t.db;
    let variant: number;
    ({ stopIds, variant } = await insertLineRoute(db, point, serviceDate, '99'));
    for (const [i, stopId] of stopIds.entries()) {
      await db.query(
        `insert into mgt.rasp_time ("RaspVariant_id", graph, smena, racetype, racenum, "order", stop_id, time) values ($1, 1, '1', 'A', 1, $2, $3, $4)`,
        [variant, i + 1, stopId, firstMinute + 2 * i],
      );
    }
    [{ id: vehicleId }] = await db.query<{ id: number }>(
      'insert into mgt.vehicles (depot_number, peer_address) values (990301, 8300001) returning id',
    );
    const [{ driver_id: driver }] = await db.query<{ driver_id: number }>(
      `insert into mgt.driver (last_name, first_name, table_number) values ('Иванов', 'Иван', 1) returning driver_id`,
    );
    await db.query(
      `insert into mgt.vehicle_task (date, "RaspVariant_id", graph, smena, vehicle_id, driver_id) values ($1, $2, 1, '1', $3, $4)`,
      [serviceDate, variant, vehicleId, driver],
    );
    await t.app.telemetry.devices.refresh();
    await t.app.dispatch.reload();
    ({ key } = await createSource(t.db, 'Бортовые терминалы', null));
    await createUserWith(t.db, 'dispatcher', PERMISSION_CODES.find((c) => c.id === 44)!.grants);
    await createUserWith(t.db, 'mapper', PERMISSION_CODES.find((c) => c.id === 9)!.grants);
    viewer = await t.login('dispatcher', TEST_PASSWORD);
    stranger = await t.login('mapper', TEST_PASSWORD);
  });
  afterAll(() => t?.close());

  /** A bus on time: 20 s at each stop, even speed between, a fix every 10 s (5 m of noise), up to a minute past stop 5. */
  function track(): { device: string; time: string; lat: number; lon: number; speed: number; course: number }[] {
    const scheduled = (i: number) => midnight + (firstMinute + 2 * i) * 60_000;
    const arrivals = Array.from({ length: STOPS }, (_, i) => scheduled(i) - (i === 0 ? 120_000 : 0));
    for (let i = 0; i < STOPS; i++) departures[i] = i === 0 ? scheduled(0) : arrivals[i] + 20_000;
    const fixes = [];
    let n = 0;
    for (let tm = scheduled(0) - 60_000; tm <= departures[4] + 60_000; tm += 10_000) {
      const k = departures.findIndex((d, i) => i < STOPS - 1 && tm >= d && tm < arrivals[i + 1]);
      let m: number;
      let speed = 0;
      if (k >= 0) {
        m = k * 500 + (500 * (tm - departures[k])) / (arrivals[k + 1] - departures[k]);
        speed = (500 / ((arrivals[k + 1] - departures[k]) / 1000)) * 3.6;
      } else {
        m =
          Math.max(
            0,
            arrivals.findLastIndex((a) => a <= tm),
          ) * 500;
      }
      const jitter = ((n++ % 5) - 2) * 2;
      const p = point(m + jitter);
      fixes.push({
        device: '8300001',
        time: new Date(tm).toISOString(),
        lat: Number(p.lat.toFixed(6)),
        lon: Number(p.lon.toFixed(6)),
        speed: Math.round(speed * 10) / 10,
        course: 90,
      });
    }
    return fixes;
  }

  it("turns positions posted over HTTP into stored stop passages and the vehicle's state", async () => {
    const posted = await t.app.inject({
      method: 'POST',
      url: '/api/v1/telemetry/positions',
      headers: { 'x-telemetry-key': key },
      payload: { positions: track() },
    });
    expect(posted.statusCode).toBe(200);
    await t.app.dispatch.settle();

    const rows = await t.db.query<{
      stop_id: number;
      stop_sequence: number;
      route_id: number;
      graph: number;
      race_num: number;
      schedule_arrival: Date;
      actual_arrival: Date | null;
      actual_departure: Date | null;
      interpolated: boolean;
    }>(
      `select stop_id, stop_sequence, route_id, graph, race_num, schedule_arrival, actual_arrival, actual_departure, interpolated
         from dispatch.stop_passage where vehicle_id = $1 and service_date = $2::date order by stop_sequence`,
      [vehicleId, serviceDate],
    );
    expect(rows.map((r) => r.stop_sequence)).toEqual([1, 2, 3, 4, 5]);
    expect(rows.map((r) => r.stop_id)).toEqual(stopIds.slice(0, 5));
    for (const [i, row] of rows.entries()) {
      expect(new Date(row.schedule_arrival).getTime()).toBe(midnight + (firstMinute + 2 * i) * 60_000);
      expect(Math.abs(new Date(row.actual_departure!).getTime() - departures[i])).toBeLessThan(15_000);
      expect(row.interpolated).toBe(false);
    }

    const response = await t.app.inject({
      method: 'GET',
      url: `/api/v1/dispatch/vehicles?vehicle=${vehicleId}`,
      headers: { authorization: viewer },
    });
    expect(response.statusCode).toBe(200);
    const body = response.json<DispatchVehicleList>();
    expect(body.count).toBe(1);
    const [v] = body.list;
    expect(v).toMatchObject({ vehicleId, status: 'in_service', matchedBy: 'task', otherExit: false, nextStopSequence: 6 });
    expect(v.run).toMatchObject({ serviceDate, graph: 1, smena: '1', raceNum: 1, direction: 0 });
    expect(Math.abs(v.deviation!)).toBeLessThan(60);
    expect(v.passages.map((p) => p.stopSequence)).toEqual([1, 2, 3, 4, 5]);
    expect(v.predictions.map((p) => p.stopSequence)).toEqual([6, 7, 8]);
    expect(v.exceptions).toEqual([]);
  });

  it('gives the vehicles to the holders of code 44 only, and refuses bad filters', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/dispatch/vehicles', headers: { authorization: stranger } })).statusCode).toBe(
      403,
    );
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/dispatch/vehicles' })).statusCode).toBe(401);
    const bad = await t.app.inject({ method: 'GET', url: '/api/v1/dispatch/vehicles?vehicle=0x10', headers: { authorization: viewer } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().messages.length).toBeGreaterThan(0);
    const none = await t.app.inject({ method: 'GET', url: '/api/v1/dispatch/vehicles?route=99999', headers: { authorization: viewer } });
    expect(none.json()).toEqual({ list: [], count: 0 });
  });
});
