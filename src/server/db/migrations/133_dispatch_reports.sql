-- The live timetable's reports (src/server/dispatch/dispatchReports.ts, docs/dispatch.md «Отчёты»).
--   dispatch.variants_in_force(date)    the schedule variants a date runs: the engine's rule (store.ts reads it)
--   dispatch.day_runs(...)              every run the timetable of the dates holds, as the engine follows it, with its
--                                       fact from the stored passages: «План и факт» (exits.ts) and «Выполнение рейсов»
--   dispatch.run_status(...)            a run's status from that fact: one rule for both
--   dispatch.prediction_sample          arrival predictions sampled as they are made (predictionSamples.ts), compared
--                                       with the passages by «Точность прогнозов»; a partition a service date, the
--                                       oldest dropped by dispatch.drop_prediction_samples

-- For each route the variant in force on the date (a holiday runs the weekday it names; a variant of the weekday
-- before one without; the latest start first: the rule of mgt.assign_or_replace_vehicle), plus the variants the
-- date's vehicle tasks name.
create function dispatch.variants_in_force(p_date date) returns setof int language sql stable as $$
  with per_route as (
    select r.route_id, coalesce((select coalesce(h.dow, extract(dow from p_date)::int) from mgt.holidays h
                                  where h.date = p_date and (h.route_id = r.route_id or h.route_id is null)
                                  order by (h.route_id is null), h.id limit 1), extract(dow from p_date)::int) as dow
      from mgt.routes r)
  select id from (
    select distinct on (v.route_id) v.id from mgt.rasp_variant v join per_route p on p.route_id = v.route_id
     where v.startdate <= p_date and (v.enddate is null or v.enddate >= p_date) and (v.dow is null or v.dow = p.dow)
     order by v.route_id, (v.dow is null), v.startdate desc, v.id desc) inforce
  union
  select distinct "RaspVariant_id" from mgt.vehicle_task where date = p_date
$$;

-- The runs of the service dates p_from..p_to (of the routes p_routes; null: every route): each race of the variants
-- in force counted over its stops with coordinates, two at least, as the engine follows it; planned start and end
-- are the first and last of those stops' times (minutes from the operator's midnight, p_offset_minutes east of
-- UTC). The fact: the stops passed, the first vehicle seen, the departure from the first stop, the first passage
-- (the first stop missed), the arrival at the last stop.
create function dispatch.day_runs(p_from date, p_to date, p_offset_minutes int, p_routes int[])
returns table (
  service_date date, rasp_variant_id int, route_id int, graph int, smena text, race_num int, direction smallint, stops int,
  first_order int, last_order int, planned_start timestamptz, planned_end timestamptz,
  passed int, vehicle_id int, has_first boolean, start_departure timestamptz, first_passage timestamptz, end_arrival timestamptz
) language sql stable as $$
  with days as materialized (
    select d::date as day, v as variant
      from generate_series(p_from::timestamp, p_to::timestamp, interval '1 day') d
     cross join lateral dispatch.variants_in_force(d::date) v),
  plan as materialized (
    select rt."RaspVariant_id" as variant, rv.route_id, rt.graph, rt.smena, rt.racenum,
           (case when min(rt.racetype) = 'B' then 1 else 0 end)::smallint as direction, count(*)::int as stops,
           min(rt."order") as first_order, max(rt."order") as last_order,
           (array_agg(rt.time order by rt."order"))[1] as first_minute, (array_agg(rt.time order by rt."order" desc))[1] as last_minute
      from mgt.rasp_time rt
      join mgt.rasp_variant rv on rv.id = rt."RaspVariant_id"
      join mgt.routes r on r.route_id = rv.route_id
      join mgt.stops s on s.stop_id = rt.stop_id and s.stop_lat is not null and s.stop_lon is not null
     where rt."RaspVariant_id" in (select variant from days)
       and (p_routes is null or rv.route_id = any(p_routes))
     group by rt."RaspVariant_id", rv.route_id, rt.graph, rt.smena, rt.racenum
    having count(*) >= 2),
  runs as materialized (
    select d.day, pl.*, (d.day::timestamp at time zone 'UTC') - make_interval(mins => p_offset_minutes) as midnight
      from days d join plan pl on pl.variant = d.variant),
  fact as (
    select p.service_date, p.rasp_variant_id, p.graph, p.smena, p.race_num, count(distinct p.stop_sequence)::int as passed,
           (array_agg(p.vehicle_id order by p.stop_sequence, p.vehicle_id))[1] as vehicle_id,
           bool_or(p.stop_sequence = r.first_order) as has_first,
           min(p.actual_departure) filter (where p.stop_sequence = r.first_order) as start_departure,
           (array_agg(coalesce(p.actual_departure, p.actual_arrival) order by p.stop_sequence))[1] as first_passage,
           min(p.actual_arrival) filter (where p.stop_sequence = r.last_order) as end_arrival
      from dispatch.stop_passage p
      join runs r on r.day = p.service_date and r.variant = p.rasp_variant_id and r.graph = p.graph and r.smena = p.smena and r.racenum = p.race_num
     where p.service_date between p_from and p_to
     group by p.service_date, p.rasp_variant_id, p.graph, p.smena, p.race_num)
  select r.day, r.variant, r.route_id, r.graph, r.smena, r.racenum, r.direction, r.stops, r.first_order, r.last_order,
         r.midnight + make_interval(mins => r.first_minute), r.midnight + make_interval(mins => r.last_minute),
         coalesce(f.passed, 0), f.vehicle_id, coalesce(f.has_first, false), f.start_departure, f.first_passage, f.end_arrival
    from runs r
    left join fact f on f.service_date = r.day and f.rasp_variant_id = r.variant and f.graph = r.graph and f.smena = r.smena and f.race_num = r.racenum
$$;

-- A run's status: performed (an arrival at the last stop); in progress (passages, or a vehicle on it now, and not
-- yet p_missed_seconds past the planned end); partial (passages, past it, nobody on it); not performed (no passage,
-- past it, nobody on it); planned.
create function dispatch.run_status(p_ended boolean, p_passed int, p_on_run boolean, p_planned_end timestamptz, p_now timestamptz, p_missed_seconds int)
returns text language sql immutable as $$
  select case when p_ended then 'performed'
              when p_on_run or p_now <= p_planned_end + make_interval(secs => p_missed_seconds)
                then case when p_passed > 0 or p_on_run then 'in_progress' else 'planned' end
              when p_passed > 0 then 'partial'
              else 'not_performed' end
$$;

-- Predicted arrivals as they were made: when, for which vehicle and run's stop, the learned prediction and the
-- baseline (timetable plus the deviation of the moment). A partition a service date (the run's), made by the
-- writer as dates come; whole days are dropped past the retention.
create table dispatch.prediction_sample (
  service_date date not null,
  made_at timestamptz not null,
  vehicle_id int not null,
  route_id int not null,
  rasp_variant_id int not null,
  graph int not null,
  smena text not null,
  race_num int not null,
  stop_sequence int not null,
  stop_id int not null,
  predicted timestamptz not null,
  baseline timestamptz not null
) partition by range (service_date);

create function dispatch.ensure_sample_partition(p_date date) returns void language plpgsql as $$
declare
  v_name text := format('prediction_sample_%s', to_char(p_date, 'YYYY_MM_DD'));
begin
  if to_regclass('dispatch.' || v_name) is null then
    execute format('create table if not exists dispatch.%I partition of dispatch.prediction_sample for values from (%L) to (%L)',
      v_name, p_date, p_date + 1);
  end if;
end $$;

-- Drops the days of samples before p_before; returns how many days went.
create function dispatch.drop_prediction_samples(p_before date) returns int language plpgsql as $$
declare
  r record;
  n int := 0;
begin
  for r in select c.relname from pg_inherits i join pg_class c on c.oid = i.inhrelid
            where i.inhparent = 'dispatch.prediction_sample'::regclass and c.relname ~ '^prediction_sample_\d{4}_\d{2}_\d{2}$'
              and to_date(substr(c.relname, 19), 'YYYY_MM_DD') < p_before loop
    execute format('drop table dispatch.%I', r.relname);
    n := n + 1;
  end loop;
  return n;
end $$;
