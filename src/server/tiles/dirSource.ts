import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { imageType, type Tile, type TileSource } from './tileSource';

/** TILE_SOURCE=dir:/path: pre-rendered z/x/y.png files (z, x, y are validated integers: no path tricks). */
export class DirTileSource implements TileSource {
  readonly kind = 'dir';
  private readonly root: string;

  constructor(root: string) {
    this.root = resolve(root);
  }

  async get(z: number, x: number, y: number): Promise<Tile | null> {
    try {
      const body = await readFile(join(this.root, String(z), String(x), `${y}.png`));
      return { body, contentType: imageType(body) ?? 'image/png' };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  }

  async close(): Promise<void> {}
}
