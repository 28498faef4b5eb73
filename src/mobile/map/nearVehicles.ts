import type { MapCluster } from '../../shared/map';

/** Field-app spec 9: a vehicle counts as near the user within this many metres. */
export const NEAR_USER_METRES = 2000;

const EARTH_RADIUS_M = 6_371_008.8;
const rad = (deg: number) => (deg * Math.PI) / 180;

/** Great-circle distance in metres between two [lat, lon] points. */
export function distanceMetres(a: readonly [number, number], b: readonly [number, number]): number {
  const dLat = rad(b[0] - a[0]);
  const dLon = rad(b[1] - a[1]);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(rad(a[0])) * Math.cos(rad(b[0])) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** Whether a vehicle of the picture (not a group) is near the user. */
export function nearUser(user: readonly [number, number], metres = NEAR_USER_METRES): (item: MapCluster) => boolean {
  return (item) => item.type === 'vehicle' && distanceMetres(user, item.center) <= metres;
}

/** The vehicles (not groups) of the picture within NEAR_USER_METRES of the user, nearest first. */
export function nearVehicles(items: Iterable<MapCluster>, user: readonly [number, number] | null, metres = NEAR_USER_METRES): MapCluster[] {
  if (!user) return [];
  const near: [number, MapCluster][] = [];
  for (const item of items) {
    if (item.type !== 'vehicle') continue;
    const distance = distanceMetres(user, item.center);
    if (distance <= metres) near.push([distance, item]);
  }
  return near.sort((a, b) => a[0] - b[0]).map(([, item]) => item);
}
