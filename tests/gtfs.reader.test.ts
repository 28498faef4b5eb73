import { Readable } from 'node:stream';
import readCsv from 'gtfs-utils/read-csv.js';
import readStops from 'gtfs-utils/read-stops.js';
import readServicesAndExceptions from 'gtfs-utils/read-services-and-exceptions.js';
import computeStopovers, { type Stopover } from 'gtfs-utils/compute-stopovers.js';
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from './helpers/engines';
import { unzipTexts } from './helpers/gtfsFeeds';
import { startTestApp, type TestApp } from './helpers/testApp';

/**
 * The demo city's export read by an independent GTFS library (gtfs-utils, which OpenTripPlanner-style tools
 * and the VBB's feeds use): its stops, its services turned into days, and every trip's absolute stop times.
 * gtfs-utils wants trips and stop_times sorted by trip (its `sort.sh`); GTFS does not, so the test sorts them
 * as that script would.
 */
const byTrip = (a: Record<string, string>, b: Record<string, string>) =>
  a.trip_id === b.trip_id ? Number(a.stop_sequence ?? 0) - Number(b.stop_sequence ?? 0) : a.trip_id < b.trip_id ? -1 : 1;
const SORTED: Record<string, (a: Record<string, string>, b: Record<string, string>) => number> = {
  trips: byTrip,
  stop_times: byTrip,
};

describe('GTFS export read by gtfs-utils', () => {
  let t: TestApp;
  let files: Record<string, string>;
  const rows: Record<string, Record<string, string>[]> = {};

  /** gtfs-utils' `readFile`: a file's rows in object mode, a missing optional file as "not found". */
  const readFile = async (name: string) => {
    const text = files[`${name}.txt`];
    if (text === undefined) throw Object.assign(new Error(`${name}.txt is not in the feed`), { notFound: true });
    if (!rows[name]) {
      const read: Record<string, string>[] = [];
      for await (const row of await readCsv(Readable.from([text]))) read.push(row);
      rows[name] = SORTED[name] ? read.sort(SORTED[name]) : read;
    }
    return Readable.from(rows[name]);
  };

  beforeAll(async () => {
    t = await startTestApp(ENGINES[0]);
    const admin = await t.login('admin', 'admin123');
    const response = await t.app.inject({ method: 'GET', url: '/api/v1/gtfs/static.zip', headers: { authorization: admin } });
    expect(response.statusCode).toBe(200);
    files = await unzipTexts(response.rawPayload);
  });
  afterAll(() => t.close());

  it("reads every stop with its coordinates, a platform's station among them", async () => {
    const stops = await readStops(readFile);
    const read: Record<string, unknown>[] = [];
    for await (const stop of stops.values()) read.push(stop);
    expect(read).toHaveLength(Papa.parse(files['stops.txt'], { header: true, skipEmptyLines: true }).data.length);
    for (const stop of read) if (stop.location_type !== '1') expect(Number(stop.stop_lat), String(stop.stop_id)).not.toBe(0);
    for (const stop of read) if (stop.parent_station) expect(read.some((s) => s.stop_id === stop.parent_station)).toBe(true);
  });

  it('turns every service into days of operation, and every trip runs on one of them', async () => {
    const days = new Map<string, number[]>();
    for await (const [service, serviceDays] of readServicesAndExceptions(readFile, 'Europe/Moscow')) days.set(service, serviceDays);
    expect(days.size).toBeGreaterThan(0);
    await readFile('trips');
    for (const trip of rows.trips) expect(days.get(trip.service_id)?.length ?? 0, trip.trip_id).toBeGreaterThan(0);
  });

  it(
    "computes the stop times of a route's trips on each of their days, in order and never going back in time",
    { timeout: 120_000 },
    async () => {
      await readFile('trips');
      const route = rows.trips[0].route_id;
      const runs = new Map<string, Stopover[]>();
      const backwards: string[] = [];
      for await (const stopover of computeStopovers(readFile, 'Europe/Moscow', { trip: (trip) => trip.route_id === route })) {
        const key = `${stopover.trip_id}@${stopover.start_of_trip}`;
        const run = runs.get(key) ?? [];
        const previous = run[run.length - 1];
        if (stopover.departure < stopover.arrival || (previous && stopover.arrival < previous.departure)) backwards.push(key);
        run.push(stopover);
        runs.set(key, run);
      }
      expect(backwards).toEqual([]);
      // Each run of a trip has as many stopovers as the trip has stop times, and every trip of the route runs.
      const timesPerTrip = new Map<string, number>();
      for (const time of rows.stop_times) timesPerTrip.set(time.trip_id, (timesPerTrip.get(time.trip_id) ?? 0) + 1);
      for (const [key, run] of runs) expect(run.length, key).toBe(timesPerTrip.get(run[0].trip_id));
      const routeTrips = rows.trips.filter((trip) => trip.route_id === route).map((trip) => trip.trip_id);
      expect(new Set([...runs.values()].map((run) => run[0].trip_id))).toEqual(new Set(routeTrips));
    },
  );
});
