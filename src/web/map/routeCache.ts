import L from 'leaflet';
import type { MapRoute } from '../../shared/map';
import { transportTypeColor } from '../../shared/transportTypes';
import type { RouteStop } from './layers/layerContent';
import { mapApi, type CallOptions } from './mapApi';
import { parseWktLineString, parseWktPoint, type LatLon } from './wkt';

/** Routes of GET /api/v1/map/routes, fetched once per id while the screen lives, with their parsed geometry. */
export interface DrawnRoute {
  route: MapRoute;
  colour: string;
  lines: LatLon[][];
  stops: RouteStop[];
}

const cache = new Map<number, DrawnRoute>();

export function prepareRoute(route: MapRoute): DrawnRoute {
  const lines = (route.trajectory ?? []).map(parseWktLineString).filter((line): line is LatLon[] => line !== null);
  const seen = new Set<number>();
  const parsed = (route.stops ?? []).flatMap((stop) => {
    const at = parseWktPoint(stop.geo);
    if (!at || seen.has(stop.id)) return [];
    seen.add(stop.id);
    return [{ id: stop.id, name: stop.name, at, terminal: (route.stops ?? []).some((s) => s.id === stop.id && s.terminal === true) }];
  });
  // without terminal flags the first and last stop of the list stand for them
  const flagged = parsed.some((stop) => stop.terminal);
  const stops = flagged ? parsed : parsed.map((stop, i) => ({ ...stop, terminal: i === 0 || i === parsed.length - 1 }));
  const colour = /^#[0-9a-f]{3,8}$/i.test(route.color ?? '') ? route.color : transportTypeColor(route.route_type);
  return { route, colour, lines, stops };
}

export async function loadRoutes(ids: readonly number[], options?: CallOptions): Promise<DrawnRoute[]> {
  const missing = ids.filter((id) => !cache.has(id));
  if (missing.length) for (const route of await mapApi.routes(missing, options)) cache.set(route.route_id, prepareRoute(route));
  return ids.flatMap((id) => cache.get(id) ?? []);
}

export function routeBounds(route: DrawnRoute): L.LatLngBounds | null {
  const points = [...route.lines.flat(), ...route.stops.map((stop) => stop.at)];
  return points.length ? L.latLngBounds(points) : null;
}
