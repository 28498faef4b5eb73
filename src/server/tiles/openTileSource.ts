import { createHash } from 'node:crypto';
import { open, stat } from 'node:fs/promises';
import { isAbsolute, join } from 'node:path';
import { isTileUrlTemplate, type BaseMapSettings } from '../../shared/baseMap';
import type { TilesConfig } from './config';
import { DirTileSource } from './dirSource';
import { MbtilesSource } from './mbtilesSource';
import type { TileSource } from './tileSource';
import { UpstreamTileSource } from './upstreamSource';

/** The error code of a base map the server cannot use, or null when it can (no base map at all included). */
export type BaseMapProblem = 'base_map_url' | 'base_map_mbtiles' | 'base_map_dir';

const SQLITE_HEADER = Buffer.from('SQLite format 3\0', 'latin1');

/**
 * Whether a base map can serve tiles: an upstream's address has the form of one (it is not fetched: a depot may
 * set it before its internet link is up), an MBTiles file is an SQLite file, a folder exists. Paths are absolute:
 * the server's working folder is nothing an administrator in a browser knows.
 */
export async function baseMapProblem({ kind, location }: BaseMapSettings): Promise<BaseMapProblem | null> {
  switch (kind) {
    case 'none':
      return null;
    case 'upstream':
      return isTileUrlTemplate(location) ? null : 'base_map_url';
    case 'mbtiles':
      return isAbsolute(location) && (await startsWith(location, SQLITE_HEADER)) ? null : 'base_map_mbtiles';
    case 'dir':
      return isAbsolute(location) &&
        (await stat(location).then(
          (s) => s.isDirectory(),
          () => false,
        ))
        ? null
        : 'base_map_dir';
  }
}

async function startsWith(file: string, header: Buffer): Promise<boolean> {
  try {
    const handle = await open(file, 'r');
    try {
      const bytes = Buffer.alloc(header.length);
      const { bytesRead } = await handle.read(bytes, 0, header.length, 0);
      return bytesRead === header.length && bytes.equals(header);
    } finally {
      await handle.close();
    }
  } catch {
    return false;
  }
}

/**
 * The base map as a source; undefined for none. Each upstream keeps its tiles in a folder of its own, so a
 * changed upstream never serves the previous one's tiles.
 */
export function openTileSource({ kind, location }: BaseMapSettings, config: TilesConfig): TileSource | undefined {
  switch (kind) {
    case 'none':
      return undefined;
    case 'mbtiles':
      return new MbtilesSource(location);
    case 'dir':
      return new DirTileSource(location);
    case 'upstream':
      if (!isTileUrlTemplate(location)) throw new Error(`a tile upstream must be an http(s) URL with {z}, {x}, {y}, not ${location}`);
      return new UpstreamTileSource(location, {
        cacheDir: join(config.cacheDir, createHash('sha256').update(location).digest('hex').slice(0, 16)),
        concurrency: config.upstreamConcurrency,
        queue: config.upstreamQueue,
        timeoutMs: config.upstreamTimeoutMs,
        userAgent: config.userAgent,
      });
  }
}

/**
 * The source of the base map in force: opened when first asked for, replaced (the old one closed) when the
 * settings name another, so an administrator's change applies without a restart.
 */
export class BaseMapSources {
  private current: { key: string; source: TileSource | undefined } | null = null;

  constructor(
    private readonly config: TilesConfig,
    private readonly log: (err: unknown) => void,
  ) {}

  get(settings: BaseMapSettings): TileSource | undefined {
    const key = `${settings.kind}:${settings.location}`;
    if (this.current?.key === key) return this.current.source;
    const previous = this.current?.source;
    let source: TileSource | undefined;
    try {
      source = openTileSource(settings, this.config);
    } catch (err) {
      // A source the settings cannot have (TILE_SOURCE is checked when read) must not take the maps down.
      this.log(err);
    }
    this.current = { key, source };
    void previous?.close();
    return source;
  }

  async close(): Promise<void> {
    await this.current?.source?.close();
  }
}
