import { M_PER_DEG_LAT, M_PER_DEG_LON_EQUATOR, planarLine, pointAt, segmentAt, type LatLon, type PlanarLine } from '../simulator/polyline';

/** Where a point falls on a trajectory: metres along it, metres off it, and the bearing of the segment there. */
export interface Projection {
  dist: number;
  offset: number;
  course: number;
}

/** Smallest angle between two compass bearings, 0..180. */
export function angleBetween(a: number, b: number): number {
  const d = Math.abs((((a - b) % 360) + 360) % 360);
  return d > 180 ? 360 - d : d;
}

/**
 * A run's trajectory in a local metric plane (equirectangular about its mean latitude, exact enough within a
 * city): cumulative distance at every vertex and each segment's bearing, so that matching a position is a
 * projection onto the segments of a window of the line, not of the whole of it.
 */
export class Trajectory implements PlanarLine {
  readonly xs: Float64Array;
  readonly ys: Float64Array;
  readonly cumulative: Float64Array;
  readonly bearings: Uint16Array;
  readonly kx: number;

  constructor(points: readonly LatLon[]) {
    ({ xs: this.xs, ys: this.ys, kx: this.kx, cumulative: this.cumulative, bearings: this.bearings } = planarLine(points));
  }

  get length(): number {
    return this.cumulative[this.cumulative.length - 1];
  }

  /** Index of the segment holding distance d (clamped). */
  segmentAt(d: number): number {
    return segmentAt(this.cumulative, d);
  }

  /** The point d metres along the line. */
  at(d: number): LatLon {
    const { lat, lon } = pointAt(this, d);
    return { lat, lon };
  }

  /**
   * The nearest point of the line to `p` between distances `from` and `to`. With a `course` (the vehicle moving),
   * segments heading the other way count as farther: the two directions of a street are one line apart by a few
   * metres, and a terminus loop passes a point twice.
   */
  project(p: LatLon, from = 0, to = Infinity, course: number | null = null): Projection {
    const px = p.lon * this.kx;
    const py = p.lat * M_PER_DEG_LAT;
    const last = Math.min(this.xs.length - 2, this.segmentAt(Math.min(to, this.length)));
    let best: Projection = { dist: Math.max(0, Math.min(from, this.length)), offset: Infinity, course: 0 };
    let bestScore = Infinity;
    for (let i = this.segmentAt(Math.max(0, from)); i <= last; i++) {
      const dx = this.xs[i + 1] - this.xs[i];
      const dy = this.ys[i + 1] - this.ys[i];
      const span2 = dx * dx + dy * dy;
      const span = Math.sqrt(span2);
      // the nearest point of the segment, kept inside the window where the window cuts the segment
      const low = Math.max(from, this.cumulative[i]);
      const high = Math.min(to, this.cumulative[i + 1]);
      if (low > high) continue;
      const t = span2 > 0 ? ((px - this.xs[i]) * dx + (py - this.ys[i]) * dy) / span2 : 0;
      const dist = Math.min(high, Math.max(low, this.cumulative[i] + t * span));
      const f = span > 0 ? (dist - this.cumulative[i]) / span : 0;
      const offset = Math.hypot(this.xs[i] + f * dx - px, this.ys[i] + f * dy - py);
      const score = course === null ? offset : offset + (angleBetween(course, this.bearings[i]) > AGAINST_DEGREES ? HEADING_PENALTY_M : 0);
      if (score < bestScore - 0.01) {
        bestScore = score;
        best = { dist, offset, course: this.bearings[i] };
      }
    }
    return best;
  }

  /** Points along the line at most `stepM` apart, its vertices included. */
  samples(stepM: number): LatLon[] {
    const points: LatLon[] = [];
    for (let i = 0; i < this.xs.length - 1; i++) {
      const steps = Math.max(1, Math.ceil((this.cumulative[i + 1] - this.cumulative[i]) / stepM));
      for (let s = 0; s < steps; s++)
        points.push(this.at(this.cumulative[i] + ((this.cumulative[i + 1] - this.cumulative[i]) * s) / steps));
    }
    points.push(this.at(this.length));
    return points;
  }
}

/** A segment heading against the vehicle's course is treated as this much farther away. */
const HEADING_PENALTY_M = 250;
/** A course this far off a segment's bearing heads against it. */
export const AGAINST_DEGREES = 100;

const cellKey = (x: number, y: number, cellM: number) => `${Math.floor(x / cellM)}:${Math.floor(y / cellM)}`;

/**
 * Which trajectories pass near a point: a grid of cells over the city, each listing the trajectories crossing
 * it or its neighbours. Finding the candidate runs of an unmatched vehicle is then a lookup, not a scan of
 * every run of the day.
 */
export class TrajectoryIndex<T> {
  private readonly cells = new Map<string, T[]>();
  private readonly kx: number;

  constructor(
    private readonly cellM: number,
    latitude: number,
  ) {
    this.kx = M_PER_DEG_LON_EQUATOR * Math.cos((latitude * Math.PI) / 180);
  }

  add(trajectory: Trajectory, item: T): void {
    const keys = new Set<string>();
    for (const p of trajectory.samples(this.cellM / 2)) {
      const gx = Math.floor((p.lon * this.kx) / this.cellM);
      const gy = Math.floor((p.lat * M_PER_DEG_LAT) / this.cellM);
      // the neighbours too: a point near a cell's edge is looked up in its own cell only
      for (let dx = -1; dx <= 1; dx++) for (let dy = -1; dy <= 1; dy++) keys.add(`${gx + dx}:${gy + dy}`);
    }
    for (const key of keys) {
      const list = this.cells.get(key);
      if (list) list.push(item);
      else this.cells.set(key, [item]);
    }
  }

  near(p: LatLon): readonly T[] {
    return this.cells.get(cellKey(p.lon * this.kx, p.lat * M_PER_DEG_LAT, this.cellM)) ?? [];
  }
}
