import type { FastifyInstance } from 'fastify';
import type { MapRoute, MapStop, RouteTrajectory } from '../../shared/map';
import { transportTypeColor } from '../../shared/transportTypes';
import { fail } from '../http/errors';
import type { Queryable } from '../db/types';
import { operatorDate } from '../platform/operatorDay';
import { ID_PARAMS, IDS_SCHEMA, MAP_READ, parseIds, pushTo } from './queryParams';

const MAX_ROUTES = 1000;

interface TripRow {
  route_id: number;
  trip_id: number;
  race_type: string;
  wkt: string;
  in_force: boolean;
}

/**
 * The line trips of routes: one per trip of the variants in force today (all variants when none is), as WKT
 * rounded to 6 decimals (10 cm). Multi-line trajectories are left out: the map draws single lines only (spec §2).
 */
async function tripLines(db: Queryable, routeIds: number[], today: string): Promise<Map<number, TripRow[]>> {
  const rows = await db.query<TripRow>(
    `select mv.route_id, t.id as trip_id, t.race_type, st_astext(t.trajectory, 6) as wkt,
            (coalesce(mv.startdate, $2::date) <= $2::date and coalesce(mv.enddate, $2::date) >= $2::date) as in_force
       from mgt.trip t join mgt.marsh_variants mv on mv.id = t."MarshVariant_id"
      where mv.route_id = any($1::int[]) and geometrytype(t.trajectory) = 'LINESTRING'
      order by mv.route_id, t.id`,
    [routeIds, today],
  );
  const byRoute = new Map<number, TripRow[]>();
  for (const row of rows) pushTo(byRoute, row.route_id, row);
  for (const [routeId, trips] of byRoute) {
    const inForce = trips.filter((trip) => trip.in_force);
    if (inForce.length > 0) byRoute.set(routeId, inForce);
  }
  return byRoute;
}

/** The stops of the routes' trips in trip order, each once, terminal when it begins or ends a trip (kkp B/E). */
async function routeStops(db: Queryable, routeIds: number[]): Promise<Map<number, MapStop[]>> {
  const rows = await db.query<{ route_id: number; id: number; name: string; geo: string; terminal: boolean }>(
    `select mv.route_id, s.stop_id as id, s.stop_name as name, st_astext(s.geom, 6) as geo,
            bool_or(ts.kkp in ('B', 'E')) as terminal, min(t.id * 10000 + ts.stop_sequence) as ord
       from mgt.trip_stops ts
       join mgt.trip t on t.id = ts.trip_id
       join mgt.marsh_variants mv on mv.id = t."MarshVariant_id"
       join mgt.stops s on s.stop_id = ts.stop_id
      where mv.route_id = any($1::int[]) and s.geom is not null
      group by mv.route_id, s.stop_id, s.stop_name, s.geom
      order by mv.route_id, ord`,
    [routeIds],
  );
  const byRoute = new Map<number, MapStop[]>();
  for (const { route_id, id, name, geo, terminal } of rows) {
    const stop: MapStop = { id, name, geo, ...(terminal ? { terminal: true } : {}) };
    pushTo(byRoute, route_id, stop);
  }
  return byRoute;
}

export default async function routeLayer(app: FastifyInstance): Promise<void> {
  const tz = app.map.config.tzOffsetMinutes;

  app.get<{ Querystring: { q: string } }>(
    '/api/v1/map/routes',
    {
      config: MAP_READ,
      schema: {
        tags: ['map'],
        summary: `Маршруты для карты по списку id (до ${MAX_ROUTES}): цвет по виду транспорта, траектории рейсов (WKT LINESTRING; MULTILINESTRING пропускаются), остановки с признаком конечной`,
        querystring: { type: 'object', required: ['q'], properties: { q: IDS_SCHEMA } },
      },
    },
    async (request): Promise<MapRoute[]> => {
      const ids = parseIds(request.query.q, MAX_ROUTES);
      const routes = await app.db.query<{ route_id: number; route_short_name: string; route_long_name: string; route_type: string }>(
        'select route_id, route_short_name, route_long_name, route_type from mgt.routes where route_id = any($1::int[]) order by route_id',
        [ids],
      );
      if (routes.length === 0) return [];
      const found = routes.map((route) => route.route_id);
      const [lines, stops] = await Promise.all([tripLines(app.db, found, operatorDate(Date.now(), tz)), routeStops(app.db, found)]);
      return routes.map((route) => ({
        ...route,
        color: transportTypeColor(route.route_type),
        trajectory: (lines.get(route.route_id) ?? []).map((trip) => trip.wkt),
        stops: stops.get(route.route_id) ?? [],
      }));
    },
  );

  app.get<{ Params: { id: number } }>(
    '/api/v1/map/route/trajectory/:id',
    {
      config: MAP_READ,
      schema: {
        tags: ['map'],
        summary: 'Траектории рейсов маршрута (WKT LINESTRING по рейсу, с типом рейса A/B); многолинейные траектории пропускаются',
        params: ID_PARAMS,
      },
    },
    async (request): Promise<RouteTrajectory> => {
      const { id } = request.params;
      const [route] = await app.db.query('select 1 from mgt.routes where route_id = $1', [id]);
      if (!route) throw fail(404, 'not_found');
      const lines = await tripLines(app.db, [id], operatorDate(Date.now(), tz));
      return {
        route_id: id,
        trips: (lines.get(id) ?? []).map(({ trip_id, race_type, wkt }) => ({ trip_id, race_type, trajectory: wkt })),
      };
    },
  );
}
