import { VEHICLE_STALE_MS } from '../../shared/map';
import type { VehicleInfo } from '../map/fleetDirectory';
import type { LatestPosition } from '../telemetry/types';
import type { VehiclePoint } from './clusterIndex';

const round6 = (value: number) => Math.round(value * 1e6) / 1e6;

function pointOf(id: number, p: LatestPosition, info: VehicleInfo | undefined, now: number, seen = 0): TrackedPoint {
  return {
    id,
    info,
    lat: round6(p.lat),
    lon: round6(p.lon),
    speed: p.speed,
    course: p.course,
    time: p.time,
    on: now - p.time < VEHICLE_STALE_MS,
    item: undefined,
    feature: undefined,
    source: p,
    seen,
  };
}

/**
 * The whole fleet's latest positions with their labels, ready to cluster: fresh points every call (tests and
 * one-off indexes). The stream item of a vehicle is made only when some viewer sees it on its own
 * (ClusterIndex.itemOf): at city zooms most vehicles sit in groups, and a rebuild of a big fleet should not
 * allocate what nobody looks at.
 */
export function fleetPoints(
  positions: Iterable<[number, LatestPosition]>,
  vehicleOf: (id: number) => VehicleInfo | undefined,
  now: number,
): VehiclePoint[] {
  const points: VehiclePoint[] = [];
  for (const [id, p] of positions) points.push(pointOf(id, p, vehicleOf(id), now));
  return points;
}

/** The labels an item shows: a directory reload makes new VehicleInfo objects, mostly with the same labels. */
function sameLabels(a: VehicleInfo | undefined, b: VehicleInfo | undefined): boolean {
  if (a === b) return true;
  if (!a || !b) return false;
  return (
    a.routeType === b.routeType && a.routeShortName === b.routeShortName && a.classRank === b.classRank && a.depotNumber === b.depotNumber
  );
}

/**
 * The geo hub's points, kept from one rebuild to the next: a vehicle whose latest position (the pipeline
 * replaces the LatestPosition object on every accepted fix), labels and on/off state did not change keeps its
 * point, its clustering feature and its stream item, the very same objects. So a rebuild allocates only for
 * what moved (a big fleet's rebuild used to promote tens of megabytes a second into the old generation, and
 * the garbage collector's pauses then landed in the viewport queries), and the hub tells an unchanged vehicle
 * from a moved one by identity.
 *
 * The points are mutated in place: an index built on an earlier update must not be queried after a later one
 * (the hub replaces its indexes at every rebuild).
 */
export class FleetPoints {
  private readonly byId = new Map<number, TrackedPoint>();
  private list: VehiclePoint[] = [];
  private generation = 0;

  update(
    positions: Iterable<[number, LatestPosition]>,
    vehicleOf: (id: number) => VehicleInfo | undefined,
    now: number,
  ): readonly VehiclePoint[] {
    const generation = ++this.generation;
    let added = false;
    let count = 0;
    for (const [id, p] of positions) {
      count += 1;
      const point = this.byId.get(id);
      const info = vehicleOf(id);
      if (!point) {
        this.byId.set(id, pointOf(id, p, info, now, generation));
        added = true;
        continue;
      }
      point.seen = generation;
      const on = now - p.time < VEHICLE_STALE_MS;
      const labelsKept = sameLabels(point.info, info);
      point.info = info;
      if (point.source === p && point.on === on && labelsKept) continue;
      point.lat = round6(p.lat);
      point.lon = round6(p.lon);
      point.speed = p.speed;
      point.course = p.course;
      point.time = p.time;
      point.on = on;
      point.source = p;
      point.item = undefined;
    }
    const removed = count !== this.byId.size;
    if (removed) for (const [id, point] of this.byId) if (point.seen !== generation) this.byId.delete(id);
    if (added || removed) this.list = [...this.byId.values()];
    return this.list;
  }

  get size(): number {
    return this.list.length;
  }
}

/** A point with the update that last saw its vehicle (FleetPoints drops the others: gone from the fleet). */
interface TrackedPoint extends VehiclePoint {
  seen: number;
}
