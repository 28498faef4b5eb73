-- Telemetry: vehicle tracks and the credentials of HTTP position sources.

-- Every accepted position, kept TRACK_RETENTION_DAYS. The key (vehicle_id, tm) serves "previous data" of one
-- vehicle for a period and drops resends at write time. No foreign key to mgt.vehicles: it would cost a
-- lookup per row at thousands of rows a second and block deleting a vehicle that has a history.
create table app.track (
  vehicle_id int not null,
  tm timestamptz not null,
  lat double precision not null,
  lon double precision not null,
  speed real not null,
  course smallint not null,
  valid boolean not null,
  primary key (vehicle_id, tm)
);
-- Rows arrive roughly in time order: a BRIN index finds the expired ones for the retention sweep at a
-- fraction of a B-tree's size and write cost.
create index track_tm_brin on app.track using brin (tm);

-- Who may post positions over HTTP. Only the SHA-256 of a key is stored; the key is shown once at creation.
create table app.telemetry_source (
  id serial primary key,
  name text not null unique,
  key_hash text not null,
  enabled boolean not null default true,
  -- Peer addresses this source may report for; null = any known device.
  allowed_devices text[],
  created_at timestamptz not null default now()
);
