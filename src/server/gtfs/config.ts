import { flag, group, number, text, type Environment } from '../configuration/variables';
import { operatorTzOffsetMinutes } from '../platform/operatorDay';

export interface GtfsConfig {
  /**
   * GTFS_RT_PUBLIC (default true): the feed is open without an account, as journey planners poll it. It holds
   * what passengers see on the street anyway (where a numbered vehicle of a route is); 'false' puts it behind
   * the map right (/map/currentData, read).
   */
  public: boolean;
  /** The encoded feed is reused this long (GTFS_RT_CACHE_MS, 1000): many pollers cost one encoding. */
  cacheMs: number;
  static: StaticFeedConfig;
  /** GTFS_IMPORT_MAX_BYTES (1 GiB): the largest feed an import accepts; a large city's zip is a few hundred MB. */
  importMaxBytes: number;
}

/** The static feed (GET /api/v1/gtfs/static.zip). */
export interface StaticFeedConfig {
  /**
   * GTFS_STATIC_PUBLIC (default false): open without an account. Off, it takes the key below, or a session
   * with the external-system settings right (code 6). Off by default: a city's export reads millions of rows,
   * so the operator decides to publish it.
   */
  public: boolean;
  /** GTFS_STATIC_KEY: a shared secret a consumer passes as `?key=` (or the X-Gtfs-Key header); unset = none. */
  key: string | null;
  /**
   * GTFS_TIMEZONE: the IANA zone the feed declares. The handbooks keep minutes of the operator's day
   * (OPERATOR_TZ_OFFSET_MINUTES), so it must have that offset; default Europe/Moscow at +180, else Etc/GMT±N.
   */
  timezone: string;
  /** GTFS_PERIOD_DAYS (365, at most 400): the days from today the calendars cover. */
  periodDays: number;
  /** GTFS_PUBLISHER_NAME, GTFS_PUBLISHER_URL, GTFS_LANG: feed_info, and the URL of agencies that have none. */
  publisherName: string;
  publisherUrl: string;
  lang: string;
}

/** An IANA zone of a whole-hour offset (Etc/GMT signs are inverted); UTC when there is none. */
function zoneOfOffset(minutes: number): string {
  if (minutes === 180) return 'Europe/Moscow';
  if (minutes === 0 || minutes % 60 !== 0) return 'UTC';
  const hours = minutes / 60;
  return `Etc/GMT${hours > 0 ? '-' : '+'}${Math.abs(hours)}`;
}

export const gtfsVariables = group('GTFS', {
  realtimePublic: flag('GTFS_RT_PUBLIC', { default: true, meaning: 'the GTFS-Realtime feeds without a session' }),
  realtimeCacheMs: number('GTFS_RT_CACHE_MS', { default: 1000, min: 0, unit: 'ms', meaning: 'how long an encoded feed is reused' }),
  staticPublic: flag('GTFS_STATIC_PUBLIC', {
    default: false,
    meaning:
      'the static GTFS feed (`/api/v1/gtfs/static.zip`) open to anyone; otherwise to a consumer passing `GTFS_STATIC_KEY`, or to a session with code 6',
  }),
  staticKey: text('GTFS_STATIC_KEY', { meaning: 'the key a consumer of the static feed passes (`?key=` or `X-Gtfs-Key`)' }),
  timezone: text('GTFS_TIMEZONE', {
    defaultText: '`Europe/Moscow` at +180, else `Etc/GMT±N` of `OPERATOR_TZ_OFFSET_MINUTES`',
    meaning: "the static feed's zone (it must have the operator's offset); see [gtfs.md](gtfs.md)",
  }),
  periodDays: number('GTFS_PERIOD_DAYS', {
    default: 365,
    min: 1,
    max: 400,
    round: true,
    unit: 'days',
    meaning: 'the days from today its calendars cover',
  }),
  publisherName: text('GTFS_PUBLISHER_NAME', { meaning: "its feed_info's publisher" }),
  publisherUrl: text('GTFS_PUBLISHER_URL', {
    default: 'http://localhost/',
    meaning: "the publisher's URL, also of agencies that have none",
  }),
  lang: text('GTFS_LANG', { default: 'ru', meaning: "the feed's language" }),
  importMaxBytes: number('GTFS_IMPORT_MAX_BYTES', {
    default: 1024 ** 3,
    min: 1,
    unit: 'bytes',
    meaning: 'the largest GTFS zip an import accepts',
  }),
});

export function gtfsConfig(env: Environment = process.env): GtfsConfig {
  const v = gtfsVariables.read(env);
  return {
    public: v.realtimePublic,
    cacheMs: v.realtimeCacheMs,
    static: {
      public: v.staticPublic,
      key: v.staticKey ?? null,
      timezone: v.timezone ?? zoneOfOffset(operatorTzOffsetMinutes.read(env)),
      periodDays: v.periodDays,
      publisherName: v.publisherName ?? '',
      publisherUrl: v.publisherUrl,
      lang: v.lang,
    },
    importMaxBytes: v.importMaxBytes,
  };
}
