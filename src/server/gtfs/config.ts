import { numberFromEnv } from '../map/config';

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

export function gtfsConfig(env: NodeJS.ProcessEnv = process.env): GtfsConfig {
  const offset = numberFromEnv(env.OPERATOR_TZ_OFFSET_MINUTES, 180);
  return {
    public: (env.GTFS_RT_PUBLIC ?? 'true') !== 'false',
    cacheMs: Math.max(0, numberFromEnv(env.GTFS_RT_CACHE_MS, 1000)),
    static: {
      public: env.GTFS_STATIC_PUBLIC === 'true',
      key: env.GTFS_STATIC_KEY || null,
      timezone: env.GTFS_TIMEZONE || zoneOfOffset(offset),
      periodDays: Math.min(400, Math.max(1, Math.round(numberFromEnv(env.GTFS_PERIOD_DAYS, 365)))),
      publisherName: env.GTFS_PUBLISHER_NAME || '',
      publisherUrl: env.GTFS_PUBLISHER_URL || 'http://localhost/',
      lang: env.GTFS_LANG || 'ru',
    },
    importMaxBytes: Math.max(1, numberFromEnv(env.GTFS_IMPORT_MAX_BYTES, 1024 ** 3)),
  };
}
