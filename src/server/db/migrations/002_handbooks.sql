-- Handbooks of spec section 3, in the schemas the spec names (mgt, cat, adas). Column names are the spec's
-- field names, so the API, the schemas/ definitions and the tables speak one vocabulary.
create schema if not exists mgt;
create schema if not exists cat;
create schema if not exists adas;

create table mgt.agency (
  agency_id serial primary key,
  title text not null,
  address text,
  phone text,
  transporter_id int not null check (transporter_id between 0 and 32767),
  ag_lat double precision,
  ag_lon double precision,
  do_not_update boolean not null default true
);

create table mgt.depot (
  depot_id serial primary key,
  depot_name text not null,
  address text,
  phone text,
  agency_id int not null references mgt.agency (agency_id),
  dp_lat double precision,
  dp_lon double precision,
  do_not_update boolean not null default true
);

create table mgt.transport_type (
  id serial primary key,
  title text not null,
  note text not null
);

create table mgt.capacity_type (
  id serial primary key,
  code text not null,
  title text not null,
  seats int not null
);

create table mgt.marsh_type (
  id serial primary key,
  title text
);

create table cat.department (
  td_id serial primary key,
  td_name text not null,
  td_adress text not null,
  td_phone text,
  depot_id int references mgt.depot (depot_id),
  td_lat double precision,
  td_lon double precision,
  td_color text not null default '#000000'
);

create table mgt.driver (
  driver_id serial primary key,
  last_name text not null,
  first_name text not null,
  middle_name text,
  depot_id int references mgt.depot (depot_id),
  table_number int not null,
  td_id int references cat.department (td_id),
  start_date date,
  end_date date,
  do_not_update boolean not null default true
);
create index driver_depot_idx on mgt.driver (depot_id);

create table mgt.vehicles (
  id serial primary key,
  depot_id int references mgt.depot (depot_id),
  vehicle_type_id int references mgt.transport_type (id),
  model varchar(50),
  capacity_type_id int references mgt.capacity_type (id),
  depot_number int not null check (depot_number between 0 and 2147483647),
  state_number varchar(12),
  vin varchar(25),
  peer_address bigint check (peer_address >= 0),
  update_date timestamptz,
  do_not_update boolean not null default true
);
create index vehicles_depot_idx on mgt.vehicles (depot_id);
create index vehicles_peer_address_idx on mgt.vehicles (peer_address);

create table mgt.mnt_type (
  id serial primary key,
  name text not null,
  type text not null,
  version text not null,
  is_serial_number boolean not null default false
);

create table mgt.dev_mnt (
  id serial primary key,
  ip text not null,
  "DevMNTType_id" int not null references mgt.mnt_type (id),
  vehicle_id int not null references mgt.vehicles (id),
  peer_address bigint not null,
  serial_number text,
  login text,
  password text,
  port int,
  msip text,
  msport int,
  mslogin text,
  mspassword text,
  msuse boolean not null default false
);
create index dev_mnt_peer_address_idx on mgt.dev_mnt (peer_address);

create table mgt.dev_passpotok (
  id serial primary key,
  name text not null,
  enable smallint,
  protocol text,
  door_index int,
  vehicle_id int not null references mgt.vehicles (id),
  transport text,
  ip text,
  port int,
  addr text
);

create table mgt.dev_gsm (
  id serial primary key,
  name text,
  "ModuleEnabled" smallint not null,
  vehicle_id int references mgt.vehicles (id),
  device_cmd text not null,
  device_ppp text not null
);

create table mgt.dev_camera_type (
  ip serial primary key,
  index int not null,
  title text not null,
  ip_addr text
);

create table mgt.dvr_type (
  id serial primary key,
  name varchar(255) not null,
  type_code text,
  version text,
  is_serial_number_identification boolean not null default false
);

create table mgt.dvr (
  id serial primary key,
  vehicle_id int not null references mgt.vehicles (id),
  dvr_type_id int references mgt.dvr_type (id),
  serial_number varchar(255),
  ip text,
  port int check (port between 1 and 65535),
  login varchar(255),
  password varchar(255),
  media_server_ip text,
  media_server_port int check (media_server_port between 1 and 65535),
  media_server_login varchar(255),
  media_server_password varchar(255),
  is_media_server_use boolean not null default false
);

create table mgt.dev_camera (
  id serial primary key,
  index int not null,
  dvr_id int not null references mgt.dvr (id) on delete cascade,
  camera_addr int not null references mgt.dev_camera_type (ip)
);

create table mgt.validator (
  validator_id int primary key,
  validator_name text,
  vehicle_id int not null references mgt.vehicles (id)
);

create table mgt.stops (
  stop_id serial primary key,
  stop_name text not null,
  note text,
  stop_lat double precision,
  stop_lon double precision,
  geom geometry(Point, 4326) generated always as (
    case when stop_lat is null or stop_lon is null then null else st_setsrid(st_makepoint(stop_lon, stop_lat), 4326) end
  ) stored,
  do_not_update boolean not null default true
);
create index stops_geom_idx on mgt.stops using gist (geom);

create table mgt.routes (
  route_id serial primary key,
  route_long_name text not null,
  route_type text not null,
  "MarshType_id" int not null references mgt.marsh_type (id),
  route_short_name text not null,
  route_desc text not null,
  "Depot_id" int references mgt.depot (depot_id),
  startdate date,
  enddate date,
  do_not_update boolean not null default true
);

create table mgt.marsh_variants (
  id serial primary key,
  route_id int not null references mgt.routes (route_id) on delete cascade,
  startdate date,
  enddate date,
  description text
);

create table mgt.trip (
  id serial primary key,
  "MarshVariant_id" int not null references mgt.marsh_variants (id) on delete cascade,
  race_type text not null,
  trajectory geometry(Geometry, 4326) not null
);
create index trip_variant_idx on mgt.trip ("MarshVariant_id");

create table mgt.trip_stops (
  id serial primary key,
  trip_id int not null references mgt.trip (id) on delete cascade,
  stop_id int not null references mgt.stops (stop_id),
  stop_sequence int not null,
  kkp text check (kkp in ('B', 'E'))
);
create index trip_stops_trip_idx on mgt.trip_stops (trip_id, stop_sequence);
create index trip_stops_stop_idx on mgt.trip_stops (stop_id);

create table mgt.holidays (
  id serial primary key,
  route_id int references mgt.routes (route_id) on delete cascade,
  date date not null,
  dow smallint check (dow between 0 and 6)
);

create table mgt.rasp_variant (
  id serial primary key,
  route_id int not null references mgt.routes (route_id) on delete cascade,
  dow smallint check (dow between 0 and 6),
  srv_id int not null,
  startdate date not null,
  enddate date,
  do_not_update boolean not null default true,
  check (enddate is null or enddate > startdate)
);
create index rasp_variant_route_idx on mgt.rasp_variant (route_id);

-- Millions of rows for a large city: no foreign keys on the hot import path, indexes for the list screen.
create table mgt.rasp_time (
  id bigserial primary key,
  "RaspVariant_id" int not null,
  graph int not null,
  smena text not null,
  racetype text not null,
  racenum int not null,
  "order" int not null,
  stop_id int not null,
  time int not null
);
create index rasp_time_variant_idx on mgt.rasp_time ("RaspVariant_id", graph, smena, racenum, "order");
create index rasp_time_stop_idx on mgt.rasp_time (stop_id, time);

create table cat.work_graphic_type (
  id serial primary key,
  code int not null,
  title text not null,
  short text not null,
  start int,
  "end" int,
  work_hours numeric
);

create table mgt.vehicle_task (
  id serial primary key,
  date date not null,
  "RaspVariant_id" int not null references mgt.rasp_variant (id) on delete cascade,
  graph int not null,
  smena text not null,
  vehicle_id int not null references mgt.vehicles (id),
  driver_id int not null references mgt.driver (driver_id)
);
create index vehicle_task_date_idx on mgt.vehicle_task (date, vehicle_id);

create table mgt.replace_vehicle (
  id serial primary key,
  date date not null,
  "RaspVariant_id" int not null references mgt.rasp_variant (id) on delete cascade,
  graph int not null,
  smena text not null,
  vehicle_id int not null references mgt.vehicles (id),
  replace_vehicle_id int not null references mgt.vehicles (id),
  driver_id int not null references mgt.driver (driver_id),
  starttime int not null
);

create table cat.ticket_view (
  ticket_kind_id serial primary key,
  ticket_kind_name text not null
);

create table cat.ticket_type (
  ticket_type_id serial primary key,
  ticket_type_code text not null,
  ticket_type_name text not null,
  ticket_kind_id int references cat.ticket_view (ticket_kind_id)
);

create table cat.district (
  district_id serial primary key,
  district_code text not null,
  district_name text not null,
  geom geometry(Geometry, 4326) not null
);

create table cat.control_region (
  cd_id serial primary key,
  cd_name text not null,
  td_id int references cat.department (td_id),
  geom geometry(Geometry, 4326) not null
);

create table cat.controller_equipment_type (
  pu_model_id serial primary key,
  pu_model_name text not null
);

create table cat.controller_equipment (
  pu_id serial primary key,
  worker_id int references mgt.driver (driver_id),
  pu_model_id int not null references cat.controller_equipment_type (pu_model_id)
);

create table cat.controller_card (
  card_id serial primary key,
  card_number text not null,
  worker_id int references mgt.driver (driver_id)
);

create table adas.incident_type (
  id serial primary key,
  incident_type int not null check (incident_type between 0 and 99999999),
  incident_name varchar(256) not null,
  incident_short_name varchar(32),
  incident_color text not null default '#000000'
);
