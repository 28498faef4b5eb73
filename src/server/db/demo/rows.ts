/**
 * One interface per demo table: the keys are the column names of migrations/002_handbooks.sql, the values
 * what is inserted (dates as 'YYYY-MM-DD', timestamps as ISO text, bigints as decimal text, geometry as WKT).
 */
export interface AgencyRow {
  agency_id: number;
  title: string;
  address: string;
  phone: string;
  transporter_id: number;
  ag_lat: number;
  ag_lon: number;
  do_not_update: boolean;
}
export interface DepotRow {
  depot_id: number;
  depot_name: string;
  address: string;
  phone: string;
  agency_id: number;
  dp_lat: number;
  dp_lon: number;
  do_not_update: boolean;
}
export interface TransportTypeRow {
  id: number;
  title: string;
  note: string;
}
export interface CapacityTypeRow {
  id: number;
  code: string;
  title: string;
  seats: number;
}
export interface MarshTypeRow {
  id: number;
  title: string;
}
export interface DepartmentRow {
  td_id: number;
  td_name: string;
  td_adress: string;
  td_phone: string;
  depot_id: number | null;
  td_lat: number;
  td_lon: number;
  td_color: string;
}

export interface DriverRow {
  driver_id: number;
  last_name: string;
  first_name: string;
  middle_name: string | null;
  depot_id: number | null;
  table_number: number;
  td_id: number | null;
  start_date: string;
  end_date: string | null;
  do_not_update: boolean;
}

export interface VehicleRow {
  id: number;
  depot_id: number;
  vehicle_type_id: number;
  model: string;
  capacity_type_id: number;
  depot_number: number;
  state_number: string | null;
  vin: string;
  peer_address: string;
  update_date: string;
  do_not_update: boolean;
}

export interface MntTypeRow {
  id: number;
  name: string;
  type: string;
  version: string;
  is_serial_number: boolean;
}

export interface DevMntRow {
  id: number;
  ip: string;
  DevMNTType_id: number;
  vehicle_id: number;
  peer_address: string;
  serial_number: string | null;
  login: string | null;
  password: string | null;
  port: number | null;
  msip: string | null;
  msport: number | null;
  mslogin: string | null;
  mspassword: string | null;
  msuse: boolean;
}

export interface DevPasspotokRow {
  id: number;
  name: string;
  enable: number | null;
  protocol: string | null;
  door_index: number;
  vehicle_id: number;
  transport: string | null;
  ip: string | null;
  port: number | null;
  addr: string | null;
}

export interface DevGsmRow {
  id: number;
  name: string;
  ModuleEnabled: number;
  vehicle_id: number;
  device_cmd: string;
  device_ppp: string;
}
export interface CameraTypeRow {
  ip: number;
  index: number;
  title: string;
  ip_addr: string;
}
export interface DvrTypeRow {
  id: number;
  name: string;
  type_code: string;
  version: string;
  is_serial_number_identification: boolean;
}

export interface DvrRow {
  id: number;
  vehicle_id: number;
  dvr_type_id: number;
  serial_number: string;
  ip: string;
  port: number;
  login: string;
  password: string;
  media_server_ip: string | null;
  media_server_port: number | null;
  media_server_login: string | null;
  media_server_password: string | null;
  is_media_server_use: boolean;
}

export interface DevCameraRow {
  id: number;
  index: number;
  dvr_id: number;
  camera_addr: number;
}
/** vehicle_id holds the vehicle's depot number (spec section 3), not its id. */
export interface ValidatorRow {
  validator_id: number;
  validator_name: string;
  vehicle_id: number;
}
export interface StopRow {
  stop_id: number;
  stop_name: string;
  note: string | null;
  stop_lat: number;
  stop_lon: number;
  do_not_update: boolean;
}

export interface RouteRow {
  route_id: number;
  route_long_name: string;
  route_type: string;
  MarshType_id: number;
  route_short_name: string;
  route_desc: string;
  Depot_id: number;
  startdate: string;
  enddate: string | null;
  do_not_update: boolean;
}

export interface MarshVariantRow {
  id: number;
  route_id: number;
  startdate: string;
  enddate: string | null;
  description: string;
}
export interface TripRow {
  id: number;
  MarshVariant_id: number;
  race_type: string;
  trajectory: string;
}
export interface TripStopRow {
  id: number;
  trip_id: number;
  stop_id: number;
  stop_sequence: number;
  kkp: 'B' | 'E' | null;
}
export interface HolidayRow {
  id: number;
  route_id: number | null;
  date: string;
  dow: number | null;
}

export interface RaspVariantRow {
  id: number;
  route_id: number;
  dow: number | null;
  srv_id: number;
  startdate: string;
  enddate: string | null;
  do_not_update: boolean;
}

/** Without an id: the bigserial numbers them, in generation order. */
export interface RaspTimeRow {
  RaspVariant_id: number;
  graph: number;
  smena: string;
  racetype: string;
  racenum: number;
  order: number;
  stop_id: number;
  time: number;
}

export interface WorkGraphicTypeRow {
  id: number;
  code: number;
  title: string;
  short: string;
  start: number | null;
  end: number | null;
  work_hours: number;
}
export interface VehicleTaskRow {
  id: number;
  date: string;
  RaspVariant_id: number;
  graph: number;
  smena: string;
  vehicle_id: number;
  driver_id: number;
}

export interface ReplaceVehicleRow {
  id: number;
  date: string;
  RaspVariant_id: number;
  graph: number;
  smena: string;
  vehicle_id: number;
  replace_vehicle_id: number;
  driver_id: number;
  starttime: number;
}

export interface TicketViewRow {
  ticket_kind_id: number;
  ticket_kind_name: string;
}
export interface TicketTypeRow {
  ticket_type_id: number;
  ticket_type_code: string;
  ticket_type_name: string;
  ticket_kind_id: number;
}
export interface DistrictRow {
  district_id: number;
  district_code: string;
  district_name: string;
  geom: string;
}
export interface ControlRegionRow {
  cd_id: number;
  cd_name: string;
  td_id: number;
  geom: string;
}
export interface ControllerEquipmentTypeRow {
  pu_model_id: number;
  pu_model_name: string;
}
export interface ControllerEquipmentRow {
  pu_id: number;
  worker_id: number | null;
  pu_model_id: number;
}
export interface ControllerCardRow {
  card_id: number;
  card_number: string;
  worker_id: number | null;
}
export interface IncidentTypeRow {
  id: number;
  incident_type: number;
  incident_name: string;
  incident_short_name: string;
  incident_color: string;
}
/** A street (house null) or a building of the own geocoder (app.geocoder_address). */
export interface GeocoderAddressRow {
  id: number;
  street: string;
  house: string | null;
  lat: number;
  lon: number;
}

/** The whole demo operator, table by table, in an order that satisfies the foreign keys. */
export interface DemoData {
  transportTypes: TransportTypeRow[];
  capacityTypes: CapacityTypeRow[];
  marshTypes: MarshTypeRow[];
  agencies: AgencyRow[];
  depots: DepotRow[];
  departments: DepartmentRow[];
  drivers: DriverRow[];
  vehicles: VehicleRow[];
  mntTypes: MntTypeRow[];
  mnts: DevMntRow[];
  passengerCounters: DevPasspotokRow[];
  modems: DevGsmRow[];
  cameraTypes: CameraTypeRow[];
  dvrTypes: DvrTypeRow[];
  dvrs: DvrRow[];
  cameras: DevCameraRow[];
  validators: ValidatorRow[];
  stops: StopRow[];
  routes: RouteRow[];
  marshVariants: MarshVariantRow[];
  trips: TripRow[];
  tripStops: TripStopRow[];
  holidays: HolidayRow[];
  raspVariants: RaspVariantRow[];
  raspTimes: RaspTimeRow[];
  workGraphicTypes: WorkGraphicTypeRow[];
  vehicleTasks: VehicleTaskRow[];
  replaceVehicles: ReplaceVehicleRow[];
  ticketViews: TicketViewRow[];
  ticketTypes: TicketTypeRow[];
  districts: DistrictRow[];
  controlRegions: ControlRegionRow[];
  controllerEquipmentTypes: ControllerEquipmentTypeRow[];
  controllerEquipment: ControllerEquipmentRow[];
  controllerCards: ControllerCardRow[];
  incidentTypes: IncidentTypeRow[];
  addresses: GeocoderAddressRow[];
}
