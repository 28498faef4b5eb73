import { distanceMetres } from './nearVehicles';

/** The stops whose arrivals the field map lists near the user: the nearest few within a walk (spec silent). */
export const NEAR_STOPS_METRES = 500;
export const NEAR_STOPS_COUNT = 3;
/** The stops around the user are read again once the phone has moved this far from where they were read. */
export const NEAR_STOPS_RELOAD_METRES = 100;

const M_PER_DEG_LAT = 111_320;

/** [south, west, north, east] of the square `metres` around a point (the map API's bbox). */
export function boxAround([lat, lon]: readonly [number, number], metres: number): [number, number, number, number] {
  const dLat = metres / M_PER_DEG_LAT;
  const dLon = metres / (M_PER_DEG_LAT * Math.cos((lat * Math.PI) / 180));
  return [lat - dLat, lon - dLon, lat + dLat, lon + dLon];
}

/** The `count` stops nearest the user within `metres`, nearest first, with their distance. */
export function nearestStops<T extends { lat: number; lon: number }>(
  stops: readonly T[],
  user: readonly [number, number],
  count = NEAR_STOPS_COUNT,
  metres = NEAR_STOPS_METRES,
): (T & { distance: number })[] {
  return stops
    .map((stop) => ({ ...stop, distance: distanceMetres(user, [stop.lat, stop.lon]) }))
    .filter((stop) => stop.distance <= metres)
    .sort((a, b) => a.distance - b.distance)
    .slice(0, count);
}
