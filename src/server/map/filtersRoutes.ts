import type { FastifyInstance } from 'fastify';
import type { MapFilters } from '../../shared/map';
import type { Queryable } from '../db/types';
import type { VehicleInfo } from './fleetDirectory';
import { MAP_READ } from './queryParams';

export type FilterVehicle = MapFilters['vehicles'][number];

export function filterVehicle(v: VehicleInfo): FilterVehicle {
  return {
    id: v.id,
    depotNumber: v.depotNumber,
    gosNomer: v.gosNomer,
    model: v.model,
    Depot_id: v.depotId,
    route_id: v.routeId,
    vehicle_type_id: v.vehicleTypeId,
  };
}

/** Routes ordered as a dispatcher reads them: by transport type, then number ('2' before '10'). */
export function filterRoutes(db: Queryable): Promise<MapFilters['routes']> {
  return db.query(
    `select route_id as id, route_short_name as name, route_type from mgt.routes
      order by route_type, length(route_short_name), route_short_name, route_id`,
  );
}

/** Filter data of spec §3: vehicles (with today's route), enterprises (depots), branches, routes. */
export default async function filtersRoutes(app: FastifyInstance): Promise<void> {
  const filters = async (): Promise<MapFilters> => {
    await app.map.directory.ensureLoaded();
    const [depots, branches, routes] = await Promise.all([
      app.db.query<MapFilters['depots'][number]>('select agency_id as id, title as name from mgt.agency order by title, agency_id'),
      app.db.query<MapFilters['branches'][number]>(
        'select depot_id as id, depot_name as name, agency_id from mgt.depot order by depot_name, depot_id',
      ),
      filterRoutes(app.db),
    ]);
    const vehicles = [...app.map.directory.all()].sort((a, b) => a.depotNumber - b.depotNumber || a.id - b.id).map(filterVehicle);
    return { vehicles, depots, branches, routes };
  };
  const summary = 'Данные фильтра карты: ТС (с маршрутом по сегодняшнему наряду), предприятия (depots), филиалы (branches), маршруты';
  app.get('/api/v1/map/filters', { config: MAP_READ, schema: { tags: ['map'], summary } }, filters);
  app.get(
    '/api/v1/map/mobile/filters',
    { config: MAP_READ, schema: { tags: ['map'], summary: `${summary} — для полевого приложения` } },
    filters,
  );
  app.get(
    '/api/v1/map/mobile/filters/map',
    {
      config: MAP_READ,
      schema: { tags: ['map'], summary: 'Маршруты для фильтра карты полевого приложения: { routes }' },
    },
    async (): Promise<Pick<MapFilters, 'routes'>> => ({ routes: await filterRoutes(app.db) }),
  );
}
