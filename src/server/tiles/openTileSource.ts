import type { TilesConfig } from './config';
import { DirTileSource } from './dirSource';
import { MbtilesSource } from './mbtilesSource';
import type { TileSource } from './tileSource';
import { UpstreamTileSource } from './upstreamSource';

/** The TILE_SOURCE setting as a source; undefined when unset; throws on a value it cannot understand. */
export function openTileSource(config: TilesConfig): TileSource | undefined {
  const source = config.source;
  if (!source) return undefined;
  if (source.startsWith('mbtiles:')) return new MbtilesSource(source.slice('mbtiles:'.length));
  if (source.startsWith('dir:')) return new DirTileSource(source.slice('dir:'.length));
  if (/^https?:\/\//.test(source) && ['{z}', '{x}', '{y}'].every((part) => source.includes(part))) {
    return new UpstreamTileSource(source, {
      cacheDir: config.cacheDir, concurrency: config.upstreamConcurrency, queue: config.upstreamQueue,
      timeoutMs: config.upstreamTimeoutMs, userAgent: config.userAgent,
    });
  }
  throw new Error(`TILE_SOURCE must be an http(s) URL with {z}, {x}, {y}, 'mbtiles:/file' or 'dir:/folder', not ${source}`);
}
