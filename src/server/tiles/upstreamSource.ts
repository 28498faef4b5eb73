import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { imageType, TileUnavailable, type Tile, type TileSource } from './tileSource';

export interface UpstreamOptions {
  cacheDir: string;
  concurrency: number;
  queue: number;
  timeoutMs: number;
  userAgent: string;
}

/**
 * TILE_SOURCE=https://host/{z}/{x}/{y}.png: each tile is fetched once and kept on disk, so a depot's LAN
 * serves the map on its own afterwards and the upstream's usage policy (few parallel requests, an identifying
 * User-Agent) is honoured. Concurrent requests for one tile share one fetch.
 */
export class UpstreamTileSource implements TileSource {
  readonly kind = 'upstream';
  private active = 0;
  private readonly waiting: (() => void)[] = [];
  private readonly inFlight = new Map<string, Promise<Tile | null>>();
  readonly stats = { fetched: 0, fromCache: 0 };

  constructor(
    private readonly template: string,
    private readonly options: UpstreamOptions,
  ) {}

  async get(z: number, x: number, y: number): Promise<Tile | null> {
    const file = join(this.options.cacheDir, String(z), String(x), `${y}.png`);
    const cached = await readFile(file).catch(() => null);
    if (cached) {
      this.stats.fromCache += 1;
      return { body: cached, contentType: imageType(cached) ?? 'image/png' };
    }
    const key = `${z}/${x}/${y}`;
    let pending = this.inFlight.get(key);
    if (!pending) {
      pending = this.fetchAndStore(z, x, y, file).finally(() => this.inFlight.delete(key));
      this.inFlight.set(key, pending);
    }
    return pending;
  }

  async close(): Promise<void> {}

  private async fetchAndStore(z: number, x: number, y: number, file: string): Promise<Tile | null> {
    await this.slot();
    try {
      const url = this.template.replace('{z}', String(z)).replace('{x}', String(x)).replace('{y}', String(y));
      let response: Response;
      try {
        response = await fetch(url, {
          headers: { 'user-agent': this.options.userAgent },
          signal: AbortSignal.timeout(this.options.timeoutMs),
        });
      } catch (err) {
        throw new TileUnavailable(502, `tile upstream unreachable: ${(err as Error).message}`);
      }
      if (response.status === 404 || response.status === 204) return null;
      if (!response.ok) throw new TileUnavailable(502, `tile upstream answered ${response.status}`);
      const body = Buffer.from(await response.arrayBuffer());
      const contentType = imageType(body);
      // Only images are kept: an HTML error page with status 200 must not be cached as a tile for ever.
      if (!contentType) throw new TileUnavailable(502, 'tile upstream sent something that is not an image');
      this.stats.fetched += 1;
      await mkdir(dirname(file), { recursive: true });
      // Written aside and renamed: a reader never sees half a tile.
      const partial = `${file}.${randomBytes(4).toString('hex')}.part`;
      await writeFile(partial, body);
      await rename(partial, file);
      return { body, contentType };
    } finally {
      this.release();
    }
  }

  private async slot(): Promise<void> {
    if (this.active < this.options.concurrency) {
      this.active += 1;
      return;
    }
    if (this.waiting.length >= this.options.queue) throw new TileUnavailable(503, 'too many tiles waiting for the upstream');
    await new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  private release(): void {
    const next = this.waiting.shift();
    if (next)
      next(); // the slot passes straight to the next waiter
    else this.active -= 1;
  }
}
