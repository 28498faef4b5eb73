-- Indexes for the live map's reads (src/server/map, src/server/simulator): today's assignments by date,
-- replacements by date, a vehicle's recorders (camera count of the vehicle popup), variants of a route.
create index if not exists vehicle_task_date_exit_idx on mgt.vehicle_task (date, "RaspVariant_id", graph, smena);
create index if not exists replace_vehicle_date_idx on mgt.replace_vehicle (date, replace_vehicle_id);
create index if not exists dvr_vehicle_idx on mgt.dvr (vehicle_id);
create index if not exists dev_camera_dvr_idx on mgt.dev_camera (dvr_id);
create index if not exists marsh_variants_route_idx on mgt.marsh_variants (route_id);
create index if not exists vehicles_depot_number_idx on mgt.vehicles (depot_number);
