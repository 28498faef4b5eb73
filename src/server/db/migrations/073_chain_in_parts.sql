-- Trip chaining in parts. pass.chain_journeys chained a whole operator day in one statement (6–12 s for the
-- demo city), and the embedded engine runs one statement at a time: every request waited for it, logins
-- included. A part is the cards whose token hashes to it (a card's validations stay together, as chaining
-- needs); the caller chains the parts one statement each, then rebuilds the day's stop pairs once.

create function pass.card_part(card_token text, parts int) returns int language sql immutable parallel safe
  as $$ select (hashtext(card_token) & 2147483647) % parts $$;

create function pass.chain_journeys_part(p_day date, max_walk_m float8, transfer_minutes int, p_part int, p_parts int)
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
  return n;
end $$;

create function pass.rebuild_od_day(p_day date) returns void language sql as $$
  delete from pass.od_day where day = p_day;
  insert into pass.od_day (day, route_id, board_stop_id, alight_stop_id, journeys)
    select p_day, route_id, board_stop_id, alight_stop_id, count(*)::int from pass.journey
     where service_date = p_day and alight_stop_id is not null and route_id is not null group by 2, 3, 4;
$$;

drop function pass.chain_journeys(date, float8, int);
