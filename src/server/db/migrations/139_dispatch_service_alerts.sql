-- Service alerts for passengers (src/server/dispatch/serviceAlerts.ts, docs/dispatch.md «Оповещения»): a draft
-- written by a dispatcher, published (then in the GTFS-Realtime Alerts feed while its period covers the moment),
-- ended. Cause and effect are the GTFS-Realtime enums by name; the informed entities are routes and stops (our
-- ids, the feed names them as the static export does) or the whole network. An alert once published is ended
-- rather than deleted, so the record stays whole; the user-actions journal has every write too.
create table dispatch.service_alert (
  id bigserial primary key,
  state text not null default 'draft' check (state in ('draft', 'published', 'ended')),
  cause text not null,
  effect text not null,
  header text not null check (length(header) between 1 and 200),
  description text not null default '' check (length(description) <= 2000),
  active_from timestamptz not null,
  active_to timestamptz check (active_to is null or active_to > active_from),
  whole_network boolean not null default false,
  route_ids int[] not null default '{}',
  stop_ids int[] not null default '{}',
  user_id int,
  username text,
  created_at timestamptz not null default now(),
  updated_at timestamptz,
  updated_by text,
  published_at timestamptz,
  published_by text,
  ended_at timestamptz,
  ended_by text,
  check (whole_network or cardinality(route_ids) + cardinality(stop_ids) > 0)
);
create index service_alert_state_idx on dispatch.service_alert (state, created_at);
