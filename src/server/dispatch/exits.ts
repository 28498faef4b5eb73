import type { ExitRun, ExitsList, RunStatus } from '../../shared/dispatch/api';
import type { Queryable } from '../db/types';
import { operatorMidnight } from '../map/operatorDay';
import { fullName } from './names';
import { variantsInForce } from './store';

interface Row {
  route_id: number;
  route_name: string;
  variant: number;
  graph: number;
  smena: string;
  racenum: number;
  racetype: string;
  stops: number;
  first_minute: number;
  last_minute: number;
  planned_vehicle: number | null;
  last_name: string | null;
  first_name: string | null;
  middle_name: string | null;
  vehicle_id: number | null;
  depot_number: number | null;
  passed: number | null;
  has_first: boolean | null;
  start_departure: Date | null;
  first_passage: Date | null;
  end_arrival: Date | null;
}

/**
 * A day's exits of a route or a depot (its routes, and the exits its vehicles are tasked with): each run of the
 * timetable in force with its plan (the first and last stop's times, the stops with coordinates, as the engine
 * follows them) and its fact from the stored passages: the departure from the first stop (the first passage
 * where the first stop was missed), the arrival at the last one, the stops passed.
 */
export async function exitsOfDay(
  db: Queryable, date: string, scope: { route?: number; depot?: number }, now: number, tzOffsetMinutes: number, runMissedSeconds: number,
  /** Run key → the vehicle on it now (the engine's): a run under way before its first passage is not missed. */
  working: ReadonlyMap<string, number> = new Map(),
): Promise<ExitsList> {
  const variants = await variantsInForce(db, date);
  const rows = await db.query<Row>(
    `with plan as (
       select rt."RaspVariant_id" as variant, rv.route_id, rt.graph, rt.smena, rt.racenum, min(rt.racetype) as racetype, count(*)::int as stops,
              min(rt."order") as first_order, max(rt."order") as last_order,
              (array_agg(rt.time order by rt."order"))[1] as first_minute, (array_agg(rt.time order by rt."order" desc))[1] as last_minute
         from mgt.rasp_time rt
         join mgt.rasp_variant rv on rv.id = rt."RaspVariant_id"
         join mgt.routes r on r.route_id = rv.route_id
         join mgt.stops s on s.stop_id = rt.stop_id and s.stop_lat is not null and s.stop_lon is not null
        where rt."RaspVariant_id" = any($2::int[])
          and ($3::int is null or rv.route_id = $3)
          and ($4::int is null or r."Depot_id" = $4 or exists (
                select 1 from mgt.vehicle_task t join mgt.vehicles v on v.id = t.vehicle_id
                 where t.date = $1::date and t."RaspVariant_id" = rt."RaspVariant_id" and t.graph = rt.graph and t.smena = rt.smena and v.depot_id = $4))
        group by rt."RaspVariant_id", rv.route_id, rt.graph, rt.smena, rt.racenum
       having count(*) >= 2),
     fact as (
       select p.rasp_variant_id, p.graph, p.smena, p.race_num, count(distinct p.stop_sequence)::int as passed,
              (array_agg(p.vehicle_id order by p.stop_sequence, p.vehicle_id))[1] as vehicle_id,
              bool_or(p.stop_sequence = pl.first_order) as has_first,
              min(p.actual_departure) filter (where p.stop_sequence = pl.first_order) as start_departure,
              (array_agg(coalesce(p.actual_departure, p.actual_arrival) order by p.stop_sequence))[1] as first_passage,
              min(p.actual_arrival) filter (where p.stop_sequence = pl.last_order) as end_arrival
         from dispatch.stop_passage p
         join plan pl on pl.variant = p.rasp_variant_id and pl.graph = p.graph and pl.smena = p.smena and pl.racenum = p.race_num
        where p.service_date = $1::date
        group by p.rasp_variant_id, p.graph, p.smena, p.race_num)
     select pl.route_id, r.route_short_name as route_name, pl.variant, pl.graph, pl.smena, pl.racenum, pl.racetype, pl.stops, pl.first_minute, pl.last_minute,
            task.vehicle_id as planned_vehicle, d.last_name, d.first_name, d.middle_name,
            coalesce(f.vehicle_id, task.vehicle_id) as vehicle_id, v.depot_number,
            f.passed, f.has_first, f.start_departure, f.first_passage, f.end_arrival
       from plan pl
       join mgt.routes r on r.route_id = pl.route_id
       left join fact f on f.rasp_variant_id = pl.variant and f.graph = pl.graph and f.smena = pl.smena and f.race_num = pl.racenum
       left join lateral (select t.vehicle_id, t.driver_id from mgt.vehicle_task t
                           where t.date = $1::date and t."RaspVariant_id" = pl.variant and t.graph = pl.graph and t.smena = pl.smena
                           order by t.id limit 1) task on true
       left join mgt.driver d on d.driver_id = task.driver_id
       left join mgt.vehicles v on v.id = coalesce(f.vehicle_id, task.vehicle_id)
      order by r.route_short_name, pl.route_id, pl.graph, pl.smena, pl.first_minute, pl.racenum`,
    [date, variants, scope.route ?? null, scope.depot ?? null],
  );
  const midnight = operatorMidnight(date, tzOffsetMinutes);
  const at = (minute: number) => midnight + minute * 60_000;
  const time = (value: Date | string) => new Date(value).getTime();
  const seconds = (actual: number | null, planned: number) => (actual === null ? null : Math.round((actual - planned) / 1000));
  const list: ExitRun[] = rows.map((r) => {
    const plannedStart = at(r.first_minute);
    const plannedEnd = at(r.last_minute);
    const passed = r.passed ?? 0;
    // departed the first stop, or (the first stop missed) seen first further on; still at the first stop: not started
    const actualStart = r.start_departure ? time(r.start_departure) : !r.has_first && r.first_passage ? time(r.first_passage) : null;
    const actualEnd = r.end_arrival ? time(r.end_arrival) : null;
    const onIt = working.get(`${date}|${r.variant}|${r.graph}|${r.smena}|${r.racenum}`);
    const overdue = now > plannedEnd + runMissedSeconds * 1000 && onIt === undefined;
    const status: RunStatus = actualEnd !== null ? 'performed' : passed > 0 || onIt !== undefined ? (overdue ? 'partial' : 'in_progress') : overdue ? 'not_performed' : 'planned';
    return {
      routeId: r.route_id, routeName: r.route_name, graph: r.graph, smena: r.smena, raceNum: r.racenum, direction: r.racetype === 'B' ? 1 : 0,
      plannedVehicle: r.planned_vehicle, vehicleId: r.vehicle_id ?? onIt ?? null, depotNumber: r.depot_number,
      driver: r.last_name === null ? null : fullName(r.last_name, r.first_name ?? '', r.middle_name),
      plannedStart: new Date(plannedStart).toISOString(), plannedEnd: new Date(plannedEnd).toISOString(),
      actualStart: actualStart === null ? null : new Date(actualStart).toISOString(), actualEnd: actualEnd === null ? null : new Date(actualEnd).toISOString(),
      startDeviation: seconds(actualStart, plannedStart), endDeviation: seconds(actualEnd, plannedEnd),
      stops: r.stops, passed, status,
    };
  });
  const count = (status: RunStatus) => list.filter((r) => r.status === status).length;
  return { date, list, count: list.length, totals: { planned: list.length, performed: count('performed'), partial: count('partial'), notPerformed: count('not_performed') } };
}
