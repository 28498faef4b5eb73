import type { MapFilters } from '../../../shared/map';

/**
 * The map filter (spec section 3, Filter data): enterprises (depots), branches, routes and vehicles. Choosing
 * enterprises or branches narrows the routes and vehicles offered; the categories combine with AND. The
 * result is the set of vehicles the geo stream carries and the routes drawn.
 */
export interface MapFilterSelection {
  depots: number[];
  branches: number[];
  routes: number[];
  vehicles: number[];
}

export type FilterCategory = keyof MapFilterSelection;
export const FILTER_CATEGORIES: FilterCategory[] = ['depots', 'branches', 'routes', 'vehicles'];
export const EMPTY_SELECTION: MapFilterSelection = { depots: [], branches: [], routes: [], vehicles: [] };

type Vehicle = MapFilters['vehicles'][number];

export function selectionCount(selection: MapFilterSelection): number {
  return FILTER_CATEGORIES.reduce((sum, category) => sum + selection[category].length, 0);
}

export function isFilterActive(selection: MapFilterSelection): boolean {
  return selectionCount(selection) > 0;
}

/** Branch ids the enterprise choice allows (every branch when no enterprise is chosen). */
function allowedBranches(filters: MapFilters, selection: MapFilterSelection): Set<number> | null {
  const byDepot = selection.depots.length
    ? new Set(filters.branches.filter((b) => selection.depots.includes(b.agency_id)).map((b) => b.id))
    : null;
  if (!selection.branches.length) return byDepot;
  return new Set(selection.branches.filter((id) => !byDepot || byDepot.has(id)));
}

function vehicleInBranches(vehicle: Vehicle, branches: Set<number> | null): boolean {
  return !branches || (vehicle.Depot_id !== null && branches.has(vehicle.Depot_id));
}

export function branchOptions(filters: MapFilters, selection: MapFilterSelection): MapFilters['branches'] {
  return selection.depots.length ? filters.branches.filter((b) => selection.depots.includes(b.agency_id)) : filters.branches;
}

/** Routes worked by the vehicles of the chosen enterprises and branches (all routes without that choice). */
export function routeOptions(filters: MapFilters, selection: MapFilterSelection): MapFilters['routes'] {
  const branches = allowedBranches(filters, selection);
  if (!branches) return filters.routes;
  const worked = new Set(filters.vehicles.filter((v) => vehicleInBranches(v, branches)).map((v) => v.route_id));
  return filters.routes.filter((route) => worked.has(route.id));
}

export function vehicleOptions(filters: MapFilters, selection: MapFilterSelection): Vehicle[] {
  const branches = allowedBranches(filters, selection);
  return filters.vehicles.filter(
    (v) => vehicleInBranches(v, branches) && (!selection.routes.length || (v.route_id !== null && selection.routes.includes(v.route_id))),
  );
}

/** The vehicles the filter lets through: null when no filter is set (every vehicle), possibly empty. */
export function filteredVehicleIds(filters: MapFilters | null, selection: MapFilterSelection): number[] | null {
  if (!isFilterActive(selection)) return null;
  if (!filters) return selection.vehicles.length ? [...selection.vehicles] : null;
  const offered = vehicleOptions(filters, selection).map((v) => v.id);
  if (!selection.vehicles.length) return offered;
  const allowed = new Set(offered);
  return selection.vehicles.filter((id) => allowed.has(id));
}

export function vehicleLabel(vehicle: Pick<Vehicle, 'depotNumber' | 'gosNomer' | 'model'>): string {
  return [String(vehicle.depotNumber), vehicle.gosNomer, vehicle.model].filter(Boolean).join(' · ');
}

/** '12 — Автобус': the same number may serve several transport types. */
export function routeOptionLabel(route: MapFilters['routes'][number], types: readonly { code: string; title: string }[]): string {
  const type = types.find((t) => t.code === route.route_type)?.title ?? route.route_type;
  return type ? `${route.name} — ${type}` : route.name;
}
