import type { FastifyInstance } from 'fastify';
import type { BranchAgency, MapSearchResult } from '../../shared/map';
import { SUGGESTIONS_MAX } from '../../shared/constants';
import type { Queryable } from '../db/types';
import { routeOfVehicleSql } from './assignmentsSql';
import type { FilterVehicle } from './filtersRoutes';
import { operatorDate } from '../platform/operatorDay';
import { MAP_READ, containsPattern } from './queryParams';

const SEARCH_MAX = 20;

/**
 * Vehicles whose depot number starts with the text or whose plate contains it (case- and space-insensitive),
 * with today's route; exact depot numbers first.
 */
function findVehicles(db: Queryable, text: string, today: string, limit: number): Promise<FilterVehicle[]> {
  const plate = text.replace(/\s+/g, '').toUpperCase();
  return db.query<FilterVehicle>(
    `select v.id, v.depot_number as "depotNumber", v.state_number as "gosNomer", v.model, v.depot_id as "Depot_id",
            a.route_id, v.vehicle_type_id
       from mgt.vehicles v
       left join (${routeOfVehicleSql('$4')}) a on a.vehicle_id = v.id
      where v.depot_number::text like $1 escape '\\' or upper(replace(v.state_number, ' ', '')) like $2 escape '\\'
      order by (v.depot_number::text = $3) desc, v.depot_number, v.id
      limit ${limit}`,
    [`${containsPattern(text).slice(1)}`, containsPattern(plate), text, today],
  );
}

export default async function searchRoutes(app: FastifyInstance): Promise<void> {
  const tz = app.map.config.tzOffsetMinutes;
  const text = { type: 'string', minLength: 1, maxLength: 100 } as const;

  app.get<{ Querystring: { number: string } }>(
    '/api/v1/map/vehicles',
    {
      config: MAP_READ,
      schema: {
        tags: ['map'],
        summary: `Поиск ТС по гаражному номеру (начало номера) или госномеру (часть), не более ${SUGGESTIONS_MAX}; элементы как vehicles фильтра карты`,
        querystring: { type: 'object', required: ['number'], properties: { number: text } },
      },
    },
    async (request) => findVehicles(app.db, request.query.number.trim(), operatorDate(Date.now(), tz), SUGGESTIONS_MAX),
  );

  app.get<{ Querystring: { q: string } }>(
    '/api/v1/map/search',
    {
      config: MAP_READ,
      schema: {
        tags: ['map'],
        summary: `Поиск объектов карты: ТС по гаражному номеру или госномеру, маршруты по номеру или названию, предприятия по названию — не более ${SEARCH_MAX} каждого вида`,
        querystring: { type: 'object', required: ['q'], properties: { q: text } },
      },
    },
    async (request): Promise<MapSearchResult> => {
      const q = request.query.q.trim();
      const pattern = containsPattern(q);
      const [vehicles, routes, agencies] = await Promise.all([
        findVehicles(app.db, q, operatorDate(Date.now(), tz), SEARCH_MAX),
        app.db.query<MapSearchResult['routes'][number]>(
          `select route_id, route_short_name, route_long_name, route_type from mgt.routes
          where route_short_name ilike $1 escape '\\' or route_long_name ilike $1 escape '\\'
          order by (lower(route_short_name) = lower($2)) desc, length(route_short_name), route_short_name, route_id
          limit ${SEARCH_MAX}`,
          [pattern, q],
        ),
        app.db.query<BranchAgency['agencies'][number]>(
          `select agency_id as id, title, address, phone, ag_lat as lat, ag_lon as lon from mgt.agency
          where title ilike $1 escape '\\' order by title, agency_id limit ${SEARCH_MAX}`,
          [pattern],
        ),
      ]);
      return { vehicles, routes, agencies };
    },
  );
}
