import type { PickerKind } from '../../shared/reports/types';

/** The lists the filter modal offers per picker kind: id and a name to read and search. */
export const PICKER_SQL: Readonly<Record<PickerKind, string>> = {
  vehicles: `select id, concat_ws(' ', depot_number::text, state_number) as name from mgt.vehicles order by depot_number, id`,
  routes: `select route_id as id, concat_ws(' ', route_short_name, route_long_name) as name from mgt.routes order by route_short_name, route_id`,
  depots: `select depot_id as id, depot_name as name from mgt.depot order by depot_name, depot_id`,
  users: `select id, username as name from app.users order by username, id`,
  incidentTypes: `select distinct on (incident_type) incident_type as id, concat_ws(' ', incident_type::text, incident_name) as name
    from adas.incident_type order by incident_type, id`,
  departments: `select td_id as id, td_name as name from cat.department order by td_name, td_id`,
  // ticket controllers: employees of a territorial department without a depot (drivers have one)
  controllers: `select driver_id as id, concat_ws(' ', last_name, first_name, middle_name, '(' || table_number || ')') as name
    from mgt.driver where td_id is not null and depot_id is null order by last_name, first_name, driver_id`,
  stops: `select stop_id as id, concat_ws(' ', stop_name, '(' || stop_id || ')') as name from mgt.stops order by stop_name, stop_id`,
  ticketTypes: `select ticket_type_id as id, concat_ws(' ', ticket_type_code, ticket_type_name) as name from cat.ticket_type order by ticket_type_code, ticket_type_id`,
};

/** The filter modal lists at most this many; a larger list is narrowed by its search box first. */
export const PICKER_MAX = 20_000;
