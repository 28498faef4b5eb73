import type { Queryable } from '../types';

/**
 * The demo's link handbooks, made in SQL from what the generator already made, at either scale: each route's
 * published stop list («Остановки маршрутов») from its first variant's trips (A forward, B backward, in trip
 * order), and each schedule variant's exit and shift linked to the work graphic it is worked by («Связь
 * расписаний и графиков работы»): the first shift by the morning graphic, the second by the evening one, a
 * single shift by the day graphic (codes of src/server/db/demo/reference.ts).
 */
export async function insertDemoLinks(tx: Queryable): Promise<void> {
  await tx.query(
    `insert into mgt.route_stop (route_id, direction, stop_order, stop_id)
     select v.route_id, case t.race_type when 'A' then 0 else 1 end, ts.stop_sequence, ts.stop_id
       from mgt.marsh_variants v join mgt.trip t on t."MarshVariant_id" = v.id join mgt.trip_stops ts on ts.trip_id = t.id
      where t.race_type in ('A', 'B') and v.id = (select min(f.id) from mgt.marsh_variants f where f.route_id = v.route_id)
     on conflict do nothing`,
  );
  await tx.query(
    `with shifts as (
       select t."RaspVariant_id" as variant, t.graph, t.smena, count(*) over (partition by t."RaspVariant_id", t.graph) as shifts
         from (select distinct "RaspVariant_id", graph, smena from mgt.rasp_time) t)
     insert into mgt.rasp_time_link ("RaspVariant_id", graph, smena, graphic_type_id)
     select s.variant, s.graph, s.smena, g.id
       from shifts s join cat.work_graphic_type g on g.code = case when s.shifts = 1 then 1 when s.smena = '1' then 2 else 3 end
     on conflict do nothing`,
  );
}
