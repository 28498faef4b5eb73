import GtfsRealtimeBindings from 'gtfs-realtime-bindings';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/server/config';
import { LiveRuns, type LiveTripUpdate } from '../src/server/gtfs/liveRuns';
import { buildTripUpdates, type EncodedEntity } from '../src/server/gtfs/tripUpdatesFeed';
import { operatorDate, operatorMidnight } from '../src/server/platform/operatorDay';
import { createSource } from '../src/server/telemetry/http/sourceKeys';
import { PERMISSION_CODES } from '../src/shared/permissionCodes';
import { eastOf, insertLineRoute, lineDrive } from './dispatch.tracks';
import { ENGINES } from './helpers/engines';
import { rowsOf, unzipTexts } from './helpers/gtfsFeeds';
import { startTestApp, type TestApp } from './helpers/testApp';
import { createUserWith, TEST_PASSWORD } from './helpers/users';

const { transit_realtime: rt } = GtfsRealtimeBindings;
const TRIP_UPDATES = '/api/v1/gtfs-rt/trip-updates';
const VEHICLE_POSITIONS = '/api/v1/gtfs-rt/vehicle-positions';
const TZ = 180;
const point = eastOf(55.79, 37.48);
const withDispatch = () => ({ switches: loadConfig({ DEMO_DATA: 'false', MODULES: 'dispatch' }).switches });
const decode = (bytes: Buffer) => rt.FeedMessage.decode(bytes);
/** Minutes of the day as stop_times.txt writes them (past 24:00 after midnight). */
const gtfsTime = (minute: number) => `${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}:00`;

/**
 * The live timetable out as GTFS-Realtime, checked against the static feed read from its zip in the same test:
 * a bus on its run between stops 5 and 6 of a line of eight (posted over HTTP, matched by its task), a second
 * exit whose vehicle never reports, a vehicle the engine does not match.
 */
describe.each(ENGINES)('GTFS-Realtime TripUpdates and VehiclePositions from the live timetable on %s', (engine) => {
  let t: TestApp;
  let serviceDate: string;
  let midnight: number;
  let routeId: number;
  let variant: number;
  let firstMinute: number;
  let bus: number;
  let stray: number;
  let staticFeed: Record<string, Record<string, string>[]>;

  const get = (url: string) => t.app.inject({ method: 'GET', url });
  const feedOf = async (url: string) => {
    const response = await get(url);
    expect(response.statusCode, response.body.slice(0, 300)).toBe(200);
    expect(response.headers['content-type']).toBe('application/x-protobuf');
    return decode(response.rawPayload);
  };

  beforeAll(async () => {
    t = await startTestApp(engine, withDispatch());
    const now = Date.now();
    // exit 1 left its first stop nine to ten minutes ago (stops 1-5 behind the bus, 6-8 ahead), its second run later;
    // exit 2's run is under way with nobody on it. Stop 6 is due within the minute after the set-up starts: a bus not
    // there by then is late by the time past it, so a slow set-up must not pass its time before the feed is read.
    serviceDate = operatorDate(now - 15 * 60_000, TZ);
    midnight = operatorMidnight(serviceDate, TZ);
    firstMinute = Math.floor((now - 9 * 60_000 - midnight) / 60_000);
    let stopIds: number[];
    ({ routeId, stopIds, variant } = await insertLineRoute(t.db, point, serviceDate, '97'));
    const races: [graph: number, race: number, first: number][] = [
      [1, 1, firstMinute],
      [1, 2, firstMinute + 30],
      [2, 1, firstMinute + 5],
    ];
    for (const [graph, race, first] of races) {
      for (const [i, stopId] of stopIds.entries()) {
        await t.db.query(
          `insert into mgt.rasp_time ("RaspVariant_id", graph, smena, racetype, racenum, "order", stop_id, time) values ($1, $2, '1', 'A', $3, $4, $5, $6)`,
          [variant, graph, race, i + 1, stopId, first + 2 * i],
        );
      }
    }
    [{ id: bus }] = await t.db.query<{ id: number }>(
      `insert into mgt.vehicles (depot_number, peer_address, state_number) values (990401, 8400001, 'А401ВС77') returning id`,
    );
    const [{ id: idle }] = await t.db.query<{ id: number }>(
      'insert into mgt.vehicles (depot_number, peer_address) values (990402, 8400002) returning id',
    );
    [{ id: stray }] = await t.db.query<{ id: number }>(
      'insert into mgt.vehicles (depot_number, peer_address) values (990403, 8400003) returning id',
    );
    const [{ driver_id: driver }] = await t.db.query<{ driver_id: number }>(
      `insert into mgt.driver (last_name, first_name, table_number) values ('Сидоров', 'Семён', 4) returning driver_id`,
    );
    for (const [graph, vehicle] of [
      [1, bus],
      [2, idle],
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
    const scheduledFirst = midnight + firstMinute * 60_000;
    const positions = [
      // on time, up to a minute past its departure from stop 5
      ...lineDrive(point, '8400001', scheduledFirst, 0, scheduledFirst + 4 * 120_000 + 60_000),
      // far from any run
      { device: '8400003', time: new Date(now - 5_000).toISOString(), lat: 55.2, lon: 39.9, speed: 20, course: 0 },
    ];
    const posted = await t.app.inject({
      method: 'POST',
      url: '/api/v1/telemetry/positions',
      headers: { 'x-telemetry-key': key },
      payload: { positions },
    });
    expect(posted.statusCode).toBe(200);
    await t.app.dispatch.settle();

    const admin = await t.login('admin', 'admin123');
    const zip = await t.app.inject({ method: 'GET', url: '/api/v1/gtfs/static.zip', headers: { authorization: admin } });
    expect(zip.statusCode).toBe(200);
    const files = await unzipTexts(zip.rawPayload);
    staticFeed = Object.fromEntries(Object.entries(files).map(([name, text]) => [name, rowsOf(text)]));
  }, 240_000);
  afterAll(() => t?.close());

  /** Every trip, route and stop of a TripUpdates feed is the static feed's, as it names them. */
  function expectStaticIds(feed: GtfsRealtimeBindings.transit_realtime.FeedMessage): void {
    const trips = new Map(staticFeed['trips.txt'].map((r) => [r.trip_id, r]));
    const stops = new Set(staticFeed['stops.txt'].map((r) => r.stop_id));
    const routes = new Set(staticFeed['routes.txt'].map((r) => r.route_id));
    const stopTimes = new Map<string, Record<string, string>[]>();
    for (const row of staticFeed['stop_times.txt'])
      (stopTimes.get(row.trip_id) ?? stopTimes.set(row.trip_id, []).get(row.trip_id)!).push(row);
    for (const entity of feed.entity) {
      const { trip, stopTimeUpdate } = entity.tripUpdate!;
      const row = trips.get(trip.tripId!);
      expect(row, trip.tripId!).toBeDefined();
      expect(routes.has(trip.routeId!)).toBe(true);
      expect({ routeId: trip.routeId, directionId: trip.directionId }).toEqual({
        routeId: row!.route_id,
        directionId: Number(row!.direction_id),
      });
      const times = stopTimes.get(trip.tripId!)!.sort((a, b) => Number(a.stop_sequence) - Number(b.stop_sequence));
      expect(trip.startTime).toBe(times[0].departure_time);
      for (const update of stopTimeUpdate ?? []) {
        expect(stops.has(update.stopId!), update.stopId!).toBe(true);
        expect(times.find((x) => Number(x.stop_sequence) === update.stopSequence)?.stop_id).toBe(update.stopId);
      }
    }
  }

  it("gives the bus's run as a trip update of the static feed's trip, with predicted times of the stops still ahead", async () => {
    const feed = await feedOf(TRIP_UPDATES);
    expect(feed.header).toMatchObject({ gtfsRealtimeVersion: '2.0', incrementality: rt.FeedHeader.Incrementality.FULL_DATASET });
    expectStaticIds(feed);
    // one update: the bus (exit 2's vehicle never reported, the stray one is on no run)
    expect(feed.entity.map((e) => e.id)).toEqual([String(bus)]);
    const update = feed.entity[0].tripUpdate!;
    expect(update.trip).toMatchObject({
      tripId: `${routeId}-${variant}-A${gtfsTime(firstMinute).slice(0, 5).replace(':', '')}`,
      routeId: String(routeId),
      directionId: 0,
      startDate: serviceDate.replaceAll('-', ''),
      startTime: gtfsTime(firstMinute),
    });
    expect(update.vehicle).toMatchObject({ id: '990401', label: '990401', licensePlate: 'А401ВС77' });
    expect(update.stopTimeUpdate!.map((s) => s.stopSequence)).toEqual([6, 7, 8]);
    let previous = 0;
    for (const [i, s] of update.stopTimeUpdate!.entries()) {
      const scheduled = (midnight + (firstMinute + 2 * (s.stopSequence! - 1)) * 60_000) / 1000;
      const arrival = Number(s.arrival!.time);
      // an on-time bus: predicted within two minutes of the timetable, the delay its difference
      expect(Math.abs(arrival - scheduled)).toBeLessThan(120);
      expect(s.arrival!.delay).toBe(arrival - scheduled);
      expect(arrival).toBeGreaterThanOrEqual(previous);
      // the run ends on arrival at its last stop: no departure there
      if (i < 2) expect(Number(s.departure!.time)).toBeGreaterThanOrEqual(arrival);
      else expect(s.departure).toBeNull();
      previous = Number(s.departure?.time ?? arrival);
    }
    expect(Math.abs(update.delay!)).toBeLessThan(60);
    expect(Number(update.timestamp)).toBeGreaterThan(Date.now() / 1000 - 20 * 60);
  });

  it('gives the vehicle positions the same trip and vehicle, and no trip to a vehicle the timetable did not match', async () => {
    const positions = await feedOf(VEHICLE_POSITIONS);
    const updates = await feedOf(TRIP_UPDATES);
    for (const entity of updates.entity) {
      const position = positions.entity.find((e) => e.vehicle!.vehicle!.id === entity.tripUpdate!.vehicle!.id)!.vehicle!;
      expect(position.vehicle).toEqual(entity.tripUpdate!.vehicle);
      expect(position.trip).toEqual(entity.tripUpdate!.trip);
    }
    expect(positions.entity.find((e) => e.id === String(stray))!.vehicle!.trip).toBeNull();
  });

  it('serves the same feed as JSON for people', async () => {
    const response = await get(`${TRIP_UPDATES}?format=json`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toMatch(/max-age/);
    const feed = response.json();
    expect(feed.header).toMatchObject({ gtfsRealtimeVersion: '2.0', incrementality: 'FULL_DATASET' });
    const [entity] = feed.entity;
    expect(entity.tripUpdate.trip).toMatchObject({ routeId: String(routeId), startDate: serviceDate.replaceAll('-', '') });
    expect(entity.tripUpdate.stopTimeUpdate[0]).toMatchObject({
      stopSequence: 6,
      arrival: { time: expect.any(Number), delay: expect.any(Number) },
    });
    expect((await get(`${TRIP_UPDATES}?format=xml`)).statusCode).toBe(400);
  });

  it('gives a run the engine reports not performed as a CANCELED trip', async () => {
    // The engine reports a run not performed `runMissedSeconds` after its end, and only for runs it watched
    // end: exit 2's run ends in a few minutes; the rules are run at a time past that.
    const run = t.app.dispatch.engine.schedules
      .find((d) => d.serviceDate === serviceDate)!
      .runs.find((r) => r.variantId === variant && r.graph === 2)!;
    t.app.dispatch.engine.tick(run.end + t.app.dispatch.engine.thresholds.runMissedSeconds * 1000 + 1000);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const feed = await feedOf(TRIP_UPDATES);
    expectStaticIds(feed);
    // (the demo city's tasked runs, whose vehicles report nothing here, are cancelled the same way: this route's alone are looked at)
    const cancelled = feed.entity.filter(
      (e) =>
        e.tripUpdate!.trip.scheduleRelationship === rt.TripDescriptor.ScheduleRelationship.CANCELED &&
        e.tripUpdate!.trip.routeId === String(routeId),
    );
    expect(cancelled.map((e) => e.tripUpdate!.trip)).toEqual([
      expect.objectContaining({
        tripId: `${routeId}-${variant}-A${gtfsTime(firstMinute + 5)
          .slice(0, 5)
          .replace(':', '')}`,
        startTime: gtfsTime(firstMinute + 5),
      }),
    ]);
    expect(cancelled[0].tripUpdate!.stopTimeUpdate).toEqual([]);
    expect(cancelled[0].tripUpdate!.vehicle).toBeNull();
  });

  it("keeps a vehicle's trip update, predicted as of its last fix, until it reports again", async () => {
    const ids = { ensureFresh: async () => undefined, routeId: String, stopId: String, tripId: () => 'trip' };
    const live = new LiveRuns(t.app.dispatch.engine, ids, TZ);
    const encoded = new WeakMap<LiveTripUpdate, EncodedEntity>();
    const build = (at: number) =>
      buildTripUpdates({ updates: (now) => live.updates(now), cancelled: () => [], vehicle: () => undefined, encoded }, at, async () => {});
    const now = Date.now();
    const [first] = [...live.updates(now)];
    expect(first.vehicleId).toBe(bus);
    // half a minute on, no fix since: the same update, the same predicted times, the same encoding
    const [later] = [...live.updates(now + 30_000)];
    expect(later).toBe(first);
    const a = decode((await build(now)).bytes);
    const b = decode((await build(now + 30_000)).bytes);
    expect(rt.FeedMessage.toObject(b, { longs: Number }).entity).toEqual(rt.FeedMessage.toObject(a, { longs: Number }).entity);
    expect(encoded.has(first)).toBe(true);

    // a new fix ten seconds after the last, at the same place: made again, as of that fix
    const state = t.app.dispatch.engine.state(bus)!;
    t.app.dispatch.engine.onFix(bus, { ...state.last!, time: state.last!.time + 10_000 });
    const [renewed] = [...live.updates(now + 31_000)];
    expect(renewed).not.toBe(first);
    expect(renewed.timestamp).toBe(first.timestamp + 10);
    expect(renewed.stops.map((x) => x.stopSequence)).toEqual(first.stops.map((x) => x.stopSequence));
  });
});

describe('GTFS-Realtime TripUpdates behind the map right', () => {
  it('asks for a session with the map right when GTFS_RT_PUBLIC=false, as the vehicle positions do', async () => {
    process.env.GTFS_RT_PUBLIC = 'false';
    const t = await startTestApp(ENGINES[0], withDispatch());
    try {
      await createUserWith(t.db, 'dispatcher', PERMISSION_CODES.find((c) => c.id === 44)!.grants);
      await createUserWith(t.db, 'mapper', PERMISSION_CODES.find((c) => c.id === 9)!.grants);
      for (const url of [TRIP_UPDATES, VEHICLE_POSITIONS]) {
        expect((await t.app.inject({ method: 'GET', url })).statusCode, url).toBe(401);
        const dispatcher = await t.login('dispatcher', TEST_PASSWORD);
        expect((await t.app.inject({ method: 'GET', url, headers: { authorization: dispatcher } })).statusCode, url).toBe(403);
        const mapper = await t.login('mapper', TEST_PASSWORD);
        const response = await t.app.inject({ method: 'GET', url, headers: { authorization: mapper } });
        expect(response.statusCode, url).toBe(200);
        expect(rt.FeedMessage.decode(response.rawPayload).header.gtfsRealtimeVersion).toBe('2.0');
      }
    } finally {
      delete process.env.GTFS_RT_PUBLIC;
      await t.close();
    }
  });
});

describe('TripUpdates of a large fleet', () => {
  it('are built a slice at a time, the event loop let turn between, and their parts make one feed', async () => {
    const updates = Array.from({ length: 450 }, (_, v) => ({
      vehicleId: v + 1,
      trip: { tripId: `t${v}`, routeId: 'r', directionId: v % 2, startDate: '20260303', startTime: '25:10:00' },
      delay: v - 200,
      timestamp: 1_772_500_000 + v,
      stops: [
        {
          stopSequence: 3,
          stopId: 's3',
          arrival: { time: 1_772_500_100 + v, delay: v },
          departure: { time: 1_772_500_120 + v, delay: v + 20 },
        },
      ],
    }));
    let pauses = 0;
    const { message, bytes } = await buildTripUpdates(
      {
        updates: () => updates,
        cancelled: () => [{ tripId: 'gone', startDate: '20260303', scheduleRelationship: rt.TripDescriptor.ScheduleRelationship.CANCELED }],
        vehicle: (id) =>
          id === 7
            ? {
                id,
                depotNumber: 4007,
                gosNomer: 'А007АА77',
                model: null,
                depotId: null,
                vehicleTypeId: null,
                classRank: null,
                routeId: null,
                routeShortName: null,
                routeType: null,
              }
            : undefined,
      },
      1_772_500_500_000,
      async () => {
        pauses += 1;
      },
    );
    expect(pauses).toBe(2);
    const feed = rt.FeedMessage.decode(bytes);
    expect(Number(feed.header.timestamp)).toBe(1_772_500_500);
    expect(feed.entity).toHaveLength(451);
    expect(rt.FeedMessage.toObject(feed, { longs: Number })).toEqual(
      rt.FeedMessage.toObject(rt.FeedMessage.decode(rt.FeedMessage.encode(message).finish()), { longs: Number }),
    );
    expect(feed.entity[6].tripUpdate!.vehicle).toMatchObject({ id: '4007', label: '4007', licensePlate: 'А007АА77' });
    expect(feed.entity[449].tripUpdate!.stopTimeUpdate![0]).toMatchObject({ stopSequence: 3, stopId: 's3', departure: { delay: 469 } });
    expect(feed.entity[450]).toMatchObject({
      id: 'cancelled-20260303-gone',
      tripUpdate: { trip: { tripId: 'gone', scheduleRelationship: rt.TripDescriptor.ScheduleRelationship.CANCELED } },
    });
  });
});
