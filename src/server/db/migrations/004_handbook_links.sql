-- Handbooks the spec names but does not detail (schemas/routestop.ts, schemas/rasptimelink.ts say why they
-- are shaped so), and the assign-or-replace procedure of the vehicle assignment import (spec section 3,
-- Vehicle_Task: "Import uses the assign-or-replace-vehicles procedure").

-- Route-stop link: the stops a route serves, per direction (0 forward, 1 backward), in order.
create table mgt.route_stop (
  id serial primary key,
  route_id int not null references mgt.routes (route_id) on delete cascade,
  direction smallint not null default 0 check (direction in (0, 1)),
  stop_order int not null check (stop_order >= 0),
  stop_id int not null references mgt.stops (stop_id),
  unique (route_id, direction, stop_order)
);
create index route_stop_stop_idx on mgt.route_stop (stop_id);

-- Schedule-time link: the work graphic type an exit and shift of a schedule variant is worked by.
create table mgt.rasp_time_link (
  id serial primary key,
  "RaspVariant_id" int not null references mgt.rasp_variant (id) on delete cascade,
  graph int not null,
  smena text not null,
  graphic_type_id int not null references cat.work_graphic_type (id),
  unique ("RaspVariant_id", graph, smena)
);
create index rasp_time_link_graphic_idx on mgt.rasp_time_link (graphic_type_id);

-- Assigns a vehicle to an exit of a route on a date, or, when another vehicle already holds that exit and
-- shift, records the replacement from start_time on. Returns 'assigned', 'replaced' or 'unchanged'.
-- Refusals raise a message code (route_not_found, variant_not_found, vehicle_not_found, exit_not_found,
-- driver_not_found) the import reports against the row.
--   The schedule variant is the route's variant in force on the date for that day of week (a holiday of
--   the route, or of all routes, runs the day of week it names); the shift is the one of that exit whose
--   schedule times overlap [start_time, end_time] the most; a new assignment keeps the driver the vehicle
--   had last, else the driver last on that exit and shift, else the first driver of the vehicle's branch.
create or replace function mgt.assign_or_replace_vehicle(
  p_date date, p_route_number text, p_grafic int, p_depot_number int, p_start_time int, p_end_time int
) returns text language plpgsql as $$
declare
  v_route mgt.routes%rowtype;
  v_dow int;
  v_variant int;
  v_vehicle mgt.vehicles%rowtype;
  v_smena text;
  v_task mgt.vehicle_task%rowtype;
  v_driver int;
begin
  select * into v_route from mgt.routes r
   where r.route_short_name = p_route_number
   order by (coalesce(r.startdate, p_date) <= p_date and coalesce(r.enddate, p_date) >= p_date) desc, r.route_id
   limit 1;
  if not found then raise exception 'route_not_found'; end if;

  select coalesce(h.dow, extract(dow from p_date)::int) into v_dow from mgt.holidays h
   where h.date = p_date and (h.route_id = v_route.route_id or h.route_id is null)
   order by (h.route_id is null), h.id limit 1;
  if not found then v_dow := extract(dow from p_date)::int; end if;

  select v.id into v_variant from mgt.rasp_variant v
   where v.route_id = v_route.route_id and v.startdate <= p_date and (v.enddate is null or v.enddate >= p_date)
     and (v.dow is null or v.dow = v_dow)
   order by (v.dow is null), v.startdate desc, v.id desc limit 1;
  if v_variant is null then raise exception 'variant_not_found'; end if;

  select * into v_vehicle from mgt.vehicles ve where ve.depot_number = p_depot_number
   order by (ve.depot_id is not distinct from v_route."Depot_id") desc, ve.id limit 1;
  if not found then raise exception 'vehicle_not_found'; end if;

  select t.smena into v_smena from mgt.rasp_time t
   where t."RaspVariant_id" = v_variant and t.graph = p_grafic
   group by t.smena
   order by greatest(0, least(max(t.time), coalesce(p_end_time, max(t.time))) - greatest(min(t.time), coalesce(p_start_time, min(t.time)))) desc, t.smena
   limit 1;
  if v_smena is null then raise exception 'exit_not_found'; end if;

  select * into v_task from mgt.vehicle_task k
   where k.date = p_date and k."RaspVariant_id" = v_variant and k.graph = p_grafic and k.smena = v_smena
   order by k.id limit 1;

  if found then
    if v_task.vehicle_id = v_vehicle.id then return 'unchanged'; end if;
    update mgt.replace_vehicle r set replace_vehicle_id = v_vehicle.id, starttime = coalesce(p_start_time, 0)
     where r.date = p_date and r."RaspVariant_id" = v_variant and r.graph = p_grafic and r.smena = v_smena
       and r.vehicle_id = v_task.vehicle_id;
    if not found then
      insert into mgt.replace_vehicle (date, "RaspVariant_id", graph, smena, vehicle_id, replace_vehicle_id, driver_id, starttime)
      values (p_date, v_variant, p_grafic, v_smena, v_task.vehicle_id, v_vehicle.id, v_task.driver_id, coalesce(p_start_time, 0));
    end if;
    return 'replaced';
  end if;

  select k.driver_id into v_driver from mgt.vehicle_task k
   where k.vehicle_id = v_vehicle.id and k.date <= p_date order by k.date desc, k.id desc limit 1;
  if v_driver is null then
    select k.driver_id into v_driver from mgt.vehicle_task k join mgt.rasp_variant v on v.id = k."RaspVariant_id"
     where v.route_id = v_route.route_id and k.graph = p_grafic and k.smena = v_smena and k.date <= p_date
     order by k.date desc, k.id desc limit 1;
  end if;
  if v_driver is null then
    select d.driver_id into v_driver from mgt.driver d
     where d.depot_id is not distinct from v_vehicle.depot_id and (d.end_date is null or d.end_date >= p_date)
     order by d.table_number, d.driver_id limit 1;
  end if;
  if v_driver is null then raise exception 'driver_not_found'; end if;

  insert into mgt.vehicle_task (date, "RaspVariant_id", graph, smena, vehicle_id, driver_id)
  values (p_date, v_variant, p_grafic, v_smena, v_vehicle.id, v_driver);
  return 'assigned';
end;
$$;

-- Staging tables of handbook imports (src/server/handbooks/importStage.ts): a file is validated into one of
-- these outside any transaction, then applied to its handbook in one transaction, so a long upload holds
-- no lock and a bad file leaves the handbook untouched.
create schema if not exists import_stage;
