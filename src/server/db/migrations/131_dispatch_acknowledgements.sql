-- Acknowledged exceptions of the live timetable (src/server/dispatch/, docs/dispatch.md). Exceptions live in the
-- engine's memory; an acknowledgement names one occurrence (its key and since) and is kept here, so the board
-- still shows it acknowledged after a restart that raises the same occurrence again, and the day's
-- acknowledgements can be read back. The user-actions journal has the write too.
create table dispatch.exception_ack (
  id bigserial primary key,
  exception_key text not null,
  since timestamptz not null,
  kind text not null,
  vehicle_id int,
  route_id int,
  user_id int,
  username text,
  comment text not null,
  acknowledged_at timestamptz not null default now(),
  unique (exception_key, since)
);
create index exception_ack_at_idx on dispatch.exception_ack (acknowledged_at);
