import { group, number, type Environment } from '../configuration/variables';

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
  /** A PUT for a stream another process holds waits this long at most for its answer over the bus (GEO_MOVE_TIMEOUT_MS). */
  moveTimeoutMs: number;
}

export const geoVariables = group('Map stream', {
  rebuildMs: number('GEO_REBUILD_MS', {
    default: 250,
    min: 50,
    unit: 'ms',
    meaning: 'positions arriving within it go out together, one delta per view',
  }),
  clusterRadius: number('GEO_CLUSTER_RADIUS', { default: 50, unit: 'px', meaning: 'cluster radius in screen pixels' }),
  clusterMaxZoom: number('GEO_CLUSTER_MAX_ZOOM', { default: 15, max: 22, meaning: 'above this zoom every vehicle shows on its own' }),
  maxStreamsPerUser: number('GEO_MAX_STREAMS_PER_USER', { default: 20, meaning: 'open map streams per user (beyond: 429)' }),
  sessionCheckS: number('GEO_SESSION_CHECK_S', {
    default: 60,
    unit: 's',
    meaning: 'how often an open stream checks its session (a logout or a block ends it)',
  }),
  heartbeatS: number('GEO_HEARTBEAT_S', {
    default: 15,
    unit: 's',
    meaning: 'a comment line this often keeps proxies from closing a quiet stream',
  }),
  moveTimeoutMs: number('GEO_MOVE_TIMEOUT_MS', {
    default: 2000,
    min: 100,
    unit: 'ms',
    meaning:
      "with several processes, how long a stream's `PUT` reaching a process that does not hold the stream waits for the holder's answer over the bus (404 past it; at once when every other process says it holds none)",
  }),
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
    moveTimeoutMs: v.moveTimeoutMs,
  };
}
