import type { DemoData } from './rows';

/** The SQL type of a column's array parameter; 'geometry' travels as WKT text and goes through ST_GeomFromText. */
export type SqlType = 'int' | 'smallint' | 'bigint' | 'float8' | 'text' | 'bool' | 'date' | 'timestamptz' | 'numeric' | 'geometry';

export interface TableSpec<R> {
  table: string;
  /** The serial key inserted explicitly, whose sequence is moved past the demo rows afterwards. */
  serial?: keyof R & string;
  columns: ReadonlyArray<readonly [keyof R & string, SqlType]>;
}

type Tables = { [K in keyof DemoData]: TableSpec<DemoData[K][number]> };

/** Where each part of DemoData goes; the key order is the load order. */
export const TABLES: Tables = {
  transportTypes: {
    table: 'mgt.transport_type',
    serial: 'id',
    columns: [
      ['id', 'int'],
      ['title', 'text'],
      ['note', 'text'],
    ],
  },
  capacityTypes: {
    table: 'mgt.capacity_type',
    serial: 'id',
    columns: [
      ['id', 'int'],
      ['code', 'text'],
      ['title', 'text'],
      ['seats', 'int'],
    ],
  },
  marshTypes: {
    table: 'mgt.marsh_type',
    serial: 'id',
    columns: [
      ['id', 'int'],
      ['title', 'text'],
    ],
  },
  agencies: {
    table: 'mgt.agency',
    serial: 'agency_id',
    columns: [
      ['agency_id', 'int'],
      ['title', 'text'],
      ['address', 'text'],
      ['phone', 'text'],
      ['transporter_id', 'int'],
      ['ag_lat', 'float8'],
      ['ag_lon', 'float8'],
      ['do_not_update', 'bool'],
    ],
  },
  depots: {
    table: 'mgt.depot',
    serial: 'depot_id',
    columns: [
      ['depot_id', 'int'],
      ['depot_name', 'text'],
      ['address', 'text'],
      ['phone', 'text'],
      ['agency_id', 'int'],
      ['dp_lat', 'float8'],
      ['dp_lon', 'float8'],
      ['do_not_update', 'bool'],
    ],
  },
  departments: {
    table: 'cat.department',
    serial: 'td_id',
    columns: [
      ['td_id', 'int'],
      ['td_name', 'text'],
      ['td_adress', 'text'],
      ['td_phone', 'text'],
      ['depot_id', 'int'],
      ['td_lat', 'float8'],
      ['td_lon', 'float8'],
      ['td_color', 'text'],
    ],
  },
  drivers: {
    table: 'mgt.driver',
    serial: 'driver_id',
    columns: [
      ['driver_id', 'int'],
      ['last_name', 'text'],
      ['first_name', 'text'],
      ['middle_name', 'text'],
      ['depot_id', 'int'],
      ['table_number', 'int'],
      ['td_id', 'int'],
      ['start_date', 'date'],
      ['end_date', 'date'],
      ['do_not_update', 'bool'],
    ],
  },
  vehicles: {
    table: 'mgt.vehicles',
    serial: 'id',
    columns: [
      ['id', 'int'],
      ['depot_id', 'int'],
      ['vehicle_type_id', 'int'],
      ['model', 'text'],
      ['capacity_type_id', 'int'],
      ['depot_number', 'int'],
      ['state_number', 'text'],
      ['vin', 'text'],
      ['peer_address', 'bigint'],
      ['update_date', 'timestamptz'],
      ['do_not_update', 'bool'],
    ],
  },
  mntTypes: {
    table: 'mgt.mnt_type',
    serial: 'id',
    columns: [
      ['id', 'int'],
      ['name', 'text'],
      ['type', 'text'],
      ['version', 'text'],
      ['is_serial_number', 'bool'],
    ],
  },
  mnts: {
    table: 'mgt.dev_mnt',
    serial: 'id',
    columns: [
      ['id', 'int'],
      ['ip', 'text'],
      ['DevMNTType_id', 'int'],
      ['vehicle_id', 'int'],
      ['peer_address', 'bigint'],
      ['serial_number', 'text'],
      ['login', 'text'],
      ['password', 'text'],
      ['port', 'int'],
      ['msip', 'text'],
      ['msport', 'int'],
      ['mslogin', 'text'],
      ['mspassword', 'text'],
      ['msuse', 'bool'],
    ],
  },
  passengerCounters: {
    table: 'mgt.dev_passpotok',
    serial: 'id',
    columns: [
      ['id', 'int'],
      ['name', 'text'],
      ['enable', 'smallint'],
      ['protocol', 'text'],
      ['door_index', 'int'],
      ['vehicle_id', 'int'],
      ['transport', 'text'],
      ['ip', 'text'],
      ['port', 'int'],
      ['addr', 'text'],
    ],
  },
  modems: {
    table: 'mgt.dev_gsm',
    serial: 'id',
    columns: [
      ['id', 'int'],
      ['name', 'text'],
      ['ModuleEnabled', 'smallint'],
      ['vehicle_id', 'int'],
      ['device_cmd', 'text'],
      ['device_ppp', 'text'],
    ],
  },
  cameraTypes: {
    table: 'mgt.dev_camera_type',
    serial: 'ip',
    columns: [
      ['ip', 'int'],
      ['index', 'int'],
      ['title', 'text'],
      ['ip_addr', 'text'],
    ],
  },
  dvrTypes: {
    table: 'mgt.dvr_type',
    serial: 'id',
    columns: [
      ['id', 'int'],
      ['name', 'text'],
      ['type_code', 'text'],
      ['version', 'text'],
      ['is_serial_number_identification', 'bool'],
    ],
  },
  dvrs: {
    table: 'mgt.dvr',
    serial: 'id',
    columns: [
      ['id', 'int'],
      ['vehicle_id', 'int'],
      ['dvr_type_id', 'int'],
      ['serial_number', 'text'],
      ['ip', 'text'],
      ['port', 'int'],
      ['login', 'text'],
      ['password', 'text'],
      ['media_server_ip', 'text'],
      ['media_server_port', 'int'],
      ['media_server_login', 'text'],
      ['media_server_password', 'text'],
      ['is_media_server_use', 'bool'],
    ],
  },
  cameras: {
    table: 'mgt.dev_camera',
    serial: 'id',
    columns: [
      ['id', 'int'],
      ['index', 'int'],
      ['dvr_id', 'int'],
      ['camera_addr', 'int'],
    ],
  },
  validators: {
    table: 'mgt.validator',
    columns: [
      ['validator_id', 'int'],
      ['validator_name', 'text'],
      ['vehicle_id', 'int'],
    ],
  },
  stops: {
    table: 'mgt.stops',
    serial: 'stop_id',
    columns: [
      ['stop_id', 'int'],
      ['stop_name', 'text'],
      ['note', 'text'],
      ['stop_lat', 'float8'],
      ['stop_lon', 'float8'],
      ['do_not_update', 'bool'],
    ],
  },
  routes: {
    table: 'mgt.routes',
    serial: 'route_id',
    columns: [
      ['route_id', 'int'],
      ['route_long_name', 'text'],
      ['route_type', 'text'],
      ['MarshType_id', 'int'],
      ['route_short_name', 'text'],
      ['route_desc', 'text'],
      ['Depot_id', 'int'],
      ['startdate', 'date'],
      ['enddate', 'date'],
      ['do_not_update', 'bool'],
    ],
  },
  marshVariants: {
    table: 'mgt.marsh_variants',
    serial: 'id',
    columns: [
      ['id', 'int'],
      ['route_id', 'int'],
      ['startdate', 'date'],
      ['enddate', 'date'],
      ['description', 'text'],
    ],
  },
  trips: {
    table: 'mgt.trip',
    serial: 'id',
    columns: [
      ['id', 'int'],
      ['MarshVariant_id', 'int'],
      ['race_type', 'text'],
      ['trajectory', 'geometry'],
    ],
  },
  tripStops: {
    table: 'mgt.trip_stops',
    serial: 'id',
    columns: [
      ['id', 'int'],
      ['trip_id', 'int'],
      ['stop_id', 'int'],
      ['stop_sequence', 'int'],
      ['kkp', 'text'],
    ],
  },
  holidays: {
    table: 'mgt.holidays',
    serial: 'id',
    columns: [
      ['id', 'int'],
      ['route_id', 'int'],
      ['date', 'date'],
      ['dow', 'smallint'],
    ],
  },
  raspVariants: {
    table: 'mgt.rasp_variant',
    serial: 'id',
    columns: [
      ['id', 'int'],
      ['route_id', 'int'],
      ['dow', 'smallint'],
      ['srv_id', 'int'],
      ['startdate', 'date'],
      ['enddate', 'date'],
      ['do_not_update', 'bool'],
    ],
  },
  raspTimes: {
    table: 'mgt.rasp_time',
    columns: [
      ['RaspVariant_id', 'int'],
      ['graph', 'int'],
      ['smena', 'text'],
      ['racetype', 'text'],
      ['racenum', 'int'],
      ['order', 'int'],
      ['stop_id', 'int'],
      ['time', 'int'],
    ],
  },
  workGraphicTypes: {
    table: 'cat.work_graphic_type',
    serial: 'id',
    columns: [
      ['id', 'int'],
      ['code', 'int'],
      ['title', 'text'],
      ['short', 'text'],
      ['start', 'int'],
      ['end', 'int'],
      ['work_hours', 'numeric'],
    ],
  },
  vehicleTasks: {
    table: 'mgt.vehicle_task',
    serial: 'id',
    columns: [
      ['id', 'int'],
      ['date', 'date'],
      ['RaspVariant_id', 'int'],
      ['graph', 'int'],
      ['smena', 'text'],
      ['vehicle_id', 'int'],
      ['driver_id', 'int'],
    ],
  },
  replaceVehicles: {
    table: 'mgt.replace_vehicle',
    serial: 'id',
    columns: [
      ['id', 'int'],
      ['date', 'date'],
      ['RaspVariant_id', 'int'],
      ['graph', 'int'],
      ['smena', 'text'],
      ['vehicle_id', 'int'],
      ['replace_vehicle_id', 'int'],
      ['driver_id', 'int'],
      ['starttime', 'int'],
    ],
  },
  ticketViews: {
    table: 'cat.ticket_view',
    serial: 'ticket_kind_id',
    columns: [
      ['ticket_kind_id', 'int'],
      ['ticket_kind_name', 'text'],
    ],
  },
  ticketTypes: {
    table: 'cat.ticket_type',
    serial: 'ticket_type_id',
    columns: [
      ['ticket_type_id', 'int'],
      ['ticket_type_code', 'text'],
      ['ticket_type_name', 'text'],
      ['ticket_kind_id', 'int'],
    ],
  },
  districts: {
    table: 'cat.district',
    serial: 'district_id',
    columns: [
      ['district_id', 'int'],
      ['district_code', 'text'],
      ['district_name', 'text'],
      ['geom', 'geometry'],
    ],
  },
  controlRegions: {
    table: 'cat.control_region',
    serial: 'cd_id',
    columns: [
      ['cd_id', 'int'],
      ['cd_name', 'text'],
      ['td_id', 'int'],
      ['geom', 'geometry'],
    ],
  },
  controllerEquipmentTypes: {
    table: 'cat.controller_equipment_type',
    serial: 'pu_model_id',
    columns: [
      ['pu_model_id', 'int'],
      ['pu_model_name', 'text'],
    ],
  },
  controllerEquipment: {
    table: 'cat.controller_equipment',
    serial: 'pu_id',
    columns: [
      ['pu_id', 'int'],
      ['worker_id', 'int'],
      ['pu_model_id', 'int'],
    ],
  },
  controllerCards: {
    table: 'cat.controller_card',
    serial: 'card_id',
    columns: [
      ['card_id', 'int'],
      ['card_number', 'text'],
      ['worker_id', 'int'],
    ],
  },
  incidentTypes: {
    table: 'adas.incident_type',
    serial: 'id',
    columns: [
      ['id', 'int'],
      ['incident_type', 'int'],
      ['incident_name', 'text'],
      ['incident_short_name', 'text'],
      ['incident_color', 'text'],
    ],
  },
  addresses: {
    table: 'app.geocoder_address',
    serial: 'id',
    columns: [
      ['id', 'int'],
      ['street', 'text'],
      ['house', 'text'],
      ['lat', 'float8'],
      ['lon', 'float8'],
    ],
  },
};
