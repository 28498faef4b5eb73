import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { MAP_READ } from '../map/queryParams';
import { gtfsConfig } from './config';
import importRoutes from './importRoutes';
import { buildVehiclePositions, encodeFeed, feedAsJson, type FeedSource } from './vehiclePositionsFeed';

/**
 * GTFS: the static network in (imports) and the live fleet out for journey planners (GTFS-Realtime
 * VehiclePositions at /api/v1/gtfs-rt/vehicle-positions).
 */
async function gtfsPlugin(app: FastifyInstance): Promise<void> {
  // Its own context: the zip upload's content types stay with these routes.
  await app.register(importRoutes);
  const config = gtfsConfig();
  const source: FeedSource = {
    positions: () => app.telemetry.latest.entries(),
    vehicle: (id) => app.map.directory.get(id),
    tripOf: (id, now) => app.simulator?.stateOf(id, now)?.tripId ?? null,
  };
  let cached: { at: number; bytes: Buffer; json: Record<string, unknown> | null; message: ReturnType<typeof buildVehiclePositions> } | null = null;

  const feed = async () => {
    const now = Date.now();
    if (!cached || now - cached.at >= config.cacheMs) {
      await app.map.directory.ensureLoaded();
      const message = buildVehiclePositions(source, now);
      cached = { at: now, bytes: Buffer.from(encodeFeed(message)), json: null, message };
    }
    return cached;
  };

  app.get<{ Querystring: { format?: 'json' | 'pb' } }>('/api/v1/gtfs-rt/vehicle-positions', {
    config: config.public ? { access: 'public', module: 'map', passive: true } : { ...MAP_READ, passive: true },
    schema: {
      tags: ['map'],
      summary: `GTFS-Realtime VehiclePositions (application/x-protobuf; ?format=json — JSON для людей): ТС с отметкой свежее 5 мин, маршрут по сегодняшнему наряду, скорость в м/с. ${config.public ? 'Открыт без входа (GTFS_RT_PUBLIC=true)' : 'Требует права карты'}`,
      ...(config.public ? { security: [] } : {}),
      querystring: { type: 'object', properties: { format: { type: 'string', enum: ['json', 'pb'] } } },
    },
  }, async (request, reply) => {
    const current = await feed();
    reply.header('cache-control', `public, max-age=${Math.max(1, Math.round(config.cacheMs / 1000))}`);
    if (request.query.format === 'json') {
      current.json ??= feedAsJson(current.message);
      return current.json;
    }
    return reply.type('application/x-protobuf').send(current.bytes);
  });
}

export default fp(gtfsPlugin, { name: 'gtfs', dependencies: ['access', 'telemetry', 'map'] });
