-- Spec section 3: a validator's vehicle_id links to the vehicle by depot number, so files from the ticketing
-- side (which know vehicles by their depot number) read as they are. The column now holds the depot number;
-- depot numbers need not be unique across depots, so no foreign key: the service checks the link.
alter table mgt.validator drop constraint if exists validator_vehicle_id_fkey;
update mgt.validator v set vehicle_id = ve.depot_number from mgt.vehicles ve where ve.id = v.vehicle_id;
create index if not exists validator_vehicle_idx on mgt.validator (vehicle_id);
