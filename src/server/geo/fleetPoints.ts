import { VEHICLE_STALE_MS } from '../../shared/map';
import type { VehicleInfo } from '../map/fleetDirectory';
import type { LatestPosition } from '../telemetry/types';
import type { VehiclePoint } from './clusterIndex';

/**
 * The whole fleet's latest positions with their labels, ready to cluster. The stream item of a vehicle is made
 * only when some viewer sees it on its own (ClusterIndex.itemOf): at city zooms most vehicles sit in groups,
 * and a rebuild of a big fleet should not allocate what nobody looks at.
 */
export function fleetPoints(
  positions: Iterable<[number, LatestPosition]>,
  vehicleOf: (id: number) => VehicleInfo | undefined,
  now: number,
): VehiclePoint[] {
  const points: VehiclePoint[] = [];
  for (const [id, p] of positions) {
    points.push({
      id, info: vehicleOf(id), lat: Math.round(p.lat * 1e6) / 1e6, lon: Math.round(p.lon * 1e6) / 1e6,
      speed: p.speed, course: p.course, time: p.time, on: now - p.time < VEHICLE_STALE_MS, item: undefined,
    });
  }
  return points;
}
