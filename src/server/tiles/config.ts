import { join } from 'node:path';
import { numberFromEnv } from '../map/config';

export interface TilesConfig {
  /**
   * TILE_SOURCE: an upstream URL template ('https://host/{z}/{x}/{y}.png'), 'mbtiles:/path/file.mbtiles' or
   * 'dir:/path' (z/x/y.png files); unset = no tiles (404 at once; the map shows a plain background).
   */
  source: string | undefined;
  /** Where upstream tiles are kept once fetched (TILE_CACHE_DIR, default DATA_DIR/tiles). */
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
    cacheDir: env.TILE_CACHE_DIR ?? join(data, 'tiles'),
    upstreamConcurrency: Math.max(1, numberFromEnv(env.TILE_UPSTREAM_CONCURRENCY, 4)),
    upstreamQueue: Math.max(0, numberFromEnv(env.TILE_UPSTREAM_QUEUE, 256)),
    upstreamTimeoutMs: numberFromEnv(env.TILE_UPSTREAM_TIMEOUT_MS, 10_000),
    userAgent: env.TILE_USER_AGENT ?? `transport-console/${version} (tile cache)`,
    maxAgeSeconds: numberFromEnv(env.TILE_MAX_AGE_S, 7 * 86_400),
    photoDir: env.PHOTO_DIR ?? join(data, 'photos'),
  };
}
