import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from './helpers/engines';
import { startTestApp, type TestApp } from './helpers/testApp';
import { createUserWith, TEST_PASSWORD } from './helpers/users';
import { READ } from '../src/shared/permissions';
import { loadConfig } from '../src/server/config';
import { operatorMidnight } from '../src/server/platform/operatorDay';
import { Polyline } from '../src/server/simulator/polyline';
import { WORK_DAY_RULES, workDayOf, type PlannedRace, type WorkPoint } from '../src/server/equipment/workDay';

const MIN = 60_000;
const M_PER_DEG_LAT = 110_574;
const START = { lat: 59.9, lon: 30.3 };
const DAY = '2025-03-12';
const T0 = operatorMidnight(DAY, 180) + 6 * 60 * MIN; // 06:00 operator time

/**
 * A hand-made track, one point a minute from 06:00: 60 min north at 36 km/h (600 m a minute), 10 min
 * standing, 20 min north again, no data for 20 min, 10 min north. So: on line 100 min (the 20 min hole is
 * not), moving 90 min, standing 10 min, 90 moving minutes × 600 m = 54 km.
 */
function handMadeTrack(): WorkPoint[] {
  const points: WorkPoint[] = [];
  let metres = 0;
  for (let k = 0; k <= 120; k++) {
    const standing = k >= 60 && k < 70;
    if (k > 0 && !(k > 60 && k <= 70)) metres += 600;
    if (k > 90 && k < 110) continue;
    points.push({ tm: T0 + k * MIN, lat: START.lat + metres / M_PER_DEG_LAT, lon: START.lon, speed: standing ? 0 : 36 });
  }
  return points;
}
const north = (m: number) => ({ lat: START.lat + m / M_PER_DEG_LAT, lon: START.lon });
const east = (from: { lat: number; lon: number }, m: number) => ({
  lat: from.lat,
  lon: from.lon + m / (111_320 * Math.cos((from.lat * Math.PI) / 180)),
});

/**
 * Race 1 runs the track's first half hour (made); race 2 heads east while the bus goes north (not made, one
 * deviation); race 3 falls in the hole.
 */
function races(): PlannedRace[] {
  const atSixty = north(60 * 600);
  return [
    { start: T0, end: T0 + 30 * MIN, from: north(0), to: north(30 * 600), line: new Polyline([north(0), north(30 * 600)]) },
    {
      start: T0 + 70 * MIN,
      end: T0 + 90 * MIN,
      from: atSixty,
      to: east(atSixty, 12_000),
      line: new Polyline([atSixty, east(atSixty, 12_000)]),
    },
    { start: T0 + 95 * MIN, end: T0 + 105 * MIN, from: north(95 * 600), to: north(105 * 600), line: null },
  ];
}

describe('vehicle work data from a hand-made track', () => {
  it('counts first and last data, time on line, mileage, moving and standing, trips and deviations', () => {
    const work = workDayOf(handMadeTrack(), races(), { ...WORK_DAY_RULES, maxDeviationM: 100 });
    expect(work).toEqual({
      firstAt: T0,
      lastAt: T0 + 120 * MIN,
      onlineS: 100 * 60,
      km: 54,
      movingS: 90 * 60,
      standingS: 10 * 60,
      tripsDone: 1,
      tripsPlanned: 3,
      deviations: 1,
    });
  });

  it('forgives deviations within maxCenterDeviation and has nothing for an empty track', () => {
    const wide = workDayOf(handMadeTrack(), races(), { ...WORK_DAY_RULES, maxDeviationM: 20_000 });
    expect(wide?.deviations).toBe(0);
    expect(workDayOf([], races(), { ...WORK_DAY_RULES, maxDeviationM: 100 })).toBeNull();
  });
});

describe.each(ENGINES)('/vehicle-work-data on %s', (engine) => {
  let t: TestApp;
  let vehicleId: number;

  beforeAll(async () => {
    t = await startTestApp(engine, { switches: loadConfig({ DEMO_DATA: 'false', MODULES: 'vehicleWorkData' }).switches });
    await createUserWith(t.db, 'monitor', { '/vehicle-work-data': READ, '/vehicle-diagnostic': READ });
    // A vehicle of its own, with no schedule: its day is the track alone.
    [{ id: vehicleId }] = await t.db.query<{ id: number }>(
      `insert into mgt.vehicles (depot_id, vehicle_type_id, model, capacity_type_id, depot_number, state_number)
       select depot_id, vehicle_type_id, model, capacity_type_id, 880001, 'Т880ТТ' from mgt.vehicles order by id limit 1 returning id`,
    );
    const track = handMadeTrack();
    await t.db.query(
      `insert into app.track (vehicle_id, tm, lat, lon, speed, course, valid)
       select $1, to_timestamp(x.tm / 1000.0), x.lat, x.lon, x.speed, 0, true from jsonb_to_recordset($2::jsonb) as x(tm float8, lat float8, lon float8, speed real)`,
      [vehicleId, JSON.stringify(track)],
    );
  });
  afterAll(async () => t.close());

  it('rolls the day up and reports it, with totals', async () => {
    expect(await t.app.equipment.workDays.rollupDay(DAY)).toBeGreaterThanOrEqual(1);
    const token = await t.login('monitor', TEST_PASSWORD);
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/v1/reports/vehicle-work-data?from=${DAY}T00:00:00%2B03:00&to=${DAY}T23:59:59%2B03:00&vehicle=${vehicleId}`,
      headers: { authorization: token, 'x-timezone-offset': '180' },
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.count).toBe(1);
    expect(body.list[0]).toMatchObject({
      day: DAY,
      depot_number: 880001,
      online_h: 1.67,
      km: 54,
      moving_h: 1.5,
      standing_h: 0.17,
      trips_done: 0,
      trips_planned: 0,
      deviations: 0,
    });
    expect(new Date(body.list[0].first_at).getTime()).toBe(T0);
    expect(body.totals.km).toBe(54);
  });
});
