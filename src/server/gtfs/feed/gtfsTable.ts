import { csvBatches, isEmptyRecord } from '../../handbooks/csvStream';
import { FEED_FILE_MAX_BYTES, type ZipFeed } from './zipFeed';
import type { NoticeLog } from './noticeLog';

/** A file of the reference the product reads: whether the feed must have it, and its columns (true = required). */
interface FileDeclaration {
  required: boolean;
  columns: Record<string, boolean>;
}

/** The GTFS Schedule files the importer reads, with the columns it knows (others are reported and skipped). */
export const GTFS_FILES = {
  'agency.txt': {
    required: true,
    columns: {
      agency_id: false,
      agency_name: true,
      agency_url: true,
      agency_timezone: true,
      agency_lang: false,
      agency_phone: false,
      agency_fare_url: false,
      agency_email: false,
    },
  },
  'stops.txt': {
    required: true,
    columns: {
      stop_id: true,
      stop_code: false,
      stop_name: false,
      tts_stop_name: false,
      stop_desc: false,
      stop_lat: false,
      stop_lon: false,
      zone_id: false,
      stop_url: false,
      location_type: false,
      parent_station: false,
      stop_timezone: false,
      wheelchair_boarding: false,
      level_id: false,
      platform_code: false,
    },
  },
  'routes.txt': {
    required: true,
    columns: {
      route_id: true,
      agency_id: false,
      route_short_name: false,
      route_long_name: false,
      route_desc: false,
      route_type: true,
      route_url: false,
      route_color: false,
      route_text_color: false,
      route_sort_order: false,
      continuous_pickup: false,
      continuous_drop_off: false,
      network_id: false,
    },
  },
  'trips.txt': {
    required: true,
    columns: {
      route_id: true,
      service_id: true,
      trip_id: true,
      trip_headsign: false,
      trip_short_name: false,
      direction_id: false,
      block_id: false,
      shape_id: false,
      wheelchair_accessible: false,
      bikes_allowed: false,
    },
  },
  'stop_times.txt': {
    required: true,
    columns: {
      trip_id: true,
      arrival_time: false,
      departure_time: false,
      stop_id: true,
      stop_sequence: true,
      stop_headsign: false,
      pickup_type: false,
      drop_off_type: false,
      continuous_pickup: false,
      continuous_drop_off: false,
      shape_dist_traveled: false,
      timepoint: false,
      start_pickup_drop_off_window: false,
      end_pickup_drop_off_window: false,
      location_group_id: false,
      location_id: false,
      pickup_booking_rule_id: false,
      drop_off_booking_rule_id: false,
    },
  },
  'calendar.txt': {
    required: false,
    columns: {
      service_id: true,
      monday: true,
      tuesday: true,
      wednesday: true,
      thursday: true,
      friday: true,
      saturday: true,
      sunday: true,
      start_date: true,
      end_date: true,
    },
  },
  'calendar_dates.txt': { required: false, columns: { service_id: true, date: true, exception_type: true } },
  'shapes.txt': {
    required: false,
    columns: { shape_id: true, shape_pt_lat: true, shape_pt_lon: true, shape_pt_sequence: true, shape_dist_traveled: false },
  },
  'frequencies.txt': {
    required: false,
    columns: { trip_id: true, start_time: true, end_time: true, headway_secs: true, exact_times: false },
  },
  'feed_info.txt': {
    required: false,
    columns: {
      feed_publisher_name: true,
      feed_publisher_url: true,
      feed_lang: true,
      default_lang: false,
      feed_start_date: false,
      feed_end_date: false,
      feed_version: false,
      feed_contact_email: false,
      feed_contact_url: false,
    },
  },
} as const satisfies Record<string, FileDeclaration>;

export type GtfsFile = keyof typeof GTFS_FILES;
type ColumnOf<F extends GtfsFile> = keyof (typeof GTFS_FILES)[F]['columns'] & string;

/** One record of a file: its line (the header is line 1) and its fields by name, trimmed; '' when absent. */
export interface GtfsRecord<F extends GtfsFile> {
  line: number;
  get(column: ColumnOf<F>): string;
}

/** Files the reference names that the importer does not read: present ones are reported, not refused. */
const OTHER_REFERENCE_FILES = new Set([
  'transfers.txt',
  'pathways.txt',
  'levels.txt',
  'translations.txt',
  'attributions.txt',
  'fare_attributes.txt',
  'fare_rules.txt',
  'fare_media.txt',
  'fare_products.txt',
  'fare_leg_rules.txt',
  'fare_transfer_rules.txt',
  'areas.txt',
  'stop_areas.txt',
  'networks.txt',
  'route_networks.txt',
  'timeframes.txt',
  'location_groups.txt',
  'location_group_stops.txt',
  'locations.geojson',
  'booking_rules.txt',
  'rider_categories.txt',
  'fare_leg_join_rules.txt',
]);

/** Says which files of the feed are not read, and which required ones are missing. */
export function checkFileSet(feed: ZipFeed, notices: NoticeLog): void {
  for (const name of feed.names()) {
    if (!(name in GTFS_FILES) && !OTHER_REFERENCE_FILES.has(name)) notices.add('unknown_file', { file: name });
  }
  for (const [name, declaration] of Object.entries(GTFS_FILES)) {
    if (declaration.required && !feed.has(name)) notices.add('missing_required_file', { file: name });
  }
  if (!feed.has('calendar.txt') && !feed.has('calendar_dates.txt')) notices.add('missing_calendar_and_calendar_date_files');
}

/**
 * The records of one file, as published feeds come: a BOM, CRLF, quoted fields, spaces around values (trimmed,
 * said once per file), extra columns (said once, skipped), short rows (the missing cells are empty), empty lines.
 * A missing required column is an error and the file yields nothing. An absent file yields nothing. The
 * reference's files are UTF-8.
 */
export async function* gtfsRecords<F extends GtfsFile>(feed: ZipFeed, file: F, notices: NoticeLog): AsyncGenerator<GtfsRecord<F>> {
  if (!feed.has(file)) return;
  const columns: Record<string, boolean> = GTFS_FILES[file].columns;
  let index: Map<string, number> | undefined;
  let line = 0;
  let spaced = false;
  let cells: string[] = [];
  const record: GtfsRecord<F> = {
    line: 0,
    get(column) {
      const at = index!.get(column);
      if (at === undefined || at >= cells.length) return '';
      const raw = cells[at];
      const value = raw.trim();
      if (!spaced && value.length !== raw.length) {
        spaced = true;
        notices.add('leading_or_trailing_whitespaces', { file, line: record.line, field: column });
      }
      return value;
    },
  };
  const stream = await feed.stream(file);
  try {
    for await (const batch of csvBatches(stream, 'utf-8', FEED_FILE_MAX_BYTES, ',')) {
      for (const row of batch) {
        line++;
        if (!index) {
          index = headerIndex(row, file, columns, notices);
          if (!index) return;
          continue;
        }
        if (isEmptyRecord(row)) continue;
        cells = row;
        record.line = line;
        yield record;
      }
    }
  } catch (error) {
    notices.add('csv_parsing_failed', { file, line: line + 1, value: error instanceof Error ? error.message.slice(0, 200) : undefined });
  } finally {
    stream.destroy();
  }
}

function headerIndex(
  header: string[],
  file: string,
  columns: Record<string, boolean>,
  notices: NoticeLog,
): Map<string, number> | undefined {
  const index = new Map<string, number>();
  header.forEach((name, i) => {
    const column = name.trim().toLowerCase();
    if (!(column in columns)) notices.add('unknown_column', { file, line: 1, field: column });
    else if (!index.has(column)) index.set(column, i);
  });
  const missing = Object.entries(columns).filter(([name, required]) => required && !index.has(name));
  for (const [name] of missing) notices.add('missing_required_column', { file, line: 1, field: name });
  return missing.length ? undefined : index;
}
