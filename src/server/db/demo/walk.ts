import { fromKm, isLand } from './geography';
import type { Random } from './random';
import type { StopSite } from './stops';

export interface WalkParams {
  /** Preferred and largest distance between consecutive stops, in km. */
  stepKm: number;
  maxStepKm: number;
}

/** Sites bucketed into square cells, to find the neighbours of a site without scanning them all. */
export class SiteGrid {
  private readonly cells = new Map<string, number[]>();

  constructor(
    readonly sites: readonly StopSite[],
    private readonly cellKm: number,
  ) {
    sites.forEach((site, i) => {
      const key = this.key(Math.floor(site.x / cellKm), Math.floor(site.y / cellKm));
      const list = this.cells.get(key);
      if (list) list.push(i);
      else this.cells.set(key, [i]);
    });
  }

  private key(cx: number, cy: number): string {
    return `${cx}:${cy}`;
  }

  /** Indices of the sites within `km` of site `from`, in index order. */
  near(from: number, km: number): number[] {
    const site = this.sites[from];
    const reach = Math.ceil(km / this.cellKm);
    const cx = Math.floor(site.x / this.cellKm);
    const cy = Math.floor(site.y / this.cellKm);
    const found: number[] = [];
    for (let dx = -reach; dx <= reach; dx++) {
      for (let dy = -reach; dy <= reach; dy++) {
        for (const i of this.cells.get(this.key(cx + dx, cy + dy)) ?? []) {
          if (i !== from && Math.hypot(this.sites[i].x - site.x, this.sites[i].y - site.y) <= km) found.push(i);
        }
      }
    }
    return found.sort((a, b) => a - b);
  }
}

/** The signed difference of two angles, in (-π, π]. */
function turn(from: number, to: number): number {
  let d = (to - from) % (2 * Math.PI);
  if (d > Math.PI) d -= 2 * Math.PI;
  if (d <= -Math.PI) d += 2 * Math.PI;
  return d;
}

/**
 * A route as a greedy walk from a site in a general direction: each next stop is a nearby unvisited site
 * roughly ahead (at most 70° off the heading), preferring the usual stop spacing and a straight course; the
 * heading bends slowly towards the chosen stops, so the line looks like a street route, not a zigzag.
 */
export function walkRoute(random: Random, grid: SiteGrid, start: number, heading: number, length: number, params: WalkParams): number[] {
  const path = [start];
  const visited = new Set(path);
  let course = heading;
  while (path.length < length) {
    const current = grid.sites[path[path.length - 1]];
    let best = -1;
    let bestScore = Infinity;
    let bestBearing = course;
    for (const i of grid.near(path[path.length - 1], params.maxStepKm)) {
      if (visited.has(i)) continue;
      const site = grid.sites[i];
      const dx = site.x - current.x;
      const dy = site.y - current.y;
      const bearing = Math.atan2(dy, dx);
      const off = Math.abs(turn(course, bearing));
      if (off > (70 * Math.PI) / 180) continue;
      if (!isLand(fromKm((site.x + current.x) / 2, (site.y + current.y) / 2))) continue;
      const km = Math.hypot(dx, dy);
      const score = Math.abs(km - params.stepKm) / params.stepKm + 1.5 * (off / Math.PI) + 0.3 * random.next();
      if (score < bestScore) {
        bestScore = score;
        best = i;
        bestBearing = bearing;
      }
    }
    if (best < 0) break;
    path.push(best);
    visited.add(best);
    course += 0.35 * turn(course, bestBearing) + random.float(-0.08, 0.08);
  }
  return path;
}
