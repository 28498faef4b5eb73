import type { FastifyInstance } from 'fastify';
import type { OnlineVehicle } from '../../shared/map';
import { fail } from '../http/errors';
import { currentTaskSql } from './assignmentsSql';
import { operatorDate, operatorMinuteOfDay } from '../platform/operatorDay';
import { ID_PARAMS, IDS_SCHEMA, MAP_READ, parseIds } from './queryParams';
import { classRankOf } from './vehicleClass';

const MAX_IDS = 500;

interface Row {
  id: number;
  model: string | null;
  gosNomer: string | null;
  depotNumber: number;
  Depot_id: number | null;
  agency: string | null;
  branch: string | null;
  route_id: number | null;
  route: string | null;
  routeType: string | null;
  driverFirstName: string | null;
  driverMiddleName: string | null;
  driverLastName: string | null;
  cameraCount: number;
  capacity_code: string | null;
}

/** "Vehicle (online)" of field-app spec §3: handbook data, today's route and driver, cameras, latest position. */
export default async function onlineRoutes(app: FastifyInstance): Promise<void> {
  const tz = app.map.config.tzOffsetMinutes;

  const online = async (ids: number[]): Promise<OnlineVehicle[]> => {
    const now = Date.now();
    const rows = await app.db.query<Row>(
      `select v.id, v.model, v.state_number as "gosNomer", v.depot_number as "depotNumber", v.depot_id as "Depot_id",
              a.title as agency, d.depot_name as branch, ct.route_id, r.route_short_name as route,
              -- Not on a route today: the vehicle's own transport type still tells the popup what it is.
              coalesce(r.route_type, nullif(tt.note, '-')) as "routeType",
              dr.first_name as "driverFirstName", dr.middle_name as "driverMiddleName", dr.last_name as "driverLastName",
              (select count(*)::int from mgt.dev_camera c join mgt.dvr x on x.id = c.dvr_id where x.vehicle_id = v.id) as "cameraCount",
              cap.code as capacity_code
         from mgt.vehicles v
         left join mgt.depot d on d.depot_id = v.depot_id
         left join mgt.agency a on a.agency_id = d.agency_id
         left join mgt.transport_type tt on tt.id = v.vehicle_type_id
         left join mgt.capacity_type cap on cap.id = v.capacity_type_id
         left join (${currentTaskSql('$2', '$1', '$3')}) ct on ct.vehicle_id = v.id
         left join mgt.routes r on r.route_id = ct.route_id
         left join mgt.driver dr on dr.driver_id = ct.driver_id
        where v.id = any($1::int[])
        order by v.id`,
      [ids, operatorDate(now, tz), Math.floor(operatorMinuteOfDay(now, tz))],
    );
    return rows.map(({ capacity_code, ...row }) => {
      const latest = app.telemetry.latest.get(row.id);
      // without a task today, the route of the run the live timetable matched it to (the directory holds it)
      const matched = row.route_id === null ? app.map.directory.get(row.id) : undefined;
      return {
        ...row,
        ...(matched?.routeId && { route_id: matched.routeId, route: matched.routeShortName, routeType: matched.routeType }),
        classRank: classRankOf(capacity_code),
        center: latest ? `POINT(${latest.lon.toFixed(6)} ${latest.lat.toFixed(6)})` : null,
        speed: latest?.speed ?? null,
        course: latest?.course ?? null,
        time: latest ? new Date(latest.time).toISOString() : null,
      };
    });
  };

  app.get<{ Querystring: { q: string } }>(
    '/api/v1/map/online',
    {
      config: MAP_READ,
      schema: {
        tags: ['map'],
        summary: `Сведения о ТС на карте по списку id (до ${MAX_IDS}): вид транспорта, маршрут и водитель по сегодняшнему наряду, предприятие, филиал, число камер, последняя точка (center — WKT POINT)`,
        querystring: { type: 'object', required: ['q'], properties: { q: IDS_SCHEMA } },
      },
    },
    async (request) => online(parseIds(request.query.q, MAX_IDS)),
  );

  app.get<{ Params: { id: number } }>(
    '/api/v1/map/online/:id',
    {
      config: MAP_READ,
      schema: {
        tags: ['map'],
        summary: 'Сведения об одном ТС на карте, включая последнюю точку (center); 404 no_vehicle_found',
        params: ID_PARAMS,
      },
    },
    async (request) => {
      const [vehicle] = await online([request.params.id]);
      if (!vehicle) throw fail(404, 'no_vehicle_found');
      return vehicle;
    },
  );
}
