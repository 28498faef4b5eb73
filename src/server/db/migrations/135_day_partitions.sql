-- Tables that grow with the fleet and time, partitioned by day (UTC) so a day past its retention goes as a whole
-- partition (DROP TABLE: no row-by-row delete, no vacuum after it): app.track (positions) from here, and PDM's
-- readings and minute rollups (100_pdm.sql). One maker of day partitions for all of them; the server's
-- maintenance (src/server/db/dayPartitions.ts) makes the coming days, drops the past ones, and deletes what the
-- default partition holds past the retention. docs/architecture.md, "Storage over years".

-- Daily partitions of `p_parent` (partitioned by range on a timestamptz column) from `p_from` to `p_to`, named
-- <table>_YYYYMMDD beside it. Each is made as a table of its own and then attached: attaching locks the parent
-- only against other schema changes, where CREATE TABLE ... PARTITION OF would lock it against every reader
-- and writer. Rows the default partition holds for such a day move into it first (attaching checks that the
-- default partition keeps none). Returns how many partitions were made.
create function app.ensure_day_partitions(p_parent regclass, p_from date, p_to date) returns int language plpgsql as $$
declare
  v_schema text;
  v_table text;
  v_column text;
  v_default regclass;
  v_part text;
  d date := p_from;
  lo timestamptz;
  hi timestamptz;
  made int := 0;
begin
  select n.nspname, c.relname into v_schema, v_table from pg_class c join pg_namespace n on n.oid = c.relnamespace where c.oid = p_parent;
  select a.attname, nullif(p.partdefid, 0::oid)::regclass into v_column, v_default
    from pg_partitioned_table p join pg_attribute a on a.attrelid = p.partrelid and a.attnum = p.partattrs[0]
   where p.partrelid = p_parent;
  if v_column is null then
    raise exception '% is not a partitioned table', p_parent;
  end if;
  -- Several server processes share one PostgreSQL: one maker of a table's partitions at a time.
  perform pg_advisory_xact_lock(p_parent::oid::bigint);
  while d <= p_to loop
    v_part := v_table || '_' || to_char(d, 'YYYYMMDD');
    if to_regclass(format('%I.%I', v_schema, v_part)) is null then
      lo := d::timestamp at time zone 'UTC';
      hi := (d + 1)::timestamp at time zone 'UTC';
      execute format('create table %I.%I (like %s including defaults)', v_schema, v_part, p_parent);
      if v_default is not null then
        -- Taken first, so a writer's row for this day cannot reach the default partition between the move and the attach.
        execute format('lock table %s in access exclusive mode', v_default);
        execute format('with moved as (delete from %s where %I >= %L and %I < %L returning *) insert into %I.%I select * from moved',
          v_default, v_column, lo, v_column, hi, v_schema, v_part);
      end if;
      execute format('alter table %s attach partition %I.%I for values from (%L) to (%L)', p_parent, v_schema, v_part, lo, hi);
      made := made + 1;
    end if;
    d := d + 1;
  end loop;
  return made;
end $$;

-- PDM's own maker and dropper give way to the shared ones.
drop function pdm.ensure_partitions(date, date);
drop function pdm.drop_partitions_before(date);

-- app.track by day. The rows move in one pass into day partitions made for every day they cover, and the key
-- and the BRIN index are built afterwards, per partition, from sorted data: several times faster than
-- maintaining them row by row (the demo's days of history on the embedded engine; see docs/benchmarks.md).
alter table app.track rename to track_unpartitioned;
alter table app.track_unpartitioned rename constraint track_pkey to track_unpartitioned_pkey;
alter index app.track_tm_brin rename to track_unpartitioned_tm_brin;

-- Every accepted position, kept TRACK_RETENTION_DAYS (whole days: a day goes once all of it is older). The key
-- (vehicle_id, tm) serves "previous data" of one vehicle for a period and drops resends at write time; a
-- position's day is its partition, so a resend meets its first copy wherever it lands. No foreign key to
-- mgt.vehicles: it would cost a lookup per row at thousands of rows a second and block deleting a vehicle that
-- has a history.
create table app.track (
  vehicle_id int not null,
  tm timestamptz not null,
  lat double precision not null,
  lon double precision not null,
  speed real not null,
  course smallint not null,
  valid boolean not null
) partition by range (tm);
-- Rows of a day without its partition (a writer that bypasses the telemetry pipeline, a day the maintenance has
-- not made yet): they move into the day's partition when it is made, or are deleted past the retention.
create table app.track_default partition of app.track default;

select count(app.ensure_day_partitions('app.track', day, day))
  from (select distinct (tm at time zone 'UTC')::date as day from app.track_unpartitioned) days;
-- Today and the next three days, so a new database (and the test template) starts with them.
select app.ensure_day_partitions('app.track', (now() at time zone 'UTC')::date, (now() at time zone 'UTC')::date + 3);
insert into app.track select * from app.track_unpartitioned;
drop table app.track_unpartitioned;

alter table app.track add primary key (vehicle_id, tm);
-- A range scan over a day within its partition, and over the default partition's stray rows.
create index track_tm_brin on app.track using brin (tm);
