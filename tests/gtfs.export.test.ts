import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { variantsInForce } from '../src/server/dispatch/store';
import { RunTrips } from '../src/server/gtfs/export/runTrips';
import { inspectFeed } from '../src/server/gtfs/feed/inspectFeed';
import { operatorDate } from '../src/server/platform/operatorDay';
import { ENGINES } from './helpers/engines';
import { rowsOf, unzipTexts } from './helpers/gtfsFeeds';
import { startTestApp, type TestApp } from './helpers/testApp';

const STATIC = '/api/v1/gtfs/static.zip';
const IMPORTS = '/api/v1/gtfs/imports';

/** A file's rows as sorted lines, to compare two feeds whatever their order. */
const sortedLines = (text: string) => text.trim().split('\n').slice(1).sort();

const saveZip = (bytes: Buffer) => {
  const path = join(mkdtempSync(join(tmpdir(), 'gtfs-export-')), 'feed.zip');
  writeFileSync(path, bytes);
  return path;
};

/** The network of the demo city out as GTFS: what it holds, its checks, its access, and the round trip. */
describe.each(ENGINES)('GTFS static feed on %s', (engine) => {
  let t: TestApp;
  let admin: string;
  let bytes: Buffer;
  let files: Record<string, string>;

  beforeAll(async () => {
    t = await startTestApp(engine);
    admin = await t.login('admin', 'admin123');
    const response = await t.app.inject({ method: 'GET', url: STATIC, headers: { authorization: admin } });
    expect(response.statusCode, response.body.slice(0, 300)).toBe(200);
    expect(response.headers['content-type']).toBe('application/zip');
    bytes = response.rawPayload;
    files = await unzipTexts(bytes);
  });
  afterAll(() => t.close());

  it('holds the network: agencies, stops, routes, trips and stop times of every race, calendars, shapes, feed info', async () => {
    expect(Object.keys(files).sort()).toEqual([
      'agency.txt',
      'calendar.txt',
      'calendar_dates.txt',
      'feed_info.txt',
      'routes.txt',
      'shapes.txt',
      'stop_times.txt',
      'stops.txt',
      'trips.txt',
    ]);
    const [{ n: routes }] = await t.db.query<{ n: number }>(
      'select count(*)::int n from mgt.routes where enddate is null or enddate >= current_date',
    );
    expect(rowsOf(files['routes.txt'])).toHaveLength(routes);
    const [{ n: stops }] = await t.db.query<{ n: number }>('select count(*)::int n from mgt.stops where stop_lat is not null');
    expect(rowsOf(files['stops.txt'])).toHaveLength(stops);
    // Every race of a variant in force is a trip, and every one of its schedule times a stop time.
    const [races] = await t.db.query<{ races: number; times: number }>(
      `select count(distinct ("RaspVariant_id", graph, smena, racenum))::int races, count(*)::int times from mgt.rasp_time
        where "RaspVariant_id" in (select id from mgt.rasp_variant where enddate is null or enddate >= current_date)`,
    );
    expect(rowsOf(files['trips.txt'])).toHaveLength(races.races);
    expect(rowsOf(files['stop_times.txt'])).toHaveLength(races.times);
    const agency = rowsOf(files['agency.txt'])[0];
    expect(agency).toMatchObject({ agency_timezone: 'Europe/Moscow', agency_lang: 'ru' });
    expect(rowsOf(files['feed_info.txt'])[0].feed_lang).toBe('ru');
  });

  it('uses the ids of the GTFS-Realtime feed: our route ids, a trip per race named by route, service, direction and departure', async () => {
    const [route] = await t.db.query<{ route_id: number; route_short_name: string }>(
      'select route_id, route_short_name from mgt.routes order by route_id limit 1',
    );
    const exported = rowsOf(files['routes.txt']).find((r) => r.route_id === String(route.route_id));
    expect(exported).toMatchObject({ route_short_name: route.route_short_name });
    const [race] = await t.db.query<{ v: number; racetype: string; first: number }>(
      `select "RaspVariant_id" v, racetype, min(time) first from mgt.rasp_time t join mgt.rasp_variant rv on rv.id = t."RaspVariant_id"
        where rv.route_id = $1 and rv.enddate is null group by 1, graph, smena, racenum, racetype order by 3 limit 1`,
      [route.route_id],
    );
    const hhmm = `${String(Math.floor(race.first / 60)).padStart(2, '0')}${String(race.first % 60).padStart(2, '0')}`;
    const trip = rowsOf(files['trips.txt']).find((x) => x.trip_id === `${route.route_id}-${race.v}-${race.racetype}${hhmm}`);
    expect(trip).toMatchObject({
      route_id: String(route.route_id),
      service_id: String(race.v),
      direction_id: race.racetype === 'B' ? '1' : '0',
    });
    expect(trip!.shape_id).toBe(`${route.route_id}-${race.racetype}`);
    const times = rowsOf(files['stop_times.txt']).filter((x) => x.trip_id === trip!.trip_id);
    expect(times[0].departure_time).toBe(`${hhmm.slice(0, 2)}:${hhmm.slice(2)}:00`);
  });

  it('names every race the live timetable holds today by the trip of this feed, with its route and direction', async () => {
    const tz = t.app.map.config.tzOffsetMinutes;
    const now = Date.now();
    const today = operatorDate(now, tz);
    const variants = await variantsInForce(t.db, today);
    const races = await t.db.query<{ v: number; g: number; s: string; r: number; racetype: string; route_id: number }>(
      `select t."RaspVariant_id" v, t.graph g, t.smena s, t.racenum r, min(t.racetype) racetype, min(rv.route_id) route_id
         from mgt.rasp_time t join mgt.rasp_variant rv on rv.id = t."RaspVariant_id" where t."RaspVariant_id" = any($1::int[]) group by 1, 2, 3, 4`,
      [variants],
    );
    expect(races.length).toBeGreaterThan(100);
    const ids = new RunTrips(t.db, { tzOffsetMinutes: tz, periodDays: 365 });
    await ids.ensureFresh(variants, now);
    const trips = new Map(rowsOf(files['trips.txt']).map((x) => [x.trip_id, x]));
    const named = new Set<string>();
    for (const race of races) {
      const tripId = ids.tripId({ variantId: race.v, graph: race.g, smena: race.s, raceNum: race.r });
      expect(trips.get(tripId ?? ''), `${race.v}|${race.g}|${race.s}|${race.r}`).toMatchObject({
        route_id: ids.routeId(race.route_id),
        direction_id: race.racetype === 'B' ? '1' : '0',
      });
      named.add(tripId!);
    }
    // one trip per race: two races never share a trip id
    expect(named.size).toBe(races.length);
  });

  it("passes the product's checks without an error", async () => {
    const { notices } = await inspectFeed(saveZip(bytes));
    expect(notices.list().filter((n) => n.severity === 'error')).toEqual([]);
  });

  it('has every file and required field of the GTFS reference, and references that resolve (read with papaparse)', () => {
    const required: Record<string, string[]> = {
      'agency.txt': ['agency_name', 'agency_url', 'agency_timezone'],
      'stops.txt': ['stop_id', 'stop_name', 'stop_lat', 'stop_lon'],
      'routes.txt': ['route_id', 'route_type'],
      'trips.txt': ['route_id', 'service_id', 'trip_id'],
      'stop_times.txt': ['trip_id', 'stop_id', 'stop_sequence', 'arrival_time', 'departure_time'],
      'calendar.txt': [
        'service_id',
        'monday',
        'tuesday',
        'wednesday',
        'thursday',
        'friday',
        'saturday',
        'sunday',
        'start_date',
        'end_date',
      ],
      'calendar_dates.txt': ['service_id', 'date', 'exception_type'],
      'shapes.txt': ['shape_id', 'shape_pt_lat', 'shape_pt_lon', 'shape_pt_sequence'],
      'feed_info.txt': ['feed_publisher_name', 'feed_publisher_url', 'feed_lang'],
    };
    const parsed: Record<string, Record<string, string>[]> = {};
    for (const [file, fields] of Object.entries(required)) {
      const result = Papa.parse<Record<string, string>>(files[file], { header: true, skipEmptyLines: true });
      expect(result.errors, file).toEqual([]);
      parsed[file] = result.data;
      for (const row of result.data)
        for (const field of fields)
          if (file !== 'stops.txt' || row.location_type !== '1' || field !== 'stop_lat')
            expect(row[field], `${file} ${field}`).toBeTruthy();
    }
    const ids = (file: string, field: string) => new Set(parsed[file].map((r) => r[field]));
    const routes = ids('routes.txt', 'route_id');
    const stops = ids('stops.txt', 'stop_id');
    const trips = ids('trips.txt', 'trip_id');
    const services = new Set([...ids('calendar.txt', 'service_id'), ...ids('calendar_dates.txt', 'service_id')]);
    const shapes = ids('shapes.txt', 'shape_id');
    expect(trips.size).toBe(parsed['trips.txt'].length);
    for (const trip of parsed['trips.txt']) {
      expect(
        routes.has(trip.route_id) && services.has(trip.service_id) && (!trip.shape_id || shapes.has(trip.shape_id)),
        trip.trip_id,
      ).toBe(true);
    }
    for (const time of parsed['stop_times.txt']) expect(trips.has(time.trip_id) && stops.has(time.stop_id)).toBe(true);
    for (const route of parsed['routes.txt']) expect(ids('agency.txt', 'agency_id').has(route.agency_id)).toBe(true);
    expect(ids('stop_times.txt', 'trip_id').size).toBe(trips.size);
  });

  it('round trip: imported into a database without a network and exported again, it is the same feed', { timeout: 240_000 }, async () => {
    const other = await startTestApp(engine);
    try {
      const otherAdmin = await other.login('admin', 'admin123');
      // A database without a network: the demo's stops, routes and timetables emptied (its carriers stay; the
      // export names only those of its routes).
      await other.db.query('truncate mgt.rasp_time, mgt.routes, mgt.stops, mgt.holidays cascade');
      const upload = await other.app.inject({
        method: 'POST',
        url: `${IMPORTS}?file=export.zip`,
        payload: bytes,
        headers: { authorization: otherAdmin, 'content-type': 'application/zip' },
      });
      expect(upload.statusCode, upload.body).toBe(202);
      let run: { status: string; report: unknown } = { status: 'running', report: null };
      for (let i = 0; i < 1200 && run.status === 'running'; i++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        run = (
          await other.app.inject({ method: 'GET', url: `${IMPORTS}/${upload.json().id}`, headers: { authorization: otherAdmin } })
        ).json();
      }
      expect(run.status, JSON.stringify(run.report)).toBe('done');
      const again = await other.app.inject({ method: 'GET', url: STATIC, headers: { authorization: otherAdmin } });
      expect(again.statusCode).toBe(200);
      const second = await unzipTexts(again.rawPayload);
      expect(Object.keys(second).sort()).toEqual(Object.keys(files).sort());
      for (const file of Object.keys(files)) {
        if (file === 'feed_info.txt') continue;
        expect(sortedLines(second[file]), file).toEqual(sortedLines(files[file]));
      }
      // The live feed names the imported routes by their GTFS ids too.
      const [imported] = await other.db.query<{ gtfs_id: string; local_id: number }>(
        `select gtfs_id, local_id from gtfs.external_key where kind = 'route' limit 1`,
      );
      const ids = new RunTrips(other.db, { tzOffsetMinutes: other.app.map.config.tzOffsetMinutes, periodDays: 365 });
      await ids.ensureFresh([], Date.now());
      expect(ids.routeId(imported.local_id)).toBe(imported.gtfs_id);
      // feed_info: the same but for when it was made.
      const info = (text: string) => rowsOf(text).map(({ feed_version: _, ...rest }) => rest);
      expect(info(second['feed_info.txt'])).toEqual(info(files['feed_info.txt']));
    } finally {
      await other.close();
    }
  });

  it('asks for the code-6 right, a session, or the key', async () => {
    expect((await t.app.inject({ method: 'GET', url: STATIC })).statusCode).toBe(401);
    const viewer = await t.login('viewer', 'viewer123');
    expect((await t.app.inject({ method: 'GET', url: STATIC, headers: { authorization: viewer } })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: `${STATIC}?key=guess` })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: `${STATIC}?other=1`, headers: { authorization: admin } })).statusCode).toBe(400);
  });
});

describe('GTFS static feed behind a key, or public', () => {
  // Each builds a server of its own (the rule is read at start): slow on a loaded machine.
  it('lets a consumer in with the key, in the query or a header', async () => {
    process.env.GTFS_STATIC_KEY = 'k-123456';
    const t = await startTestApp(ENGINES[0]);
    try {
      expect((await t.app.inject({ method: 'GET', url: `${STATIC}?key=k-123456` })).statusCode).toBe(200);
      expect((await t.app.inject({ method: 'GET', url: STATIC, headers: { 'x-gtfs-key': 'k-123456' } })).statusCode).toBe(200);
      expect((await t.app.inject({ method: 'GET', url: `${STATIC}?key=k-1234567` })).statusCode).toBe(403);
      expect((await t.app.inject({ method: 'GET', url: STATIC })).statusCode).toBe(401);
    } finally {
      delete process.env.GTFS_STATIC_KEY;
      await t.close();
    }
  }, 180_000);

  it('lets anyone in when public, for proxies to keep a while', async () => {
    process.env.GTFS_STATIC_PUBLIC = 'true';
    const t = await startTestApp(ENGINES[0]);
    try {
      const response = await t.app.inject({ method: 'GET', url: STATIC });
      expect(response.statusCode).toBe(200);
      expect(response.headers['cache-control']).toMatch(/public/);
    } finally {
      delete process.env.GTFS_STATIC_PUBLIC;
      await t.close();
    }
  }, 180_000);
});
