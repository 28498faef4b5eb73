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

/** A vehicle within a stop's radius: what is known of its call there so far. */
export interface AtStop {
  /** When it came to the stop (null: not known, it was already there when matched, or it has not reached the stop yet). */
  arrival: number | null;
  /** Its last fix within the radius. */
  inside: RunPoint;
  /** It came in moving and has neither stood nor passed the stop's place yet: the arrival is still to come. */
  approaching: boolean;
  /** Its last fix standing within the radius, and the first moving one after it (the start of the departure). */
  still: RunPoint | null;
  moved: RunPoint | null;
}

/** What the detector keeps between fixes for one vehicle's run. */
export interface PassageCursor {
  /** The first stop not yet passed. */
  next: number;
  /** The vehicle is within the radius of stop `next`. */
  atStop: AtStop | null;
}

/** Longest hop over which the receivers' speeds are trusted to place a crossing; longer gaps interpolate evenly. */
const SPEED_HOP_MS = 60_000;
const MIN_SPEED = 1;
/** Below this speed (m/s, 3 km/h) a vehicle stands. */
export const STILL_MS = 0.84;

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

/** A vehicle placed on a run at `point` within the radius of stop `index`: the first stop's arrival is the first fix seen there. */
export function atStopWhenPlaced(index: number, point: RunPoint): AtStop {
  const still = point.speed < STILL_MS ? point : null;
  return { arrival: index === 0 ? point.time : null, inside: point, approaching: false, still, moved: null };
}

/**
 * A fix `b` within the radius of a stop at `s`: the arrival is when the vehicle came to a halt there, or passed
 * the stop's place without one; the departure will be when it moved off from where it last stood.
 */
function observe(at: AtStop, s: number, b: RunPoint): void {
  const a = at.inside;
  if (b.speed < STILL_MS) {
    if (at.approaching) {
      at.arrival = crossTime(a, b, b.dist);
      at.approaching = false;
    }
    at.still = b;
    at.moved = null;
  } else {
    if (at.still && !at.moved) at.moved = b;
    if (at.approaching && a.dist < s && b.dist >= s) {
      at.arrival = crossTime(a, b, s);
      at.approaching = false;
    }
  }
  at.inside = b;
}

/**
 * Stop passages between the vehicle's last point on the run (`a`) and its new one (`b`). Within a stop's radius
 * the vehicle calls there: it arrives when it comes to a halt (or passes the stop's place without one) and
 * departs when it moves off from where it last stood (or passes the place); the last stop is reached when the
 * vehicle stands within its radius or passes its place. A stop passed between two fixes without one near it (a
 * gap, a sparse terminal, a fast pass) gets one interpolated time for both. Mutates the cursor.
 */
export function detectPassages(run: Run, radii: Float64Array, cursor: PassageCursor, a: RunPoint, b: RunPoint): StopPassage[] {
  const out: StopPassage[] = [];
  const n = run.dists.length;
  let from = a;
  while (cursor.next < n) {
    const i = cursor.next;
    const s = run.dists[i];
    const r = radii[i];
    const at = cursor.atStop;
    if (at) {
      if (b.dist <= s + r) {
        observe(at, s, b);
        if (i === n - 1 && at.arrival !== null && !at.approaching) {
          out.push({ stopIndex: i, arrival: at.arrival, departure: null, interpolated: false });
          cursor.atStop = null;
          cursor.next += 1;
        }
        break;
      }
      // leaving: from where it last stood, else where it passed the stop's place
      const departure = at.still ? crossTime(at.still, at.moved ?? b, at.still.dist) : crossTime(at.inside, b, Math.max(s, at.inside.dist));
      const arrival = at.approaching ? departure : at.arrival;
      if (i === n - 1) {
        out.push({ stopIndex: i, arrival: arrival ?? departure, departure: null, interpolated: false });
      } else {
        out.push({ stopIndex: i, arrival, departure, interpolated: false });
      }
      cursor.atStop = null;
      cursor.next += 1;
      from = { time: departure, dist: Math.max(s, at.inside.dist), speed: b.speed };
      continue;
    }
    if (b.dist < s - r) break;
    if (b.dist <= s + r) {
      cursor.atStop = { arrival: null, inside: from, approaching: true, still: null, moved: null };
      continue;
    }
    const t = crossTime(from, b, s);
    out.push({ stopIndex: i, arrival: t, departure: i === n - 1 ? null : t, interpolated: true });
    cursor.next += 1;
  }
  return out;
}
