import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import GtfsRealtimeBindings from 'gtfs-realtime-bindings';
import { operatorDate } from '../src/server/platform/operatorDay';
import { ENGINES } from './helpers/engines';
import { startTestApp, type TestApp } from './helpers/testApp';

const decode = (bytes: Buffer) => GtfsRealtimeBindings.transit_realtime.FeedMessage.decode(bytes);

/** The feeds as a production install starts: the live timetable (module `dispatch`) off. */
describe.each(ENGINES)('GTFS-Realtime vehicle positions on %s', (engine) => {
  let t: TestApp;
  let assigned: { vehicle_id: number; route_id: number; depot_number: number; state_number: string };
  let spare: { id: number; depot_number: number };

  beforeAll(async () => {
    t = await startTestApp(engine);
    [assigned] = await t.db.query(
      `select k.vehicle_id, rv.route_id, v.depot_number, v.state_number from mgt.vehicle_task k
         join mgt.rasp_variant rv on rv.id = k."RaspVariant_id" join mgt.vehicles v on v.id = k.vehicle_id
        where k.date = $1 order by k.vehicle_id limit 1`,
      [operatorDate(Date.now(), t.app.map.config.tzOffsetMinutes)],
    );
    [spare] = await t.db.query(
      'select id, depot_number from mgt.vehicles where id not in (select vehicle_id from mgt.vehicle_task) and id not in (select replace_vehicle_id from mgt.replace_vehicle) order by id limit 1',
    );
    const now = Date.now();
    t.app.telemetry.pipeline.ingest([
      { vehicleId: assigned.vehicle_id, time: now - 2000, lat: 59.93, lon: 30.31, speed: 36, course: 180, valid: true, history: false },
      { vehicleId: spare.id, time: now - 3000, lat: 59.94, lon: 30.32, speed: 0, course: 0, valid: true, history: false },
      // Silent for ten minutes: a planner must not show it.
      { vehicleId: 3, time: now - 600_000, lat: 59.95, lon: 30.33, speed: 10, course: 0, valid: true, history: false },
    ]);
  });
  afterAll(() => t.close());

  it('serves a protobuf feed without an account, holding the fresh vehicles with label and speed in m/s, a vehicle with a task named by its route alone while the live timetable is off', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/v1/gtfs-rt/vehicle-positions' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/x-protobuf');
    expect(response.headers['cache-control']).toMatch(/max-age/);
    const feed = decode(response.rawPayload);
    expect(feed.header.gtfsRealtimeVersion).toBe('2.0');
    expect(feed.entity.map((e) => e.id).sort()).toEqual([String(assigned.vehicle_id), String(spare.id)].sort());
    const bus = feed.entity.find((e) => e.id === String(assigned.vehicle_id))!.vehicle!;
    expect(bus.vehicle).toMatchObject({
      id: String(assigned.depot_number),
      label: String(assigned.depot_number),
      licensePlate: assigned.state_number,
    });
    // no run matched while the live timetable is off: the route of the vehicle's task, no trip
    expect(bus.trip).toMatchObject({ routeId: String(assigned.route_id), tripId: '' });
    expect(bus.position).toMatchObject({
      latitude: expect.closeTo(59.93, 5),
      longitude: expect.closeTo(30.31, 5),
      bearing: 180,
      speed: 10,
    });
    expect(Number(bus.timestamp)).toBeGreaterThan(Date.now() / 1000 - 60);
    expect(feed.entity.find((e) => e.id === String(spare.id))!.vehicle!.trip).toBeNull();
  });

  it('serves the same feed as JSON for people', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/v1/gtfs-rt/vehicle-positions?format=json' });
    expect(response.statusCode).toBe(200);
    const feed = response.json();
    expect(feed.header).toMatchObject({ gtfsRealtimeVersion: '2.0', incrementality: 'FULL_DATASET' });
    expect(feed.entity).toHaveLength(2);
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/gtfs-rt/vehicle-positions?format=xml' })).statusCode).toBe(400);
  });

  it('answers TripUpdates with 404 and a translated reason while the live timetable is off', async () => {
    for (const url of ['/api/v1/gtfs-rt/trip-updates', '/api/v1/gtfs-rt/trip-updates?format=json']) {
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.statusCode).toBe(404);
      expect(response.json().messages).toEqual(['gtfs_rt_dispatch_off']);
    }
  });
});

describe('GTFS-Realtime behind the map right', () => {
  it('asks for a session when GTFS_RT_PUBLIC=false', async () => {
    process.env.GTFS_RT_PUBLIC = 'false';
    const t = await startTestApp(ENGINES[0]);
    try {
      expect((await t.app.inject({ method: 'GET', url: '/api/v1/gtfs-rt/vehicle-positions' })).statusCode).toBe(401);
      const authorization = await t.login('admin', 'admin123');
      expect((await t.app.inject({ method: 'GET', url: '/api/v1/gtfs-rt/vehicle-positions', headers: { authorization } })).statusCode).toBe(
        200,
      );
    } finally {
      delete process.env.GTFS_RT_PUBLIC;
      await t.close();
    }
  });
});
