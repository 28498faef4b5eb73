import type { GtfsFeed } from './gtfsFeed';
import { haversineMetres, zoneOffsetMinutes } from './gtfsValues';
import type { NoticeLog } from './noticeLog';

/** A stop further than this from the median of the feed's stops is likely a typo in its coordinates. */
const FEED_AREA_RADIUS_M = 300_000;

/** Basic route type of an extended one (Google's 100–1700), for the speed limits. */
export function basicRouteType(type: number): number {
  if (type < 100) return type;
  const family = Math.floor(type / 100);
  const basic: Record<number, number> = { 1: 2, 2: 3, 4: 1, 5: 1, 6: 1, 7: 3, 8: 11, 9: 0, 10: 4, 12: 4, 13: 6, 14: 7 };
  return basic[family] ?? 3;
}

/** Fastest plausible speed between two stops by basic route type, km/h (the canonical validator's limits). */
function maxSpeedKmh(routeType: number): number {
  const limits: Record<number, number> = { 0: 100, 1: 150, 2: 500, 3: 150, 4: 80, 5: 30, 6: 50, 7: 50, 11: 150, 12: 150 };
  return limits[basicRouteType(routeType)] ?? 200;
}

/**
 * The checks over the whole feed once read (the per-value and per-reference ones happen while reading):
 * coordinates, each trip's stop times, what nothing uses, services that never run, block overlaps, zones.
 */
export function checkFeed(feed: GtfsFeed, notices: NoticeLog): void {
  checkAgencies(feed, notices);
  checkStops(feed, notices);
  const ranges = feed.stopTimes.ranges(feed.trips.length);
  checkTrips(feed, ranges, notices);
  checkUnused(feed, ranges, notices);
  checkServices(feed, notices);
  checkBlocks(feed, ranges, notices);
}

function checkAgencies(feed: GtfsFeed, notices: NoticeLog): void {
  const date = feed.calendars[0]?.start || new Date().toISOString().slice(0, 10);
  for (const agency of feed.agencies) {
    if (agency.timezone && zoneOffsetMinutes(agency.timezone, date) === null) {
      notices.add('invalid_timezone', { file: 'agency.txt', field: 'agency_timezone', value: agency.timezone });
    }
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

function checkStops(feed: GtfsFeed, notices: NoticeLog): void {
  const placed = feed.stops.filter((s) => Number.isFinite(s.lat) && Number.isFinite(s.lon));
  const centre = { lat: median(placed.map((s) => s.lat)), lon: median(placed.map((s) => s.lon)) };
  for (const stop of placed) {
    const where = { file: 'stops.txt', line: stop.line, value: stop.id };
    if (Math.abs(stop.lat) > 90 || Math.abs(stop.lon) > 180) notices.add('invalid_coordinates', where);
    else if (Math.abs(stop.lat) < 1 && Math.abs(stop.lon) < 1) notices.add('point_near_origin', where);
    else if (haversineMetres(stop.lat, stop.lon, centre.lat, centre.lon) > FEED_AREA_RADIUS_M)
      notices.add('stop_too_far_from_feed_area', where);
  }
}

function checkTrips(feed: GtfsFeed, ranges: Int32Array, notices: NoticeLog): void {
  const st = feed.stopTimes;
  feed.trips.forEach((trip, t) => {
    const first = ranges[t * 2];
    const end = ranges[t * 2 + 1];
    if (first < 0 || end - first < 2) {
      notices.add('unusable_trip', { file: 'trips.txt', line: trip.line, value: trip.id });
      return;
    }
    if (st.arrival[first] < 0 || st.departure[end - 1] < 0) {
      notices.add('missing_trip_edge', { file: 'stop_times.txt', line: st.line[st.arrival[first] < 0 ? first : end - 1], value: trip.id });
    }
    const limit = maxSpeedKmh(feed.routes[trip.route].type);
    let previous = -1;
    for (let i = first; i < end; i++) {
      const where = { file: 'stop_times.txt', line: st.line[i], value: trip.id };
      if (i > first && st.seq[i] === st.seq[i - 1])
        notices.add('decreasing_or_equal_stop_time_sequence', { ...where, field: 'stop_sequence' });
      if (st.arrival[i] >= 0 && st.departure[i] >= 0 && st.departure[i] < st.arrival[i]) {
        notices.add('stop_time_with_departure_before_arrival_time', { ...where, field: 'departure_time' });
      }
      if (st.arrival[i] < 0) continue;
      if (previous >= 0) {
        if (st.arrival[i] < st.departure[previous])
          notices.add('stop_time_with_arrival_before_previous_departure_time', { ...where, field: 'arrival_time' });
        else if (previous === i - 1) checkSpeed(feed, previous, i, limit, where, notices);
      }
      previous = i;
    }
  });
}

function checkSpeed(
  feed: GtfsFeed,
  a: number,
  b: number,
  limitKmh: number,
  where: { file: string; line: number; value: string },
  notices: NoticeLog,
): void {
  const st = feed.stopTimes;
  const from = feed.stops[st.stop[a]];
  const to = feed.stops[st.stop[b]];
  if (!Number.isFinite(from.lat) || !Number.isFinite(to.lat)) return;
  const metres = haversineMetres(from.lat, from.lon, to.lat, to.lon);
  // Times are often whole minutes: a hop "in 0 s" took up to a minute.
  const seconds = Math.max(60, st.arrival[b] - st.departure[a]);
  if ((metres / seconds) * 3.6 > limitKmh) notices.add('fast_travel_between_consecutive_stops', { ...where, field: 'arrival_time' });
}

function checkUnused(feed: GtfsFeed, ranges: Int32Array, notices: NoticeLog): void {
  const usedStops = new Uint8Array(feed.stops.length);
  for (let i = 0; i < feed.stopTimes.length; i++) usedStops[feed.stopTimes.stop[i]] = 1;
  const parents = new Set(feed.stops.map((s) => s.parent).filter(Boolean));
  feed.stops.forEach((stop, i) => {
    const where = { file: 'stops.txt', line: stop.line, value: stop.id };
    if (stop.locationType === 0 && !usedStops[i] && !parents.has(stop.id)) notices.add('unused_stop', where);
    if (stop.locationType !== 0 && usedStops[i]) notices.add('wrong_stop_time_stop_location_type', where);
  });
  const usedShapes = new Set(feed.trips.map((t) => t.shapeId));
  for (const shape of feed.shapes.keys()) if (!usedShapes.has(shape)) notices.add('unused_shape', { file: 'shapes.txt', value: shape });
  const routesWithTrips = new Set(feed.trips.filter((_, t) => ranges[t * 2] >= 0).map((t) => t.route));
  feed.routes.forEach((route, r) => {
    if (!routesWithTrips.has(r)) notices.add('route_without_trips', { file: 'routes.txt', line: route.line, value: route.id });
  });
}

/** Whether a calendar's days of the week meet its date range at least once. */
function calendarRuns(days: number, start: string, end: string): boolean {
  if (!days || !start || !end || start > end) return false;
  const from = Date.parse(`${start}T00:00:00Z`);
  const to = Date.parse(`${end}T00:00:00Z`);
  for (let t = from, n = 0; t <= to && n < 7; t += 86_400_000, n++) if (days & (1 << new Date(t).getUTCDay())) return true;
  return false;
}

function checkServices(feed: GtfsFeed, notices: NoticeLog): void {
  const added = new Set(feed.calendarDates.filter((d) => d.added).map((d) => d.serviceId));
  const removed = new Map<string, Set<string>>();
  for (const d of feed.calendarDates)
    if (!d.added) (removed.get(d.serviceId) ?? removed.set(d.serviceId, new Set()).get(d.serviceId)!).add(d.date);
  for (const calendar of feed.calendars) {
    if (added.has(calendar.serviceId)) continue;
    const runs = calendarRuns(calendar.days, calendar.start, calendar.end) && !allRemoved(calendar, removed.get(calendar.serviceId));
    if (!runs) notices.add('service_never_active', { file: 'calendar.txt', line: calendar.line, value: calendar.serviceId });
  }
}

/** Whether every day a calendar runs is removed by its exceptions (checked for short calendars only). */
function allRemoved(calendar: { days: number; start: string; end: string }, removed: Set<string> | undefined): boolean {
  if (!removed) return false;
  const from = Date.parse(`${calendar.start}T00:00:00Z`);
  const to = Date.parse(`${calendar.end}T00:00:00Z`);
  if ((to - from) / 86_400_000 > 400) return false;
  for (let t = from; t <= to; t += 86_400_000) {
    const day = new Date(t);
    if (calendar.days & (1 << day.getUTCDay()) && !removed.has(day.toISOString().slice(0, 10))) return false;
  }
  return true;
}

function checkBlocks(feed: GtfsFeed, ranges: Int32Array, notices: NoticeLog): void {
  const st = feed.stopTimes;
  const blocks = new Map<string, { trip: number; start: number; end: number }[]>();
  feed.trips.forEach((trip, t) => {
    const first = ranges[t * 2];
    if (!trip.blockId || first < 0) return;
    const start = st.departure[first];
    const end = st.arrival[ranges[t * 2 + 1] - 1];
    if (start < 0 || end < 0) return;
    const key = `${trip.serviceId}\u0000${trip.blockId}`;
    (blocks.get(key) ?? blocks.set(key, []).get(key)!).push({ trip: t, start, end });
  });
  for (const trips of blocks.values()) {
    trips.sort((a, b) => a.start - b.start);
    for (let i = 1; i < trips.length; i++) {
      if (trips[i].start < trips[i - 1].end) {
        const trip = feed.trips[trips[i].trip];
        notices.add('block_trips_with_overlapping_stop_times', {
          file: 'trips.txt',
          line: trip.line,
          field: 'block_id',
          value: `${trip.id} ${feed.trips[trips[i - 1].trip].id}`,
        });
      }
    }
  }
}
