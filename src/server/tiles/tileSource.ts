/** A tile's bytes and media type. */
export interface Tile {
  body: Buffer;
  contentType: string;
}

/** Where tiles come from; null = no such tile. */
export interface TileSource {
  readonly kind: 'upstream' | 'mbtiles' | 'dir';
  get(z: number, x: number, y: number): Promise<Tile | null>;
  close(): Promise<void>;
}

/** An upstream that failed or timed out (502), or too many requests waiting for it (503). */
export class TileUnavailable extends Error {
  constructor(
    readonly status: 502 | 503,
    message: string,
  ) {
    super(message);
  }
}

/** The media type of image bytes by their signature (a tile's own word is not trusted). */
export function imageType(bytes: Buffer): string | null {
  if (bytes.length >= 8 && bytes.readUInt32BE(0) === 0x89504e47) return 'image/png';
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (bytes.length >= 12 && bytes.toString('latin1', 0, 4) === 'RIFF' && bytes.toString('latin1', 8, 12) === 'WEBP') return 'image/webp';
  if (bytes.length >= 6 && bytes.toString('latin1', 0, 3) === 'GIF') return 'image/gif';
  return null;
}
