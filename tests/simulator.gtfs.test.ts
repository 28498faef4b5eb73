import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, operatorDate, operatorMidnight } from '../src/server/platform/operatorDay';
import { simulatorConfig } from '../src/server/simulator/config';
import { Simulator } from '../src/server/simulator/simulator';
import type { VehiclePlan } from '../src/server/simulator/vehiclePlan';
import { ENGINES } from './helpers/engines';
import { appointSpareVehicle, cleanFeed, importFeed } from './helpers/gtfsFeeds';
import { startTestApp, type TestApp } from './helpers/testApp';

/** Metres between two points (short distances). */
const metres = (a: { lat: number; lon: number }, b: { lat: number; lon: number }) =>
  Math.hypot((a.lat - b.lat) * 111_320, (a.lon - b.lon) * 111_320 * Math.cos((a.lat * Math.PI) / 180));

/**
 * A fresh network from a GTFS feed comes alive: the simulator plans it again after the import and drives the
 * fleet not working today along the imported trips at the feed's times; a vehicle the dispatcher assigns to an
 * imported exit (the vehicle-task import) takes it over.
 */
describe.each(ENGINES)('the simulator on an imported network on %s', (engine) => {
  let t: TestApp;
  let admin: string;
  let tz: number;
  let today: string;
  let clock: number;
  let simulator: Simulator;
  const at = (hh: number, mm: number, ss = 0) => operatorMidnight(today, tz) + ((hh * 60 + mm) * 60 + ss) * 1000;

  /** The feed of the tests' small network, running every day around today, with a tram line beside the bus line. */
  function feed(): Record<string, string> {
    const files = cleanFeed();
    const day = (offset: number) => addDays(today, offset).replaceAll('-', '');
    files['calendar.txt'] =
      `service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\nwd,1,1,1,1,1,1,1,${day(-30)},${day(300)}\n`;
    files['routes.txt'] =
      'route_id,agency_id,route_short_name,route_long_name,route_type\nr1,A,G7,Площадь — Вокзал,3\nr2,A,G8,Парк — Вокзал,0\n';
    files['trips.txt'] += 'r2,wd,t3,0,b2\n';
    files['stop_times.txt'] += 't3,08:00:00,08:00:00,s3,1\nt3,08:06:00,08:06:00,s4,2\n';
    return files;
  }

  const localId = async (kind: string, gtfsId: string) =>
    (await t.db.query<{ id: number }>('select local_id as id from gtfs.external_key where kind = $1 and gtfs_id = $2', [kind, gtfsId]))[0]
      .id;
  const stopAt = async (stopId: number) =>
    (
      await t.db.query<{ lat: number; lon: number }>('select stop_lat as lat, stop_lon as lon from mgt.stops where stop_id = $1', [stopId])
    )[0];
  /** The races of `routeId` in a vehicle's plan, as it really drives them. */
  const racesOn = (plan: VehiclePlan, routeId: number) =>
    plan.legs.flatMap((leg) => (leg.kind === 'race' && leg.race.routeId === routeId ? [leg.race] : []));
  /** The vehicles whose plan drives races of `routeId`. */
  const onRoute = (routeId: number) => simulator.vehicles.filter((plan) => racesOn(plan, routeId).length > 0).map((plan) => plan.vehicleId);

  beforeAll(async () => {
    t = await startTestApp(engine);
    admin = await t.login('admin', 'admin123');
    tz = t.app.map.config.tzOffsetMinutes;
    today = operatorDate(Date.now(), tz);
    clock = at(6, 0);
    simulator = new Simulator(
      { db: t.db, ingest: () => undefined, log: t.app.log },
      { ...simulatorConfig(false, {}), enabled: true, tzOffsetMinutes: tz },
      () => clock,
    );
    await simulator.prepare();
  });
  afterAll(async () => {
    await simulator.stop();
    await t.close();
  });

  it("plans the day again after an import and drives the imported trips at the feed's times with vehicles not working today", async () => {
    expect(await simulator.refresh()).toBe(false);
    const before = new Set(simulator.vehicles.map((plan) => plan.vehicleId));
    const run = await importFeed(t.app, admin, feed());
    expect(run.status, JSON.stringify(run.report)).toBe('done');

    expect(await simulator.refresh()).toBe(true);
    const route = await localId('route', 'r1');
    const [driver] = onRoute(route);
    expect(driver).toBeDefined();
    // a vehicle of the bus fleet that had no work today
    expect(before.has(driver)).toBe(false);
    const [vehicle] = await t.db.query<{ type: string }>(
      'select t.note as type from mgt.vehicles v join mgt.transport_type t on t.id = v.vehicle_type_id where v.id = $1',
      [driver],
    );
    expect(vehicle.type).toBe('А');
    const [{ n: tasks }] = await t.db.query<{ n: number }>(
      'select count(*)::int n from mgt.vehicle_task where vehicle_id = $1 and date = $2',
      [driver, today],
    );
    expect(tasks).toBe(0);

    // The feed's timetable: race 1 (A) s1 07:00, s2 07:05 (07:04:30 rounded), s3 07:08, s4 07:12; race 2 (B) back
    // from s4 at 07:20. The vehicle drives it as traffic lets it (docs/simulator.md "Variation": a late pull-out or
    // a skipped run may leave a race out), each race at the stops at the times it really passes them.
    const plan = simulator.vehicles.find((p) => p.vehicleId === driver)!;
    const races = racesOn(plan, route);
    expect(races.length).toBeGreaterThan(0);
    const timetable = new Map([
      [1, [at(7, 0), at(7, 5), at(7, 8), at(7, 12)]],
      [2, [at(7, 20), at(7, 24), at(7, 28), at(7, 32)]],
    ]);
    const patterns = (
      await t.db.query<{ id: number }>(
        `select k.local_id as id from gtfs.external_key k join mgt.trip tr on tr.id = k.local_id join mgt.marsh_variants mv on mv.id = tr."MarshVariant_id"
        where k.kind = 'pattern' and mv.route_id = $1`,
        [route],
      )
    ).map((p) => p.id);
    for (const race of races) {
      expect(Array.from(race.times)).toEqual(timetable.get(race.raceNum!));
      // never off its first stop before the timetable says; each hop within half to twice the timetable's time
      expect(race.departures[0]).toBeGreaterThanOrEqual(race.times[0]);
      for (let k = 1; k < race.times.length; k++) {
        const hop = race.arrivals[k] - race.departures[k - 1];
        const planned = Math.max(60_000, race.times[k] - race.times[k - 1]);
        expect(hop).toBeGreaterThan(planned * 0.5);
        expect(hop).toBeLessThan(planned * 2);
      }
      const stops = await Promise.all(race.stopIds!.map(stopAt));
      expect(metres(plan.stateAt(race.departures[0] - 5_000)!, stops[0])).toBeLessThan(5);
      expect(plan.stateAt(race.departures[0] - 5_000)!.speed).toBe(0);
      for (let k = 1; k < stops.length; k++) expect(metres(plan.stateAt(race.arrivals[k])!, stops[k])).toBeLessThan(5);
      const moving = plan.stateAt((race.departures[1] + race.arrivals[2]) / 2)!;
      expect(moving.speed).toBeGreaterThan(5);
      expect(patterns).toContain(moving.tripId);
      const [{ metres: off }] = await t.db.query<{ metres: number }>(
        'select st_distance(trajectory::geography, st_setsrid(st_makepoint($2, $3), 4326)::geography) as metres from mgt.trip where id = $1',
        [moving.tripId, moving.lon, moving.lat],
      );
      expect(off).toBeLessThan(5);
    }
    // the way back, in the opposite direction, along the other trip
    if (races.length === 2) expect(races[1].tripId).not.toBe(races[0].tripId);
    // parked before its first race and after its last
    expect(plan.stateAt(plan.start - 60_000)!.parked).toBe(true);
    expect(plan.stateAt(plan.end + 60_000)!.parked).toBe(true);
    expect(plan.stateAt(races[0].departures[0])!.parked).toBe(false);

    // the tram line gets a tram
    const [tram] = onRoute(await localId('route', 'r2'));
    const [tramType] = await t.db.query<{ type: string }>(
      'select t.note as type from mgt.vehicles v join mgt.transport_type t on t.id = v.vehicle_type_id where v.id = $1',
      [tram],
    );
    expect(tramType.type).toBe('Тм');
  });

  it("takes the dispatcher's vehicle for an imported exit once the vehicle-task import assigns one", async () => {
    const route = await localId('route', 'r1');
    const [filled] = onRoute(route);
    const { vehicle: chosen, answer } = await appointSpareVehicle(t.app, admin, today, 'G7', [filled]);
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json()).toEqual({ rows: 1, assigned: 1, replaced: 0, unchanged: 0 });
    const [task] = await t.db.query<{ route_id: number; graph: number; smena: string }>(
      `select v.route_id, k.graph, k.smena from mgt.vehicle_task k join mgt.rasp_variant v on v.id = k."RaspVariant_id" where k.date = $1 and k.vehicle_id = $2`,
      [today, chosen.id],
    );
    expect(task).toEqual({ route_id: route, graph: 1, smena: '1' });

    expect(await simulator.refresh()).toBe(true);
    expect(onRoute(route)).toEqual([chosen.id]);
    expect(onRoute(route)).not.toContain(filled);
  });
});
