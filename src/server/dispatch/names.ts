import type { Queryable } from '../db/types';

/** What a dispatcher calls a vehicle, a route, a stop and the driver of an exit. */
export interface VehicleName {
  depotNumber: number;
  stateNumber: string | null;
  depotId: number | null;
}
export interface RouteName {
  name: string;
  depotId: number | null;
}

export interface Names {
  vehicles: Map<number, VehicleName>;
  routes: Map<number, RouteName>;
  stops: Map<number, string>;
  /** `date|variant|exit|shift|vehicle` → the driver's name: the exit's task, or the replacement's. */
  drivers: Map<string, string>;
}

export interface NameRequest {
  vehicles?: Iterable<number | null>;
  routes?: Iterable<number | null>;
  stops?: Iterable<number>;
  /** Block keys (`date|variant|exit|shift`). */
  blocks?: Iterable<string | null>;
}

const ids = (values: Iterable<number | null> | undefined) => [...new Set([...(values ?? [])].filter((v): v is number => v !== null))];

export const fullName = (last: string, first: string, middle: string | null) => [last, first, middle].filter(Boolean).join(' ');

/** The names of what a dispatch answer mentions, in at most four light queries (none for an empty list). */
export async function lookupNames(db: Queryable, request: NameRequest): Promise<Names> {
  const vehicleIds = ids(request.vehicles);
  const routeIds = ids(request.routes);
  const stopIds = ids(request.stops);
  const blocks = [...new Set([...(request.blocks ?? [])].filter((b): b is string => b !== null))].map((key) => key.split('|'));
  const [vehicles, routes, stops, drivers] = await Promise.all([
    vehicleIds.length
      ? db.query<{ id: number; depot_number: number; state_number: string | null; depot_id: number | null }>(
          'select id, depot_number, state_number, depot_id from mgt.vehicles where id = any($1::int[])',
          [vehicleIds],
        )
      : [],
    routeIds.length
      ? db.query<{ route_id: number; route_short_name: string; depot_id: number | null }>(
          'select route_id, route_short_name, "Depot_id" as depot_id from mgt.routes where route_id = any($1::int[])',
          [routeIds],
        )
      : [],
    stopIds.length
      ? db.query<{ stop_id: number; stop_name: string }>('select stop_id, stop_name from mgt.stops where stop_id = any($1::int[])', [
          stopIds,
        ])
      : [],
    blocks.length
      ? db.query<{ block: string; vehicle_id: number; last_name: string; first_name: string; middle_name: string | null }>(
          `with b as (select * from unnest($1::date[], $2::int[], $3::int[], $4::text[]) as b(date, variant, graph, smena))
         select t.date::text || '|' || t."RaspVariant_id" || '|' || t.graph || '|' || t.smena as block, t.vehicle_id, d.last_name, d.first_name, d.middle_name
           from mgt.vehicle_task t join b on b.date = t.date and b.variant = t."RaspVariant_id" and b.graph = t.graph and b.smena = t.smena
           join mgt.driver d on d.driver_id = t.driver_id
         union all
         select r.date::text || '|' || r."RaspVariant_id" || '|' || r.graph || '|' || r.smena, r.replace_vehicle_id, d.last_name, d.first_name, d.middle_name
           from mgt.replace_vehicle r join b on b.date = r.date and b.variant = r."RaspVariant_id" and b.graph = r.graph and b.smena = r.smena
           join mgt.driver d on d.driver_id = r.driver_id`,
          [blocks.map((b) => b[0]), blocks.map((b) => Number(b[1])), blocks.map((b) => Number(b[2])), blocks.map((b) => b[3])],
        )
      : [],
  ]);
  return {
    vehicles: new Map(vehicles.map((v) => [v.id, { depotNumber: v.depot_number, stateNumber: v.state_number, depotId: v.depot_id }])),
    routes: new Map(routes.map((r) => [r.route_id, { name: r.route_short_name, depotId: r.depot_id }])),
    stops: new Map(stops.map((s) => [s.stop_id, s.stop_name])),
    drivers: new Map(drivers.map((d) => [`${d.block}|${d.vehicle_id}`, fullName(d.last_name, d.first_name, d.middle_name)])),
  };
}

/**
 * The driver of a block as worked by a vehicle: the task's or the replacement's driver of that vehicle (none
 * when the vehicle works the block by fit, without a task on it); without a vehicle, the block's task driver.
 */
export function driverOf(names: Names, blockKey: string | null, vehicleId: number | null): string | null {
  if (!blockKey) return null;
  if (vehicleId !== null) return names.drivers.get(`${blockKey}|${vehicleId}`) ?? null;
  for (const [key, name] of names.drivers) if (key.startsWith(`${blockKey}|`)) return name;
  return null;
}
