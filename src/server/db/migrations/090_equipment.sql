-- On-board equipment (issue 16): remote configuration of terminals over EGTS, vehicle work data, diagnostics.
create schema if not exists mnt;

-- A configuration: a named, versioned set of terminal parameters (src/shared/equipment/parameters.ts).
-- locked_at is set when it is first rolled out: from then on it is changed by a new version.
create table mnt.configuration (
  id serial primary key,
  name text not null,
  version int not null check (version >= 1),
  parameters jsonb not null,
  comment text,
  created_by text,
  created_at timestamptz not null default now(),
  locked_at timestamptz,
  unique (name, version)
);

-- Vehicle groups: static (members listed) or dynamic (a filter, evaluated when read or rolled out to).
create table mnt.vehicle_group (
  id serial primary key,
  name text not null unique,
  kind text not null check (kind in ('static', 'dynamic')),
  filter jsonb,
  created_at timestamptz not null default now()
);
create table mnt.vehicle_group_member (
  group_id int not null references mnt.vehicle_group (id) on delete cascade,
  vehicle_id int not null,
  primary key (group_id, vehicle_id)
);

-- A rollout of a configuration to a group: phase 1 is the first share of the group, phase 2 the rest, started
-- while the error share of phase 1 stays under error_threshold (per cent); otherwise the rollout pauses.
-- Commands go out only inside the window (operator's minutes of day; from > to wraps midnight; null = always).
create table mnt.rollout (
  id serial primary key,
  configuration_id int not null references mnt.configuration (id),
  group_id int references mnt.vehicle_group (id) on delete set null,
  group_name text not null,
  state text not null default 'running' check (state in ('running', 'paused', 'cancelled', 'finished')),
  phase smallint not null default 1,
  first_share real not null check (first_share > 0 and first_share <= 100),
  error_threshold real not null check (error_threshold >= 0 and error_threshold <= 100),
  window_from smallint check (window_from between 0 and 1439),
  window_to smallint check (window_to between 0 and 1439),
  max_attempts smallint not null default 3,
  -- resumed by a user after the error threshold paused it: the threshold no longer stops it
  threshold_overridden boolean not null default false,
  pause_reason text,
  created_by text,
  created_at timestamptz not null default now(),
  finished_at timestamptz
);

-- One command per terminal of a rollout, through the media/command statuses of console.md section 3
-- (src/shared/equipment/commandStatus.ts). An error with retry_at set is tried again then.
create table mnt.command (
  id serial primary key,
  rollout_id int not null references mnt.rollout (id) on delete cascade,
  vehicle_id int not null,
  terminal_id int,
  phase smallint not null,
  status smallint not null default 1 check (status between 1 and 14),
  reason text,
  attempts smallint not null default 0,
  retry_at timestamptz,
  sent_at timestamptz,
  deadline timestamptz,
  status_at timestamptz not null default now(),
  unique (rollout_id, vehicle_id)
);
create index command_open_idx on mnt.command (status, rollout_id) where status in (1, 2, 3, 5) or retry_at is not null;
create index command_vehicle_idx on mnt.command (vehicle_id, status);

-- The configuration each vehicle's terminal runs (its last performed command): the share of the fleet per
-- version, and the dynamic groups' "configuration version" filter.
create table mnt.terminal_config (
  vehicle_id int primary key,
  configuration_id int not null references mnt.configuration (id),
  applied_at timestamptz not null default now()
);
create index terminal_config_configuration_idx on mnt.terminal_config (configuration_id);

-- Vehicle work data (/vehicle-work-data): one row per vehicle and operator day, rolled up from the track
-- and the day's schedule (src/server/equipment/workDay.ts) once the day is over, and for today as it goes.
create table mnt.vehicle_work_day (
  day date not null,
  vehicle_id int not null,
  first_at timestamptz not null,
  last_at timestamptz not null,
  online_s int not null,
  km real not null,
  moving_s int not null,
  standing_s int not null,
  trips_done int not null,
  trips_planned int not null,
  deviations int not null,
  computed_at timestamptz not null default now(),
  primary key (day, vehicle_id)
);
create index vehicle_work_day_vehicle_idx on mnt.vehicle_work_day (vehicle_id, day);

-- The state of each on-board unit (src/shared/equipment/units.ts): its last data and its open fault codes.
-- fault_since is when the current fault codes appeared. Units without a row have never reported.
create table mnt.unit_state (
  vehicle_id int not null,
  unit_kind text not null,
  unit_id int not null,
  last_data_at timestamptz,
  fault_codes text[] not null default '{}',
  fault_since timestamptz,
  primary key (vehicle_id, unit_kind, unit_id)
);
create index unit_state_fault_idx on mnt.unit_state (vehicle_id) where cardinality(fault_codes) > 0;

-- Every on-board unit of every vehicle, from the equipment handbooks (src/shared/equipment/units.ts): one
-- model for diagnostics and remote configuration (and PDM). A validator names its vehicle by depot number.
create view mnt.unit as
  select t.vehicle_id, 'terminal'::text as unit_kind, t.id as unit_id,
         coalesce(mt.name || ' ' || mt.version, 'МНТ') || coalesce(' №' || t.serial_number, '') as unit_name, false as disabled
    from mgt.dev_mnt t left join mgt.mnt_type mt on mt.id = t."DevMNTType_id"
  union all
  select d.vehicle_id, 'recorder', d.id, coalesce(dt.name, 'Видеорегистратор') || coalesce(' №' || d.serial_number, ''), false
    from mgt.dvr d left join mgt.dvr_type dt on dt.id = d.dvr_type_id
  union all
  select d.vehicle_id, 'camera', c.id, 'Камера ' || c.index || coalesce(' (' || ct.title || ')', ''), false
    from mgt.dev_camera c join mgt.dvr d on d.id = c.dvr_id left join mgt.dev_camera_type ct on ct.ip = c.camera_addr
  union all
  select p.vehicle_id, 'passengerCounter', p.id, p.name, coalesce(p.enable, 1) = 0 from mgt.dev_passpotok p
  union all
  select v.id, 'validator', x.validator_id, coalesce(x.validator_name, 'Валидатор ' || x.validator_id), false
    from mgt.validator x join mgt.vehicles v on v.depot_number = x.vehicle_id
  union all
  select g.vehicle_id, 'modem', g.id, coalesce(g.name, 'GSM-модем'), g."ModuleEnabled" = 0 from mgt.dev_gsm g where g.vehicle_id is not null;
