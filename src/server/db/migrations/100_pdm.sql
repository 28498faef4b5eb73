-- PDM (issue 17): on-board sensor data. Data-logger trees per vehicle model, their nodes (units and sensors,
-- each sensor on an EGTS channel with its unit, scale, normal range, fault limits and silence time-out), the
-- trees' assignment to vehicles, the readings as a time series partitioned by day, minute and hour rollups,
-- each node's current state and every state change, service records, and the import manager's history.
create schema if not exists pdm;

create table pdm.tree (
  id serial primary key,
  name varchar(100) not null,
  model varchar(50),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

create table pdm.node (
  id serial primary key,
  tree_id int not null references pdm.tree (id) on delete cascade,
  parent_id int references pdm.node (id),
  position int not null default 0,
  name varchar(100) not null,
  kind text not null check (kind in ('logger', 'unit', 'sensor')),
  sensor_type text,
  channel_kind text check (channel_kind in ('analog', 'digital', 'counter', 'liquid')),
  channel int check (channel between 0 and 65535),
  unit varchar(20),
  scale float8 not null default 1,
  "offset" float8 not null default 0,
  normal_min float8,
  normal_max float8,
  fault_min float8,
  fault_max float8,
  silence_s int not null default 300 check (silence_s between 10 and 604800),
  check ((channel_kind is null) = (channel is null))
);
create index node_tree_idx on pdm.node (tree_id, parent_id, position);
-- One sensor per channel in a tree: a reading is attributed to exactly one node.
create unique index node_channel_idx on pdm.node (tree_id, channel_kind, channel) where channel_kind is not null;

-- A vehicle carries at most one tree.
create table pdm.tree_vehicle (
  vehicle_id int primary key references mgt.vehicles (id) on delete cascade,
  tree_id int not null references pdm.tree (id),
  assigned_at timestamptz not null default now()
);
create index tree_vehicle_tree_idx on pdm.tree_vehicle (tree_id);

-- Readings: one row per vehicle, node and time, partitioned by day (pdm.ensure_partitions). The key makes
-- a resent EGTS record or a re-imported file store nothing twice.
create table pdm.reading (
  vehicle_id int not null,
  node_id int not null,
  tm timestamptz not null,
  value float8,
  error boolean not null default false,
  primary key (vehicle_id, node_id, tm)
) partition by range (tm);
create table pdm.reading_default partition of pdm.reading default;

-- Rollups per minute and per hour, kept by the writer from the rows it inserted (exact: a duplicate inserts
-- nothing, so counts nothing). warn/fault count readings in those states; lat/lon the vehicle's last known
-- place in the bucket (the heat map).
create table pdm.reading_minute (
  vehicle_id int not null,
  node_id int not null,
  bucket timestamptz not null,
  n int not null,
  sum float8 not null,
  min float8,
  max float8,
  last float8,
  last_tm timestamptz not null,
  warn int not null default 0,
  fault int not null default 0,
  primary key (vehicle_id, node_id, bucket)
) partition by range (bucket);
create table pdm.reading_minute_default partition of pdm.reading_minute default;

create table pdm.reading_hour (
  like pdm.reading_minute including defaults,
  lat float8,
  lon float8,
  primary key (vehicle_id, node_id, bucket)
);
create index reading_hour_bucket_idx on pdm.reading_hour (bucket);

-- Daily partitions of the two large tables from `from_day` to `to_day`; rows already in the default
-- partition for such a day move into it.
create function pdm.ensure_partitions(from_day date, to_day date) returns int language plpgsql as $$
declare
  d date := from_day;
  made int := 0;
  base text;
  col text;
  part text;
  lo timestamptz;
  hi timestamptz;
begin
  while d <= to_day loop
    -- Days of UTC, whatever the session's TimeZone.
    lo := d::timestamp at time zone 'UTC';
    hi := (d + 1)::timestamp at time zone 'UTC';
    foreach base in array array['reading', 'reading_minute'] loop
      part := base || '_' || to_char(d, 'YYYYMMDD');
      col := case when base = 'reading' then 'tm' else 'bucket' end;
      if to_regclass('pdm.' || part) is null then
        execute format('create table pdm.%I (like pdm.%I including defaults)', part, base);
        execute format('with moved as (delete from pdm.%I where %I >= %L and %I < %L returning *) insert into pdm.%I select * from moved',
          base || '_default', col, lo, col, hi, part);
        execute format('alter table pdm.%I attach partition pdm.%I for values from (%L) to (%L)', base, part, lo, hi);
        made := made + 1;
      end if;
    end loop;
    d := d + 1;
  end loop;
  return made;
end $$;

-- Raw readings and minute rollups older than `before_day` go with their whole partitions (retention).
create function pdm.drop_partitions_before(before_day date) returns int language plpgsql as $$
declare
  r record;
  dropped int := 0;
begin
  for r in select c.relname from pg_inherits i join pg_class c on c.oid = i.inhrelid join pg_class p on p.oid = i.inhparent
            join pg_namespace n on n.oid = p.relnamespace
           where n.nspname = 'pdm' and p.relname in ('reading', 'reading_minute') and c.relname ~ '_[0-9]{8}$'
             and to_date(right(c.relname, 8), 'YYYYMMDD') < before_day loop
    execute format('drop table pdm.%I', r.relname);
    dropped := dropped + 1;
  end loop;
  return dropped;
end $$;

-- Each node's current state on each vehicle (no row: the node never reported, shown as no data).
create table pdm.node_state (
  vehicle_id int not null,
  node_id int not null,
  state text not null check (state in ('normal', 'warning', 'fault', 'no_data')),
  since timestamptz not null,
  value float8,
  tm timestamptz not null,
  primary key (vehicle_id, node_id)
);
create index node_state_open_idx on pdm.node_state (tm) where state <> 'no_data';

-- Every state change, with the time it ended (till: null while it holds).
create table pdm.state_change (
  id bigserial primary key,
  vehicle_id int not null,
  node_id int not null,
  tm timestamptz not null,
  till timestamptz,
  state text not null check (state in ('normal', 'warning', 'fault', 'no_data')),
  prev_state text,
  value float8
);
create index state_change_node_idx on pdm.state_change (vehicle_id, node_id, tm);
create index state_change_tm_idx on pdm.state_change (tm);
create index state_change_till_idx on pdm.state_change ((coalesce(till, 'infinity'::timestamptz)));

-- Service records (repairs, maintenance), from the import manager; next_due: when the next one is due.
create table pdm.service_record (
  id serial primary key,
  vehicle_id int not null references mgt.vehicles (id) on delete cascade,
  node_id int not null references pdm.node (id) on delete cascade,
  tm timestamptz not null,
  work text not null check (work in ('repair', 'maintenance', 'calibration', 'replacement')),
  next_due date,
  comment varchar(500),
  import_id int,
  unique (vehicle_id, node_id, tm, work)
);

create table pdm.import (
  id serial primary key,
  kind text not null check (kind in ('sensors', 'service')),
  file_name varchar(255) not null,
  user_id int,
  username text,
  at timestamptz not null default now(),
  dry_run boolean not null,
  mapping jsonb not null,
  rows int not null default 0,
  added int not null default 0,
  skipped int not null default 0,
  refused int not null default 0,
  errors jsonb not null default '[]',
  failed_csv text
);
create index import_at_idx on pdm.import (at desc);

-- Rollups of a period rebuilt from the readings (the demo's and the benchmark's bulk loads; ingestion keeps
-- them itself). Positions of the hour rollup are left as they were.
create function pdm.rebuild_rollups(from_tm timestamptz, to_tm timestamptz) returns void language plpgsql as $$
begin
  delete from pdm.reading_minute where bucket >= date_trunc('minute', from_tm) and bucket < to_tm;
  insert into pdm.reading_minute (vehicle_id, node_id, bucket, n, sum, min, max, last, last_tm, warn, fault)
  select r.vehicle_id, r.node_id, date_trunc('minute', r.tm), count(r.value)::int, coalesce(sum(r.value), 0), min(r.value), max(r.value),
         (array_agg(r.value order by r.tm desc))[1], max(r.tm),
         count(*) filter (where not r.error and (r.value < n.fault_min or r.value > n.fault_max) is not true and (r.value < n.normal_min or r.value > n.normal_max))::int,
         count(*) filter (where r.error or r.value < n.fault_min or r.value > n.fault_max)::int
    from pdm.reading r join pdm.node n on n.id = r.node_id
   where r.tm >= date_trunc('minute', from_tm) and r.tm < to_tm group by 1, 2, 3;
  insert into pdm.reading_hour as h (vehicle_id, node_id, bucket, n, sum, min, max, last, last_tm, warn, fault)
  select vehicle_id, node_id, date_trunc('hour', bucket), sum(n)::int, sum(sum), min(min), max(max), (array_agg(last order by last_tm desc))[1], max(last_tm), sum(warn)::int, sum(fault)::int
    from pdm.reading_minute where bucket >= date_trunc('hour', from_tm) and bucket < to_tm group by 1, 2, 3
  on conflict (vehicle_id, node_id, bucket) do update set n = excluded.n, sum = excluded.sum, min = excluded.min, max = excluded.max,
    last = excluded.last, last_tm = excluded.last_tm, warn = excluded.warn, fault = excluded.fault;
end $$;

-- Node states and state changes rebuilt from all readings (bulk loads): each reading's state by its node's
-- rules, 'no_data' where a gap exceeds the node's silence time-out (or the last reading is older than it).
create function pdm.rebuild_states() returns void language plpgsql as $$
begin
  delete from pdm.state_change;
  delete from pdm.node_state;
  insert into pdm.state_change (vehicle_id, node_id, tm, state, prev_state, value)
  with r as (
    select r.vehicle_id, r.node_id, r.tm, r.value, n.silence_s,
           case when r.error or r.value < n.fault_min or r.value > n.fault_max then 'fault'
                when r.value < n.normal_min or r.value > n.normal_max then 'warning' else 'normal' end as st,
           lead(r.tm) over (partition by r.vehicle_id, r.node_id order by r.tm) as next_tm
      from pdm.reading r join pdm.node n on n.id = r.node_id),
  e as (
    select vehicle_id, node_id, tm, value, st from r
    union all
    select vehicle_id, node_id, tm + make_interval(secs => silence_s), null, 'no_data' from r
     where (next_tm is not null and next_tm - tm > make_interval(secs => silence_s)) or (next_tm is null and tm + make_interval(secs => silence_s) < now())),
  l as (select e.*, lag(st) over (partition by vehicle_id, node_id order by tm) as prev from e)
  select vehicle_id, node_id, tm, st, prev, value from l where prev is distinct from st;
  update pdm.state_change s set till = x.next
    from (select id, lead(tm) over (partition by vehicle_id, node_id order by tm, id) as next from pdm.state_change) x
   where s.id = x.id and x.next is not null;
  insert into pdm.node_state (vehicle_id, node_id, state, since, value, tm)
  select c.vehicle_id, c.node_id, c.state, c.tm, last.value, last.tm
    from pdm.state_change c
    join lateral (select r.value, r.tm from pdm.reading r where r.vehicle_id = c.vehicle_id and r.node_id = c.node_id order by r.tm desc limit 1) last on true
   where c.till is null;
end $$;
