import type { Run } from './schedule';

/** A fix placed on the run: when, how far along, how fast (m/s, from the receiver). */
export interface RunPoint {
  time: number;
  dist: number;
  speed: number;
}

/** Arrival and departure at one stop of a run. Null where not seen: the first stop's arrival, the last's departure. */
export interface StopPassage {
  stopIndex: number;
  arrival: number | null;
  departure: number | null;
  /** Passed between two fixes without one near the stop: both times interpolated. */
  interpolated: boolean;
}

/** What the detector keeps between fixes for one vehicle's run. */
export interface PassageCursor {
  /** The first stop not yet passed. */
  next: number;
  /** The vehicle is within the radius of stop `next` since `arrival`; `inside` is its last fix there. */
  atStop: { arrival: number | null; inside: RunPoint } | null;
}

/** Longest hop over which the receivers' speeds are trusted to place a crossing; longer gaps interpolate evenly. */
const SPEED_HOP_MS = 60_000;
const MIN_SPEED = 1;

/**
 * When the vehicle was at distance x between fixes a and b. Over a short hop the speeds at either end place it
 * (a bus braking to a stop reports its cruising speed before and zero after, so even spacing would put the
 * arrival at the later fix); over a gap, evenly by distance, since the stops in between took their dwells.
 */
export function crossTime(a: RunPoint, b: RunPoint, x: number): number {
  if (b.dist <= a.dist || b.time <= a.time) return b.time;
  const even = a.time + ((x - a.dist) / (b.dist - a.dist)) * (b.time - a.time);
  let t = even;
  if (b.time - a.time <= SPEED_HOP_MS) {
    const estimates: number[] = [];
    if (a.speed > MIN_SPEED) estimates.push(a.time + ((x - a.dist) / a.speed) * 1000);
    if (b.speed > MIN_SPEED) estimates.push(b.time - ((b.dist - x) / b.speed) * 1000);
    if (estimates.length) t = estimates.reduce((sum, e) => sum + e, 0) / estimates.length;
  }
  return Math.min(b.time, Math.max(a.time, t));
}

/** Each stop's radius: the setting, or less where stops stand closer than two radii (half the gap to the neighbour). */
export function stopRadii(run: Run, radius: number): Float64Array {
  const { dists } = run;
  return Float64Array.from(dists, (d, i) => {
    const before = i > 0 ? (d - dists[i - 1]) / 2 : Infinity;
    const after = i < dists.length - 1 ? (dists[i + 1] - d) / 2 : Infinity;
    return Math.max(5, Math.min(radius, before, after));
  });
}

/**
 * Stop passages between the vehicle's last point on the run (`a`) and its new one (`b`): arrival when it comes
 * within a stop's radius, departure when it leaves it; a stop passed between two fixes without one near it
 * (a gap, a sparse terminal, a fast pass) gets one interpolated time for both. Mutates the cursor.
 */
export function detectPassages(run: Run, radii: Float64Array, cursor: PassageCursor, a: RunPoint, b: RunPoint): StopPassage[] {
  const out: StopPassage[] = [];
  const n = run.dists.length;
  let from = a;
  while (cursor.next < n) {
    const i = cursor.next;
    const s = run.dists[i];
    const r = radii[i];
    if (cursor.atStop) {
      if (b.dist <= s + r) {
        cursor.atStop.inside = b;
        break;
      }
      const inside = cursor.atStop.inside;
      const departure = crossTime(inside, b, Math.max(s, inside.dist));
      out.push({ stopIndex: i, arrival: cursor.atStop.arrival, departure, interpolated: false });
      cursor.atStop = null;
      cursor.next += 1;
      from = { time: departure, dist: Math.max(s, inside.dist), speed: b.speed };
      continue;
    }
    if (b.dist < s - r) break;
    if (b.dist <= s + r) {
      const arrival = from.dist < s - r ? crossTime(from, b, Math.min(s, b.dist)) : null;
      if (i === n - 1) {
        out.push({ stopIndex: i, arrival: arrival ?? b.time, departure: null, interpolated: false });
        cursor.next += 1;
      } else {
        cursor.atStop = { arrival, inside: b };
      }
      break;
    }
    const t = crossTime(from, b, s);
    out.push({ stopIndex: i, arrival: t, departure: i === n - 1 ? null : t, interpolated: true });
    cursor.next += 1;
  }
  return out;
}
