/**
 * The live map's contract between the server (src/server/map, src/server/geo) and the front ends: payloads of
 * the map REST calls (console spec §7 Map, field-app spec §3 and §7) and of the geo stream.
 * Coordinates are WGS 84 degrees; geometries travel as WKT text ("text geometry").
 */

/** Region corners, zoom and vehicle ids: what a geo stream client watches (field-app spec §7). */
export interface GeoSubscription {
  /** [south, west, north, east] */
  bounds: [number, number, number, number];
  zoom: number;
  /** Only these vehicles (the map filter); empty = every vehicle the user may see. */
  vehicles: number[];
}

/** `q` of /geoapi/v1/geo/1?q=...: "south,west,north,east;zoom;id,id,..." (compact, URL-safe after encoding). */
export function serializeGeoSubscription(subscription: GeoSubscription): string {
  const bounds = subscription.bounds.map((value) => value.toFixed(5)).join(',');
  return `${bounds};${Math.round(subscription.zoom)};${subscription.vehicles.join(',')}`;
}

export function parseGeoSubscription(q: string): GeoSubscription | null {
  const [boundsText, zoomText, vehiclesText = ''] = q.split(';');
  const bounds = (boundsText ?? '').split(',').map(Number);
  const zoom = Number(zoomText);
  const vehicles = vehiclesText ? vehiclesText.split(',').map(Number) : [];
  const valid = bounds.length === 4 && bounds.every(Number.isFinite) && Number.isInteger(zoom) && zoom >= 0 && zoom <= 22
    && bounds[0] <= bounds[2] && bounds[0] >= -90 && bounds[2] <= 90 && vehicles.every((id) => Number.isInteger(id) && id > 0)
    && vehicles.length <= 10_000;
  return valid ? { bounds: bounds as GeoSubscription['bounds'], zoom, vehicles } : null;
}

/**
 * One item of the geo stream (field-app spec §3 "Map cluster"): a vehicle, or a group of vehicles clustered
 * at this zoom. A group's click zooms in by 2 (GROUP_CLICK_ZOOM_STEP).
 */
export interface MapCluster {
  type: 'vehicle' | 'group';
  /** Vehicle id for a vehicle; the cluster id for a group. */
  id: number;
  count: number;
  /** Transport type code of the vehicle's route (route_type), null when not on a route. */
  routeType: string | null;
  /** Route short name the vehicle works on today, if any. */
  route: string | null;
  /** Capacity class rank 1..4 (МК, СК, БК, ОБК) → VEHICLE_CLASS_COLORS. */
  classRank: number | null;
  course: number;
  /** Reporting recently (true) or stale / disconnected (false). */
  on: boolean;
  /** Fix time, ISO 8601. */
  date: string;
  depotNumber: number | null;
  /** km/h; for a group the average of its vehicles. */
  averageSpeed: number;
  /** [lat, lon] */
  center: [number, number];
}

/** Server-sent events of the geo stream. */
export type GeoEvent =
  /** First event: the stream's id, used to change its subscription without reconnecting. */
  | { event: 'hello'; data: { streamId: string } }
  /** The whole picture for the current subscription (sent on subscribe and whenever something in view moved). */
  | { event: 'points'; data: { time: string; items: MapCluster[] } };

/** PUT /geoapi/v1/geo/1/{streamId} body: the new region, zoom and vehicles after a pan, zoom or filter change. */
export type GeoSubscriptionUpdate = { q: string };

export const GEO_STREAM_PATH = '/geoapi/v1/geo/1';
export const GROUP_CLICK_ZOOM_STEP = 2;
export const VEHICLE_LOCATE_ZOOM = 16;
/** Stops are minimised (first and last stop of each route only) at this zoom or lower. */
export const STOPS_MINIMISED_MAX_ZOOM = 12;
/** A vehicle that has not reported for this long is shown as off. */
export const VEHICLE_STALE_MS = 5 * 60_000;

/** GET /api/v1/map/routes?q=1,2,3 */
export interface MapRoute {
  route_id: number;
  route_short_name: string;
  route_long_name: string;
  route_type: string;
  color: string;
  /** One trajectory line per trip direction, WKT LINESTRING (multi-line trajectories are skipped). */
  trajectory: string[];
  stops: MapStop[];
}

export interface MapStop {
  id: number;
  name: string;
  /** WKT POINT */
  geo: string;
  /** First or last stop of a trip (kept when stops are minimised). */
  terminal?: boolean;
}

/** GET /api/v1/map/route/trajectory/{id} */
export interface RouteTrajectory {
  route_id: number;
  trips: { trip_id: number; race_type: string; trajectory: string }[];
}

/** GET /api/v1/map/filters (console) and /api/v1/map/mobile/filters (field app): spec "Filter data". */
export interface MapFilters {
  vehicles: { id: number; depotNumber: number; gosNomer: string | null; model: string | null; Depot_id: number | null; route_id: number | null; vehicle_type_id: number | null }[];
  /** Enterprises (agencies). */
  depots: { id: number; name: string }[];
  /** Branches (parks). */
  branches: { id: number; name: string; agency_id: number }[];
  routes: { id: number; name: string; route_type: string }[];
}

/** GET /api/v1/map/online?q=ids and /api/v1/map/online/{id}: field-app spec §3 "Vehicle (online)". */
export interface OnlineVehicle {
  id: number;
  routeType: string | null;
  route: string | null;
  route_id: number | null;
  model: string | null;
  gosNomer: string | null;
  depotNumber: number;
  agency: string | null;
  branch: string | null;
  Depot_id: number | null;
  driverFirstName: string | null;
  driverMiddleName: string | null;
  driverLastName: string | null;
  cameraCount: number;
  /** WKT POINT of the latest position, null when never seen. */
  center: string | null;
  classRank: number | null;
  speed: number | null;
  course: number | null;
  /** ISO time of the latest fix. */
  time: string | null;
}

/** GET /api/v1/map/branchagency */
export interface BranchAgency {
  agencies: { id: number; title: string; address: string | null; phone: string | null; lat: number | null; lon: number | null }[];
  depots: { id: number; title: string; address: string | null; phone: string | null; agency_id: number; lat: number | null; lon: number | null }[];
  departments: { id: number; title: string; address: string | null; phone: string | null; color: string; lat: number | null; lon: number | null }[];
}

/**
 * GET /api/v1/map/vehicles?number= : vehicles whose depot number starts with, or plate contains, the text (at most
 * 50; the same items as MapFilters.vehicles). GET /api/v1/map/mobile/filters/map : `{ routes: MapFilters['routes'] }`.
 */
export type MapVehicleItem = MapFilters['vehicles'][number];

/** GET /api/v1/map/search?q= : vehicles by depot number or plate, routes by number or name, agencies by title; ≤ 20 each. */
export interface MapSearchResult {
  vehicles: MapVehicleItem[];
  routes: { route_id: number; route_short_name: string; route_long_name: string; route_type: string }[];
  agencies: BranchAgency['agencies'];
}

/** GET /api/v1/map/stops?bbox=south,west,north,east → StopDetails[] in view (capped); GET /api/v1/map/stop/{id} → one with its routes. */
export interface StopDetails {
  id: number;
  name: string;
  lat: number;
  lon: number;
  routes: { route_id: number; route_short_name: string; route_type: string }[];
}

/** GET /api/v1/map/incident-types (console) = GET /api/v1/adas/incidents-types (field app). */
export interface IncidentType {
  incidentType: number;
  colour: string;
  shortName: string | null;
  /** 'ISPV event {type}' when the handbook has no name (spec §3). */
  name: string;
}

/** GET /api/v1/map/incidents?from=&to=&bbox= : the driver-assistance incident layer (spec §3 Incident event). */
export interface IncidentEvent {
  id: number;
  depot_number: number | null;
  incident_type: number;
  tm: string;
  speed: number | null;
  lat: number;
  lon: number;
}

/** POST /api/v1/map/vehicles/period { vehicleId, from, to } → the vehicle's track (previous data). */
export interface TrackPoint {
  tm: string;
  lat: number;
  lon: number;
  speed: number;
  course: number;
}
