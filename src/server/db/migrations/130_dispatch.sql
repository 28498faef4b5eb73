-- The live timetable (src/server/dispatch/, docs/dispatch.md).
--   dispatch.stop_passage  TIDES stop_visits as the engine detects them: per service date, vehicle, run (schedule
--                          variant, exit, shift, race) and stop of the run, the scheduled and actual arrival and
--                          departure. Partitioned by service date, a month a partition, made by the writer as
--                          dates come (dispatch.ensure_passage_partition); old months go as whole partitions.
--   dispatch.segment_time  learned run times between consecutive stops (departure to arrival), medians by day type
--                          (0 workday, 1 Saturday, 2 Sunday or holiday) and operator hour; hour 24 is the whole day's;
--   dispatch.dwell_time    learned dwell times at stops, the same way. Both rebuilt by dispatch.learn_times().
create schema if not exists dispatch;

create table dispatch.stop_passage (
  service_date date not null,
  vehicle_id int not null,
  route_id int not null,
  direction smallint not null,
  rasp_variant_id int not null,
  graph int not null,
  smena text not null,
  race_num int not null,
  trip_id int,
  stop_id int not null,
  stop_sequence int not null,
  day_type smallint not null check (day_type between 0 and 2),
  schedule_arrival timestamptz not null,
  schedule_departure timestamptz not null,
  actual_arrival timestamptz,
  actual_departure timestamptz,
  -- passed between two fixes with none near the stop: both times interpolated
  interpolated boolean not null default false,
  primary key (service_date, rasp_variant_id, graph, smena, race_num, stop_sequence, vehicle_id)
) partition by range (service_date);
create index stop_passage_route_idx on dispatch.stop_passage (service_date, route_id, direction);
create index stop_passage_stop_idx on dispatch.stop_passage (stop_id, service_date);

-- The month's partition of a date, made when the first passage of the month is written.
create function dispatch.ensure_passage_partition(p_date date) returns void language plpgsql as $$
declare
  v_from date := date_trunc('month', p_date)::date;
  v_name text := format('stop_passage_%s', to_char(p_date, 'YYYY_MM'));
begin
  if to_regclass('dispatch.' || v_name) is null then
    execute format('create table if not exists dispatch.%I partition of dispatch.stop_passage for values from (%L) to (%L)',
      v_name, v_from, (v_from + interval '1 month')::date);
  end if;
end $$;

create table dispatch.segment_time (
  from_stop_id int not null,
  to_stop_id int not null,
  day_type smallint not null,
  hour smallint not null check (hour between 0 and 24),
  samples int not null,
  run_seconds real not null,
  primary key (from_stop_id, to_stop_id, day_type, hour)
);

create table dispatch.dwell_time (
  stop_id int not null,
  day_type smallint not null,
  hour smallint not null check (hour between 0 and 24),
  samples int not null,
  dwell_seconds real not null,
  primary key (stop_id, day_type, hour)
);

-- Rebuilds the learned times from the passages of the last p_days days (hours local at p_offset_minutes): medians,
-- so a vehicle stuck once does not move the figure; interpolated passages are left out (they carry no dwell and
-- spread a gap evenly), and so are pairs a vehicle took longer than an hour over (a breakdown, not a run time).
create function dispatch.learn_times(p_today date, p_days int, p_offset_minutes int) returns int language plpgsql as $$
declare n int;
begin
  delete from dispatch.segment_time;
  insert into dispatch.segment_time (from_stop_id, to_stop_id, day_type, hour, samples, run_seconds)
  select from_stop, to_stop, day_type, coalesce(hour, 24), count(*)::int, percentile_cont(0.5) within group (order by run_s)
    from (select p.stop_id as from_stop, lead(p.stop_id) over w as to_stop, p.day_type,
                 extract(hour from p.actual_departure at time zone 'UTC' + make_interval(mins => p_offset_minutes))::int as hour,
                 extract(epoch from lead(p.actual_arrival) over w - p.actual_departure) as run_s,
                 p.interpolated or coalesce(lead(p.interpolated) over w, true) as interpolated
            from dispatch.stop_passage p
           where p.service_date > p_today - p_days and p.service_date <= p_today
          window w as (partition by p.service_date, p.vehicle_id, p.rasp_variant_id, p.graph, p.smena, p.race_num order by p.stop_sequence)) pairs
   where to_stop is not null and run_s between 0 and 3600 and not interpolated
   group by grouping sets ((from_stop, to_stop, day_type, hour), (from_stop, to_stop, day_type));
  get diagnostics n = row_count;

  delete from dispatch.dwell_time;
  insert into dispatch.dwell_time (stop_id, day_type, hour, samples, dwell_seconds)
  select stop_id, day_type, coalesce(hour, 24), count(*)::int, percentile_cont(0.5) within group (order by dwell_s)
    from (select p.stop_id, p.day_type,
                 extract(hour from p.actual_arrival at time zone 'UTC' + make_interval(mins => p_offset_minutes))::int as hour,
                 extract(epoch from p.actual_departure - p.actual_arrival) as dwell_s
            from dispatch.stop_passage p
           where p.service_date > p_today - p_days and p.service_date <= p_today and not p.interpolated
             and p.actual_arrival is not null and p.actual_departure is not null) d
   where dwell_s between 0 and 900
   group by grouping sets ((stop_id, day_type, hour), (stop_id, day_type));
  return n;
end $$;
