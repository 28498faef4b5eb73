-- More same-day service control (src/server/dispatch/serviceChanges.ts, docs/dispatch.md «Service changes»):
--   handover  an exit handed over to another vehicle from a time on (a breakdown): run_key names the run it is
--             handed over on (the exit's current or next run), vehicle_id the vehicle taking it, from_vehicle_id
--             the one giving it up, effective_at the time;
--   add       a run added to the day: run_key is its own key (date|variant|0|+id|1), the stop times copied from
--             template_run_key (the route's run of that direction closest in time) moved to start_at; vehicle_id
--             the vehicle tasked with it, if any.
alter table dispatch.service_change drop constraint service_change_kind_check;
alter table dispatch.service_change add constraint service_change_kind_check check (kind in ('cancel', 'shift', 'handover', 'add'));
alter table dispatch.service_change
  add column vehicle_id int,
  add column from_vehicle_id int,
  add column effective_at timestamptz,
  add column direction smallint,
  add column start_at timestamptz,
  add column template_run_key text,
  add constraint service_change_handover_check check (kind <> 'handover' or (vehicle_id is not null and effective_at is not null)),
  add constraint service_change_add_check check (kind <> 'add' or (start_at is not null and template_run_key is not null and direction is not null));

-- A message to an exit: target_id is the route, graph the exit's number; the vehicle working it gets it.
alter table dispatch.driver_message drop constraint driver_message_target_check;
alter table dispatch.driver_message add constraint driver_message_target_check check (target in ('vehicle', 'exit', 'route', 'depot', 'all'));
alter table dispatch.driver_message add column graph int;
