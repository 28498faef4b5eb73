-- The validation import moves a file into pass.fare_transaction batch by batch inside one transaction (while the
-- next batch is read), and counts what each batch added itself: the rollup trigger would otherwise keep the
-- rows of ticket_day and vehicle_day it touched locked for the whole import, and the live validations of those
-- days would wait behind it. A transaction that sets pass.fare_rollups to 'writer' (set local) takes the rollups
-- of its validations on itself (src/server/passengers/validationMove.ts applies them just before its commit);
-- every other writer keeps the trigger's.
create or replace function pass.fare_rollup_apply() returns trigger language plpgsql as $$
begin
  if current_setting('pass.fare_rollups', true) = 'writer' then
    return null;
  end if;
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
