import type { BranchAgency } from '../../../shared/map';
import type { LatLon } from '../wkt';

/**
 * What the layers draw, decided without Leaflet (so it is tested without a browser): the layer components
 * turn these lists into Leaflet shapes.
 */

/** A stop of a drawn route; terminal stops (first and last) stay when the stops are minimised. */
export interface RouteStop {
  id: number;
  name: string;
  at: LatLon;
  terminal: boolean;
}

/** The stops a route shows: at zoom 12 or lower only its terminal stops (spec section 2). */
export function shownRouteStops(stops: readonly RouteStop[], minimised: boolean): RouteStop[] {
  return minimised ? stops.filter((stop) => stop.terminal) : [...stops];
}

export type DepotKind = 'agency' | 'branch' | 'department';
export type Depot = BranchAgency['agencies'][number] | BranchAgency['depots'][number] | BranchAgency['departments'][number];

export interface DepotMarker {
  kind: DepotKind;
  depot: Depot;
  at: LatLon;
}

const positionOf = (depot: Depot): LatLon | null =>
  typeof depot.lat === 'number' && typeof depot.lon === 'number' ? [depot.lat, depot.lon] : null;

/**
 * The markers of the depots layer (enterprises and branches) or, with `points`, of the depot points layer
 * (departments); places without coordinates are left out.
 */
export function depotMarkers(data: BranchAgency, points: boolean): DepotMarker[] {
  const entries: [DepotKind, Depot][] = points
    ? data.departments.map((d): [DepotKind, Depot] => ['department', d])
    : [...data.agencies.map((a): [DepotKind, Depot] => ['agency', a]), ...data.depots.map((d): [DepotKind, Depot] => ['branch', d])];
  return entries.flatMap(([kind, depot]) => {
    const at = positionOf(depot);
    return at ? [{ kind, depot, at }] : [];
  });
}

/** Items with a usable position (an incident or a stop row may come without one). */
export function positioned<T extends { lat?: number | null; lon?: number | null }>(
  items: readonly T[],
): (T & { lat: number; lon: number })[] {
  return items.filter((item): item is T & { lat: number; lon: number } => Number.isFinite(item.lat) && Number.isFinite(item.lon));
}
