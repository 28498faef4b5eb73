import { join } from 'node:path';
import { group, number, text, type Environment } from '../configuration/variables';
import { serverVariables } from '../config';
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

export const tilesVariables = group('Tiles and photos', {
  source: text('TILE_SOURCE', {
    meaning:
      "the base map's starting value (an administrator changes it in the console, Настройки системы → Навигация): an upstream template (`https://tile.example.org/{z}/{x}/{y}.png`, cached under `TILE_CACHE_DIR`), `mbtiles:/path/city.mbtiles`, or `dir:/path` (z/x/y.png files)",
  }),
  attribution: text('TILE_ATTRIBUTION', { defaultText: "OpenStreetMap's credit when a source is set", meaning: 'its credit' }),
  cacheDir: text('TILE_CACHE_DIR', { defaultText: '`DATA_DIR/tiles`', meaning: 'where fetched upstream tiles are kept' }),
  maxAgeS: number('TILE_MAX_AGE_S', { default: 7 * 86_400, unit: 's', meaning: "browsers' cache lifetime of a tile" }),
  upstreamConcurrency: number('TILE_UPSTREAM_CONCURRENCY', {
    default: 4,
    min: 1,
    meaning: "upstream requests at once (tile servers' usage policies ask for few)",
  }),
  upstreamQueue: number('TILE_UPSTREAM_QUEUE', {
    default: 256,
    min: 0,
    meaning: 'requests waiting for an upstream slot beyond which 503 is answered',
  }),
  upstreamTimeoutMs: number('TILE_UPSTREAM_TIMEOUT_MS', { default: 10_000, unit: 'ms', meaning: "an upstream request's time limit" }),
  userAgent: text('TILE_USER_AGENT', {
    defaultText: '`transport-console/<version> (tile cache)`',
    meaning: 'the user agent sent upstream',
  }),
  photoDir: text('PHOTO_DIR', { defaultText: '`DATA_DIR/photos`', meaning: 'vehicle photos, `{first two characters}/{name}`' }),
});

/** `dataDir`: the server's (DATA_DIR unless a caller set another); without one (in memory), DATA_DIR's default. */
export function tilesConfig(dataDir: string | undefined, version: string, env: Environment = process.env): TilesConfig {
  const v = tilesVariables.read(env);
  const data = dataDir ?? serverVariables.variables.dataDir.read(env);
  return {
    source: v.source,
    initialBaseMap: baseMapFromTileSource(v.source, v.attribution),
    cacheDir: v.cacheDir ?? join(data, 'tiles'),
    upstreamConcurrency: v.upstreamConcurrency,
    upstreamQueue: v.upstreamQueue,
    upstreamTimeoutMs: v.upstreamTimeoutMs,
    userAgent: v.userAgent ?? `transport-console/${version} (tile cache)`,
    maxAgeSeconds: v.maxAgeS,
    photoDir: v.photoDir ?? join(data, 'photos'),
  };
}
