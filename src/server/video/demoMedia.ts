import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { projectFile } from '../entryPoints';
import type { FilePart } from '../http/byteRanges';

/**
 * The built-in demo media source (DESIGN.md, "Video"): pre-encoded 2-second MPEG-TS segments committed in media/demo/<look>/
 * (made by scripts/video/makeDemoSegments.sh), one look per standard camera position,
 * looped. Segment number n of a camera is the 2 seconds starting at n × 2 s since the epoch: a live
 * playlist slides over the last few, a recorded one lists those of a period, each with its real clock time.
 * Each pass of the loop has its time stamps moved on by the loop's length (retimeSegment), so the stream's
 * time runs on without a discontinuity: players (hls.js) keep a live stream smooth that way.
 */
export const SEGMENT_S = 2;
const SEGMENT_MS = SEGMENT_S * 1000;
/** Segments a live playlist lists (8 s): hls.js starts three target durations from its end. */
const LIVE_WINDOW = 4;
const MEDIA_DIR = fileURLToPath(projectFile('media/demo/'));
/** MPEG-TS time stamps: a 90 kHz clock of 33 bits. */
const TICKS_PER_S = 90_000;
const WRAP = 2 ** 33;
/** Retimed segments kept: every viewer of a look asks for the same few at once. */
const CACHE_SIZE = 256;

const readStamp = (b: Buffer, at: number): number =>
  ((b[at] >> 1) & 0x07) * 2 ** 30 + (((b[at + 1] << 7) | (b[at + 2] >> 1)) << 15) + ((b[at + 3] << 7) | (b[at + 4] >> 1));

function writeStamp(b: Buffer, at: number, value: number): void {
  const high = Math.floor(value / 2 ** 30) & 0x07;
  const mid = Math.floor(value / 2 ** 15) & 0x7fff;
  const low = value & 0x7fff;
  b[at] = (b[at] & 0xf0) | (high << 1) | 1;
  b[at + 1] = mid >> 7;
  b[at + 2] = ((mid & 0x7f) << 1) | 1;
  b[at + 3] = low >> 7;
  b[at + 4] = ((low & 0x7f) << 1) | 1;
}

/**
 * A copy of an MPEG-TS segment with every PTS, DTS and PCR moved on by `delta` ticks (modulo 2^33): the
 * packets' PES headers and adaptation fields, nothing else.
 */
export function retimeSegment(source: Buffer, delta: number): Buffer {
  const b = Buffer.from(source);
  const shift = (value: number) => (value + delta) % WRAP;
  for (let p = 0; p + 188 <= b.length; p += 188) {
    if (b[p] !== 0x47) continue;
    const unitStart = (b[p + 1] & 0x40) !== 0;
    const control = (b[p + 3] >> 4) & 0x03;
    let payload = p + 4;
    if (control === 2 || control === 3) {
      const length = b[p + 4];
      // PCR: 33 bits of 90 kHz base, then 6 reserved and 9 bits of extension.
      if (length > 0 && (b[p + 5] & 0x10) !== 0) {
        const at = p + 6;
        const base = b[at] * 2 ** 25 + (b[at + 1] << 17) + (b[at + 2] << 9) + (b[at + 3] << 1) + (b[at + 4] >> 7);
        const next = shift(base);
        b[at] = Math.floor(next / 2 ** 25) & 0xff;
        b[at + 1] = Math.floor(next / 2 ** 17) & 0xff;
        b[at + 2] = Math.floor(next / 2 ** 9) & 0xff;
        b[at + 3] = Math.floor(next / 2) & 0xff;
        b[at + 4] = ((next & 1) << 7) | (b[at + 4] & 0x7f);
      }
      payload += 1 + length;
    }
    if (!unitStart || control === 2 || payload + 14 > p + 188) continue;
    if (b[payload] !== 0 || b[payload + 1] !== 0 || b[payload + 2] !== 1 || b[payload + 3] < 0xbd) continue;
    const flags = b[payload + 7] >> 6;
    if (flags & 0x02) writeStamp(b, payload + 9, shift(readStamp(b, payload + 9)));
    if (flags === 0x03 && payload + 19 <= p + 188) writeStamp(b, payload + 14, shift(readStamp(b, payload + 14)));
  }
  return b;
}

export interface ClockPiece {
  /** Epoch ms, on the 2-second grid. */
  start: number;
  end: number;
}

export class DemoMedia {
  private readonly cache = new Map<string, Buffer>();

  private constructor(private readonly looks: Buffer[][]) {}

  /** Reads every look's segments into memory (about 0.5 MB): a segment is answered without touching the disk. */
  static load(dir = MEDIA_DIR): DemoMedia {
    const looks = readdirSync(dir)
      .filter((name) => /^\d+$/.test(name))
      .sort((a, b) => Number(a) - Number(b))
      .map((look) => {
        const files = readdirSync(`${dir}${look}`).filter((name) => /^seg\d+\.ts$/.test(name));
        return files.sort((a, b) => Number(a.slice(3, -3)) - Number(b.slice(3, -3))).map((file) => readFileSync(`${dir}${look}/${file}`));
      });
    if (!looks.length || looks.some((segments) => !segments.length)) throw new Error(`no demo video segments in ${dir}`);
    return new DemoMedia(looks);
  }

  get lookCount(): number {
    return this.looks.length;
  }

  /** The look a camera shows: by its camera type's position (front, saloon, rear, driver), wrapped. */
  lookOf(position: number): number {
    return ((Math.max(1, position) - 1) % this.looks.length) + 1;
  }

  /** Segment n (2 s from n × 2 s since the epoch) of a look, its time stamps those of pass n / loop. */
  segment(look: number, n: number): Buffer {
    const key = `${look}:${n}`;
    const cached = this.cache.get(key);
    if (cached) return cached;
    const segments = this.looks[(look - 1) % this.looks.length];
    const pass = Math.floor(n / segments.length);
    // Exact in a double: pass × loop × 180000 stays far below 2^53.
    const delta = (pass * segments.length * SEGMENT_S * TICKS_PER_S) % WRAP;
    const segment = retimeSegment(segments[n % segments.length], delta);
    if (this.cache.size >= CACHE_SIZE) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(key, segment);
    return segment;
  }

  /** The live playlist at `now`: the last complete segments, sliding every 2 s. */
  livePlaylist(now: number, segmentUri: (n: number) => string): string {
    const last = Math.floor(now / SEGMENT_MS) - 1;
    const first = last - LIVE_WINDOW + 1;
    return [
      '#EXTM3U',
      '#EXT-X-VERSION:3',
      `#EXT-X-TARGETDURATION:${SEGMENT_S}`,
      `#EXT-X-MEDIA-SEQUENCE:${first}`,
      ...this.segmentLines(first, last, segmentUri),
      '',
    ].join('\n');
  }

  /** A recorded (VOD) playlist of pieces of recording, each opening with its clock time. */
  recordedPlaylist(pieces: readonly ClockPiece[], segmentUri: (n: number) => string): string {
    const lines = [
      '#EXTM3U',
      '#EXT-X-VERSION:3',
      `#EXT-X-TARGETDURATION:${SEGMENT_S}`,
      '#EXT-X-MEDIA-SEQUENCE:0',
      '#EXT-X-PLAYLIST-TYPE:VOD',
    ];
    pieces.forEach((piece, i) => {
      if (i > 0) lines.push('#EXT-X-DISCONTINUITY');
      const first = Math.floor(piece.start / SEGMENT_MS);
      lines.push(...this.segmentLines(first, Math.ceil(piece.end / SEGMENT_MS) - 1, segmentUri));
    });
    lines.push('#EXT-X-ENDLIST', '');
    return lines.join('\n');
  }

  private segmentLines(first: number, last: number, segmentUri: (n: number) => string): string[] {
    const lines: string[] = [];
    for (let n = first; n <= last; n++) {
      lines.push(`#EXT-X-PROGRAM-DATE-TIME:${new Date(n * SEGMENT_MS).toISOString()}`, `#EXTINF:${SEGMENT_S.toFixed(3)},`, segmentUri(n));
    }
    return lines;
  }

  /** The segments of some pieces as parts of a file, sized without retiming them (the archive's download). */
  partsOf(look: number, pieces: readonly ClockPiece[]): FilePart[] {
    const segments = this.looks[(look - 1) % this.looks.length];
    const parts: FilePart[] = [];
    for (const piece of pieces) {
      for (let n = Math.floor(piece.start / SEGMENT_MS); n < Math.ceil(piece.end / SEGMENT_MS); n++) {
        // retiming rewrites time stamps in place: a segment keeps its source's size
        parts.push({ size: segments[n % segments.length].length, read: () => this.segment(look, n) });
      }
    }
    return parts;
  }
}
