import { numberFromEnv } from '../map/config';

/** Geo stream settings, read from the environment by the area itself. */
export interface GeoConfig {
  /**
   * Coalescing window: positions arriving within it go out together, in one rebuild of the cluster index and one
   * delta per view (GEO_REBUILD_MS, 250; a rebuild that took long stretches it, see GeoHub).
   */
  rebuildMs: number;
  /** A comment line keeps proxies from closing a quiet stream (GEO_HEARTBEAT_S, 15). */
  heartbeatMs: number;
  /** An open stream re-checks its session this often: a logout or a block ends it (GEO_SESSION_CHECK_S, 60). */
  sessionCheckMs: number;
  /** Open streams per user beyond this are refused with 429 (GEO_MAX_STREAMS_PER_USER, 20). */
  maxStreamsPerUser: number;
  /** Cluster radius in screen pixels (GEO_CLUSTER_RADIUS, 50). */
  clusterRadius: number;
  /** Above this zoom every vehicle shows on its own (GEO_CLUSTER_MAX_ZOOM, 15; the locate zoom is 16). */
  clusterMaxZoom: number;
  /** 'redis': positions are fanned out between server processes over Redis pub/sub (GEO_FANOUT, default none). */
  fanout: 'none' | 'redis';
  /** GEO_REDIS_URL, default redis://127.0.0.1:6379. */
  redisUrl: string;
}

export function geoConfig(env: NodeJS.ProcessEnv = process.env): GeoConfig {
  return {
    rebuildMs: Math.max(50, numberFromEnv(env.GEO_REBUILD_MS, 250)),
    heartbeatMs: numberFromEnv(env.GEO_HEARTBEAT_S, 15) * 1000,
    sessionCheckMs: numberFromEnv(env.GEO_SESSION_CHECK_S, 60) * 1000,
    maxStreamsPerUser: numberFromEnv(env.GEO_MAX_STREAMS_PER_USER, 20),
    clusterRadius: numberFromEnv(env.GEO_CLUSTER_RADIUS, 50),
    clusterMaxZoom: Math.min(22, numberFromEnv(env.GEO_CLUSTER_MAX_ZOOM, 15)),
    fanout: env.GEO_FANOUT === 'redis' ? 'redis' : 'none',
    redisUrl: env.GEO_REDIS_URL ?? 'redis://127.0.0.1:6379',
  };
}
