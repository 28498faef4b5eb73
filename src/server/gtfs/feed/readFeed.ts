import type { NoticeCode } from '../../../shared/gtfs/notices';
import { checkFileSet, gtfsRecords, type GtfsFile, type GtfsRecord } from './gtfsTable';
import {
  StopTimeColumns,
  type FeedCalendar,
  type FeedCalendarDate,
  type FeedFrequency,
  type FeedInfo,
  type FeedShape,
  type FeedStop,
  type GtfsFeed,
} from './gtfsFeed';
import { parseGtfsDate, parseGtfsFloat, parseGtfsInt, parseGtfsTime } from './gtfsValues';
import type { NoticeLog } from './noticeLog';
import type { ZipFeed } from './zipFeed';

const DAY_COLUMNS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'] as const;

/** Reads fields of one record, saying what is wrong with a value where it is found. */
class FieldReader<F extends GtfsFile> {
  constructor(
    private readonly file: F,
    private readonly notices: NoticeLog,
    public record: GtfsRecord<F>,
  ) {}

  private say(code: NoticeCode, field: string, value?: string): void {
    this.notices.add(code, { file: this.file, line: this.record.line, field, value: value?.slice(0, 60) });
  }

  text(field: Parameters<GtfsRecord<F>['get']>[0], required = false): string {
    const value = this.record.get(field);
    if (required && !value) this.say('missing_required_field', field);
    return value;
  }

  int(field: Parameters<GtfsRecord<F>['get']>[0], fallback: number | null, min = -2147483648, max = 2147483647): number | null {
    const text = this.record.get(field);
    if (!text) return fallback;
    const value = parseGtfsInt(text);
    if (value === null) this.say('invalid_integer', field, text);
    else if (value < min || value > max) this.say('number_out_of_range', field, text);
    else return value;
    return fallback;
  }

  float(field: Parameters<GtfsRecord<F>['get']>[0], required = false): number {
    const text = this.record.get(field);
    if (!text) {
      if (required) this.say('missing_required_field', field);
      return Number.NaN;
    }
    const value = parseGtfsFloat(text);
    if (value === null) this.say('invalid_float', field, text);
    return value ?? Number.NaN;
  }

  time(field: Parameters<GtfsRecord<F>['get']>[0]): number {
    const text = this.record.get(field);
    if (!text) return -1;
    const value = parseGtfsTime(text);
    if (value === null) this.say('invalid_time', field, text);
    return value ?? -1;
  }

  date(field: Parameters<GtfsRecord<F>['get']>[0]): string {
    const text = this.record.get(field);
    if (!text) {
      this.say('missing_required_field', field);
      return '';
    }
    const value = parseGtfsDate(text);
    if (value === null) this.say('invalid_date', field, text);
    return value ?? '';
  }

  duplicate(field: string, value: string): void {
    this.say('duplicate_key', field, value);
  }

  missingTarget(field: string, value: string): void {
    this.say('foreign_key_violation', field, value);
  }
}

/** Each record of a file with a reader of its fields. */
async function eachRecord<F extends GtfsFile>(
  feed: ZipFeed,
  file: F,
  notices: NoticeLog,
  handle: (r: FieldReader<F>) => void,
): Promise<number> {
  let reader: FieldReader<F> | undefined;
  let count = 0;
  for await (const record of gtfsRecords(feed, file, notices)) {
    reader ??= new FieldReader(file, notices, record);
    handle(reader);
    count++;
  }
  return count;
}

/** Rows read per file, for the import's report. */
export type ReadCounts = Partial<Record<GtfsFile, number>>;

/**
 * Reads a feed file by file into memory (the stop times as typed columns), checking each value and each
 * reference as it comes. What is wrong goes to `notices`; a record with a broken key or reference is left out.
 */
export async function readFeed(zip: ZipFeed, notices: NoticeLog): Promise<{ feed: GtfsFeed; counts: ReadCounts }> {
  checkFileSet(zip, notices);
  const counts: ReadCounts = {};
  const feed = emptyFeed();

  counts['agency.txt'] = await eachRecord(zip, 'agency.txt', notices, (r) => {
    const id = r.text('agency_id');
    if (feed.agencies.some((a) => a.id === id)) return r.duplicate('agency_id', id);
    feed.agencies.push({
      id,
      name: r.text('agency_name', true),
      url: r.text('agency_url', true),
      timezone: r.text('agency_timezone', true),
      phone: r.text('agency_phone'),
      lang: r.text('agency_lang'),
    });
  });

  counts['stops.txt'] = await eachRecord(zip, 'stops.txt', notices, (r) => {
    const id = r.text('stop_id', true);
    if (!id) return;
    if (feed.stopIndex.has(id)) return r.duplicate('stop_id', id);
    const locationType = r.int('location_type', 0, 0, 4) ?? 0;
    // Stops, stations and entrances need a place; generic nodes and boarding areas may leave it out.
    const placed = locationType <= 2;
    const stop: FeedStop = {
      id,
      code: r.text('stop_code'),
      name: r.text('stop_name', placed),
      lat: r.float('stop_lat', placed),
      lon: r.float('stop_lon', placed),
      locationType,
      parent: r.text('parent_station', locationType >= 2),
      line: r.record.line,
    };
    feed.stopIndex.set(id, feed.stops.length);
    feed.stops.push(stop);
  });
  for (const stop of feed.stops) {
    if (stop.parent && !feed.stopIndex.has(stop.parent)) {
      notices.add('foreign_key_violation', { file: 'stops.txt', line: stop.line, field: 'parent_station', value: stop.parent });
      stop.parent = '';
    }
  }

  const agencyIds = new Set(feed.agencies.map((a) => a.id));
  counts['routes.txt'] = await eachRecord(zip, 'routes.txt', notices, (r) => {
    const id = r.text('route_id', true);
    if (!id) return;
    if (feed.routeIndex.has(id)) return r.duplicate('route_id', id);
    const agencyId = r.text('agency_id', feed.agencies.length > 1);
    if (agencyId && !agencyIds.has(agencyId)) return r.missingTarget('agency_id', agencyId);
    const shortName = r.text('route_short_name');
    const longName = r.text('route_long_name');
    if (!shortName && !longName) r.text('route_short_name', true);
    const type = r.int('route_type', null, 0, 1702);
    if (type === null) return;
    feed.routeIndex.set(id, feed.routes.length);
    feed.routes.push({
      id,
      agencyId: agencyId || (feed.agencies[0]?.id ?? ''),
      shortName,
      longName,
      desc: r.text('route_desc'),
      type,
      color: r.text('route_color'),
      line: r.record.line,
    });
  });

  counts['calendar.txt'] = await eachRecord(zip, 'calendar.txt', notices, (r) => {
    const serviceId = r.text('service_id', true);
    if (!serviceId) return;
    if (feed.calendars.some((c) => c.serviceId === serviceId)) return r.duplicate('service_id', serviceId);
    let days = 0;
    DAY_COLUMNS.forEach((column, bit) => {
      if (r.int(column, 0, 0, 1) === 1) days |= 1 << bit;
    });
    const calendar: FeedCalendar = { serviceId, days, start: r.date('start_date'), end: r.date('end_date'), line: r.record.line };
    if (calendar.start && calendar.end && calendar.start > calendar.end) {
      notices.add('start_and_end_range_out_of_order', { file: 'calendar.txt', line: r.record.line, field: 'end_date', value: serviceId });
    }
    feed.calendars.push(calendar);
  });

  const seenDates = new Set<string>();
  counts['calendar_dates.txt'] = await eachRecord(zip, 'calendar_dates.txt', notices, (r) => {
    const serviceId = r.text('service_id', true);
    const date = r.date('date');
    const type = r.int('exception_type', null, 1, 2);
    if (!serviceId || !date || type === null) return;
    if (seenDates.has(`${serviceId}\u0000${date}`)) return r.duplicate('date', `${serviceId} ${date}`);
    seenDates.add(`${serviceId}\u0000${date}`);
    feed.calendarDates.push({ serviceId, date, added: type === 1, line: r.record.line } satisfies FeedCalendarDate);
  });
  const services = new Set([...feed.calendars.map((c) => c.serviceId), ...feed.calendarDates.map((d) => d.serviceId)]);

  counts['shapes.txt'] = await eachRecord(zip, 'shapes.txt', notices, (r) => {
    const id = r.text('shape_id', true);
    const lat = r.float('shape_pt_lat', true);
    const lon = r.float('shape_pt_lon', true);
    const seq = r.int('shape_pt_sequence', null, 0);
    if (!id || Number.isNaN(lat) || Number.isNaN(lon) || seq === null) return;
    let shape = feed.shapes.get(id);
    if (!shape) feed.shapes.set(id, (shape = { id, seq: [], lat: [], lon: [], dist: [] } satisfies FeedShape));
    shape.seq.push(seq);
    shape.lat.push(lat);
    shape.lon.push(lon);
    shape.dist.push(r.float('shape_dist_traveled'));
  });
  for (const shape of feed.shapes.values()) sortShape(shape);

  counts['trips.txt'] = await eachRecord(zip, 'trips.txt', notices, (r) => {
    const id = r.text('trip_id', true);
    if (!id) return;
    if (feed.tripIndex.has(id)) return r.duplicate('trip_id', id);
    const routeId = r.text('route_id', true);
    const route = feed.routeIndex.get(routeId);
    if (route === undefined) return routeId ? r.missingTarget('route_id', routeId) : undefined;
    const serviceId = r.text('service_id', true);
    if (!services.has(serviceId)) return serviceId ? r.missingTarget('service_id', serviceId) : undefined;
    let shapeId = r.text('shape_id');
    if (shapeId && !feed.shapes.has(shapeId)) {
      r.missingTarget('shape_id', shapeId);
      shapeId = '';
    }
    feed.tripIndex.set(id, feed.trips.length);
    feed.trips.push({
      id,
      route,
      serviceId,
      headsign: r.text('trip_headsign'),
      direction: r.int('direction_id', null, 0, 1),
      blockId: r.text('block_id'),
      shapeId,
      line: r.record.line,
    });
  });

  counts['stop_times.txt'] = await eachRecord(zip, 'stop_times.txt', notices, (r) => {
    const tripId = r.text('trip_id', true);
    const trip = feed.tripIndex.get(tripId);
    if (trip === undefined) return tripId ? r.missingTarget('trip_id', tripId) : undefined;
    const stopId = r.text('stop_id', true);
    const stop = feed.stopIndex.get(stopId);
    if (stop === undefined) return stopId ? r.missingTarget('stop_id', stopId) : undefined;
    const seq = r.int('stop_sequence', null, 0);
    if (seq === null) {
      if (!r.record.get('stop_sequence')) r.text('stop_sequence', true);
      return;
    }
    let arrival = r.time('arrival_time');
    let departure = r.time('departure_time');
    // One of the two alone stands for both, as consumers read it.
    if (arrival < 0) arrival = departure;
    if (departure < 0) departure = arrival;
    if (r.record.get('timepoint') === '1' && arrival < 0) {
      notices.add('stop_time_timepoint_without_times', { file: 'stop_times.txt', line: r.record.line, value: tripId });
    }
    feed.stopTimes.push(trip, seq, stop, arrival, departure, r.float('shape_dist_traveled'), r.record.line);
  });
  feed.stopTimes.sort();

  counts['frequencies.txt'] = await eachRecord(zip, 'frequencies.txt', notices, (r) => {
    const tripId = r.text('trip_id', true);
    const trip = feed.tripIndex.get(tripId);
    if (trip === undefined) return tripId ? r.missingTarget('trip_id', tripId) : undefined;
    const start = r.time('start_time');
    const end = r.time('end_time');
    const headway = r.int('headway_secs', null, 1, 86_400);
    if (start < 0 || end < 0 || headway === null) return;
    if (end < start)
      return void notices.add('start_and_end_range_out_of_order', {
        file: 'frequencies.txt',
        line: r.record.line,
        field: 'end_time',
        value: tripId,
      });
    feed.frequencies.push({
      trip,
      start,
      end,
      headway,
      exact: r.record.get('exact_times') === '1',
      line: r.record.line,
    } satisfies FeedFrequency);
  });

  counts['feed_info.txt'] = await eachRecord(zip, 'feed_info.txt', notices, (r) => {
    feed.info ??= {
      publisherName: r.text('feed_publisher_name', true),
      publisherUrl: r.text('feed_publisher_url', true),
      lang: r.text('feed_lang', true),
      startDate: parseGtfsDate(r.text('feed_start_date')) ?? '',
      endDate: parseGtfsDate(r.text('feed_end_date')) ?? '',
      version: r.text('feed_version'),
    } satisfies FeedInfo;
  });
  return { feed, counts };
}

export function emptyFeed(): GtfsFeed {
  return {
    agencies: [],
    stops: [],
    stopIndex: new Map(),
    routes: [],
    routeIndex: new Map(),
    trips: [],
    tripIndex: new Map(),
    stopTimes: new StopTimeColumns(),
    calendars: [],
    calendarDates: [],
    shapes: new Map(),
    frequencies: [],
    info: null,
  };
}

/** Points of a shape in sequence order. */
function sortShape(shape: FeedShape): void {
  if (shape.seq.every((s, i) => i === 0 || shape.seq[i - 1] <= s)) return;
  const order = shape.seq.map((_, i) => i).sort((a, b) => shape.seq[a] - shape.seq[b]);
  shape.seq = order.map((i) => shape.seq[i]);
  shape.lat = order.map((i) => shape.lat[i]);
  shape.lon = order.map((i) => shape.lon[i]);
  shape.dist = order.map((i) => shape.dist[i]);
}
