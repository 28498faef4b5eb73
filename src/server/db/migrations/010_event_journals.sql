-- Journals of spec section 2 beside the user-actions journal of 003: vehicle connections and pass errors
-- (/journal/eventsts), software events (/journal/eventspo), video events (/journal/video) and ADAS incident
-- events (/journal/adas). Rows are appended by the server only (EventsWriter); the API never edits them.
-- vehicle_id carries no foreign key on purpose: a journal outlives the vehicle it mentions, and depot_number is
-- kept beside it so a row still reads after the vehicle is deleted from the handbook.

-- The generic write hook stores the request (path parameters and the redacted body) here.
alter table app.user_action add column request jsonb;
create index user_action_action_idx on app.user_action (action, at desc);

create table app.vehicle_event (
  id bigserial primary key,
  at timestamptz not null default now(),
  vehicle_id int,
  depot_number int,
  kind text not null check (kind in ('connect', 'disconnect', 'pass_error')),
  details jsonb
);
create index vehicle_event_at_idx on app.vehicle_event (at desc);
create index vehicle_event_vehicle_idx on app.vehicle_event (vehicle_id, at desc);

create table app.software_event (
  id bigserial primary key,
  at timestamptz not null default now(),
  vehicle_id int,
  depot_number int,
  kind text not null,
  severity text not null default 'info' check (severity in ('info', 'warning', 'error')),
  message text not null default '',
  details jsonb
);
create index software_event_at_idx on app.software_event (at desc);
create index software_event_vehicle_idx on app.software_event (vehicle_id, at desc);

create table app.video_event (
  id bigserial primary key,
  at timestamptz not null default now(),
  vehicle_id int,
  depot_number int,
  kind text not null,
  camera int,
  request_id int,
  message text not null default '',
  details jsonb
);
create index video_event_at_idx on app.video_event (at desc);
create index video_event_vehicle_idx on app.video_event (vehicle_id, at desc);

-- Incident event of spec section 3: depot_number, incident_type, tm, speed, lat, lon; grade 1 (low) to 3 (high).
create table adas.incident_event (
  id bigserial primary key,
  tm timestamptz not null default now(),
  vehicle_id int,
  depot_number int,
  incident_type int not null,
  speed real,
  lat double precision,
  lon double precision,
  grade smallint not null default 1 check (grade between 1 and 3),
  route_id int,
  details jsonb
);
create index incident_event_tm_idx on adas.incident_event (tm desc);
create index incident_event_vehicle_idx on adas.incident_event (vehicle_id, tm desc);
create index incident_event_type_idx on adas.incident_event (incident_type, tm desc);
