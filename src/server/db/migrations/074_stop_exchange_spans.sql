-- The stop exchange by hour over a period (report /passengers/turnstops/table) grouped every stop hour of its
-- days: a large city's month is 1,500,000 rows of pass.stop_hour for 55,000 stop, route and hour cells (1.2 s).
-- pass.stop_hour_span holds the daily stop hours summed over aligned spans of 2, 4, 8 and 16 days (as
-- pass.od_span does for the stop pairs; pass.span_start aligns them, the report cuts a period the same way:
-- src/server/passengers/daySpans.ts, spanBlocks), so a month is read as a few spans and single days.
-- No 32-day span: a month of up to 31 days never holds one, and every span costs each stop-hour write a row.
-- It follows pass.stop_hour by statement triggers, whoever writes it (the stop-visit rollup trigger, the
-- rebuilds): a truncate of stop_hour empties it, and the rebuild's insert fills it again. Rows are written in
-- key order: a span's rows then lie together (written in hash order, a span's 55,000 rows lay 6 to a page
-- over half the table, and a month read them over twice as slowly), and concurrent writers lock them in one order.

create table pass.stop_hour_span (
  span smallint not null,
  first_day date not null,
  hour smallint not null,
  stop_id int not null,
  route_id int not null,
  boardings bigint not null,
  alightings bigint not null,
  day_rows int not null, -- the stop_hour rows summed: a span row goes with its last one (as a grouping of stop_hour would)
  primary key (span, first_day, stop_id, route_id, hour)
);
insert into pass.stop_hour_span (span, first_day, hour, stop_id, route_id, boardings, alightings, day_rows)
  select s.span, pass.span_start(x.day, s.span), x.hour, x.stop_id, x.route_id, sum(x.boardings), sum(x.alightings), count(*)
    from pass.stop_hour x, unnest(array[2, 4, 8, 16]) s(span) group by 1, 2, 3, 4, 5 order by 1, 2, 4, 5, 3;

-- What a statement changed in stop_hour (new rows added, old rows subtracted), one upsert: the live flow's
-- writes are mostly updates of stop hours already there, whose old and new rows net to their increment.
create function pass.stop_hour_span_apply() returns trigger language plpgsql as $$
begin
  if tg_op = 'INSERT' then
    insert into pass.stop_hour_span as d (span, first_day, hour, stop_id, route_id, boardings, alightings, day_rows)
      select s.span, pass.span_start(x.day, s.span), x.hour, x.stop_id, x.route_id, sum(x.boardings), sum(x.alightings), count(*)
        from (select n.day, n.hour, n.stop_id, n.route_id, n.boardings, n.alightings from new_rows n) x, unnest(array[2, 4, 8, 16]) s(span) group by 1, 2, 3, 4, 5 order by 1, 2, 4, 5, 3
    on conflict (span, first_day, stop_id, route_id, hour) do update
      set boardings = d.boardings + excluded.boardings, alightings = d.alightings + excluded.alightings, day_rows = d.day_rows + excluded.day_rows;
  elsif tg_op = 'UPDATE' then
    insert into pass.stop_hour_span as d (span, first_day, hour, stop_id, route_id, boardings, alightings, day_rows)
      select s.span, pass.span_start(x.day, s.span), x.hour, x.stop_id, x.route_id, sum(x.boardings), sum(x.alightings), 0
        from (select n.day, n.hour, n.stop_id, n.route_id, n.boardings, n.alightings from new_rows n union all select o.day, o.hour, o.stop_id, o.route_id, -o.boardings as boardings, -o.alightings as alightings from old_rows o) x, unnest(array[2, 4, 8, 16]) s(span) group by 1, 2, 3, 4, 5 order by 1, 2, 4, 5, 3
    on conflict (span, first_day, stop_id, route_id, hour) do update
      set boardings = d.boardings + excluded.boardings, alightings = d.alightings + excluded.alightings, day_rows = d.day_rows + excluded.day_rows;
  else
    insert into pass.stop_hour_span as d (span, first_day, hour, stop_id, route_id, boardings, alightings, day_rows)
      select s.span, pass.span_start(x.day, s.span), x.hour, x.stop_id, x.route_id, sum(x.boardings), sum(x.alightings), -count(*)
        from (select o.day, o.hour, o.stop_id, o.route_id, -o.boardings as boardings, -o.alightings as alightings from old_rows o) x, unnest(array[2, 4, 8, 16]) s(span) group by 1, 2, 3, 4, 5 order by 1, 2, 4, 5, 3
    on conflict (span, first_day, stop_id, route_id, hour) do update
      set boardings = d.boardings + excluded.boardings, alightings = d.alightings + excluded.alightings, day_rows = d.day_rows + excluded.day_rows;
    delete from pass.stop_hour_span d
     using (select distinct s.span, pass.span_start(o.day, s.span) as first_day, o.hour, o.stop_id, o.route_id from old_rows o, unnest(array[2, 4, 8, 16]) s(span)) k
     where d.span = k.span and d.first_day = k.first_day and d.stop_id = k.stop_id and d.route_id = k.route_id and d.hour = k.hour and d.day_rows = 0;
  end if;
  return null;
end $$;
create trigger stop_hour_span_insert after insert on pass.stop_hour referencing new table as new_rows
  for each statement execute function pass.stop_hour_span_apply();
create trigger stop_hour_span_update after update on pass.stop_hour referencing old table as old_rows new table as new_rows
  for each statement execute function pass.stop_hour_span_apply();
create trigger stop_hour_span_delete after delete on pass.stop_hour referencing old table as old_rows
  for each statement execute function pass.stop_hour_span_apply();

create function pass.stop_hour_span_clear() returns trigger language plpgsql as $$
begin
  truncate pass.stop_hour_span;
  return null;
end $$;
create trigger stop_hour_span_truncate after truncate on pass.stop_hour for each statement execute function pass.stop_hour_span_clear();
