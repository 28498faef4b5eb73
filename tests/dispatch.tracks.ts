import { Random } from '../src/server/db/demo/random';
import type { Queryable } from '../src/server/db/types';
import type { Fix } from '../src/server/dispatch/engineTypes';
import { buildDaySchedule, type DaySchedule, type Run, type ScheduleRows } from '../src/server/dispatch/schedule';
import type { LatLon } from '../src/server/simulator/polyline';

/**
 * A synthetic city for the engine's unit tests, recorded-like tracks on it (the truth kept beside), and a
 * deterministic noise source. Route 1 runs west–east (A) and back (B) with ten stops; route 2 south–north.
 */
export const DATE = '2025-03-04';
/** The operator's midnight of DATE at +180. */
export const MIDNIGHT = Date.parse(`${DATE}T00:00:00Z`) - 180 * 60_000;
export const TZ = 180;
export const at = (hh: number, mm: number, ss = 0) => MIDNIGHT + ((hh * 60 + mm) * 60 + ss) * 1000;

const LAT = 55.75;
const LON = 37.6;
const M_LAT = 1 / 110_574;
const M_LON = 1 / (111_320 * Math.cos((LAT * Math.PI) / 180));
const east = (m: number, north = 0): LatLon => ({ lat: LAT + north * M_LAT, lon: LON + m * M_LON });
const north = (m: number, eastM = 3000): LatLon => ({ lat: LAT + m * M_LAT, lon: LON + eastM * M_LON });

/** Stops 1–10 on the north side (A, eastbound), 11–20 on the south side (B, westbound), 600 m apart; 21–26 route 2. */
function stops(): Map<number, LatLon> {
  const map = new Map<number, LatLon>();
  for (let i = 0; i < 10; i++) {
    map.set(1 + i, east(i * 600, 8));
    map.set(11 + i, east((9 - i) * 600, -8));
  }
  for (let i = 0; i < 6; i++) map.set(21 + i, north(1000 + i * 500));
  return map;
}

/** Races alternating A and B from `first` (minutes of day), 2 min between stops, `layover` at the termini. */
function exitRaces(
  variantId: number,
  routeId: number,
  graph: number,
  first: number,
  count: number,
  stopsA: number[],
  stopsB: number[] | null,
  layover = 6,
) {
  const races: ScheduleRows['races'] = [];
  let t = first;
  for (let k = 0; k < count; k++) {
    const forward = k % 2 === 0 || !stopsB;
    const ids = forward ? stopsA : stopsB!;
    races.push({
      variantId,
      routeId,
      graph,
      smena: '1',
      raceType: forward ? 'A' : 'B',
      raceNum: k + 1,
      stopIds: ids,
      orders: ids.map((_, i) => i + 1),
      minutes: ids.map((_, i) => t + i * 2),
    });
    t += (ids.length - 1) * 2 + layover;
  }
  return races;
}

export interface CityOptions {
  tasks?: ScheduleRows['tasks'];
  replacements?: ScheduleRows['replacements'];
  /** Minutes between the two exits of route 1 (10 unless told). */
  exitGap?: number;
}

/**
 * Route 1: exit 1 from 08:00, exit 2 from 08:10 (a 10-minute headway, `exitGap`), four races each (A, B, A, B; 18 min
 * each, 6 min layovers). Route 2: exit 1 from 08:05, one race A. Variants 101 and 201.
 */
export function city(options: CityOptions = {}): DaySchedule {
  const a = Array.from({ length: 10 }, (_, i) => 1 + i);
  const b = Array.from({ length: 10 }, (_, i) => 11 + i);
  const r2 = Array.from({ length: 6 }, (_, i) => 21 + i);
  const s = stops();
  return buildDaySchedule({
    serviceDate: DATE,
    dow: 2,
    midnight: MIDNIGHT,
    stops: s,
    trips: [
      { id: 1, routeId: 1, raceType: 'A', points: [east(-50, 8), east(5450, 8)], stopIds: a },
      { id: 2, routeId: 1, raceType: 'B', points: [east(5450, -8), east(-50, -8)], stopIds: b },
      { id: 3, routeId: 2, raceType: 'A', points: [north(950), north(3550)], stopIds: r2 },
    ],
    races: [
      ...exitRaces(101, 1, 1, 8 * 60, 4, a, b),
      ...exitRaces(101, 1, 2, 8 * 60 + (options.exitGap ?? 10), 4, a, b),
      ...exitRaces(201, 2, 1, 8 * 60 + 5, 1, r2, null),
    ],
    tasks: options.tasks ?? [],
    replacements: options.replacements ?? [],
  });
}

export const runOf = (day: DaySchedule, variantId: number, graph: number, raceNum: number): Run =>
  day.runByKey.get(`${DATE}|${variantId}|${graph}|1|${raceNum}`)!;

/** Centred deterministic noise in [-0.5, 0.5) (the demo data's generator): the same noise every run. */
export function noise(seed: number): () => number {
  const generator = new Random(seed);
  return () => generator.next() - 0.5;
}

export interface DriveOptions {
  /** Seconds late at every stop (a function of the stop index for a vehicle that loses or makes up time). */
  delay?: number | ((i: number) => number);
  /** Seconds at each stop (a function of the stop index for a vehicle held at one). */
  dwellS?: number | ((i: number) => number);
  intervalS?: number;
  noiseM?: number;
  /** Fix-free spans [from, to) (epoch ms). */
  gaps?: [number, number][];
  seed?: number;
  /** Metres off the trajectory between these times (a detour). */
  detour?: { from: number; to: number; metres: number };
  /** Fixes from this time (the vehicle waits at the first stop before). */
  from?: number;
}

/** True stop times of a drive, and its fixes. */
export interface Drive {
  fixes: Fix[];
  arrivals: number[];
  departures: number[];
}

/** A vehicle driving a run: even speed between stops, a dwell at each, fixes every interval with noise. */
export function drive(run: Run, o: DriveOptions = {}): Drive {
  const delay = (i: number) => (typeof o.delay === 'function' ? o.delay(i) : (o.delay ?? 0)) * 1000;
  const dwell = (i: number) => (typeof o.dwellS === 'function' ? o.dwellS(i) : (o.dwellS ?? 20)) * 1000;
  const n = run.stopIds.length;
  const arrivals = Array.from({ length: n }, (_, i) => run.times[i] + delay(i));
  const departures = arrivals.map((t, i) => (i === n - 1 ? t : t + (i === 0 ? 0 : dwell(i))));
  arrivals[0] = departures[0] - 5 * 60_000;
  const rand = noise(o.seed ?? 1);
  const fixes: Fix[] = [];
  const step = (o.intervalS ?? 5) * 1000;
  const start = o.from ?? departures[0] - 60_000;
  for (let t = start; t <= arrivals[n - 1] + 1000; t += step) {
    if (o.gaps?.some(([g0, g1]) => t >= g0 && t < g1)) continue;
    let dist: number;
    let speed = 0;
    let k = departures.findIndex((d, i) => i < n - 1 && t >= d && t < arrivals[i + 1]);
    if (k >= 0) {
      const f = (t - departures[k]) / (arrivals[k + 1] - departures[k]);
      dist = run.dists[k] + f * (run.dists[k + 1] - run.dists[k]);
      speed = ((run.dists[k + 1] - run.dists[k]) / (arrivals[k + 1] - departures[k])) * 3600;
    } else {
      k = arrivals.findIndex((a, i) => t >= a && t <= departures[i]);
      dist = run.dists[Math.max(0, k)];
    }
    const p = run.shape.at(dist);
    const ahead = run.shape.at(Math.min(run.shape.length, dist + 5));
    const course = (Math.round((Math.atan2((ahead.lon - p.lon) / M_LON, (ahead.lat - p.lat) / M_LAT) * 180) / Math.PI) + 360) % 360;
    const off = o.detour && t >= o.detour.from && t < o.detour.to ? o.detour.metres : 0;
    const noiseM = o.noiseM ?? 5;
    fixes.push({
      time: t,
      lat: p.lat + (rand() * 2 * noiseM + off) * M_LAT,
      lon: p.lon + rand() * 2 * noiseM * M_LON,
      speed: speed > 0 ? speed * (1 + rand() * 0.1) : 0,
      course,
      valid: true,
    });
  }
  return { fixes, arrivals, departures };
}

/** Fixes of a vehicle standing at one place (a layover, a depot) from `from` to `to`. */
export function stand(p: LatLon, from: number, to: number, intervalS = 10): Fix[] {
  const fixes: Fix[] = [];
  for (let t = from; t <= to; t += intervalS * 1000) fixes.push({ time: t, lat: p.lat, lon: p.lon, speed: 0, course: 0, valid: true });
  return fixes;
}

/** Eight stops 500 m apart eastwards of an origin, as the API tests lay out their line. */
export const LINE_STOPS = 8;
export const eastOf =
  (lat: number, lon: number) =>
  (m: number): LatLon => ({ lat, lon: lon + m / (111_320 * Math.cos((lat * Math.PI) / 180)) });

/**
 * A route of the line's stops written into the handbooks: its stops, a straight trajectory 100 m past both ends,
 * and a timetable variant in force since 30 days before `serviceDate` (its times are the test's to add).
 */
export async function insertLineRoute(
  db: Queryable,
  point: (m: number) => LatLon,
  serviceDate: string,
  shortName: string,
  depotId: number | null = null,
): Promise<{ routeId: number; stopIds: number[]; variant: number }> {
  const [{ id: marshType }] = await db.query<{ id: number }>(`insert into mgt.marsh_type (title) values ('Городской') returning id`);
  const [{ route_id: routeId }] = await db.query<{ route_id: number }>(
    `insert into mgt.routes (route_long_name, route_type, "MarshType_id", route_short_name, route_desc, "Depot_id") values ('Проверочный', 'А', $1, $2, 'Тест', $3) returning route_id`,
    [marshType, shortName, depotId],
  );
  const stopIds: number[] = [];
  for (let i = 0; i < LINE_STOPS; i++) {
    const p = point(i * 500);
    const [{ stop_id }] = await db.query<{ stop_id: number }>(
      'insert into mgt.stops (stop_name, stop_lat, stop_lon) values ($1, $2, $3) returning stop_id',
      [`Остановка ${i + 1}`, p.lat, p.lon],
    );
    stopIds.push(stop_id);
  }
  const [{ id: marshVariant }] = await db.query<{ id: number }>('insert into mgt.marsh_variants (route_id) values ($1) returning id', [
    routeId,
  ]);
  const [start, end] = [point(-100), point((LINE_STOPS - 1) * 500 + 100)];
  const [{ id: tripId }] = await db.query<{ id: number }>(
    `insert into mgt.trip ("MarshVariant_id", race_type, trajectory) values ($1, 'A', st_geomfromtext($2, 4326)) returning id`,
    [marshVariant, `LINESTRING(${start.lon} ${start.lat}, ${end.lon} ${end.lat})`],
  );
  for (const [i, stopId] of stopIds.entries())
    await db.query('insert into mgt.trip_stops (trip_id, stop_id, stop_sequence) values ($1, $2, $3)', [tripId, stopId, i + 1]);
  const [{ id: variant }] = await db.query<{ id: number }>(
    `insert into mgt.rasp_variant (route_id, srv_id, startdate) values ($1, 9, $2::date - 30) returning id`,
    [routeId, serviceDate],
  );
  return { routeId, stopIds, variant };
}

/** A position as the HTTP telemetry ingestion takes it. */
export interface PostedFix {
  device: string;
  time: string;
  lat: number;
  lon: number;
  speed: number;
  course: number;
}

/**
 * A bus along the line's stops (scheduled two minutes apart from `scheduledFirst`): departing each `offset` ms
 * after its scheduled time (20 s at each stop, two minutes at the first), even speed between, a fix every 10 s
 * with 4 m of noise, from a minute before its first departure to `until`.
 */
export function lineDrive(
  point: (m: number) => LatLon,
  device: string,
  scheduledFirst: number,
  offset: number,
  until: number,
): PostedFix[] {
  const departures = Array.from({ length: LINE_STOPS }, (_, i) => scheduledFirst + i * 120_000 + offset);
  const arrivals = departures.map((d, i) => d - (i === 0 ? 120_000 : 20_000));
  const fixes: PostedFix[] = [];
  let n = 0;
  for (let tm = departures[0] - 60_000; tm <= until; tm += 10_000) {
    const k = departures.findIndex((d, i) => i < LINE_STOPS - 1 && tm >= d && tm < arrivals[i + 1]);
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
    const p = point(m + ((n++ % 5) - 2) * 2);
    fixes.push({
      device,
      time: new Date(tm).toISOString(),
      lat: Number(p.lat.toFixed(6)),
      lon: Number(p.lon.toFixed(6)),
      speed: Math.round(speed * 10) / 10,
      course: 90,
    });
  }
  return fixes;
}

/**
 * The live timetable watched from `from` to a day ahead (dispatch.watch_span): a run due then without passages is
 * not performed rather than not watched, as if the server had run through the tests' made-up past.
 */
export async function watchedSince(db: Queryable, from: number): Promise<void> {
  await db.query('insert into dispatch.watch_span (started_at, ended_at) values ($1, $2)', [
    new Date(from).toISOString(),
    new Date(Date.now() + 86_400_000).toISOString(),
  ]);
}
