-- Daily rollups of the ADAS incidents (issue 11), so a report over a year reads thousands of rows, not
-- millions: incidents per operator day, route and type (the dynamics and the distribution); per day, vehicle
-- and route with that work's trips and kilometres (the detailing, the vehicles on routes), also per month so a
-- year is twelve rows a vehicle; and the work per day and route (the distribution's rates). Statement-level
-- triggers keep them exact on every insert, update (a review) and delete, whoever writes (ingestion, the
-- demo, a test, psql). Days are the operator's (adas.rollup_zone, set by the server from
-- OPERATOR_TZ_OFFSET_MINUTES, which rebuilds the rollups when it changes); a report reads them only for whole
-- days of that zone and without the filters they cannot answer (src/server/adas/incidentQueries.ts).
create table adas.rollup_zone (offset_minutes int not null);
insert into adas.rollup_zone values (180);

create function adas.rollup_day(tm timestamptz) returns date language sql stable as
  $$ select (tm at time zone 'UTC' + make_interval(mins => (select offset_minutes from adas.rollup_zone limit 1)))::date $$;

create table adas.incident_day (
  day date not null,
  route_id int not null, -- 0: matched to no route
  incident_type int not null,
  count int not null default 0,
  false_alarms int not null default 0,
  high int not null default 0,
  high_false int not null default 0,
  primary key (day, route_id, incident_type)
);
create table adas.vehicle_day (
  day date not null,
  vehicle_id int not null,
  route_id int not null,
  count int not null default 0,
  false_alarms int not null default 0,
  high int not null default 0,
  high_false int not null default 0,
  trips int not null default 0,
  km float8 not null default 0,
  primary key (day, vehicle_id, route_id)
);
create table adas.vehicle_month (like adas.vehicle_day including defaults);
alter table adas.vehicle_month rename column day to month;
alter table adas.vehicle_month add primary key (month, vehicle_id, route_id);
create table adas.route_day (
  day date not null,
  route_id int not null,
  trips int not null default 0,
  km float8 not null default 0,
  primary key (day, route_id)
);

create function adas.incident_rollup_insert() returns trigger language plpgsql as $$
begin
  insert into adas.incident_day as d (day, route_id, incident_type, count, false_alarms, high, high_false)
    select adas.rollup_day(x.tm), coalesce(x.route_id, 0), x.incident_type, count(*)::int, count(*) filter (where x.review = 'false_alarm')::int,
           count(*) filter (where x.grade = 3)::int, count(*) filter (where x.grade = 3 and x.review = 'false_alarm')::int
      from new_rows x group by 1, 2, 3
    on conflict (day, route_id, incident_type) do update set count = d.count + excluded.count, false_alarms = d.false_alarms + excluded.false_alarms,
      high = d.high + excluded.high, high_false = d.high_false + excluded.high_false;
  insert into adas.vehicle_day as d (day, vehicle_id, route_id, count, false_alarms, high, high_false)
    select adas.rollup_day(x.tm), x.vehicle_id, coalesce(x.route_id, 0), count(*)::int, count(*) filter (where x.review = 'false_alarm')::int,
           count(*) filter (where x.grade = 3)::int, count(*) filter (where x.grade = 3 and x.review = 'false_alarm')::int
      from new_rows x where x.vehicle_id is not null group by 1, 2, 3
    on conflict (day, vehicle_id, route_id) do update set count = d.count + excluded.count, false_alarms = d.false_alarms + excluded.false_alarms,
      high = d.high + excluded.high, high_false = d.high_false + excluded.high_false;
  return null;
end $$;
create function adas.incident_rollup_delete() returns trigger language plpgsql as $$
begin
  insert into adas.incident_day as d (day, route_id, incident_type, count, false_alarms, high, high_false)
    select adas.rollup_day(x.tm), coalesce(x.route_id, 0), x.incident_type, -count(*)::int, -count(*) filter (where x.review = 'false_alarm')::int,
           -count(*) filter (where x.grade = 3)::int, -count(*) filter (where x.grade = 3 and x.review = 'false_alarm')::int
      from old_rows x group by 1, 2, 3
    on conflict (day, route_id, incident_type) do update set count = d.count + excluded.count, false_alarms = d.false_alarms + excluded.false_alarms,
      high = d.high + excluded.high, high_false = d.high_false + excluded.high_false;
  insert into adas.vehicle_day as d (day, vehicle_id, route_id, count, false_alarms, high, high_false)
    select adas.rollup_day(x.tm), x.vehicle_id, coalesce(x.route_id, 0), -count(*)::int, -count(*) filter (where x.review = 'false_alarm')::int,
           -count(*) filter (where x.grade = 3)::int, -count(*) filter (where x.grade = 3 and x.review = 'false_alarm')::int
      from old_rows x where x.vehicle_id is not null group by 1, 2, 3
    on conflict (day, vehicle_id, route_id) do update set count = d.count + excluded.count, false_alarms = d.false_alarms + excluded.false_alarms,
      high = d.high + excluded.high, high_false = d.high_false + excluded.high_false;
  return null;
end $$;
create function adas.incident_rollup_update() returns trigger language plpgsql as $$
begin
  insert into adas.incident_day as d (day, route_id, incident_type, count, false_alarms, high, high_false)
    select adas.rollup_day(x.tm), coalesce(x.route_id, 0), x.incident_type, -count(*)::int, -count(*) filter (where x.review = 'false_alarm')::int,
           -count(*) filter (where x.grade = 3)::int, -count(*) filter (where x.grade = 3 and x.review = 'false_alarm')::int
      from old_rows x group by 1, 2, 3
    on conflict (day, route_id, incident_type) do update set count = d.count + excluded.count, false_alarms = d.false_alarms + excluded.false_alarms,
      high = d.high + excluded.high, high_false = d.high_false + excluded.high_false;
  insert into adas.vehicle_day as d (day, vehicle_id, route_id, count, false_alarms, high, high_false)
    select adas.rollup_day(x.tm), x.vehicle_id, coalesce(x.route_id, 0), -count(*)::int, -count(*) filter (where x.review = 'false_alarm')::int,
           -count(*) filter (where x.grade = 3)::int, -count(*) filter (where x.grade = 3 and x.review = 'false_alarm')::int
      from old_rows x where x.vehicle_id is not null group by 1, 2, 3
    on conflict (day, vehicle_id, route_id) do update set count = d.count + excluded.count, false_alarms = d.false_alarms + excluded.false_alarms,
      high = d.high + excluded.high, high_false = d.high_false + excluded.high_false;
  insert into adas.incident_day as d (day, route_id, incident_type, count, false_alarms, high, high_false)
    select adas.rollup_day(x.tm), coalesce(x.route_id, 0), x.incident_type, count(*)::int, count(*) filter (where x.review = 'false_alarm')::int,
           count(*) filter (where x.grade = 3)::int, count(*) filter (where x.grade = 3 and x.review = 'false_alarm')::int
      from new_rows x group by 1, 2, 3
    on conflict (day, route_id, incident_type) do update set count = d.count + excluded.count, false_alarms = d.false_alarms + excluded.false_alarms,
      high = d.high + excluded.high, high_false = d.high_false + excluded.high_false;
  insert into adas.vehicle_day as d (day, vehicle_id, route_id, count, false_alarms, high, high_false)
    select adas.rollup_day(x.tm), x.vehicle_id, coalesce(x.route_id, 0), count(*)::int, count(*) filter (where x.review = 'false_alarm')::int,
           count(*) filter (where x.grade = 3)::int, count(*) filter (where x.grade = 3 and x.review = 'false_alarm')::int
      from new_rows x where x.vehicle_id is not null group by 1, 2, 3
    on conflict (day, vehicle_id, route_id) do update set count = d.count + excluded.count, false_alarms = d.false_alarms + excluded.false_alarms,
      high = d.high + excluded.high, high_false = d.high_false + excluded.high_false;
  return null;
end $$;
create function adas.work_rollup_insert() returns trigger language plpgsql as $$
begin
  insert into adas.route_day as d (day, route_id, trips, km)
    select x.day, x.route_id, sum(x.trips)::int, sum(x.km)::float8 from new_rows x group by 1, 2
    on conflict (day, route_id) do update set trips = d.trips + excluded.trips, km = d.km + excluded.km;
  insert into adas.vehicle_day as d (day, vehicle_id, route_id, trips, km)
    select x.day, x.vehicle_id, x.route_id, sum(x.trips)::int, sum(x.km)::float8 from new_rows x group by 1, 2, 3
    on conflict (day, vehicle_id, route_id) do update set trips = d.trips + excluded.trips, km = d.km + excluded.km;
  return null;
end $$;
create function adas.work_rollup_delete() returns trigger language plpgsql as $$
begin
  insert into adas.route_day as d (day, route_id, trips, km)
    select x.day, x.route_id, -sum(x.trips)::int, -sum(x.km)::float8 from old_rows x group by 1, 2
    on conflict (day, route_id) do update set trips = d.trips + excluded.trips, km = d.km + excluded.km;
  insert into adas.vehicle_day as d (day, vehicle_id, route_id, trips, km)
    select x.day, x.vehicle_id, x.route_id, -sum(x.trips)::int, -sum(x.km)::float8 from old_rows x group by 1, 2, 3
    on conflict (day, vehicle_id, route_id) do update set trips = d.trips + excluded.trips, km = d.km + excluded.km;
  return null;
end $$;
create function adas.work_rollup_update() returns trigger language plpgsql as $$
begin
  insert into adas.route_day as d (day, route_id, trips, km)
    select x.day, x.route_id, -sum(x.trips)::int, -sum(x.km)::float8 from old_rows x group by 1, 2
    on conflict (day, route_id) do update set trips = d.trips + excluded.trips, km = d.km + excluded.km;
  insert into adas.vehicle_day as d (day, vehicle_id, route_id, trips, km)
    select x.day, x.vehicle_id, x.route_id, -sum(x.trips)::int, -sum(x.km)::float8 from old_rows x group by 1, 2, 3
    on conflict (day, vehicle_id, route_id) do update set trips = d.trips + excluded.trips, km = d.km + excluded.km;
  insert into adas.route_day as d (day, route_id, trips, km)
    select x.day, x.route_id, sum(x.trips)::int, sum(x.km)::float8 from new_rows x group by 1, 2
    on conflict (day, route_id) do update set trips = d.trips + excluded.trips, km = d.km + excluded.km;
  insert into adas.vehicle_day as d (day, vehicle_id, route_id, trips, km)
    select x.day, x.vehicle_id, x.route_id, sum(x.trips)::int, sum(x.km)::float8 from new_rows x group by 1, 2, 3
    on conflict (day, vehicle_id, route_id) do update set trips = d.trips + excluded.trips, km = d.km + excluded.km;
  return null;
end $$;
create function adas.month_rollup_insert() returns trigger language plpgsql as $$
begin
  insert into adas.vehicle_month as m (month, vehicle_id, route_id, count, false_alarms, high, high_false, trips, km)
    select date_trunc('month', x.day)::date, x.vehicle_id, x.route_id, sum(x.count)::int, sum(x.false_alarms)::int, sum(x.high)::int, sum(x.high_false)::int, sum(x.trips)::int, sum(x.km)::float8 from new_rows x group by 1, 2, 3
    on conflict (month, vehicle_id, route_id) do update set count = m.count + excluded.count, false_alarms = m.false_alarms + excluded.false_alarms, high = m.high + excluded.high, high_false = m.high_false + excluded.high_false, trips = m.trips + excluded.trips, km = m.km + excluded.km;
  return null;
end $$;
create function adas.month_rollup_delete() returns trigger language plpgsql as $$
begin
  insert into adas.vehicle_month as m (month, vehicle_id, route_id, count, false_alarms, high, high_false, trips, km)
    select date_trunc('month', x.day)::date, x.vehicle_id, x.route_id, -sum(x.count)::int, -sum(x.false_alarms)::int, -sum(x.high)::int, -sum(x.high_false)::int, -sum(x.trips)::int, -sum(x.km)::float8 from old_rows x group by 1, 2, 3
    on conflict (month, vehicle_id, route_id) do update set count = m.count + excluded.count, false_alarms = m.false_alarms + excluded.false_alarms, high = m.high + excluded.high, high_false = m.high_false + excluded.high_false, trips = m.trips + excluded.trips, km = m.km + excluded.km;
  return null;
end $$;
create function adas.month_rollup_update() returns trigger language plpgsql as $$
begin
  insert into adas.vehicle_month as m (month, vehicle_id, route_id, count, false_alarms, high, high_false, trips, km)
    select date_trunc('month', x.day)::date, x.vehicle_id, x.route_id, -sum(x.count)::int, -sum(x.false_alarms)::int, -sum(x.high)::int, -sum(x.high_false)::int, -sum(x.trips)::int, -sum(x.km)::float8 from old_rows x group by 1, 2, 3
    on conflict (month, vehicle_id, route_id) do update set count = m.count + excluded.count, false_alarms = m.false_alarms + excluded.false_alarms, high = m.high + excluded.high, high_false = m.high_false + excluded.high_false, trips = m.trips + excluded.trips, km = m.km + excluded.km;
  insert into adas.vehicle_month as m (month, vehicle_id, route_id, count, false_alarms, high, high_false, trips, km)
    select date_trunc('month', x.day)::date, x.vehicle_id, x.route_id, sum(x.count)::int, sum(x.false_alarms)::int, sum(x.high)::int, sum(x.high_false)::int, sum(x.trips)::int, sum(x.km)::float8 from new_rows x group by 1, 2, 3
    on conflict (month, vehicle_id, route_id) do update set count = m.count + excluded.count, false_alarms = m.false_alarms + excluded.false_alarms, high = m.high + excluded.high, high_false = m.high_false + excluded.high_false, trips = m.trips + excluded.trips, km = m.km + excluded.km;
  return null;
end $$;

create trigger incident_rollup_insert after insert on adas.incident_event referencing new table as new_rows
  for each statement execute function adas.incident_rollup_insert();
create trigger incident_rollup_delete after delete on adas.incident_event referencing old table as old_rows
  for each statement execute function adas.incident_rollup_delete();
create trigger incident_rollup_update after update on adas.incident_event referencing old table as old_rows new table as new_rows
  for each statement execute function adas.incident_rollup_update();
create trigger work_rollup_insert after insert on adas.route_work referencing new table as new_rows
  for each statement execute function adas.work_rollup_insert();
create trigger work_rollup_delete after delete on adas.route_work referencing old table as old_rows
  for each statement execute function adas.work_rollup_delete();
create trigger work_rollup_update after update on adas.route_work referencing old table as old_rows new table as new_rows
  for each statement execute function adas.work_rollup_update();
create trigger month_rollup_insert after insert on adas.vehicle_day referencing new table as new_rows
  for each statement execute function adas.month_rollup_insert();
create trigger month_rollup_delete after delete on adas.vehicle_day referencing old table as old_rows
  for each statement execute function adas.month_rollup_delete();
create trigger month_rollup_update after update on adas.vehicle_day referencing old table as old_rows new table as new_rows
  for each statement execute function adas.month_rollup_update();

-- Everything again from the incidents and the work (a new zone; after a TRUNCATE, which fires no trigger).
create function adas.rebuild_rollups() returns void language plpgsql as $$
begin
  truncate adas.incident_day, adas.vehicle_day, adas.vehicle_month, adas.route_day;
  insert into adas.incident_day (day, route_id, incident_type, count, false_alarms, high, high_false)
    select adas.rollup_day(e.tm), coalesce(e.route_id, 0), e.incident_type, count(*), count(*) filter (where e.review = 'false_alarm'),
           count(*) filter (where e.grade = 3), count(*) filter (where e.grade = 3 and e.review = 'false_alarm')
      from adas.incident_event e group by 1, 2, 3;
  insert into adas.route_day (day, route_id, trips, km) select day, route_id, sum(trips), sum(km) from adas.route_work group by 1, 2;
  -- one statement: the month rollup's trigger sees every row once
  insert into adas.vehicle_day (day, vehicle_id, route_id, count, false_alarms, high, high_false, trips, km)
    select day, vehicle_id, route_id, sum(count), sum(false_alarms), sum(high), sum(high_false), sum(trips), sum(km) from (
      select adas.rollup_day(e.tm) as day, e.vehicle_id, coalesce(e.route_id, 0) as route_id, count(*) as count,
             count(*) filter (where e.review = 'false_alarm') as false_alarms, count(*) filter (where e.grade = 3) as high,
             count(*) filter (where e.grade = 3 and e.review = 'false_alarm') as high_false, 0 as trips, 0 as km
        from adas.incident_event e where e.vehicle_id is not null group by 1, 2, 3
      union all
      select w.day, w.vehicle_id, w.route_id, 0, 0, 0, 0, sum(w.trips), sum(w.km) from adas.route_work w group by 1, 2, 3) x
    group by 1, 2, 3;
end $$;
select adas.rebuild_rollups();
