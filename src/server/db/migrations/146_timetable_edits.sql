-- Counters of the edits of what a day's plan is made from (src/server/platform/timetableVersion.ts): every
-- statement that writes the network's or the day's tables draws a number, so the live timetable and the simulator
-- see an edit in place (a time moved in «Расписание», a stop moved on the map) that changes no count and no
-- highest id. Sequences, not a counter row: writers never wait for each other, and a rolled-back edit only costs
-- one needless reload.
create sequence mgt.network_edits;
create sequence mgt.timetable_edits;

create function mgt.count_network_edit() returns trigger language plpgsql as $$
begin
  perform nextval('mgt.network_edits');
  return null;
end $$;

create function mgt.count_timetable_edit() returns trigger language plpgsql as $$
begin
  perform nextval('mgt.timetable_edits');
  return null;
end $$;

do $$
declare
  t text;
begin
  foreach t in array array['stops', 'trip', 'trip_stops', 'routes', 'marsh_variants', 'vehicles'] loop
    execute format('create trigger %I after insert or update or delete or truncate on mgt.%I for each statement execute function mgt.count_network_edit()', t || '_network_edit', t);
  end loop;
  foreach t in array array['rasp_variant', 'rasp_time', 'holidays', 'vehicle_task', 'replace_vehicle'] loop
    execute format('create trigger %I after insert or update or delete or truncate on mgt.%I for each statement execute function mgt.count_timetable_edit()', t || '_timetable_edit', t);
  end loop;
end $$;
