import type { FastifyInstance } from 'fastify';
import type { StopDetails } from '../../shared/map';
import type { Queryable } from '../db/types';
import { fail } from '../http/errors';
import { BBOX_SCHEMA, ID_PARAMS, MAP_READ, parseBbox } from './queryParams';

/** A whole-city view holds ~3,000 stops; the map minimises stops at zoom ≤ 12 anyway (spec §2.3). */
export const MAX_STOPS_IN_VIEW = 5000;

/** Stops with the routes whose trips call at them; `where` selects the stops (its parameters follow). */
async function stopsWithRoutes(db: Queryable, where: string, params: unknown[], limit: number): Promise<StopDetails[]> {
  return db.query<StopDetails>(
    `with s as (
       select stop_id, stop_name, stop_lat, stop_lon from mgt.stops where ${where} and geom is not null order by stop_id limit ${limit}
     )
     select s.stop_id as id, s.stop_name as name, s.stop_lat as lat, s.stop_lon as lon,
            coalesce((select json_agg(json_build_object('route_id', r.route_id, 'route_short_name', r.route_short_name, 'route_type', r.route_type)
                                 order by r.route_type, length(r.route_short_name), r.route_short_name)
                        from mgt.routes r
                       where r.route_id in (select mv.route_id from mgt.trip_stops ts
                                              join mgt.trip t on t.id = ts.trip_id
                                              join mgt.marsh_variants mv on mv.id = t."MarshVariant_id"
                                             where ts.stop_id = s.stop_id)), '[]'::json) as routes
       from s order by s.stop_id`,
    params,
  );
}

export default async function stopLayer(app: FastifyInstance): Promise<void> {
  app.get<{ Querystring: { bbox: string } }>(
    '/api/v1/map/stops',
    {
      config: MAP_READ,
      schema: {
        tags: ['map'],
        summary: `Остановки в области карты bbox=юг,запад,север,восток (не более ${MAX_STOPS_IN_VIEW}), с маршрутами через каждую`,
        querystring: { type: 'object', required: ['bbox'], properties: { bbox: BBOX_SCHEMA } },
      },
    },
    async (request) => {
      const [south, west, north, east] = parseBbox(request.query.bbox);
      return stopsWithRoutes(app.db, 'geom && st_makeenvelope($1, $2, $3, $4, 4326)', [west, south, east, north], MAX_STOPS_IN_VIEW);
    },
  );

  app.get<{ Params: { id: number } }>(
    '/api/v1/map/stop/:id',
    {
      config: MAP_READ,
      schema: { tags: ['map'], summary: 'Остановка: название, координаты и маршруты через неё', params: ID_PARAMS },
    },
    async (request) => {
      const [stop] = await stopsWithRoutes(app.db, 'stop_id = $1', [request.params.id], 1);
      if (!stop) throw fail(404, 'not_found');
      return stop;
    },
  );
}
