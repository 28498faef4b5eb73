import type { ClockPiece } from './demoMedia';

/**
 * What a demo recorder holds (the issue: the last 72 hours), deterministic per recorder and camera so that the
 * archive, the requests and the coverage grid of /video/vehicle-archive-monitoring agree: every hour of the
 * window except a few gaps (a recorder off for an hour, now and then), and some recorders whose archive
 * stopped a while ago (a full disk: the camera still streams live, nothing is written).
 */
const HOUR_MS = 3_600_000;

/** A small integer hash: the same recorder, camera and hour always give the same answer. */
function hash(...values: number[]): number {
  let h = 2166136261;
  for (const value of values) {
    h ^= value;
    h = Math.imul(h, 16777619) >>> 0;
    h ^= h >>> 13;
  }
  return h >>> 0;
}

/** When a recorder's archive stopped, or null: one recorder in 13, 2 to 31 hours before the current hour. */
export function demoStoppedAt(dvrId: number, now: number): number | null {
  if (dvrId % 13 !== 7) return null;
  return (Math.floor(now / HOUR_MS) - 2 - (dvrId % 30)) * HOUR_MS;
}

/** Whether a recorder's camera holds hour h (epoch hours): about one hour in 40 is a gap, one in 60 more for a camera. */
export function demoHourHeld(dvrId: number, camera: number, h: number): boolean {
  return hash(dvrId, h) % 40 !== 7 && hash(dvrId, camera, h) % 60 !== 11;
}

/** The pieces of [from, to] a demo recorder's camera holds at `now`, on the 2-second grid. */
export function demoCoverage(dvrId: number, camera: number, from: number, to: number, now: number, archiveHours: number): ClockPiece[] {
  const stopped = demoStoppedAt(dvrId, now);
  const start = Math.max(from, now - archiveHours * HOUR_MS);
  const end = Math.min(to, now, stopped ?? Infinity);
  const pieces: ClockPiece[] = [];
  for (let h = Math.floor(start / HOUR_MS); h * HOUR_MS < end; h++) {
    if (!demoHourHeld(dvrId, camera, h)) continue;
    const a = Math.max(start, h * HOUR_MS);
    const b = Math.min(end, (h + 1) * HOUR_MS);
    const last = pieces.at(-1);
    if (last && last.end === a) last.end = b;
    else pieces.push({ start: a, end: b });
  }
  // Whole segments inside the period only: the grid of DemoMedia.
  return pieces
    .map((p) => ({ start: Math.ceil(p.start / 2000) * 2000, end: Math.floor(p.end / 2000) * 2000 }))
    .filter((p) => p.end > p.start);
}

export const piecesSeconds = (pieces: readonly ClockPiece[]): number => pieces.reduce((sum, p) => sum + (p.end - p.start) / 1000, 0);
