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
}

export function gtfsConfig(env: NodeJS.ProcessEnv = process.env): GtfsConfig {
  return {
    public: (env.GTFS_RT_PUBLIC ?? 'true') !== 'false',
    cacheMs: Math.max(0, numberFromEnv(env.GTFS_RT_CACHE_MS, 1000)),
  };
}
