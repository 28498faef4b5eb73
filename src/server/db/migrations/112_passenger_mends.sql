-- Passenger flow mends (docs/passengers.md).
--
-- 1. The vehicle of a validator. The validators handbook names its vehicle by depot number (migration 006);
--    the validation import, the HTTP ingestion and the simulator all read this view, never the column as it
--    is. Depot numbers need not be unique across depots: the vehicle with the lowest id is taken, as the
--    import and the ingestion take it for a depot number given in a row.
create view mgt.validator_vehicle as
  select x.validator_id, v.id as vehicle_id, v.depot_number
    from mgt.validator x
    join lateral (select ve.id, ve.depot_number from mgt.vehicles ve where ve.depot_number = x.vehicle_id order by ve.id limit 1) v on true;

-- A stop is a stop id (docs/passengers.md): where stops are shown by name, a name that several stops share
-- (the two sides of a street) is followed by the stop id, so two stops never read as one.
create view mgt.stop_label as
  select s.stop_id, case when count(*) over (partition by s.stop_name) > 1 then s.stop_name || ' (' || s.stop_id || ')' else s.stop_name end as label
    from mgt.stops s;

-- 2. The validation import adds the good rows of a file and refuses the bad ones: each refused row is kept
--    (its line, column, reason and cells) for the download of /import-data/tickets-validation, with the
--    file's header to head it.
alter table pass.import_run add column header jsonb;
create table pass.import_refusal (
  import_id int not null references pass.import_run (id) on delete cascade,
  line int not null,
  column_name text not null,
  reason text not null,
  cells jsonb not null,
  primary key (import_id, line)
);

-- 3. Trip chaining: a journey never ends where it began. The alighting stop is a later stop of the route
--    other than the boarding stop, and a card whose target (its next boarding, or its first of the day) is
--    the boarding stop itself has no inferable alighting: nothing tells where it went.
create or replace function pass.chain_journeys_part(p_day date, max_walk_m float8, transfer_minutes int, p_part int, p_parts int)
returns int language plpgsql as $$
declare n int;
begin
  delete from pass.journey where service_date = p_day and pass.card_part(card_token, p_parts) = p_part;
  insert into pass.journey (fare_transaction_id, service_date, card_token, board_tm, route_id, board_stop_id, alight_stop_id, next_route_id, transfer)
  with f as (
    select t.id, t.card_token, t.tm, t.route_id, t.stop_id,
           lead(t.stop_id) over w as next_stop, lead(t.tm) over w as next_tm, lead(t.route_id) over w as next_route,
           first_value(t.stop_id) over w as first_stop
      from pass.fare_transaction t
     where t.tm >= (p_day::timestamp - make_interval(mins => (select offset_minutes from pass.rollup_zone limit 1))) at time zone 'UTC'
       and t.tm < (p_day::timestamp + interval '1 day' - make_interval(mins => (select offset_minutes from pass.rollup_zone limit 1))) at time zone 'UTC'
       and pass.card_part(t.card_token, p_parts) = p_part
    window w as (partition by t.card_token order by t.tm, t.id)
  ),
  -- each distinct (route, boarding stop, target) once: far fewer than the validations
  pairs as (select distinct f.route_id, f.stop_id, coalesce(f.next_stop, f.first_stop) as target from f where f.stop_id is not null and f.route_id is not null),
  alight as (
    select p.route_id, p.stop_id, p.target,
           case when p.target <> p.stop_id then
           (select ts.stop_id
              from mgt.marsh_variants mv
              join mgt.trip tr on tr."MarshVariant_id" = mv.id
              join mgt.trip_stops b on b.trip_id = tr.id and b.stop_id = p.stop_id
              join mgt.trip_stops ts on ts.trip_id = tr.id and ts.stop_sequence > b.stop_sequence
              join mgt.stops s on s.stop_id = ts.stop_id
              join mgt.stops target on target.stop_id = p.target
             where mv.route_id = p.route_id
               and ts.stop_id <> p.stop_id
               and st_distancesphere(s.geom, target.geom) <= max_walk_m
             order by st_distancesphere(s.geom, target.geom), ts.stop_sequence
             limit 1) end as stop_id_out
      from pairs p
  )
  select f.id, p_day, f.card_token, f.tm, f.route_id, f.stop_id, a.stop_id_out, f.next_route,
         coalesce(f.next_route is not null and f.next_route <> f.route_id and f.next_tm - f.tm <= make_interval(mins => transfer_minutes), false)
    from f
    join alight a on a.route_id = f.route_id and a.stop_id = f.stop_id and a.target = coalesce(f.next_stop, f.first_stop);
  get diagnostics n = row_count;
  return n;
end $$;

-- journeys chained before this rule: a pair of a stop with itself is no journey's end
update pass.journey set alight_stop_id = null where alight_stop_id = board_stop_id;
delete from pass.od_day where alight_stop_id = board_stop_id;
