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
  const valid =
    bounds.length === 4 &&
    bounds.every(Number.isFinite) &&
    Number.isInteger(zoom) &&
    zoom >= 0 &&
    zoom <= 22 &&
    bounds[0] <= bounds[2] &&
    bounds[0] >= -90 &&
    bounds[2] <= 90 &&
    vehicles.every((id) => Number.isInteger(id) && id > 0) &&
    vehicles.length <= 10_000;
  return valid ? { bounds: bounds as GeoSubscription['bounds'], zoom, vehicles } : null;
}

/**
 * One item of the geo stream (field-app spec §3 "Map cluster"): a vehicle, or a group of vehicles clustered
 * at this zoom. A group's click zooms in by 2 (GROUP_CLICK_ZOOM_STEP).
 */
export interface MapCluster {
  type: 'vehicle' | 'group';
  /** Vehicle id for a vehicle; for a group an id that stays while its lowest-numbered vehicle stays in it. */
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

/**
 * Server-sent events of the geo stream. A stream starts with `hello`, then the whole picture (`points`); after
 * that each change of the picture comes as a `delta` against the frame before it (or as a whole `points` again
 * after a subscription change, or when the client could not take the previous frame in time). `v` numbers the
 * pictures of one view: a delta applies to the picture numbered `base`; a client holding another reconnects.
 */
export type GeoEvent =
  /** First event: the stream's id, used to change its subscription without reconnecting. */
  | { event: 'hello'; data: { streamId: string } }
  /** The whole picture for the current subscription: replaces whatever the client had. */
  | { event: 'points'; data: { time: string; items: MapCluster[]; v?: number } }
  /** What changed since picture `base` (applyGeoDelta). */
  | { event: 'delta'; data: GeoDelta };

/**
 * A vehicle in a delta, positional to keep frames small (a city view changes most of its groups every second):
 * [id, lat, lon, course, averageSpeed, on (0/1), age] where age = the delta's `at` minus the fix time in ms; when
 * the vehicle is new to the picture or its labels changed, followed by [classRank, depotNumber, route, routeType].
 */
export type GeoDeltaVehicle =
  | [number, number, number, number, number, 0 | 1, number]
  | [number, number, number, number, number, 0 | 1, number, number | null, number | null, string | null, string | null];
/** A group in a delta: [id, count, lat, lon, averageSpeed, on (0/1), age of its newest fix]. */
export type GeoDeltaGroup = [number, number, number, number, number, 0 | 1, number];

export interface GeoDelta {
  /** The picture's time, ISO 8601, and the same in epoch milliseconds (ages count back from it). */
  time: string;
  at: number;
  v: number;
  base: number;
  /** New or changed items: they replace the items of the same clusterKey. */
  vehicles: GeoDeltaVehicle[];
  groups: GeoDeltaGroup[];
  /** clusterKey of each item no longer in the picture. */
  gone: string[];
}

/** An item's key in a picture: its kind and id ('v12' a vehicle, 'g3885' a group). */
export const clusterKey = (item: Pick<MapCluster, 'type' | 'id'>): string => `${item.type === 'group' ? 'g' : 'v'}${item.id}`;

const sameLabels = (a: MapCluster, b: MapCluster) =>
  a.classRank === b.classRank && a.depotNumber === b.depotNumber && a.route === b.route && a.routeType === b.routeType;

/**
 * A changed vehicle as a delta carries it; `before` is the item the client holds (its labels are not resent),
 * `age` the delta's `at` less the item's fix time.
 */
export function deltaVehicle(item: MapCluster, before: MapCluster | undefined, age: number): GeoDeltaVehicle {
  const head: [number, number, number, number, number, 0 | 1, number] = [
    item.id,
    item.center[0],
    item.center[1],
    item.course,
    item.averageSpeed,
    item.on ? 1 : 0,
    age,
  ];
  return before && sameLabels(before, item) ? head : [...head, item.classRank, item.depotNumber, item.route, item.routeType];
}

export function deltaGroup(item: MapCluster, age: number): GeoDeltaGroup {
  return [item.id, item.count, item.center[0], item.center[1], item.averageSpeed, item.on ? 1 : 0, age];
}

/**
 * Applies a delta to a picture (keyed by clusterKey) in place, the caller having checked that the picture is
 * number `base`; false, leaving the picture partly updated, when the delta does not follow it after all (a
 * vehicle whose labels were not sent is not in the picture).
 */
export function applyGeoDelta(picture: Map<string, MapCluster>, delta: GeoDelta): boolean {
  const dates = new Map<number, string>();
  const dateOf = (age: number) => {
    let date = dates.get(age);
    if (date === undefined) dates.set(age, (date = new Date(delta.at - age).toISOString()));
    return date;
  };
  for (const key of delta.gone) picture.delete(key);
  for (const [id, lat, lon, course, averageSpeed, on, age, ...labels] of delta.vehicles) {
    const key = `v${id}`;
    const before = picture.get(key);
    if (labels.length === 0 && !before) return false;
    const [classRank, depotNumber, route, routeType] = labels.length
      ? labels
      : [before!.classRank, before!.depotNumber, before!.route, before!.routeType];
    picture.set(key, {
      type: 'vehicle',
      id,
      count: 1,
      routeType,
      route,
      classRank,
      course,
      on: on === 1,
      date: dateOf(age),
      depotNumber,
      averageSpeed,
      center: [lat, lon],
    });
  }
  for (const [id, count, lat, lon, averageSpeed, on, age] of delta.groups) {
    picture.set(`g${id}`, {
      type: 'group',
      id,
      count,
      routeType: null,
      route: null,
      classRank: null,
      course: 0,
      on: on === 1,
      date: dateOf(age),
      depotNumber: null,
      averageSpeed,
      center: [lat, lon],
    });
  }
  return true;
}

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
  vehicles: {
    id: number;
    depotNumber: number;
    gosNomer: string | null;
    model: string | null;
    Depot_id: number | null;
    route_id: number | null;
    vehicle_type_id: number | null;
  }[];
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
  depots: {
    id: number;
    title: string;
    address: string | null;
    phone: string | null;
    agency_id: number;
    lat: number | null;
    lon: number | null;
  }[];
  departments: {
    id: number;
    title: string;
    address: string | null;
    phone: string | null;
    color: string;
    lat: number | null;
    lon: number | null;
  }[];
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
