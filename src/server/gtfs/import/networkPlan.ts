import { createHash } from 'node:crypto';
import { basicRouteType } from '../feed/checkFeed';
import type { FeedRoute, GtfsFeed } from '../feed/gtfsFeed';
import { chainExits, plannedRuns, type PlannedExit } from './runPlan';
import { routeCalendar, type RouteCalendar, type ServiceDays } from './serviceCalendar';

/** The product's transport type code (TransportType's `note`) of a GTFS route type. */
export function transportCode(routeType: number): string {
  const basic = basicRouteType(routeType);
  if (basic === 0) return 'Тм';
  if (basic === 11 || (routeType >= 800 && routeType < 900)) return 'Тб';
  return 'А';
}

/** Direction as the timetable's race type: GTFS direction 0 (or none) is 'A', 1 is 'B'. */
export const raceTypeOf = (direction: number | null): 'A' | 'B' => (direction === 1 ? 'B' : 'A');

/** A stop pattern of a route: the handbook's trip (its stops and trajectory) that runs follow. */
export interface PlannedPattern {
  /** A digest of the route, direction and stop ids: the same pattern keeps its handbook trip across imports. */
  key: string;
  raceType: 'A' | 'B';
  stops: number[];
  /** [lon, lat] points of its shape, or of its stops where the trips have no shape. */
  line: [number, number][];
}

export interface RoutePlan {
  route: FeedRoute;
  patterns: PlannedPattern[];
  calendar: RouteCalendar;
  patternOfTrip: Map<number, PlannedPattern>;
  /** Exits of each variant, by the variant's key. */
  exits: Map<string, PlannedExit[]>;
}

/** The trips of each route, by route index. */
export function tripsByRoute(feed: GtfsFeed): number[][] {
  const byRoute: number[][] = feed.routes.map(() => []);
  feed.trips.forEach((trip, t) => byRoute[trip.route].push(t));
  return byRoute;
}

/**
 * One route of the feed in the product's form: its stop patterns (direction and stop sequence), its timetable
 * variants and holidays, and each variant's exits with their runs. Planned route by route, so a city's
 * timetable is never in memory whole.
 */
export function planRoute(
  feed: GtfsFeed,
  r: number,
  trips: number[],
  ranges: Int32Array,
  calendar: ServiceDays,
  shiftSeconds: number,
): RoutePlan {
  const route = feed.routes[r];
  const patterns = new Map<string, PlannedPattern>();
  const patternOfTrip = new Map<number, PlannedPattern>();
  for (const t of trips) {
    const first = ranges[t * 2];
    const end = ranges[t * 2 + 1];
    if (first < 0 || end - first < 2) continue;
    const trip = feed.trips[t];
    const stops = Array.from(feed.stopTimes.stop.subarray(first, end));
    const raceType = raceTypeOf(trip.direction);
    const key = createHash('sha1')
      .update(`${route.id}\u0000${raceType}\u0000${stops.map((s) => feed.stops[s].id).join('\u0000')}`)
      .digest('base64url');
    let pattern = patterns.get(key);
    if (!pattern) patterns.set(key, (pattern = { key, raceType, stops, line: lineOf(feed, trip.shapeId, stops) }));
    patternOfTrip.set(t, pattern);
  }
  const services = new Set(trips.filter((t) => patternOfTrip.has(t)).map((t) => feed.trips[t].serviceId));
  const routeDays = routeCalendar(route.id, services, calendar);
  const exits = new Map<string, PlannedExit[]>();
  for (const variant of routeDays.variants) {
    const inVariant = new Set(variant.services);
    const runs = plannedRuns(
      feed,
      trips.filter((t) => patternOfTrip.has(t) && inVariant.has(feed.trips[t].serviceId)),
      ranges,
      shiftSeconds,
    );
    exits.set(variant.key, chainExits(feed, runs));
  }
  return { route, patterns: [...patterns.values()], calendar: routeDays, patternOfTrip, exits };
}

function lineOf(feed: GtfsFeed, shapeId: string, stops: number[]): [number, number][] {
  const shape = shapeId ? feed.shapes.get(shapeId) : undefined;
  if (shape && shape.lat.length >= 2) return shape.lat.map((lat, i) => [shape.lon[i], lat]);
  return stops
    .map((s) => feed.stops[s])
    .filter((s) => Number.isFinite(s.lat))
    .map((s) => [s.lon, s.lat]);
}

/** A trajectory as WKT (the handbooks' text geometry). */
export const lineWkt = (line: [number, number][]): string => `LINESTRING(${line.map(([lon, lat]) => `${lon} ${lat}`).join(',')})`;
