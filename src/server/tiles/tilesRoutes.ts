import type { FastifyInstance } from 'fastify';
import { fail } from '../http/errors';
import type { TilesConfig } from './config';
import type { BaseMapSources } from './openTileSource';
import { TileUnavailable } from './tileSource';

export const MAX_TILE_ZOOM = 22;

/**
 * GET /tile/{z}/{x}/{y}.png (field-app spec §7). Public: Leaflet loads tiles as plain images, without the
 * token, and a map background says nothing about the operator.
 */
export default async function tilesRoutes(
  app: FastifyInstance,
  { sources, config }: { sources: BaseMapSources; config: TilesConfig },
): Promise<void> {
  app.get<{ Params: { z: number; x: number; y: number } }>(
    '/tile/:z/:x/:y.png',
    {
      config: { access: 'public', passive: true },
      schema: {
        tags: ['map'],
        summary:
          'Тайл подложки карты (источник — настройки навигации, исходно TILE_SOURCE: внешний сервер с кэшем на диске, файл MBTiles или папка z/x/y.png); 404 — нет тайла или источник не задан',
        security: [],
        params: {
          type: 'object',
          required: ['z', 'x', 'y'],
          properties: {
            z: { type: 'integer', minimum: 0, maximum: MAX_TILE_ZOOM },
            x: { type: 'integer', minimum: 0 },
            y: { type: 'integer', minimum: 0 },
          },
        },
      },
    },
    async (request, reply) => {
      const { z, x, y } = request.params;
      const size = 2 ** z;
      if (x >= size || y >= size) throw fail(400, 'bad_request', `x and y must be below ${size} at zoom ${z}`);
      // A missing tile is asked for again soon (an upstream may have it later), a present one is kept long.
      const missing = () => reply.code(404).header('cache-control', 'public, max-age=300').send();
      const source = sources.get((await app.settings.document()).baseMap);
      if (!source) return missing();
      try {
        const tile = await source.get(z, x, y);
        if (!tile) return missing();
        return reply.type(tile.contentType).header('cache-control', `public, max-age=${config.maxAgeSeconds}`).send(tile.body);
      } catch (err) {
        if (err instanceof TileUnavailable) {
          request.log.warn({ z, x, y, err: err.message }, 'tile unavailable');
          return reply.code(err.status).header('cache-control', 'no-store').send();
        }
        throw err;
      }
    },
  );
}
