import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  BranchAgency,
  IncidentEvent,
  IncidentType,
  MapFilters,
  MapRoute,
  MapSearchResult,
  OnlineVehicle,
  RouteTrajectory,
  StopDetails,
} from '../src/shared/map';
import { operatorDate, operatorMinuteOfDay } from '../src/server/platform/operatorDay';
import { ENGINES } from './helpers/engines';
import { startTestApp, type TestApp } from './helpers/testApp';
import { createUserWith, TEST_PASSWORD } from './helpers/users';

describe.each(ENGINES)('map REST calls on %s', (engine) => {
  let t: TestApp;
  let authorization: string;
  const get = async <T>(url: string, status = 200): Promise<T> => {
    const response = await t.app.inject({ method: 'GET', url, headers: { authorization } });
    expect(response.statusCode, `${url}: ${response.body}`).toBe(status);
    return response.json() as T;
  };
  const today = () => operatorDate(Date.now(), t.app.map.config.tzOffsetMinutes);

  beforeAll(async () => {
    t = await startTestApp(engine);
    authorization = await t.login('admin', 'admin123');
  });
  afterAll(() => t.close());

  it('draws routes from single-line trajectories only, with stops flagged terminal at kkp B/E', async () => {
    const routes = await get<MapRoute[]>('/api/v1/map/routes?q=1,2,3,999');
    expect(routes.map((r) => r.route_id)).toEqual([1, 2, 3]);
    const multi = await t.db.query<{ route_id: number }>(
      `select distinct mv.route_id from mgt.trip t join mgt.marsh_variants mv on mv.id = t."MarshVariant_id" where geometrytype(t.trajectory) = 'MULTILINESTRING'`,
    );
    expect(multi.length).toBeGreaterThan(0);
    for (const route of routes) {
      expect(route.color).toMatch(/^#[0-9a-f]{6}$/i);
      for (const line of route.trajectory) expect(line).toMatch(/^LINESTRING\(/);
      if (multi.some((m) => m.route_id === route.route_id)) expect(route.trajectory).toEqual([]);
      else expect(route.trajectory.length).toBeGreaterThan(0);
      expect(route.stops.length).toBeGreaterThan(2);
      for (const stop of route.stops) expect(stop.geo).toMatch(/^POINT\(/);
    }
    const terminals = await t.db.query<{ stop_id: number }>(
      `select distinct ts.stop_id from mgt.trip_stops ts join mgt.trip t on t.id = ts.trip_id join mgt.marsh_variants mv on mv.id = t."MarshVariant_id"
        where mv.route_id = 1 and ts.kkp in ('B', 'E')`,
    );
    const route1 = routes[0];
    expect(
      route1.stops
        .filter((s) => s.terminal)
        .map((s) => s.id)
        .sort(),
    ).toEqual(terminals.map((r) => r.stop_id).sort());
    expect(route1.stops.filter((s) => !s.terminal).every((s) => !('terminal' in s))).toBe(true);

    await get('/api/v1/map/routes?q=1,x', 400);
    await get('/api/v1/map/routes', 400);
  });

  it('gives one route trajectory per single-line trip', async () => {
    const trajectory = await get<RouteTrajectory>('/api/v1/map/route/trajectory/1');
    expect(trajectory.route_id).toBe(1);
    expect(trajectory.trips.length).toBeGreaterThanOrEqual(2);
    expect(new Set(trajectory.trips.map((trip) => trip.race_type))).toEqual(new Set(['A', 'B']));
    expect((await get<RouteTrajectory>('/api/v1/map/route/trajectory/2')).trips).toEqual([]);
    await get('/api/v1/map/route/trajectory/99999', 404);
  });

  it("serves filter data with today's route of each vehicle, on the console and the field app", async () => {
    const filters = await get<MapFilters>('/api/v1/map/filters');
    const [{ n }] = await t.db.query<{ n: number }>('select count(*)::int as n from mgt.vehicles');
    expect(filters.vehicles).toHaveLength(n);
    expect(filters.depots.length).toBeGreaterThan(0);
    expect(filters.branches[0]).toEqual({ id: expect.any(Number), name: expect.any(String), agency_id: expect.any(Number) });
    expect(filters.routes[0]).toEqual({ id: expect.any(Number), name: expect.any(String), route_type: expect.any(String) });
    const tasks = await t.db.query<{ vehicle_id: number; route_id: number }>(
      `select distinct t.vehicle_id, rv.route_id from mgt.vehicle_task t join mgt.rasp_variant rv on rv.id = t."RaspVariant_id" where t.date = $1`,
      [today()],
    );
    expect(tasks.length).toBeGreaterThan(0);
    for (const task of tasks) expect(filters.vehicles.find((v) => v.id === task.vehicle_id)?.route_id).toBe(task.route_id);
    const assigned = new Set(tasks.map((task) => task.vehicle_id));
    const [spare] = filters.vehicles.filter((v) => !assigned.has(v.id) && v.route_id === null);
    expect(spare).toBeDefined();

    expect(await get<MapFilters>('/api/v1/map/mobile/filters')).toEqual(filters);
    expect(await get('/api/v1/map/mobile/filters/map')).toEqual({ routes: filters.routes });
  });

  it("describes a vehicle online: today's route and driver, cameras, latest position", async () => {
    const now = Date.now();
    const [task] = await t.db.query<{ vehicle_id: number; route_id: number }>(
      `select t.vehicle_id, rv.route_id from mgt.vehicle_task t join mgt.rasp_variant rv on rv.id = t."RaspVariant_id"
        where t.date = $1 and t.vehicle_id not in (select replace_vehicle_id from mgt.replace_vehicle) order by t.vehicle_id limit 1`,
      [today()],
    );
    t.app.telemetry.pipeline.ingest([
      { vehicleId: task.vehicle_id, time: now - 5000, lat: 59.93, lon: 30.31, speed: 24, course: 90, valid: true, history: false },
    ]);
    const vehicle = await get<OnlineVehicle>(`/api/v1/map/online/${task.vehicle_id}`);
    expect(vehicle).toMatchObject({
      id: task.vehicle_id,
      route_id: task.route_id,
      center: 'POINT(30.310000 59.930000)',
      speed: 24,
      course: 90,
    });
    expect(vehicle.route).toEqual(expect.any(String));
    expect(vehicle.classRank).toBeGreaterThanOrEqual(1);
    expect(vehicle.agency).toEqual(expect.any(String));
    expect(vehicle.branch).toEqual(expect.any(String));
    // The driver is the one of the shift running now, else of the nearest shift.
    const shifts = await t.db.query<{ last_name: string; t0: number; t1: number }>(
      `select d.last_name, min(rt.time) as t0, max(rt.time) as t1 from mgt.vehicle_task k
         join mgt.driver d on d.driver_id = k.driver_id
         join mgt.rasp_time rt on rt."RaspVariant_id" = k."RaspVariant_id" and rt.graph = k.graph and rt.smena = k.smena
        where k.date = $1 and k.vehicle_id = $2 group by d.last_name, k.smena`,
      [today(), task.vehicle_id],
    );
    const minute = operatorMinuteOfDay(Date.now(), t.app.map.config.tzOffsetMinutes);
    const nearest = [...shifts].sort((a, b) => Math.max(a.t0 - minute, minute - a.t1, 0) - Math.max(b.t0 - minute, minute - b.t1, 0))[0];
    expect(vehicle.driverLastName).toBe(nearest.last_name);
    const [{ cameras }] = await t.db.query<{ cameras: number }>(
      'select count(*)::int as cameras from mgt.dev_camera c join mgt.dvr d on d.id = c.dvr_id where d.vehicle_id = $1',
      [task.vehicle_id],
    );
    expect(vehicle.cameraCount).toBe(cameras);

    const list = await get<OnlineVehicle[]>(`/api/v1/map/online?q=${task.vehicle_id},99999`);
    expect(list.map((v) => v.id)).toEqual([task.vehicle_id]);
    await get('/api/v1/map/online/99999', 404);
  });

  it('lists agencies, branches and departments with coordinates', async () => {
    const layers = await get<BranchAgency>('/api/v1/map/branchagency');
    expect(layers.agencies.length).toBeGreaterThan(0);
    expect(layers.depots[0]).toEqual({
      id: expect.any(Number),
      title: expect.any(String),
      address: expect.any(String),
      phone: expect.any(String),
      agency_id: expect.any(Number),
      lat: expect.any(Number),
      lon: expect.any(Number),
    });
    expect(layers.departments[0].color).toMatch(/^#/);
  });

  it('searches vehicles, routes and agencies', async () => {
    const [vehicle] = await t.db.query<{ id: number; depot_number: number; state_number: string }>(
      'select id, depot_number, state_number from mgt.vehicles order by id limit 1',
    );
    const byNumber = await get<MapSearchResult['vehicles']>(`/api/v1/map/vehicles?number=${vehicle.depot_number}`);
    expect(byNumber[0].id).toBe(vehicle.id);
    const byPlate = await get<MapSearchResult['vehicles']>(
      `/api/v1/map/vehicles?number=${encodeURIComponent(vehicle.state_number.slice(1, 4).toLowerCase())}`,
    );
    expect(byPlate.map((v) => v.id)).toContain(vehicle.id);
    expect(await get('/api/v1/map/vehicles?number=%25')).toEqual([]);
    await get('/api/v1/map/vehicles', 400);

    const [route] = await t.db.query<{ route_id: number; route_short_name: string }>(
      'select route_id, route_short_name from mgt.routes order by route_id limit 1',
    );
    const [agency] = await t.db.query<{ agency_id: number; title: string }>(
      'select agency_id, title from mgt.agency order by agency_id limit 1',
    );
    const found = await get<MapSearchResult>(`/api/v1/map/search?q=${encodeURIComponent(route.route_short_name)}`);
    expect(found.routes[0].route_id).toBe(route.route_id);
    const agencies = await get<MapSearchResult>(`/api/v1/map/search?q=${encodeURIComponent(agency.title.slice(3, 12))}`);
    expect(agencies.agencies.map((a) => a.id)).toContain(agency.agency_id);
    const many = await get<MapSearchResult>('/api/v1/map/search?q=1');
    expect(many.vehicles.length).toBeLessThanOrEqual(20);
  });

  it('lists stops in view with their routes, and one stop', async () => {
    const stops = await get<StopDetails[]>('/api/v1/map/stops?bbox=59.90,30.20,60.00,30.40');
    expect(stops.length).toBeGreaterThan(0);
    for (const stop of stops) {
      expect(stop.lat).toBeGreaterThanOrEqual(59.9);
      expect(stop.lat).toBeLessThanOrEqual(60);
      expect(stop.lon).toBeGreaterThanOrEqual(30.2);
      expect(stop.lon).toBeLessThanOrEqual(30.4);
    }
    const served = stops.find((s) => s.routes.length > 0)!;
    expect(await get<StopDetails>(`/api/v1/map/stop/${served.id}`)).toEqual(served);
    await get('/api/v1/map/stop/999999', 404);
    await get('/api/v1/map/stops?bbox=60,30,59,31', 400);
    await get('/api/v1/map/stops?bbox=1,2,3', 400);
  });

  it("names incident types, falling back to the spec's default label, on both paths", async () => {
    await t.db.query("insert into adas.incident_type (incident_type, incident_name, incident_color) values (990, '', '#123456')");
    const types = await get<IncidentType[]>('/api/v1/map/incident-types');
    expect(types.find((type) => type.incidentType === 101)).toEqual({
      incidentType: 101,
      colour: '#e53935',
      shortName: 'Сближение',
      name: 'Опасное сближение',
    });
    expect(types.find((type) => type.incidentType === 990)).toEqual({
      incidentType: 990,
      colour: '#123456',
      shortName: null,
      name: 'ISPV event 990',
    });
    expect(await get<IncidentType[]>('/api/v1/adas/incidents-types')).toEqual(types);
  });

  it('gives the incident layer for a period and area, refusing periods over 7 days', async () => {
    // the demo history fills the same days: the layer is checked on these three incidents alone
    await t.db.query('delete from adas.incident_event');
    const at = new Date(Date.now() - 3_600_000);
    await t.app.eventsWriter.adasIncidents([
      { at, vehicleId: 1, incidentType: 101, speed: 30, lat: 59.95, lon: 30.3, grade: 1 },
      { at, vehicleId: 2, incidentType: 102, speed: 10, lat: 55.75, lon: 37.6, grade: 2 },
      { at: new Date(Date.now() - 3 * 86_400_000), vehicleId: 1, incidentType: 103, speed: 5, lat: 59.95, lon: 30.3, grade: 1 },
    ]);
    const recent = await get<IncidentEvent[]>('/api/v1/map/incidents?bbox=59.5,29.5,60.5,31');
    expect(recent.map((e) => e.incident_type)).toEqual([101]);
    expect(recent[0]).toEqual({
      id: expect.any(Number),
      depot_number: expect.any(Number),
      incident_type: 101,
      tm: at.toISOString(),
      speed: 30,
      lat: 59.95,
      lon: 30.3,
    });
    const from = new Date(Date.now() - 5 * 86_400_000).toISOString();
    const week = await get<IncidentEvent[]>(`/api/v1/map/incidents?from=${from}`);
    expect(week.map((e) => e.incident_type).sort()).toEqual([101, 102, 103]);
    await get(`/api/v1/map/incidents?from=${new Date(Date.now() - 8 * 86_400_000).toISOString()}`, 400);
    await get(`/api/v1/map/incidents?from=${new Date().toISOString()}&to=${from}`, 400);
    await get('/api/v1/map/incidents?from=yesterday', 400);
  });

  it('refuses the map calls without the map right', async () => {
    await createUserWith(t.db, 'nomap', { '/map/previousData': 0b0100 });
    const other = await t.login('nomap', TEST_PASSWORD);
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/map/filters', headers: { authorization: other } })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/map/filters' })).statusCode).toBe(401);
  });
});
