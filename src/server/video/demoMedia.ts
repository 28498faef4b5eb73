import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * The built-in demo media source (DESIGN.md, "Video"): pre-encoded 2-second MPEG-TS segments committed in media/demo/<look>/
 * (made by scripts/video/makeDemoSegments.sh), one look per standard camera position,
 * looped. Segment number n of a camera is the 2 seconds starting at n × 2 s since the epoch: a live
 * playlist slides over the last few, a recorded one lists those of a period, each with its real clock time.
 */
export const SEGMENT_S = 2;
const SEGMENT_MS = SEGMENT_S * 1000;
/** Segments a live playlist lists (8 s): hls.js starts three target durations from its end. */
const LIVE_WINDOW = 4;
const MEDIA_DIR = fileURLToPath(new URL('../../../media/demo/', import.meta.url));

export interface ClockPiece {
  /** Epoch ms, on the 2-second grid. */
  start: number;
  end: number;
}

export class DemoMedia {
  private constructor(private readonly looks: Buffer[][]) {}

  /** Reads every look's segments into memory (about 0.5 MB): a segment is answered without touching the disk. */
  static load(dir = MEDIA_DIR): DemoMedia {
    const looks = readdirSync(dir).filter((name) => /^\d+$/.test(name)).sort((a, b) => Number(a) - Number(b)).map((look) => {
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

  /** Segment n (2 s from n × 2 s since the epoch) of a look. */
  segment(look: number, n: number): Buffer {
    const segments = this.looks[(look - 1) % this.looks.length];
    return segments[n % segments.length];
  }

  private loopLength(look: number): number {
    return this.looks[(look - 1) % this.looks.length].length;
  }

  /** The live playlist at `now`: the last complete segments, sliding every 2 s. */
  livePlaylist(look: number, now: number, segmentUri: (n: number) => string): string {
    const last = Math.floor(now / SEGMENT_MS) - 1;
    const first = last - LIVE_WINDOW + 1;
    return [
      '#EXTM3U', '#EXT-X-VERSION:3', `#EXT-X-TARGETDURATION:${SEGMENT_S}`, `#EXT-X-MEDIA-SEQUENCE:${first}`,
      // Each pass of the loop starts its time stamps again: a discontinuity, counted from segment 0.
      `#EXT-X-DISCONTINUITY-SEQUENCE:${Math.floor(first / this.loopLength(look))}`,
      ...this.segmentLines(look, first, last, first, segmentUri),
      '',
    ].join('\n');
  }

  /** A recorded (VOD) playlist of pieces of recording, each opening with its clock time. */
  recordedPlaylist(look: number, pieces: readonly ClockPiece[], segmentUri: (n: number) => string): string {
    const lines = ['#EXTM3U', '#EXT-X-VERSION:3', `#EXT-X-TARGETDURATION:${SEGMENT_S}`, '#EXT-X-MEDIA-SEQUENCE:0', '#EXT-X-PLAYLIST-TYPE:VOD'];
    pieces.forEach((piece, i) => {
      if (i > 0) lines.push('#EXT-X-DISCONTINUITY');
      const first = Math.floor(piece.start / SEGMENT_MS);
      lines.push(...this.segmentLines(look, first, Math.ceil(piece.end / SEGMENT_MS) - 1, first, segmentUri));
    });
    lines.push('#EXT-X-ENDLIST', '');
    return lines.join('\n');
  }

  private segmentLines(look: number, first: number, last: number, openedAt: number, segmentUri: (n: number) => string): string[] {
    const lines: string[] = [];
    const loop = this.loopLength(look);
    for (let n = first; n <= last; n++) {
      if (n !== openedAt && n % loop === 0) lines.push('#EXT-X-DISCONTINUITY');
      lines.push(`#EXT-X-PROGRAM-DATE-TIME:${new Date(n * SEGMENT_MS).toISOString()}`, `#EXTINF:${SEGMENT_S.toFixed(3)},`, segmentUri(n));
    }
    return lines;
  }

  /** Bytes of the segments of some pieces (the archive's size, and its download). */
  *segmentsOf(look: number, pieces: readonly ClockPiece[]): Generator<Buffer> {
    for (const piece of pieces) {
      for (let n = Math.floor(piece.start / SEGMENT_MS); n < Math.ceil(piece.end / SEGMENT_MS); n++) yield this.segment(look, n);
    }
  }
}
