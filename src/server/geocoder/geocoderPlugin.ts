import type { FastifyInstance } from 'fastify';
import { ADDRESS_QUERY_MAX, ADDRESS_SEARCH, type GeocoderAnswer, type GeocoderSettings } from '../../shared/geocoder';
import { MAP_READ } from '../map/queryParams';
import { geocoderConfig } from './config';
import { externalGeocode } from './externalGeocoder';
import { ownGeocode } from './ownGeocoder';

/**
 * Address search of the field app's map (field-app spec 2.3): the product's own geocoder over its streets,
 * houses, stops and organisation addresses (works with no internet), or an external Nominatim-compatible one
 * when GEOCODER_URL is set; when that fails or is slow, the own geocoder answers instead.
 */
export default async function geocoderPlugin(app: FastifyInstance): Promise<void> {
  const config = geocoderConfig();
  const log = app.log.child({ area: 'geocoder' });
  const engine = config.externalUrl ? 'external' : 'own';

  app.get(
    '/api/v1/geocoder/settings',
    {
      config: MAP_READ,
      schema: { tags: ['map'], summary: 'Настройки поиска адреса: город, подставляемый перед запросом, и геокодер (свой или внешний)' },
    },
    async (): Promise<GeocoderSettings> => ({ city: config.city, engine }),
  );

  app.get<{ Querystring: { q: string; limit?: number } }>(
    '/api/v1/geocoder/search',
    {
      config: MAP_READ,
      schema: {
        tags: ['map'],
        summary: `Поиск адреса в пределах России: дома, улицы, остановки, адреса организаций; не более ${ADDRESS_SEARCH.limit} результатов по умолчанию`,
        querystring: {
          type: 'object',
          required: ['q'],
          properties: {
            q: { type: 'string', minLength: 1, maxLength: ADDRESS_QUERY_MAX },
            limit: { type: 'integer', minimum: 1, maximum: 20 },
          },
        },
      },
    },
    async (request): Promise<GeocoderAnswer> => {
      const q = request.query.q.trim();
      const limit = request.query.limit ?? ADDRESS_SEARCH.limit;
      if (config.externalUrl) {
        try {
          return { engine: 'external', items: await externalGeocode(config.externalUrl, q, limit, config.timeoutMs) };
        } catch (err) {
          log.warn({ err: (err as Error).message }, 'external geocoder failed; the own geocoder answers');
          return { engine: 'own', fallback: true, items: await ownGeocode(app.db, q, config.city, limit) };
        }
      }
      return { engine: 'own', items: await ownGeocode(app.db, q, config.city, limit) };
    },
  );
}
