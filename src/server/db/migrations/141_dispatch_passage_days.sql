-- The live timetable's passages by day, kept DISPATCH_RETENTION_DAYS (docs/dispatch.md «Storage»): the monthly
-- partitions of dispatch.stop_passage become day partitions made and dropped by the one maker of 135_day_partitions
-- (src/server/db/dayPartitions.ts), so a day past the retention goes whole (DROP TABLE) and a write of a day not
-- made yet lands in the default partition instead of failing.

-- The maker of day partitions copies the parent's checks into each partition, and takes a date column as well as a timestamptz one: a date's day is the date itself,
-- bounds written as dates (a timestamptz bound would be read as a date in the session's time zone).
create or replace function app.ensure_day_partitions(p_parent regclass, p_from date, p_to date) returns int language plpgsql as $$
declare
  v_schema text;
  v_table text;
  v_column text;
  v_is_date boolean;
  v_default regclass;
  v_part text;
  d date := p_from;
  lo text;
  hi text;
  made int := 0;
begin
  select n.nspname, c.relname into v_schema, v_table from pg_class c join pg_namespace n on n.oid = c.relnamespace where c.oid = p_parent;
  select a.attname, a.atttypid = 'date'::regtype, nullif(p.partdefid, 0::oid)::regclass into v_column, v_is_date, v_default
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
      if v_is_date then
        lo := d::text;
        hi := (d + 1)::text;
      else
        lo := (d::timestamp at time zone 'UTC')::text;
        hi := ((d + 1)::timestamp at time zone 'UTC')::text;
      end if;
      -- A partition must hold its parent's checks to be attached.
      execute format('create table %I.%I (like %s including defaults including constraints)', v_schema, v_part, p_parent);
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

-- dispatch.stop_passage by day: the rows move in one pass into a partition made for every service date they
-- cover, and the key and indexes are built afterwards, per partition (as app.track in 135).
alter table dispatch.stop_passage rename to stop_passage_by_month;
alter table dispatch.stop_passage_by_month rename constraint stop_passage_pkey to stop_passage_by_month_pkey;
alter table dispatch.stop_passage_by_month rename constraint stop_passage_day_type_check to stop_passage_by_month_day_type_check;
alter index dispatch.stop_passage_route_idx rename to stop_passage_by_month_route_idx;
alter index dispatch.stop_passage_stop_idx rename to stop_passage_by_month_stop_idx;

create table dispatch.stop_passage (
  service_date date not null,
  vehicle_id int not null,
  route_id int not null,
  direction smallint not null,
  rasp_variant_id int not null,
  graph int not null,
  smena text not null,
  race_num int not null,
  trip_id int,
  stop_id int not null,
  stop_sequence int not null,
  day_type smallint not null check (day_type between 0 and 2),
  schedule_arrival timestamptz not null,
  schedule_departure timestamptz not null,
  actual_arrival timestamptz,
  actual_departure timestamptz,
  -- passed between two fixes with none near the stop: both times interpolated
  interpolated boolean not null default false
) partition by range (service_date);
-- Passages of a date without its partition: they move into it when it is made, or are deleted past the retention.
create table dispatch.stop_passage_default partition of dispatch.stop_passage default;

select count(app.ensure_day_partitions('dispatch.stop_passage', day, day))
  from (select distinct service_date as day from dispatch.stop_passage_by_month) days;
-- Today and the next three days (the operator's date may be ahead of UTC's), so a new database starts with them.
select app.ensure_day_partitions('dispatch.stop_passage', (now() at time zone 'UTC')::date, (now() at time zone 'UTC')::date + 3);
insert into dispatch.stop_passage select * from dispatch.stop_passage_by_month;
drop table dispatch.stop_passage_by_month;
drop function dispatch.ensure_passage_partition(date);

alter table dispatch.stop_passage add primary key (service_date, rasp_variant_id, graph, smena, race_num, stop_sequence, vehicle_id);
create index stop_passage_route_idx on dispatch.stop_passage (service_date, route_id, direction);
create index stop_passage_stop_idx on dispatch.stop_passage (stop_id, service_date);
