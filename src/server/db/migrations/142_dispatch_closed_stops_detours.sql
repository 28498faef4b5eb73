-- Closed stops and detours (src/server/dispatch/stopChanges.ts, docs/dispatch.md «Service changes»):
--   close_stop  a stop closed from active_from to active_to: on route_id, or on every route through it (route_id
--               null); the runs due there within the period expect no passage there;
--   detour      route_id's runs of a direction (direction null: both) due at stop_id within the period leave the
--               line there for path (a jsonb array of [lat, lon]) and join it again at to_stop_id; the stops
--               between are closed for them.
-- Neither names a run, so the run's columns are empty for them.
alter table dispatch.service_change drop constraint service_change_kind_check;
alter table dispatch.service_change
  add constraint service_change_kind_check check (kind in ('cancel', 'shift', 'handover', 'add', 'close_stop', 'detour'));
alter table dispatch.service_change
  alter column run_key drop not null,
  alter column route_id drop not null,
  alter column rasp_variant_id drop not null,
  alter column graph drop not null,
  alter column smena drop not null,
  alter column race_num drop not null,
  add column stop_id int,
  add column to_stop_id int,
  add column active_from timestamptz,
  add column active_to timestamptz,
  add column path jsonb,
  add constraint service_change_run_check check (kind in ('close_stop', 'detour') or (run_key is not null and route_id is not null
    and rasp_variant_id is not null and graph is not null and smena is not null and race_num is not null)),
  add constraint service_change_close_stop_check check (kind <> 'close_stop' or (stop_id is not null and active_from is not null
    and active_to is not null)),
  add constraint service_change_detour_check check (kind <> 'detour' or (route_id is not null and stop_id is not null
    and to_stop_id is not null and active_from is not null and active_to is not null and path is not null));
