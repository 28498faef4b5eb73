-- ADAS incident analytics (issue 11): what an incident carries beyond spec section 3's fields (the trip and
-- driver it was matched to (the schedule's race number beside the trip), the unit's evidence files, the source that sent it), its review, the duplicate
-- rule, and the work (trips, kilometres) the rates per 100 km and per 1,000 trips divide by.
alter table adas.incident_event
  add column trip_id int,
  add column race_num int,
  add column driver_id int,
  add column evidence text[],
  add column source_id int,
  add column review text check (review in ('confirmed', 'false_alarm')),
  add column review_comment text,
  add column reviewed_by int,
  add column reviewed_at timestamptz;

-- A duplicate is the same vehicle, type and time: a unit resending a batch stores each incident once.
delete from adas.incident_event e using adas.incident_event d
 where d.vehicle_id = e.vehicle_id and d.incident_type = e.incident_type and d.tm = e.tm and d.id < e.id;
create unique index incident_event_once_idx on adas.incident_event (vehicle_id, incident_type, tm);
create index incident_event_route_idx on adas.incident_event (route_id, tm desc);

-- Work done per operator day, vehicle and route: trips run and kilometres driven on them. The simulator
-- writes the days it drives (and the demo its history); a real installation fills it from its trip
-- accounting (or the schedule executed). Reports over a period sum it.
create table adas.route_work (
  day date not null,
  vehicle_id int not null,
  route_id int not null,
  trips int not null check (trips >= 0),
  km real not null check (km >= 0),
  primary key (day, vehicle_id, route_id)
);
create index route_work_route_idx on adas.route_work (route_id, day);
