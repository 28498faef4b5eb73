/** A point as the simulator keeps it. */
export interface LatLon {
  lat: number;
  lon: number;
}

export const M_PER_DEG_LAT = 110_574;
export const M_PER_DEG_LON_EQUATOR = 111_320;

/** Metres between two points (equirectangular: exact enough within a city). */
export function metresBetween(a: LatLon, b: LatLon): number {
  const kx = M_PER_DEG_LON_EQUATOR * Math.cos((((a.lat + b.lat) / 2) * Math.PI) / 180);
  return Math.hypot((b.lon - a.lon) * kx, (b.lat - a.lat) * M_PER_DEG_LAT);
}

/** Compass bearing a → b in whole degrees 0..359. */
export function bearing(a: LatLon, b: LatLon): number {
  const kx = Math.cos((((a.lat + b.lat) / 2) * Math.PI) / 180);
  const degrees = (Math.atan2((b.lon - a.lon) * kx, b.lat - a.lat) * 180) / Math.PI;
  return Math.round((degrees + 360) % 360) % 360;
}

/** A line's vertices in a local metric plane, the distance from its start to each, and each segment's bearing. */
export interface PlanarLine {
  xs: Float64Array;
  ys: Float64Array;
  /** Metres per degree of longitude at the line's mean latitude. */
  kx: number;
  cumulative: Float64Array;
  bearings: Uint16Array;
}

export function planarLine(points: readonly LatLon[]): PlanarLine {
  if (points.length < 2) throw new Error('a line needs two points');
  const lat0 = points.reduce((sum, p) => sum + p.lat, 0) / points.length;
  const kx = M_PER_DEG_LON_EQUATOR * Math.cos((lat0 * Math.PI) / 180);
  const xs = Float64Array.from(points, (p) => p.lon * kx);
  const ys = Float64Array.from(points, (p) => p.lat * M_PER_DEG_LAT);
  const cumulative = new Float64Array(points.length);
  const bearings = new Uint16Array(points.length - 1);
  for (let i = 1; i < points.length; i++) {
    cumulative[i] = cumulative[i - 1] + Math.hypot(xs[i] - xs[i - 1], ys[i] - ys[i - 1]);
    bearings[i - 1] = bearing(points[i - 1], points[i]);
  }
  return { xs, ys, kx, cumulative, bearings };
}

/** Index of the segment holding distance d along a line (clamped). */
export function segmentAt(cumulative: Float64Array, d: number): number {
  let lo = 0;
  let hi = cumulative.length - 2;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (cumulative[mid] <= d) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** The point d metres along a line (clamped to its ends), with the index of its segment. */
export function pointAt(line: PlanarLine, d: number): LatLon & { segment: number } {
  const { xs, ys, kx, cumulative } = line;
  const distance = Math.min(Math.max(d, 0), cumulative[cumulative.length - 1]);
  const i = segmentAt(cumulative, distance);
  const span = cumulative[i + 1] - cumulative[i];
  const f = span > 0 ? (distance - cumulative[i]) / span : 0;
  return { lat: (ys[i] + f * (ys[i + 1] - ys[i])) / M_PER_DEG_LAT, lon: (xs[i] + f * (xs[i + 1] - xs[i])) / kx, segment: i };
}

/**
 * A line in a local metric plane, with the distance from its start to every vertex and each segment's bearing,
 * so that "where is the vehicle d metres along" is a binary search and a lerp (no trigonometry per tick).
 */
export class Polyline implements PlanarLine {
  readonly xs: Float64Array;
  readonly ys: Float64Array;
  readonly kx: number;
  readonly cumulative: Float64Array;
  readonly bearings: Uint16Array;

  constructor(private readonly points: readonly LatLon[]) {
    ({ xs: this.xs, ys: this.ys, kx: this.kx, cumulative: this.cumulative, bearings: this.bearings } = planarLine(points));
  }

  get length(): number {
    return this.cumulative[this.cumulative.length - 1];
  }

  get first(): LatLon {
    return this.points[0];
  }

  get last(): LatLon {
    return this.points[this.points.length - 1];
  }

  /** The point d metres along the line and the bearing of its segment. */
  at(d: number): { lat: number; lon: number; course: number } {
    const { lat, lon, segment } = pointAt(this, d);
    return { lat, lon, course: this.bearings[segment] };
  }

  /**
   * Distance along the line of the point nearest to `p`, searching from distance `from` onwards: stops are
   * projected in order, so a line that passes a stop twice (a loop) places it on the right pass.
   */
  project(p: LatLon, from = 0): number {
    const px = p.lon * this.kx;
    const py = p.lat * M_PER_DEG_LAT;
    let best = Infinity;
    let bestDistance = from;
    for (let i = segmentAt(this.cumulative, from); i < this.xs.length - 1; i++) {
      const dx = this.xs[i + 1] - this.xs[i];
      const dy = this.ys[i + 1] - this.ys[i];
      const span2 = dx * dx + dy * dy;
      let f = span2 > 0 ? ((px - this.xs[i]) * dx + (py - this.ys[i]) * dy) / span2 : 0;
      f = Math.min(1, Math.max(0, f));
      const offset = Math.hypot(this.xs[i] + f * dx - px, this.ys[i] + f * dy - py);
      if (offset < best - 0.01) {
        best = offset;
        bestDistance = this.cumulative[i] + f * Math.sqrt(span2);
      }
    }
    return Math.max(from, bestDistance);
  }
}

/** Points of a WKT LINESTRING ("LINESTRING(lon lat, ...)"); null for anything else. */
export function parseLineString(wkt: string): LatLon[] | null {
  const match = /^\s*LINESTRING\s*\(([^()]*)\)\s*$/i.exec(wkt);
  if (!match) return null;
  const points = match[1].split(',').map((pair) => {
    const [lon, lat] = pair.trim().split(/\s+/).map(Number);
    return { lat, lon };
  });
  return points.length >= 2 && points.every((p) => Number.isFinite(p.lat) && Number.isFinite(p.lon)) ? points : null;
}
