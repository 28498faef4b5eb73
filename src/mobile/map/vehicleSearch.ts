import type { MapFilters, MapVehicleItem } from '../../shared/map';

/**
 * The entity search's vehicle form (field-app spec 2.3): branch, route, vehicle type, and the vehicle picked by
 * garage number or by plate (one choice, two lists). Choosing a vehicle fills its route, branch and type.
 * Pure functions of the filter data (GET /api/v1/map/mobile/filters), tested without a browser.
 */
export interface VehicleSearchState {
  branch: number | null;
  route: number | null;
  /** Transport type code (route_type: 'А', 'Тб', 'Тм'…). */
  type: string | null;
  vehicle: number | null;
}

export const EMPTY_VEHICLE_SEARCH: VehicleSearchState = { branch: null, route: null, type: null, vehicle: null };

/** The transport types of the current user (their order is the handbook's, by id). */
export type TransportTypes = readonly { code: string }[];

/**
 * A vehicle's type: its route's type today, else its own (the transport type handbook's row numbered
 * vehicle_type_id, in the user's list ordered by id).
 */
export function vehicleTypeOf(vehicle: MapVehicleItem, filters: Pick<MapFilters, 'routes'>, types: TransportTypes): string | null {
  const route = vehicle.route_id !== null ? filters.routes.find((r) => r.id === vehicle.route_id) : undefined;
  if (route) return route.route_type;
  return vehicle.vehicle_type_id !== null ? (types[vehicle.vehicle_type_id - 1]?.code ?? null) : null;
}

/** The vehicles the garage-number and plate lists offer: those of the chosen branch, route and type. */
export function matchingVehicles(filters: MapFilters, state: VehicleSearchState, types: TransportTypes): MapVehicleItem[] {
  return filters.vehicles.filter(
    (v) =>
      (state.branch === null || v.Depot_id === state.branch) &&
      (state.route === null || v.route_id === state.route) &&
      (state.type === null || vehicleTypeOf(v, filters, types) === state.type),
  );
}

/** Choosing a vehicle (or clearing it): its route, branch and type fill the other fields. */
export function chooseVehicle(
  state: VehicleSearchState,
  vehicleId: number | null,
  filters: MapFilters,
  types: TransportTypes,
): VehicleSearchState {
  const vehicle = vehicleId === null ? undefined : filters.vehicles.find((v) => v.id === vehicleId);
  if (!vehicle) return { ...state, vehicle: null };
  return { branch: vehicle.Depot_id, route: vehicle.route_id, type: vehicleTypeOf(vehicle, filters, types), vehicle: vehicle.id };
}

/** Changing branch, route or type: the chosen vehicle stays only while it still matches. */
export function changeFilter(
  state: VehicleSearchState,
  patch: Partial<Omit<VehicleSearchState, 'vehicle'>>,
  filters: MapFilters,
  types: TransportTypes,
): VehicleSearchState {
  const next = { ...state, ...patch };
  if (next.vehicle !== null && !matchingVehicles(filters, next, types).some((v) => v.id === next.vehicle)) next.vehicle = null;
  return next;
}

/** The routes the route list offers: of the chosen type. */
export function routesOfType(filters: MapFilters, type: string | null): MapFilters['routes'] {
  return type === null ? filters.routes : filters.routes.filter((r) => r.route_type === type);
}
