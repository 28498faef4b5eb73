import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateDemoData } from '../src/server/db/demo/generate';
import { arrayLiteral } from '../src/server/db/demo/insertRows';
import type { DemoData } from '../src/server/db/demo/rows';
import { TABLES } from '../src/server/db/demo/tables';
import { MARSH_TYPE } from '../src/server/db/demo/reference';
import { VEHICLE_CLASSES } from '../src/shared/constants';
import { HANDBOOKS, HANDBOOK_TYPES } from '../schemas/index';
import { ENGINES } from './helpers/engines';
import { startTestApp, type TestApp } from './helpers/testApp';

const DAY = new Date(2026, 2, 16);
const hash = (data: DemoData) => createHash('sha256').update(JSON.stringify(data)).digest('hex');
const city = generateDemoData('city', DAY);
const small = generateDemoData('test', DAY);
const ipv4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;
const validIp = (ip: string | null) => ip !== null && ipv4.test(ip) && ip.split('.').every((octet) => Number(octet) <= 255);

describe('demo data generator', () => {
  it('gives the same rows for the same scale; only the assignment dates follow the day', () => {
    expect(hash(generateDemoData('city', DAY))).toBe(hash(city));
    expect(generateDemoData('test', DAY)).toEqual(small);
    const later = generateDemoData('test', new Date(2026, 5, 1));
    expect({ ...later, vehicleTasks: [], replaceVehicles: [] }).toEqual({ ...small, vehicleTasks: [], replaceVehicles: [] });
    expect(later.vehicleTasks[0].date).toBe('2026-06-01');
    expect(small.vehicleTasks[0].date).toBe('2026-03-16');
  });

  it('has the city in the target ranges', () => {
    const count = (key: keyof DemoData) => city[key].length;
    expect(count('agencies')).toBe(6);
    expect(count('depots')).toBe(20);
    expect(count('stops')).toBeGreaterThan(2700);
    expect(count('stops')).toBeLessThan(3300);
    expect(count('routes')).toBe(150);
    expect(count('vehicles')).toBe(2000);
    expect(count('drivers')).toBeGreaterThan(2900);
    expect(count('drivers')).toBeLessThan(3200);
    expect(count('raspTimes')).toBeGreaterThan(150_000);
    expect(count('raspTimes')).toBeLessThanOrEqual(300_000);
    expect(count('districts')).toBe(18);
    expect(count('departments')).toBe(6);
    expect(count('controlRegions')).toBe(12);
    expect(count('incidentTypes')).toBeGreaterThanOrEqual(8);
    expect(city.routes.map((r) => r.route_short_name)).toEqual([...new Set(city.routes.map((r) => r.route_short_name))]);
    const outside = city.stops.filter((p) => p.stop_lat < 59.8 || p.stop_lat > 60.1 || p.stop_lon < 30.1 || p.stop_lon > 30.55);
    expect(outside).toEqual([]);
  });

  it('fills every table at both scales, each row with exactly its table columns', () => {
    for (const data of [city, small]) {
      for (const key of Object.keys(TABLES) as (keyof DemoData)[]) {
        expect(data[key].length, key).toBeGreaterThan(0);
        const columns = TABLES[key].columns
          .map(([name]) => name)
          .sort()
          .join();
        const shapes = new Set<string>(data[key].map((row: object) => Object.keys(row).sort().join()));
        expect([...shapes], key).toEqual([columns]);
      }
    }
  });

  it('orders the stops of every trip, B on the first and E on the last', () => {
    for (const [data, [min, max]] of [
      [city, [15, 35]],
      [small, [8, 14]],
    ] as const) {
      const byTrip = new Map<number, DemoData['tripStops']>();
      for (const row of data.tripStops) byTrip.set(row.trip_id, [...(byTrip.get(row.trip_id) ?? []), row]);
      expect(byTrip.size).toBe(data.trips.length);
      for (const rows of byTrip.values()) {
        expect(rows.map((r) => r.stop_sequence)).toEqual(rows.map((_, i) => i + 1));
        expect(rows.map((r) => r.kkp)).toEqual(rows.map((_, i) => (i === 0 ? 'B' : i === rows.length - 1 ? 'E' : null)));
        if (data === city) expect(rows.length).toBeGreaterThanOrEqual(min);
        expect(rows.length).toBeLessThanOrEqual(max);
      }
      for (const trip of data.trips) expect(trip.trajectory).toMatch(/^(LINESTRING|MULTILINESTRING)\(/);
    }
    expect(new Set(city.trips.filter((t) => t.trajectory.startsWith('MULTI')).map((t) => t.MarshVariant_id)).size).toBeGreaterThanOrEqual(
      2,
    );
  });

  it('uses only the four vehicle classes, and the transport type that is dropped from the user', () => {
    for (const data of [city, small]) {
      expect(data.capacityTypes.map((c) => c.code)).toEqual(VEHICLE_CLASSES.map((c) => c.code));
      const ids = new Set(data.capacityTypes.map((c) => c.id));
      for (const vehicle of data.vehicles) expect(ids.has(vehicle.capacity_type_id)).toBe(true);
      expect(data.transportTypes.some((t) => t.title === '-' && t.note === '-')).toBe(true);
    }
    expect(new Set(city.vehicles.map((v) => v.capacity_type_id)).size).toBe(4);
  });

  it('has vehicles out at every hour: the small town round the clock, the city on its night routes', () => {
    for (const data of [city, small]) {
      const hours = new Set<number>();
      for (const r of data.raspTimes) hours.add(Math.floor(r.time / 60) % 24);
      expect([...hours].sort((a, b) => a - b)).toEqual([...Array(24).keys()]);
    }
    const nightRoutes = new Set(city.routes.filter((r) => r.MarshType_id === MARSH_TYPE.night).map((r) => r.route_id));
    const nightVariants = new Set(city.raspVariants.filter((v) => nightRoutes.has(v.route_id)).map((v) => v.id));
    const nightHours = new Set(city.raspTimes.filter((r) => nightVariants.has(r.RaspVariant_id)).map((r) => Math.floor(r.time / 60) % 24));
    for (const hour of [0, 1, 2, 3, 4, 5]) expect(nightHours.has(hour)).toBe(true);
  });

  it('keeps the handbook limits and links', () => {
    for (const data of [city, small]) {
      const vehicles = new Map(data.vehicles.map((v) => [v.id, v]));
      expect(new Set(data.vehicles.map((v) => `${v.depot_id}/${v.depot_number}`)).size).toBe(data.vehicles.length);
      expect(new Set(data.vehicles.map((v) => v.peer_address)).size).toBe(data.vehicles.length);
      expect(new Set(data.drivers.map((d) => d.table_number)).size).toBe(data.drivers.length);
      expect(data.vehicles.filter((v) => v.model.length > 50 || (v.state_number ?? '').length > 12 || v.vin.length > 25)).toEqual([]);
      expect(data.mnts.map((m) => m.vehicle_id).sort((a, b) => a - b)).toEqual(data.vehicles.map((v) => v.id));
      expect(data.mnts.filter((m) => m.peer_address !== vehicles.get(m.vehicle_id)?.peer_address || !validIp(m.ip))).toEqual([]);
      expect(data.dvrs.filter((d) => !validIp(d.ip) || d.port < 1 || d.port > 65535)).toEqual([]);
      for (const t of [...data.mntTypes.map((m) => m.name), ...data.dvrTypes.map((d) => d.name)]) expect(t).toMatch(/^[\p{L}\d_-]+$/u);
      for (const a of data.agencies) expect(a.transporter_id).toBeLessThanOrEqual(32767);
      for (const v of data.raspVariants) if (v.enddate) expect(v.enddate > v.startdate).toBe(true);
      // a service day from 03:00 to 06:00 next morning at the latest (night routes)
      expect(data.raspTimes.filter((r) => r.time < 180 || r.time > 1800)).toEqual([]);
      // Within a race the times never go back.
      expect(data.raspTimes.filter((r, i, all) => r.order > 1 && r.time < all[i - 1].time)).toEqual([]);
      // No driver twice on one day, no vehicle on two graphs of one day.
      const drivers = new Set(data.vehicleTasks.map((task) => `${task.date}/${task.driver_id}`));
      expect(drivers.size).toBe(data.vehicleTasks.length);
      const graphs = new Map<string, string>();
      for (const task of data.vehicleTasks) graphs.set(`${task.date}/${task.vehicle_id}`, `${task.RaspVariant_id}/${task.graph}`);
      expect(graphs.size).toBe(new Set(data.vehicleTasks.map((task) => `${task.date}/${task.RaspVariant_id}/${task.graph}`)).size);
    }
    expect(new Set(city.dvrs.map((d) => d.vehicle_id)).size / city.vehicles.length).toBeCloseTo(0.4, 1);
  });
});

describe('array literals', () => {
  it('quote what PostgreSQL would misread', () => {
    expect(arrayLiteral([1, null, 2.5])).toBe('{1,NULL,2.5}');
    expect(arrayLiteral(['a,b', 'say "hi"', 'back\\slash', 'NULL', true])).toBe('{"a,b","say \\"hi\\"","back\\\\slash","NULL",t}');
  });
});

describe.each(ENGINES)('demo data on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(engine);
  });
  afterAll(() => t.close());

  it('is loaded into the test database, every table of it', async () => {
    for (const key of Object.keys(TABLES) as (keyof DemoData)[]) {
      const [{ n }] = await t.db.query<{ n: number }>(`select count(*)::int as n from ${TABLES[key].table}`);
      expect(n, TABLES[key].table).toBe(small[key].length);
    }
  });

  it('has valid polygons for districts and control regions, and line trajectories', async () => {
    const [district] = await t.db.query<{ valid: boolean; polygons: boolean; overlap: number }>(
      `select bool_and(st_isvalid(geom)) as valid, bool_and(geometrytype(geom) = 'POLYGON') as polygons,
         (select coalesce(max(st_area(st_intersection(a.geom, b.geom))), 0) from cat.district a join cat.district b on a.district_id < b.district_id) as overlap
       from cat.district`,
    );
    expect(district).toEqual({ valid: true, polygons: true, overlap: expect.any(Number) });
    expect(district.overlap).toBeLessThan(1e-9);
    const [regions] = await t.db.query<{ valid: boolean }>('select bool_and(st_isvalid(geom)) as valid from cat.control_region');
    expect(regions.valid).toBe(true);
    const kinds = await t.db.query<{ kind: string }>('select distinct geometrytype(trajectory) as kind from mgt.trip order by 1');
    expect(kinds.map((k) => k.kind)).toEqual(['LINESTRING', 'MULTILINESTRING']);
  });

  it('fills every handbook, the route stops and the schedule-time link too, consistently with the trips and schedules', async () => {
    const empty: string[] = [];
    for (const type of HANDBOOK_TYPES) {
      const { schema, name } = HANDBOOKS[type].table;
      const [{ n }] = await t.db.query<{ n: number }>(`select count(*)::int as n from ${schema}."${name}"`);
      if (n === 0) empty.push(type);
    }
    expect(empty).toEqual([]);
    const [routes] = await t.db.query<{ served: number; all: number }>(
      'select (select count(distinct route_id)::int from mgt.route_stop) as served, (select count(*)::int from mgt.routes) as all',
    );
    expect(routes.served).toBe(routes.all);
    const [shifts] = await t.db.query<{ linked: number; all: number }>(
      `select (select count(*)::int from mgt.rasp_time_link) as linked,
              (select count(*)::int from (select distinct "RaspVariant_id", graph, smena from mgt.rasp_time) s) as all`,
    );
    expect(shifts.linked).toBe(shifts.all);
  });

  it('keeps text exactly through the array parameters', async () => {
    const values = ['a,b', 'say "hi"', 'back\\slash', 'NULL', '{}', 'Ст. м. «Купчино»', null];
    const rows = await t.db.query<{ v: string | null }>('select unnest($1::text[]) as v', [arrayLiteral(values)]);
    expect(rows.map((r) => r.v)).toEqual(values);
  });

  it('moves the sequences past the demo ids, and keeps the demo logins', async () => {
    const [stop] = await t.db.query<{ stop_id: number }>("insert into mgt.stops (stop_name) values ('Новая') returning stop_id");
    expect(stop.stop_id).toBe(small.stops.length + 1);
    const [route] = await t.db.query<{ route_id: number }>(
      `insert into mgt.routes (route_long_name, route_type, "MarshType_id", route_short_name, route_desc) values ('x', 'А', 1, '999', 'x') returning route_id`,
    );
    expect(route.route_id).toBe(small.routes.length + 1);
    expect(await t.login('admin', 'admin123')).toMatch(/^Bearer /);
  });
});
