/**
 * What the GTFS check says of a feed, on the way in (import) and out (export). The codes follow the canonical
 * validator's (MobilityData gtfs-validator) where it has the same notice, so a person can look one up there;
 * the client translates each as `gtfs.notice.<code>`. An error refuses an import; a warning does not. Where
 * feeds in the wild break a rule consumers tolerate, the notice is a warning here (a trip stopping at a station
 * is imported as stopping there).
 */
export type NoticeSeverity = 'error' | 'warning';

export const NOTICE_SEVERITY = {
  missing_required_file: 'error',
  missing_calendar_and_calendar_date_files: 'error',
  missing_required_column: 'error',
  missing_required_field: 'error',
  duplicate_key: 'error',
  foreign_key_violation: 'error',
  invalid_time: 'error',
  invalid_date: 'error',
  invalid_integer: 'error',
  invalid_float: 'error',
  number_out_of_range: 'error',
  invalid_timezone: 'error',
  stop_time_timepoint_without_times: 'error',
  missing_trip_edge: 'error',
  decreasing_or_equal_stop_time_sequence: 'error',
  stop_time_with_arrival_before_previous_departure_time: 'error',
  stop_time_with_departure_before_arrival_time: 'error',
  point_near_origin: 'error',
  invalid_coordinates: 'error',
  start_and_end_range_out_of_order: 'error',
  csv_parsing_failed: 'error',
  invalid_zip_file: 'error',
  unusable_trip: 'warning',
  wrong_stop_time_stop_location_type: 'warning',
  fast_travel_between_consecutive_stops: 'warning',
  stop_too_far_from_feed_area: 'warning',
  service_never_active: 'warning',
  unused_stop: 'warning',
  unused_shape: 'warning',
  route_without_trips: 'warning',
  block_trips_with_overlapping_stop_times: 'warning',
  leading_or_trailing_whitespaces: 'warning',
  unknown_column: 'warning',
  unknown_file: 'warning',
  timezone_converted: 'warning',
  too_many_notices: 'warning',
} as const satisfies Record<string, NoticeSeverity>;

export type NoticeCode = keyof typeof NOTICE_SEVERITY;

/** One thing said of a feed: where (file, line with the header as 1, field) and the values involved. */
export interface GtfsNotice {
  code: NoticeCode;
  severity: NoticeSeverity;
  file?: string;
  line?: number;
  field?: string;
  /** The offending value or the ids involved, at most a few short strings. */
  value?: string;
}

/** Rows read, written and skipped per file of a feed. */
export interface GtfsFileCounts {
  file: string;
  read: number;
  written: number;
  skipped: number;
}

export const isError = (notice: GtfsNotice): boolean => notice.severity === 'error';
