-- Passenger flow (issue 13), after TIDES (the open standard for transit ridership data):
--   pass.trip_performed   TIDES trips_performed: one row per race a vehicle ran (its schedule start is its key);
--   pass.stop_visit       TIDES stop_visits: boardings, alightings, departure load (raw, kept even when
--                         negative, as TIDES says), arrival and departure times, the distance to the next stop;
--   pass.counter_report   the raw per-door counts as counters send them (the duplicate rule: vehicle, door, time);
--   pass.fare_transaction TIDES fare_transactions: validations (time, validator, vehicle, stop, ticket type, card token);
--   pass.journey          TIDES passenger_events chained into journeys: one row per validation with the alighting
--                         stop inferred by trip chaining (the card's next boarding), and the transfer it made;
--   daily and hourly rollups kept exact by statement triggers whoever writes (ingestion, simulator, import, psql);
--   pass.plan_hour        the plan (vehicle tasks × schedule) per route and hour: trips and vehicles planned;
--   pass.import_run       the validation imports' history (who, when, file, added, skipped, refused).
-- Days and hours are the operator's (pass.rollup_zone, set by the server from OPERATOR_TZ_OFFSET_MINUTES).
create schema if not exists pass;

create table pass.rollup_zone (offset_minutes int not null);
insert into pass.rollup_zone values (180);

create function pass.local_time(tm timestamptz) returns timestamp language sql stable as
  $$ select tm at time zone 'UTC' + make_interval(mins => (select offset_minutes from pass.rollup_zone limit 1)) $$;

create table pass.trip_performed (
  id bigserial primary key,
  service_date date not null,
  vehicle_id int not null,
  route_id int not null,
  direction smallint not null default 0 check (direction in (0, 1)),
  trip_id int,
  race_num int,
  schedule_start timestamptz not null,
  actual_start timestamptz,
  actual_end timestamptz,
  stops int not null default 0,
  km real not null default 0,
  counted boolean not null default false,
  -- the trip's counts summed (the registry's data-quality flags read them instead of every visit)
  boardings int not null default 0,
  alightings int not null default 0,
  unique (vehicle_id, schedule_start)
);
create index trip_performed_day_idx on pass.trip_performed (service_date, route_id);

create table pass.stop_visit (
  id bigserial primary key,
  trip_performed_id bigint not null references pass.trip_performed (id) on delete cascade,
  service_date date not null,
  vehicle_id int not null,
  route_id int not null,
  direction smallint not null default 0,
  stop_id int not null,
  stop_sequence int not null,
  arrival timestamptz not null,
  departure timestamptz not null,
  boardings int not null default 0,
  alightings int not null default 0,
  departure_load int not null default 0,
  km_to_next real not null default 0,
  unique (trip_performed_id, stop_sequence)
);
create index stop_visit_day_idx on pass.stop_visit (service_date, route_id, direction);
create index stop_visit_stop_idx on pass.stop_visit (stop_id, service_date);

create table pass.counter_report (
  vehicle_id int not null,
  door smallint not null,
  tm timestamptz not null,
  boardings int not null,
  alightings int not null,
  stop_visit_id bigint,
  source_id int,
  primary key (vehicle_id, door, tm)
);

create table pass.fare_transaction (
  id bigserial primary key,
  tm timestamptz not null,
  validator_id int not null default 0,
  vehicle_id int,
  depot_number int,
  route_id int,
  direction smallint,
  stop_id int,
  trip_performed_id bigint,
  ticket_type_id int not null,
  card_token text not null,
  source text not null default 'validator' check (source in ('validator', 'import', 'simulator')),
  import_id int
);
-- A validation is its time, validator and card: a resent batch or a re-imported file adds nothing.
create unique index fare_transaction_once_idx on pass.fare_transaction (tm, validator_id, card_token);
create index fare_transaction_card_idx on pass.fare_transaction (card_token, tm);
create index fare_transaction_route_idx on pass.fare_transaction (route_id, tm);

create table pass.journey (
  fare_transaction_id bigint primary key,
  service_date date not null,
  card_token text not null,
  board_tm timestamptz not null,
  route_id int,
  board_stop_id int,
  alight_stop_id int,
  next_route_id int,
  transfer boolean not null default false
);
create index journey_day_idx on pass.journey (service_date, route_id);

-- Journeys per day, route and stop pair (the matrix between stops and districts reads these, not every journey);
-- written with the day's journeys by pass.chain_journeys.
create table pass.od_day (
  day date not null,
  route_id int not null,
  board_stop_id int not null,
  alight_stop_id int not null,
  journeys int not null,
  primary key (day, route_id, board_stop_id, alight_stop_id)
);

create table pass.plan_hour (
  day date not null,
  hour smallint not null,
  route_id int not null,
  trips int not null default 0,
  vehicles int not null default 0,
  primary key (day, hour, route_id)
);

create table pass.import_run (
  id serial primary key,
  at timestamptz not null default now(),
  user_id int,
  username text,
  file text not null,
  rows int not null default 0,
  added int not null default 0,
  skipped int not null default 0,
  refused int not null default 0,
  status text not null check (status in ('done', 'refused')),
  message text
);

-- Rollups. route_hour: per operator day, hour, route and direction (passage, analysis, passturn by route).
create table pass.route_hour (
  day date not null,
  hour smallint not null,
  route_id int not null,
  direction smallint not null,
  boardings bigint not null default 0,
  alightings bigint not null default 0,
  pkm float8 not null default 0,
  visits int not null default 0,
  load_max int not null default 0,
  primary key (day, hour, route_id, direction)
);
-- stop_hour: per day, hour, stop and route (stops, turnstops).
create table pass.stop_hour (
  day date not null,
  hour smallint not null,
  stop_id int not null,
  route_id int not null,
  boardings bigint not null default 0,
  alightings bigint not null default 0,
  primary key (day, hour, stop_id, route_id)
);
-- vehicle_day: per day, vehicle and route (passturn by vehicle, daily data, dist-rolling-stock, analysis).
create table pass.vehicle_day (
  day date not null,
  vehicle_id int not null,
  route_id int not null,
  trips int not null default 0,
  counted_trips int not null default 0,
  km float8 not null default 0,
  run_minutes float8 not null default 0,
  boardings bigint not null default 0,
  pkm float8 not null default 0,
  validations bigint not null default 0,
  load_max int not null default 0,
  primary key (day, vehicle_id, route_id)
);
-- ticket_day: validations per day, route and ticket type (pay).
create table pass.ticket_day (
  day date not null,
  route_id int not null, -- 0: matched to no route
  ticket_type_id int not null,
  validations bigint not null default 0,
  primary key (day, route_id, ticket_type_id)
);

-- stop_visit → route_hour, stop_hour, vehicle_day (old rows subtracted, new rows added)
create function pass.visit_rollup_apply() returns trigger language plpgsql as $$
begin
  if tg_op in ('DELETE', 'UPDATE') then
    insert into pass.route_hour as d (day, hour, route_id, direction, boardings, alightings, pkm, visits)
      select x.service_date, extract(hour from pass.local_time(x.departure))::int, x.route_id, x.direction,
             -sum(x.boardings), -sum(x.alightings), -sum(x.departure_load * x.km_to_next::float8), -count(*)::int
        from old_rows x group by 1, 2, 3, 4
    on conflict (day, hour, route_id, direction) do update set boardings = d.boardings + excluded.boardings,
      alightings = d.alightings + excluded.alightings, pkm = d.pkm + excluded.pkm, visits = d.visits + excluded.visits;
    insert into pass.stop_hour as d (day, hour, stop_id, route_id, boardings, alightings)
      select x.service_date, extract(hour from pass.local_time(x.departure))::int, x.stop_id, x.route_id, -sum(x.boardings), -sum(x.alightings)
        from old_rows x group by 1, 2, 3, 4
    on conflict (day, hour, stop_id, route_id) do update set boardings = d.boardings + excluded.boardings, alightings = d.alightings + excluded.alightings;
    insert into pass.vehicle_day as d (day, vehicle_id, route_id, boardings, pkm)
      select x.service_date, x.vehicle_id, x.route_id, -sum(x.boardings), -sum(x.departure_load * x.km_to_next::float8)
        from old_rows x group by 1, 2, 3
    on conflict (day, vehicle_id, route_id) do update set boardings = d.boardings + excluded.boardings, pkm = d.pkm + excluded.pkm;
  end if;
  if tg_op in ('INSERT', 'UPDATE') then
    insert into pass.route_hour as d (day, hour, route_id, direction, boardings, alightings, pkm, visits, load_max)
      select x.service_date, extract(hour from pass.local_time(x.departure))::int, x.route_id, x.direction,
             sum(x.boardings), sum(x.alightings), sum(x.departure_load * x.km_to_next::float8), count(*)::int, max(x.departure_load)
        from new_rows x group by 1, 2, 3, 4
    on conflict (day, hour, route_id, direction) do update set boardings = d.boardings + excluded.boardings,
      alightings = d.alightings + excluded.alightings, pkm = d.pkm + excluded.pkm, visits = d.visits + excluded.visits,
      load_max = greatest(d.load_max, excluded.load_max);
    insert into pass.stop_hour as d (day, hour, stop_id, route_id, boardings, alightings)
      select x.service_date, extract(hour from pass.local_time(x.departure))::int, x.stop_id, x.route_id, sum(x.boardings), sum(x.alightings)
        from new_rows x group by 1, 2, 3, 4
    on conflict (day, hour, stop_id, route_id) do update set boardings = d.boardings + excluded.boardings, alightings = d.alightings + excluded.alightings;
    insert into pass.vehicle_day as d (day, vehicle_id, route_id, boardings, pkm, load_max)
      select x.service_date, x.vehicle_id, x.route_id, sum(x.boardings), sum(x.departure_load * x.km_to_next::float8), max(x.departure_load)
        from new_rows x group by 1, 2, 3
    on conflict (day, vehicle_id, route_id) do update set boardings = d.boardings + excluded.boardings, pkm = d.pkm + excluded.pkm,
      load_max = greatest(d.load_max, excluded.load_max);
  end if;
  return null;
end $$;
create trigger stop_visit_rollup_insert after insert on pass.stop_visit referencing new table as new_rows
  for each statement execute function pass.visit_rollup_apply();
create trigger stop_visit_rollup_update after update on pass.stop_visit referencing old table as old_rows new table as new_rows
  for each statement execute function pass.visit_rollup_apply();
create trigger stop_visit_rollup_delete after delete on pass.stop_visit referencing old table as old_rows
  for each statement execute function pass.visit_rollup_apply();

-- trip_performed → vehicle_day (trips, counted trips, km, run minutes)
create function pass.trip_rollup_apply() returns trigger language plpgsql as $$
begin
  if tg_op in ('DELETE', 'UPDATE') then
    insert into pass.vehicle_day as d (day, vehicle_id, route_id, trips, counted_trips, km, run_minutes)
      select x.service_date, x.vehicle_id, x.route_id, -count(*)::int, -count(*) filter (where x.counted)::int, -sum(x.km)::float8,
             -coalesce(sum(extract(epoch from x.actual_end - x.actual_start) / 60), 0)::float8
        from old_rows x group by 1, 2, 3
    on conflict (day, vehicle_id, route_id) do update set trips = d.trips + excluded.trips, counted_trips = d.counted_trips + excluded.counted_trips,
      km = d.km + excluded.km, run_minutes = d.run_minutes + excluded.run_minutes;
  end if;
  if tg_op in ('INSERT', 'UPDATE') then
    insert into pass.vehicle_day as d (day, vehicle_id, route_id, trips, counted_trips, km, run_minutes)
      select x.service_date, x.vehicle_id, x.route_id, count(*)::int, count(*) filter (where x.counted)::int, sum(x.km)::float8,
             coalesce(sum(extract(epoch from x.actual_end - x.actual_start) / 60), 0)::float8
        from new_rows x group by 1, 2, 3
    on conflict (day, vehicle_id, route_id) do update set trips = d.trips + excluded.trips, counted_trips = d.counted_trips + excluded.counted_trips,
      km = d.km + excluded.km, run_minutes = d.run_minutes + excluded.run_minutes;
  end if;
  return null;
end $$;
create trigger trip_performed_rollup_insert after insert on pass.trip_performed referencing new table as new_rows
  for each statement execute function pass.trip_rollup_apply();
create trigger trip_performed_rollup_update after update on pass.trip_performed referencing old table as old_rows new table as new_rows
  for each statement execute function pass.trip_rollup_apply();
create trigger trip_performed_rollup_delete after delete on pass.trip_performed referencing old table as old_rows
  for each statement execute function pass.trip_rollup_apply();

-- fare_transaction → ticket_day, vehicle_day (validations)
create function pass.fare_rollup_apply() returns trigger language plpgsql as $$
begin
  if tg_op in ('DELETE', 'UPDATE') then
    insert into pass.ticket_day as d (day, route_id, ticket_type_id, validations)
      select pass.local_time(x.tm)::date, coalesce(x.route_id, 0), x.ticket_type_id, -count(*) from old_rows x group by 1, 2, 3
    on conflict (day, route_id, ticket_type_id) do update set validations = d.validations + excluded.validations;
    insert into pass.vehicle_day as d (day, vehicle_id, route_id, validations)
      select pass.local_time(x.tm)::date, x.vehicle_id, coalesce(x.route_id, 0), -count(*) from old_rows x where x.vehicle_id is not null group by 1, 2, 3
    on conflict (day, vehicle_id, route_id) do update set validations = d.validations + excluded.validations;
  end if;
  if tg_op in ('INSERT', 'UPDATE') then
    insert into pass.ticket_day as d (day, route_id, ticket_type_id, validations)
      select pass.local_time(x.tm)::date, coalesce(x.route_id, 0), x.ticket_type_id, count(*) from new_rows x group by 1, 2, 3
    on conflict (day, route_id, ticket_type_id) do update set validations = d.validations + excluded.validations;
    insert into pass.vehicle_day as d (day, vehicle_id, route_id, validations)
      select pass.local_time(x.tm)::date, x.vehicle_id, coalesce(x.route_id, 0), count(*) from new_rows x where x.vehicle_id is not null group by 1, 2, 3
    on conflict (day, vehicle_id, route_id) do update set validations = d.validations + excluded.validations;
  end if;
  return null;
end $$;
create trigger fare_transaction_rollup_insert after insert on pass.fare_transaction referencing new table as new_rows
  for each statement execute function pass.fare_rollup_apply();
create trigger fare_transaction_rollup_update after update on pass.fare_transaction referencing old table as old_rows new table as new_rows
  for each statement execute function pass.fare_rollup_apply();
create trigger fare_transaction_rollup_delete after delete on pass.fare_transaction referencing old table as old_rows
  for each statement execute function pass.fare_rollup_apply();

-- The plan of a day from its vehicle tasks and schedule times (a real installation's plan; the simulator writes
-- its own): per route and operator hour, the races starting in it and the vehicles starting one.
create function pass.plan_day(p_day date) returns int language plpgsql as $$
declare n int;
begin
  delete from pass.plan_hour where day = p_day;
  insert into pass.plan_hour (day, hour, route_id, trips, vehicles)
  select p_day, (r.first / 60) % 24, r.route_id, count(*)::int, count(distinct r.vehicle_id)::int
    from (select vt.vehicle_id, rv.route_id, min(t.time) as first
            from mgt.vehicle_task vt
            join mgt.rasp_variant rv on rv.id = vt."RaspVariant_id"
            join mgt.rasp_time t on t."RaspVariant_id" = vt."RaspVariant_id" and t.graph = vt.graph and t.smena = vt.smena
           where vt.date = p_day
           group by vt.id, vt.vehicle_id, rv.route_id, t.racenum) r
   group by 1, 2, 3;
  get diagnostics n = row_count;
  return n;
end $$;

-- The rollups again from the rows (a new operator time zone moves every row's day and hour).
create function pass.rebuild_rollups() returns void language plpgsql as $$
begin
  truncate pass.route_hour, pass.stop_hour, pass.vehicle_day, pass.ticket_day;
  insert into pass.route_hour (day, hour, route_id, direction, boardings, alightings, pkm, visits, load_max)
    select service_date, extract(hour from pass.local_time(departure))::int, route_id, direction, sum(boardings), sum(alightings),
           sum(departure_load * km_to_next::float8), count(*)::int, max(departure_load)
      from pass.stop_visit group by 1, 2, 3, 4;
  insert into pass.stop_hour (day, hour, stop_id, route_id, boardings, alightings)
    select service_date, extract(hour from pass.local_time(departure))::int, stop_id, route_id, sum(boardings), sum(alightings)
      from pass.stop_visit group by 1, 2, 3, 4;
  insert into pass.vehicle_day as d (day, vehicle_id, route_id, boardings, pkm, load_max)
    select service_date, vehicle_id, route_id, sum(boardings), sum(departure_load * km_to_next::float8), max(departure_load)
      from pass.stop_visit group by 1, 2, 3;
  insert into pass.vehicle_day as d (day, vehicle_id, route_id, trips, counted_trips, km, run_minutes)
    select service_date, vehicle_id, route_id, count(*)::int, count(*) filter (where counted)::int, sum(km)::float8,
           coalesce(sum(extract(epoch from actual_end - actual_start) / 60), 0)::float8
      from pass.trip_performed group by 1, 2, 3
  on conflict (day, vehicle_id, route_id) do update set trips = excluded.trips, counted_trips = excluded.counted_trips, km = excluded.km, run_minutes = excluded.run_minutes;
  insert into pass.ticket_day (day, route_id, ticket_type_id, validations)
    select pass.local_time(tm)::date, coalesce(route_id, 0), ticket_type_id, count(*) from pass.fare_transaction group by 1, 2, 3;
  insert into pass.vehicle_day as d (day, vehicle_id, route_id, validations)
    select pass.local_time(tm)::date, vehicle_id, coalesce(route_id, 0), count(*) from pass.fare_transaction where vehicle_id is not null group by 1, 2, 3
  on conflict (day, vehicle_id, route_id) do update set validations = excluded.validations;
end $$;

-- Departure loads of the given trips from their counts: the running sum of boardings less alightings in stop
-- order, raw (a counter that misses alightings makes it drift; a negative load is kept, as TIDES keeps it).
create function pass.refresh_loads(trip_ids bigint[]) returns void language sql as $$
  update pass.stop_visit v set departure_load = s.load
    from (select id, (sum(boardings - alightings) over (partition by trip_performed_id order by stop_sequence))::int as load
            from pass.stop_visit where trip_performed_id = any(trip_ids)) s
   where v.id = s.id and v.departure_load is distinct from s.load;
  update pass.trip_performed t set boardings = s.b, alightings = s.a
    from (select trip_performed_id, sum(boardings)::int as b, sum(alightings)::int as a from pass.stop_visit
           where trip_performed_id = any(trip_ids) group by trip_performed_id) s
   where t.id = s.trip_performed_id and (t.boardings, t.alightings) is distinct from (s.b, s.a);
$$;

-- Trip chaining (TIDES passenger journeys) for one operator day: a validation's alighting stop is the stop of
-- its route and direction, after the boarding stop, nearest to where the same card boards next (the day's
-- first boarding for its last ride: people go home), if within max_walk_m; the next boarding on another route
-- within transfer_minutes of this boarding is a transfer (the fare systems' transfer window). The stops after the boarding one come from
-- the route's trips (handbook trip stops).
create function pass.chain_journeys(p_day date, max_walk_m float8, transfer_minutes int) returns int language plpgsql as $$
declare n int;
begin
  delete from pass.journey where service_date = p_day;
  insert into pass.journey (fare_transaction_id, service_date, card_token, board_tm, route_id, board_stop_id, alight_stop_id, next_route_id, transfer)
  with f as (
    select t.id, t.card_token, t.tm, t.route_id, t.stop_id,
           lead(t.stop_id) over w as next_stop, lead(t.tm) over w as next_tm, lead(t.route_id) over w as next_route,
           first_value(t.stop_id) over w as first_stop
      from pass.fare_transaction t
     where t.tm >= (p_day::timestamp - make_interval(mins => (select offset_minutes from pass.rollup_zone limit 1))) at time zone 'UTC'
       and t.tm < (p_day::timestamp + interval '1 day' - make_interval(mins => (select offset_minutes from pass.rollup_zone limit 1))) at time zone 'UTC'
    window w as (partition by t.card_token order by t.tm, t.id)
  ),
  -- each distinct (route, boarding stop, target) once: far fewer than the validations
  pairs as (select distinct f.route_id, f.stop_id, coalesce(f.next_stop, f.first_stop) as target from f where f.stop_id is not null and f.route_id is not null),
  alight as (
    select p.route_id, p.stop_id, p.target,
           (select ts.stop_id
              from mgt.marsh_variants mv
              join mgt.trip tr on tr."MarshVariant_id" = mv.id
              join mgt.trip_stops b on b.trip_id = tr.id and b.stop_id = p.stop_id
              join mgt.trip_stops ts on ts.trip_id = tr.id and ts.stop_sequence > b.stop_sequence
              join mgt.stops s on s.stop_id = ts.stop_id
              join mgt.stops target on target.stop_id = p.target
             where mv.route_id = p.route_id
               and st_distancesphere(s.geom, target.geom) <= max_walk_m
             order by st_distancesphere(s.geom, target.geom), ts.stop_sequence
             limit 1) as stop_id_out
      from pairs p
  )
  select f.id, p_day, f.card_token, f.tm, f.route_id, f.stop_id, a.stop_id_out, f.next_route,
         coalesce(f.next_route is not null and f.next_route <> f.route_id and f.next_tm - f.tm <= make_interval(mins => transfer_minutes), false)
    from f
    join alight a on a.route_id = f.route_id and a.stop_id = f.stop_id and a.target = coalesce(f.next_stop, f.first_stop);
  get diagnostics n = row_count;
  delete from pass.od_day where day = p_day;
  insert into pass.od_day (day, route_id, board_stop_id, alight_stop_id, journeys)
    select p_day, route_id, board_stop_id, alight_stop_id, count(*)::int from pass.journey
     where service_date = p_day and alight_stop_id is not null and route_id is not null group by 2, 3, 4;
  return n;
end $$;
