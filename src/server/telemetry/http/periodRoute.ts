import type { FastifyInstance } from 'fastify';
import { fail } from '../../http/errors';
import { trackOf } from '../trackStore';

const MAX_PERIOD_DAYS = 31;
const MAX_POINTS = 50_000;

/** "Previous data" of the map (field-app spec §7: api/v1/map/vehicles/period): one vehicle's track for a period. */
export default async function periodRoute(app: FastifyInstance): Promise<void> {
  app.post<{ Body: { vehicleId: number; from: string; to: string } }>(
    '/api/v1/map/vehicles/period',
    {
      // A read that carries its filter in the body: not a write for the user-actions journal.
      config: { access: { path: '/map/previousData', action: 'read' }, module: 'map', journal: false },
      schema: {
        tags: ['map'],
        summary: `Трек ТС за период (не длиннее ${MAX_PERIOD_DAYS} сут.): точки tm, lat, lon, speed (км/ч), course по времени, не более ${MAX_POINTS}; truncated — если точек больше`,
        body: {
          type: 'object',
          required: ['vehicleId', 'from', 'to'],
          properties: {
            vehicleId: { type: 'integer', minimum: 1, maximum: 2147483647 },
            from: { type: 'string', maxLength: 40 },
            to: { type: 'string', maxLength: 40 },
          },
        },
      },
    },
    async (request) => {
      const { vehicleId } = request.body;
      const from = new Date(request.body.from);
      const to = new Date(request.body.to);
      if (Number.isNaN(from.getTime())) throw fail(400, 'bad_request', 'from is not a date');
      if (Number.isNaN(to.getTime())) throw fail(400, 'bad_request', 'to is not a date');
      if (to < from) throw fail(400, 'bad_request', 'to is before from');
      if (to.getTime() - from.getTime() > MAX_PERIOD_DAYS * 86_400_000)
        throw fail(400, 'bad_request', `period longer than ${MAX_PERIOD_DAYS} days`);
      const vehicles = await app.db.query('select 1 from mgt.vehicles where id = $1', [vehicleId]);
      if (vehicles.length === 0) throw fail(404, 'no_vehicle_found');
      // Positions received in the last second are still in the writer's buffer: written first, so they show.
      await app.telemetry.track.writer.flush();
      const points = await trackOf(app.db, vehicleId, from, to, MAX_POINTS + 1);
      const truncated = points.length > MAX_POINTS;
      return { points: truncated ? points.slice(0, MAX_POINTS) : points, truncated };
    },
  );
}
