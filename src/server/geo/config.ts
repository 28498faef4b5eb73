import { group, number, oneOf, text, type Environment } from '../configuration/variables';

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

export const geoVariables = group('Map stream', {
  rebuildMs: number('GEO_REBUILD_MS', { default: 250, min: 50, unit: 'ms', meaning: 'positions arriving within it go out together, one delta per view' }),
  clusterRadius: number('GEO_CLUSTER_RADIUS', { default: 50, unit: 'px', meaning: 'cluster radius in screen pixels' }),
  clusterMaxZoom: number('GEO_CLUSTER_MAX_ZOOM', { default: 15, max: 22, meaning: 'above this zoom every vehicle shows on its own' }),
  maxStreamsPerUser: number('GEO_MAX_STREAMS_PER_USER', { default: 20, meaning: 'open map streams per user (beyond: 429)' }),
  sessionCheckS: number('GEO_SESSION_CHECK_S', { default: 60, unit: 's', meaning: 'how often an open stream checks its session (a logout or a block ends it)' }),
  heartbeatS: number('GEO_HEARTBEAT_S', { default: 15, unit: 's', meaning: 'a comment line this often keeps proxies from closing a quiet stream' }),
  fanout: oneOf('GEO_FANOUT', ['none', 'redis'], { default: 'none', meaning: '`redis` shares positions between server processes through Redis' }),
  redisUrl: text('GEO_REDIS_URL', { default: 'redis://127.0.0.1:6379', meaning: 'the Redis server they share them through' }),
});

export function geoConfig(env: Environment = process.env): GeoConfig {
  const v = geoVariables.read(env);
  return {
    rebuildMs: v.rebuildMs,
    heartbeatMs: v.heartbeatS * 1000,
    sessionCheckMs: v.sessionCheckS * 1000,
    maxStreamsPerUser: v.maxStreamsPerUser,
    clusterRadius: v.clusterRadius,
    clusterMaxZoom: v.clusterMaxZoom,
    fanout: v.fanout,
    redisUrl: v.redisUrl,
  };
}
