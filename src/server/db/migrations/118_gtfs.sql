-- GTFS in and out (src/server/gtfs/). A feed's ids are kept as external keys of the handbook records it made, so a
-- newer feed of the same agency updates them in place and the export speaks the ids its consumers know.
--   gtfs.external_key   kind (agency, stop, station, route, pattern, variant) + GTFS id -> the handbook record's id;
--                       `extra` keeps what the handbooks have no column for (a stop's code and station), for the export
--   gtfs.import_run     each import: who, when, the file, its stage and progress, and at the end its report
create schema if not exists gtfs;

create table gtfs.external_key (
  kind text not null,
  gtfs_id text not null,
  local_id int not null,
  extra jsonb,
  primary key (kind, gtfs_id)
);
create index external_key_local_idx on gtfs.external_key (kind, local_id);

create table gtfs.import_run (
  id serial primary key,
  started_at timestamptz not null default now(),
  finished_at timestamptz,
  user_id int,
  username text,
  file text not null,
  bytes bigint not null default 0,
  status text not null check (status in ('running', 'done', 'refused', 'cancelled', 'failed')),
  stage text not null default 'upload' check (stage in ('upload', 'check', 'write', 'end')),
  progress real not null default 0,
  report jsonb
);
