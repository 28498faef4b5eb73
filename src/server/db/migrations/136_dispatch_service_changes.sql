-- Same-day service changes of the live timetable (src/server/dispatch/serviceChanges.ts, docs/dispatch.md
-- «Service changes»): a run of the day cancelled, or its start moved by minutes, each with its author, reason and
-- time. A change is revoked rather than deleted (the run restored), so the day's record stays whole. The engine
-- reads the active changes of the days it holds; the user-actions journal has every write too.
create table dispatch.service_change (
  id bigserial primary key,
  service_date date not null,
  -- the engine's run key: date|schedule variant|exit|shift|race
  run_key text not null,
  route_id int not null,
  rasp_variant_id int not null,
  graph int not null,
  smena text not null,
  race_num int not null,
  planned_start timestamptz,
  kind text not null check (kind in ('cancel', 'shift')),
  shift_minutes int check ((kind = 'shift') = (shift_minutes is not null)),
  reason text not null,
  user_id int,
  username text,
  created_at timestamptz not null default now(),
  revoked_at timestamptz,
  revoked_by text,
  revoke_reason text
);
-- one change of a kind in force per run
create unique index service_change_active_idx on dispatch.service_change (run_key, kind) where revoked_at is null;
create index service_change_date_idx on dispatch.service_change (service_date);
