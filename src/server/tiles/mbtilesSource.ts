import { readFile } from 'node:fs/promises';
import initSqlJs from 'sql.js';
import type { Database } from 'sql.js';
import { imageType, type Tile, type TileSource } from './tileSource';

/**
 * TILE_SOURCE=mbtiles:/path/file.mbtiles, read with sql.js (SQLite in WebAssembly, no native build). sql.js
 * holds the whole file in memory: fine for a city's raster set (tens to hundreds of MB), not for a planet;
 * use dir: or an upstream for those. Opened on the first tile request, so the server starts at once.
 * MBTiles rows are TMS: tile_row counts from the south, hence the y flip.
 */
export class MbtilesSource implements TileSource {
  readonly kind = 'mbtiles';
  private db: Promise<Database> | null = null;

  constructor(private readonly path: string) {}

  private open(): Promise<Database> {
    this.db ??= (async () => {
      const SQL = await initSqlJs();
      return new SQL.Database(await readFile(this.path));
    })();
    return this.db;
  }

  async get(z: number, x: number, y: number): Promise<Tile | null> {
    const db = await this.open();
    const statement = db.prepare('select tile_data from tiles where zoom_level = ? and tile_column = ? and tile_row = ?');
    try {
      statement.bind([z, x, 2 ** z - 1 - y]);
      if (!statement.step()) return null;
      const data = statement.get()[0];
      if (!(data instanceof Uint8Array)) return null;
      const body = Buffer.from(data);
      return { body, contentType: imageType(body) ?? 'application/octet-stream' };
    } finally {
      statement.free();
    }
  }

  async close(): Promise<void> {
    if (this.db) (await this.db.catch(() => null))?.close();
  }
}
