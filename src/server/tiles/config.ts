import { join } from 'node:path';
import { numberFromEnv } from '../map/config';
import { baseMapFromTileSource, type BaseMapSettings } from '../../shared/baseMap';

export interface TilesConfig {
  /**
   * TILE_SOURCE: an upstream URL template ('https://host/{z}/{x}/{y}.png'), 'mbtiles:/path/file.mbtiles' or
   * 'dir:/path' (z/x/y.png files); unset = no tiles (the maps ask for none and say where to set a base map).
   * The raw value, for the start's log when it cannot be read.
   */
  source: string | undefined;
  /**
   * The base map until an administrator sets one in the navigation settings: TILE_SOURCE with TILE_ATTRIBUTION
   * (default: the OpenStreetMap credit when TILE_SOURCE is set).
   */
  initialBaseMap: BaseMapSettings;
  /** Where upstream tiles are kept once fetched, a folder per upstream (TILE_CACHE_DIR, default DATA_DIR/tiles). */
  cacheDir: string;
  /** Upstream requests at once (TILE_UPSTREAM_CONCURRENCY, 4): tile servers' usage policies ask for few. */
  upstreamConcurrency: number;
  /** Requests waiting for an upstream slot beyond this are refused with 503 (TILE_UPSTREAM_QUEUE, 256). */
  upstreamQueue: number;
  upstreamTimeoutMs: number;
  userAgent: string;
  /** Browser cache lifetime of a tile (TILE_MAX_AGE_S, 7 days). */
  maxAgeSeconds: number;
  /** Vehicle photos: DATA_DIR/photos/{xx}/{name} (PHOTO_DIR overrides the folder). */
  photoDir: string;
}

export function tilesConfig(dataDir: string | undefined, version: string, env: NodeJS.ProcessEnv = process.env): TilesConfig {
  const data = env.DATA_DIR ?? dataDir ?? './data';
  return {
    source: env.TILE_SOURCE?.trim() || undefined,
    initialBaseMap: baseMapFromTileSource(env.TILE_SOURCE, env.TILE_ATTRIBUTION),
    cacheDir: env.TILE_CACHE_DIR ?? join(data, 'tiles'),
    upstreamConcurrency: Math.max(1, numberFromEnv(env.TILE_UPSTREAM_CONCURRENCY, 4)),
    upstreamQueue: Math.max(0, numberFromEnv(env.TILE_UPSTREAM_QUEUE, 256)),
    upstreamTimeoutMs: numberFromEnv(env.TILE_UPSTREAM_TIMEOUT_MS, 10_000),
    userAgent: env.TILE_USER_AGENT ?? `transport-console/${version} (tile cache)`,
    maxAgeSeconds: numberFromEnv(env.TILE_MAX_AGE_S, 7 * 86_400),
    photoDir: env.PHOTO_DIR ?? join(data, 'photos'),
  };
}
