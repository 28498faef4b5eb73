import { Readable } from 'node:stream';
import archiver from 'archiver';
import type { Queryable } from '../../db/types';
import { formatGtfsDate, formatGtfsTime } from '../feed/gtfsValues';
import { planExport, raceKey, type ExportPlan, type PlanOptions } from './exportPlan';

/** Stop times read per query: keyset batches along the schedule times' index, so memory stays flat whatever the city. */
const STOP_TIME_BATCH = 20_000;

export interface StaticFeedOptions extends PlanOptions {
  /** The IANA zone the feed declares (the operator's: the handbook's minutes are of its day). */
  timezone: string;
  /** When the feed is made (feed_version). */
  now: Date;
}

/** A CSV cell as the GTFS reference reads it: quoted when it holds a comma, a quote or a line break. */
const cell = (value: string | number): string => {
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
};
const line = (values: readonly (string | number)[]): string => `${values.map(cell).join(',')}\n`;
const table = (header: readonly string[], rows: Iterable<readonly (string | number)[]>): string => {
  let text = line(header);
  for (const row of rows) text += line(row);
  return text;
};

const WEEK_COLUMNS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;
/** Bit of each calendar.txt weekday column (bit 0 Sunday … 6 Saturday). */
const WEEK_BITS = [1, 2, 3, 4, 5, 6, 0];

/**
 * stop_times.txt, variant by variant, each in keyset batches along the schedule times' index (an index scan
 * that stops at the batch, where one query over all variants would sort what remains each time).
 */
async function* stopTimeLines(db: Queryable, plan: ExportPlan): AsyncGenerator<string> {
  yield line(['trip_id', 'arrival_time', 'departure_time', 'stop_id', 'stop_sequence', 'timepoint']);
  for (const variant of plan.variantIds) {
    let after: [number, string, number, number] = [-1, '', 0, 0];
    for (;;) {
      const rows = await db.query<{ g: number; s: string; r: number; o: number; stop_id: number; time: number }>(
        `select graph g, smena s, racenum r, "order" o, stop_id, time from mgt.rasp_time
          where "RaspVariant_id" = $1 and (graph, smena, racenum, "order") > ($2, $3, $4, $5)
          order by graph, smena, racenum, "order" limit ${STOP_TIME_BATCH}`,
        [variant, ...after],
      );
      let text = '';
      for (const row of rows) {
        const stop = plan.stopIds.get(row.stop_id);
        const trip = plan.raceTrip.get(raceKey(variant, row.g, row.s, row.r));
        if (stop === undefined || trip === undefined) continue;
        const time = formatGtfsTime(row.time * 60);
        text += `${cell(trip)},${time},${time},${cell(stop)},${row.o},1\n`;
      }
      if (text) yield text;
      if (rows.length < STOP_TIME_BATCH) break;
      const last = rows[rows.length - 1];
      after = [last.g, last.s, last.r, last.o];
    }
  }
}

/** shapes.txt a shape at a time: a city's trajectories are hundreds of thousands of points. */
function* shapeLines(plan: ExportPlan): Generator<string> {
  yield line(['shape_id', 'shape_pt_lat', 'shape_pt_lon', 'shape_pt_sequence']);
  for (const shape of plan.shapes) yield shape.points.map(([lon, lat], i) => line([shape.id, lat, lon, i + 1])).join('');
}

/**
 * The network in the handbooks as a GTFS feed, streamed as a zip: the small files from the plan, stop_times.txt
 * batch by batch as the client reads it. The caller pipes the archive and finalizes nothing.
 */
export async function staticFeed(db: Queryable, options: StaticFeedOptions): Promise<{ zip: archiver.Archiver; plan: ExportPlan }> {
  const plan = await planExport(db, options);
  const zip = archiver('zip', { zlib: { level: 6 } });
  const add = (name: string, text: string) => zip.append(text, { name });

  add(
    'agency.txt',
    table(
      ['agency_id', 'agency_name', 'agency_url', 'agency_timezone', 'agency_lang', 'agency_phone'],
      plan.agencies.map((a) => [a.id, a.name, a.url, options.timezone, a.lang, a.phone]),
    ),
  );
  add(
    'stops.txt',
    table(
      ['stop_id', 'stop_code', 'stop_name', 'stop_lat', 'stop_lon', 'location_type', 'parent_station'],
      plan.stops.map((s) => [s.id, s.code, s.name, s.lat, s.lon, s.locationType, s.parent]),
    ),
  );
  add(
    'routes.txt',
    table(
      ['route_id', 'agency_id', 'route_short_name', 'route_long_name', 'route_desc', 'route_type', 'route_color'],
      plan.routes.map((r) => [r.id, r.agencyId, r.shortName, r.longName, r.desc, r.type, r.color]),
    ),
  );
  add(
    'trips.txt',
    table(
      ['route_id', 'service_id', 'trip_id', 'trip_headsign', 'direction_id', 'block_id', 'shape_id'],
      plan.trips.map((t) => [t.routeId, t.serviceId, t.id, t.headsign, t.direction, t.blockId, t.shapeId]),
    ),
  );
  zip.append(Readable.from(stopTimeLines(db, plan)), { name: 'stop_times.txt' });
  const withWeek = plan.services.filter((s) => s.calendar.days !== 0);
  add(
    'calendar.txt',
    table(
      ['service_id', ...WEEK_COLUMNS, 'start_date', 'end_date'],
      withWeek.map((s) => [
        s.id,
        ...WEEK_BITS.map((bit) => (s.calendar.days >> bit) & 1),
        formatGtfsDate(s.calendar.start),
        formatGtfsDate(s.calendar.end),
      ]),
    ),
  );
  add(
    'calendar_dates.txt',
    table(
      ['service_id', 'date', 'exception_type'],
      plan.services.flatMap((s) =>
        [...s.calendar.added.map((d) => [s.id, formatGtfsDate(d), 1]), ...s.calendar.removed.map((d) => [s.id, formatGtfsDate(d), 2])].sort(
          (a, b) => (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0),
        ),
      ),
    ),
  );
  zip.append(Readable.from(shapeLines(plan)), { name: 'shapes.txt' });
  add(
    'feed_info.txt',
    table(
      ['feed_publisher_name', 'feed_publisher_url', 'feed_lang', 'feed_start_date', 'feed_end_date', 'feed_version'],
      [
        [
          options.publisherName || plan.agencies[0]?.name || 'GTFS',
          options.publisherUrl,
          options.lang,
          formatGtfsDate(plan.first),
          formatGtfsDate(plan.last),
          options.now.toISOString().slice(0, 19).replace('T', ' '),
        ],
      ],
    ),
  );
  // A failure reaches the archive as its 'error' (the answer is cut); the promise's rejection says nothing more.
  zip.finalize().catch(() => undefined);
  return { zip, plan };
}
