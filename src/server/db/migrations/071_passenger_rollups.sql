-- Passenger flow at the scale of a large city (issue 13: 15,000,000 stop visits and 40,000,000 validations a
-- month): what the reports that read raw rows or fine rollups read instead, so that a month answers in under a second.
--   pass.stop_day      per operator day, stop and route: boardings and alightings (the stops map; stop_hour keeps
--                      the hour for the exchange by hour), kept by a statement trigger on stop_visit like the others;
--   pass.od_span       the daily stop pairs (pass.od_day) summed over aligned spans of 2, 4, 8, 16 and 32 days,
--                      kept by a statement trigger on od_day: a period is read as a few spans and single days
--                      (a month: about eight blocks of pairs instead of thirty days of them);
--   pass.transfer_day  per day, route and next route: the journeys' transfers, kept by a trigger on journey;
--   pass.route_start   per day, route and hour of the actual start: vehicles starting a race (distinct), races
--                      and vehicle-hours (rolling stock, traffic); a distinct count does not add up, so a trigger on
--                      trip_performed counts the touched route days again (a route's day is a few hundred races);
--   stop_visit (arrival, id): the registry's page in its order (newest first) read from the index, not sorted;
--   pass.local_time:   read the zone with a sub-select, which keeps PostgreSQL from inlining it, so every row of
--                      the rollup triggers and rebuilds and of the reports by hour paid a function call (half the
--                      time of a validation import); the offset is now a constant function, pass.zone_offset(),
--                      written again whenever pass.rollup_zone changes, and local_time is inlined and folded;
--   fare_transaction: the card and route indexes go (no query reads them: chaining reads a day by time, the
--                      reports the rollups), so each validation written, live or imported, updates two indexes, not four.

create function pass.write_zone_offset() returns trigger language plpgsql as $$
begin
  execute format('create or replace function pass.zone_offset() returns interval language sql immutable as $f$ select interval %L $f$',
                 coalesce((select offset_minutes from pass.rollup_zone limit 1), 0) || ' minutes');
  return null;
end $$;
create trigger rollup_zone_offset after insert or update on pass.rollup_zone for each statement execute function pass.write_zone_offset();
update pass.rollup_zone set offset_minutes = offset_minutes;
create or replace function pass.local_time(tm timestamptz) returns timestamp language sql stable as
  $$ select tm at time zone 'UTC' + pass.zone_offset() $$;

create index stop_visit_arrival_idx on pass.stop_visit (arrival, id);
drop index pass.fare_transaction_card_idx;
drop index pass.fare_transaction_route_idx;

create table pass.stop_day (
  day date not null,
  stop_id int not null,
  route_id int not null,
  boardings bigint not null default 0,
  alightings bigint not null default 0,
  primary key (day, stop_id, route_id)
);
create function pass.stop_day_apply() returns trigger language plpgsql as $$
begin
  if tg_op in ('DELETE', 'UPDATE') then
    insert into pass.stop_day as d (day, stop_id, route_id, boardings, alightings)
      select x.service_date, x.stop_id, x.route_id, -sum(x.boardings), -sum(x.alightings) from old_rows x group by 1, 2, 3
    on conflict (day, stop_id, route_id) do update set boardings = d.boardings + excluded.boardings, alightings = d.alightings + excluded.alightings;
  end if;
  if tg_op in ('INSERT', 'UPDATE') then
    insert into pass.stop_day as d (day, stop_id, route_id, boardings, alightings)
      select x.service_date, x.stop_id, x.route_id, sum(x.boardings), sum(x.alightings) from new_rows x group by 1, 2, 3
    on conflict (day, stop_id, route_id) do update set boardings = d.boardings + excluded.boardings, alightings = d.alightings + excluded.alightings;
  end if;
  return null;
end $$;
create trigger stop_visit_stop_day_insert after insert on pass.stop_visit referencing new table as new_rows
  for each statement execute function pass.stop_day_apply();
create trigger stop_visit_stop_day_update after update on pass.stop_visit referencing old table as old_rows new table as new_rows
  for each statement execute function pass.stop_day_apply();
create trigger stop_visit_stop_day_delete after delete on pass.stop_visit referencing old table as old_rows
  for each statement execute function pass.stop_day_apply();

-- The first day of the aligned span of `span` days holding `day` (spans counted from 2000-01-01; the reports
-- cut a period into these spans the same way: src/server/passengers/daySpans.ts, spanBlocks).
create function pass.span_start(day date, span int) returns date language sql immutable as
  $$ select day - (((day - date '2000-01-01') % span + span) % span) $$;

create table pass.od_span (
  span smallint not null,
  first_day date not null,
  route_id int not null,
  board_stop_id int not null,
  alight_stop_id int not null,
  journeys int not null,
  primary key (span, first_day, route_id, board_stop_id, alight_stop_id)
);
insert into pass.od_span (span, first_day, route_id, board_stop_id, alight_stop_id, journeys)
  select s.span, pass.span_start(x.day, s.span), x.route_id, x.board_stop_id, x.alight_stop_id, sum(x.journeys)
    from pass.od_day x, unnest(array[2, 4, 8, 16, 32]) s(span) group by 1, 2, 3, 4, 5;

create function pass.od_span_apply() returns trigger language plpgsql as $$
begin
  if tg_op in ('DELETE', 'UPDATE') then
    insert into pass.od_span as d (span, first_day, route_id, board_stop_id, alight_stop_id, journeys)
      select s.span, pass.span_start(x.day, s.span), x.route_id, x.board_stop_id, x.alight_stop_id, -sum(x.journeys)
        from old_rows x, unnest(array[2, 4, 8, 16, 32]) s(span) group by 1, 2, 3, 4, 5
    on conflict (span, first_day, route_id, board_stop_id, alight_stop_id) do update set journeys = d.journeys + excluded.journeys;
  end if;
  if tg_op in ('INSERT', 'UPDATE') then
    insert into pass.od_span as d (span, first_day, route_id, board_stop_id, alight_stop_id, journeys)
      select s.span, pass.span_start(x.day, s.span), x.route_id, x.board_stop_id, x.alight_stop_id, sum(x.journeys)
        from new_rows x, unnest(array[2, 4, 8, 16, 32]) s(span) group by 1, 2, 3, 4, 5
    on conflict (span, first_day, route_id, board_stop_id, alight_stop_id) do update set journeys = d.journeys + excluded.journeys;
  end if;
  return null;
end $$;
create trigger od_day_span_insert after insert on pass.od_day referencing new table as new_rows
  for each statement execute function pass.od_span_apply();
create trigger od_day_span_update after update on pass.od_day referencing old table as old_rows new table as new_rows
  for each statement execute function pass.od_span_apply();
create trigger od_day_span_delete after delete on pass.od_day referencing old table as old_rows
  for each statement execute function pass.od_span_apply();

create table pass.transfer_day (
  day date not null,
  route_id int not null,
  next_route_id int not null,
  transfers int not null,
  primary key (day, route_id, next_route_id)
);
create function pass.transfer_day_apply() returns trigger language plpgsql as $$
begin
  if tg_op in ('DELETE', 'UPDATE') then
    insert into pass.transfer_day as d (day, route_id, next_route_id, transfers)
      select x.service_date, x.route_id, x.next_route_id, -count(*) from old_rows x where x.transfer and x.route_id is not null and x.next_route_id is not null group by 1, 2, 3
    on conflict (day, route_id, next_route_id) do update set transfers = d.transfers + excluded.transfers;
  end if;
  if tg_op in ('INSERT', 'UPDATE') then
    insert into pass.transfer_day as d (day, route_id, next_route_id, transfers)
      select x.service_date, x.route_id, x.next_route_id, count(*) from new_rows x where x.transfer and x.route_id is not null and x.next_route_id is not null group by 1, 2, 3
    on conflict (day, route_id, next_route_id) do update set transfers = d.transfers + excluded.transfers;
  end if;
  return null;
end $$;
create trigger journey_transfer_insert after insert on pass.journey referencing new table as new_rows
  for each statement execute function pass.transfer_day_apply();
create trigger journey_transfer_update after update on pass.journey referencing old table as old_rows new table as new_rows
  for each statement execute function pass.transfer_day_apply();
create trigger journey_transfer_delete after delete on pass.journey referencing old table as old_rows
  for each statement execute function pass.transfer_day_apply();

create table pass.route_start (
  day date not null,
  route_id int not null,
  hour smallint not null, -- -1: no actual start
  vehicles int not null,
  trips int not null,
  timed_trips int not null, -- with an actual start and end
  vehicle_hours float8,
  primary key (day, route_id, hour)
);

-- The route days' cells from their races.
create function pass.route_start_count(keys date[], routes int[]) returns void language sql as $$
  delete from pass.route_start r using unnest(keys, routes) k(day, route_id) where r.day = k.day and r.route_id = k.route_id;
  insert into pass.route_start (day, route_id, hour, vehicles, trips, timed_trips, vehicle_hours)
    select t.service_date, t.route_id, coalesce(extract(hour from pass.local_time(t.actual_start))::int, -1), count(distinct t.vehicle_id), count(*),
           count(t.actual_end - t.actual_start), sum(extract(epoch from t.actual_end - t.actual_start)) / 3600
      from pass.trip_performed t join unnest(keys, routes) k(day, route_id) on t.service_date = k.day and t.route_id = k.route_id
     group by 1, 2, 3;
$$;

create function pass.route_start_apply() returns trigger language plpgsql as $$
declare keys date[]; routes int[];
begin
  if tg_op = 'INSERT' then
    select array_agg(day), array_agg(route_id) into keys, routes from (select distinct service_date as day, route_id from new_rows) k;
  elsif tg_op = 'DELETE' then
    select array_agg(day), array_agg(route_id) into keys, routes from (select distinct service_date as day, route_id from old_rows) k;
  else
    select array_agg(day), array_agg(route_id) into keys, routes
      from (select service_date as day, route_id from new_rows union select service_date, route_id from old_rows) k;
  end if;
  if keys is not null then perform pass.route_start_count(keys, routes); end if;
  return null;
end $$;
create trigger trip_performed_start_insert after insert on pass.trip_performed referencing new table as new_rows
  for each statement execute function pass.route_start_apply();
create trigger trip_performed_start_update after update on pass.trip_performed referencing old table as old_rows new table as new_rows
  for each statement execute function pass.route_start_apply();
create trigger trip_performed_start_delete after delete on pass.trip_performed referencing old table as old_rows
  for each statement execute function pass.route_start_apply();

-- The stop days, transfers and route starts from the rows (their first fill here; pass.rebuild_rollups after a
-- new time zone).
create function pass.rebuild_day_rollups() returns void language plpgsql as $$
begin
  truncate pass.stop_day, pass.transfer_day, pass.route_start;
  insert into pass.stop_day (day, stop_id, route_id, boardings, alightings)
    select day, stop_id, route_id, sum(boardings), sum(alightings) from pass.stop_hour group by 1, 2, 3;
  insert into pass.transfer_day (day, route_id, next_route_id, transfers)
    select service_date, route_id, next_route_id, count(*) from pass.journey
     where transfer and route_id is not null and next_route_id is not null group by 1, 2, 3;
  perform pass.route_start_count(array_agg(k.day), array_agg(k.route_id)) from (select distinct service_date as day, route_id from pass.trip_performed) k;
end $$;
select pass.rebuild_day_rollups();

-- All the rollups again (a new operator time zone): those of migration 070, then these; od_span follows od_day,
-- which the chaining writes.
alter function pass.rebuild_rollups() rename to rebuild_base_rollups;
create function pass.rebuild_rollups() returns void language plpgsql as $$
begin
  perform pass.rebuild_base_rollups();
  perform pass.rebuild_day_rollups();
end $$;
