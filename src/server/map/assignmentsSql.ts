/**
 * SQL fragments for "today's assignment" (spec: a vehicle's route and driver come from the vehicle tasks of the
 * day, and a mid-day replacement hands the exit to the replacing vehicle from its start time on).
 * `date` is the placeholder of the operator's local date, e.g. '$1'.
 */

/** The tasks of a date: vehicle_id, RaspVariant_id, graph, smena, driver_id, starttime (null for a planned task). */
export const tasksOfDateSql = (date: string): string => `
  select t.vehicle_id, t."RaspVariant_id", t.graph, t.smena, t.driver_id, null::int as starttime
    from mgt.vehicle_task t where t.date = ${date}::date
  union all
  select r.replace_vehicle_id, r."RaspVariant_id", r.graph, r.smena, r.driver_id, r.starttime
    from mgt.replace_vehicle r where r.date = ${date}::date`;

/** One row per vehicle working that date: vehicle_id and route_id (every shift of an exit is on the same route). */
export const routeOfVehicleSql = (date: string): string => `
  select distinct on (x.vehicle_id) x.vehicle_id, rv.route_id
    from (${tasksOfDateSql(date)}) x
    join mgt.rasp_variant rv on rv.id = x."RaspVariant_id"
   order by x.vehicle_id, x.starttime nulls first, x.smena`;

/**
 * One row per vehicle: the task the vehicle works at minute `minute` of the day (its shift's schedule span holds
 * it, else the nearest shift), with vehicle_id, route_id, driver_id. Restricted to `vehicles` (an int[] placeholder).
 */
export const currentTaskSql = (date: string, vehicles: string, minute: string): string => `
  select distinct on (x.vehicle_id) x.vehicle_id, rv.route_id, x.driver_id
    from (${tasksOfDateSql(date)}) x
    join mgt.rasp_variant rv on rv.id = x."RaspVariant_id"
    left join lateral (
      select min(rt.time) as t0, max(rt.time) as t1 from mgt.rasp_time rt
       where rt."RaspVariant_id" = x."RaspVariant_id" and rt.graph = x.graph and rt.smena = x.smena) s on true
   where x.vehicle_id = any(${vehicles}::int[])
   order by x.vehicle_id,
            greatest(greatest(s.t0, x.starttime) - ${minute}::int, ${minute}::int - s.t1, 0) nulls last,
            x.starttime desc nulls last, x.smena`;
