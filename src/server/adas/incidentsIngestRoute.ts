import type { FastifyInstance } from 'fastify';
import { fail } from '../http/errors';
import { authenticateSource } from '../telemetry/http/sourceKeys';
import { EVIDENCE_NAME_MAX, MAX_EVIDENCE_FILES, type RawIncident } from './incidentIngest';

/** Incidents per batch: a unit sends what it collected while offline in a few batches. */
export const MAX_INCIDENT_BATCH = 1000;

/**
 * POST /api/v1/telemetry/incidents: on-board driver-assistance units report incidents with the same per-source
 * keys as positions (X-Telemetry-Key). All or nothing, like positions: one bad item refuses the batch with every
 * problem listed by index and field; resent incidents (same vehicle, type and time) count as duplicates.
 */
export default async function incidentsIngestRoute(app: FastifyInstance): Promise<void> {
  app.post<{ Body: { incidents: RawIncident[] } }>(
    '/api/v1/telemetry/incidents',
    {
      config: { access: 'public', module: 'adas' },
      bodyLimit: 2 * 1024 * 1024,
      schema: {
        tags: ['telemetry', 'adas'],
        summary:
          `Приём инцидентов ИСПВ пакетом до ${MAX_INCIDENT_BATCH}. Ключ источника в заголовке X-Telemetry-Key (как для координат; 401 без него или с неверным). ` +
          'Ошибочный пакет отклоняется целиком (400, errors: [{ index, field, message }]); повтор (то же ТС, тип и время) не сохраняется и считается в duplicates. ' +
          'Каждый инцидент сопоставляется с маршрутом, рейсом и водителем по наряду ТС; степень 3 поднимает уведомление',
        security: [],
        body: {
          type: 'object',
          required: ['incidents'],
          additionalProperties: false,
          properties: {
            incidents: {
              type: 'array',
              maxItems: MAX_INCIDENT_BATCH,
              items: {
                type: 'object',
                description:
                  'ТС — depot_number (гаражный номер) или device (идентификатор терминала, peer_address); incident_type — код справочника типов инцидентов; ' +
                  'tm — ISO 8601 с поясом или миллисекунды эпохи; speed — км/ч; lat, lon — градусы; grade — степень 1..3 (по умолчанию 1); ' +
                  `driver — табельный номер водителя (необязательно; иначе из наряда); evidence — имена файлов доказательств (до ${MAX_EVIDENCE_FILES}, каждое до ${EVIDENCE_NAME_MAX} символов)`,
                properties: {
                  depot_number: { type: 'integer' },
                  device: { anyOf: [{ type: 'string', maxLength: 40 }, { type: 'integer' }] },
                  incident_type: { type: 'integer' },
                  tm: { anyOf: [{ type: 'string', maxLength: 40 }, { type: 'number' }] },
                  speed: { type: 'number' },
                  lat: { type: 'number' },
                  lon: { type: 'number' },
                  grade: { type: 'integer' },
                  driver: { type: 'integer' },
                  evidence: { type: 'array', maxItems: MAX_EVIDENCE_FILES, items: { type: 'string', maxLength: EVIDENCE_NAME_MAX } },
                },
              },
            },
          },
        },
      },
    },
    async (request, reply) => {
      const header = request.headers['x-telemetry-key'];
      const source = await authenticateSource(app.db, typeof header === 'string' ? header : undefined);
      if (!source) throw fail(401, 'unauthorized');
      const outcome = await app.adas.ingest.ingest(request.body.incidents, { sourceId: source.id, allowedDevices: source.allowedDevices });
      if (!outcome.ok) {
        return reply.status(400).send({
          messages: ['bad_request', `${outcome.errors.length} problem(s) in the batch: nothing was stored`],
          errors: outcome.errors.slice(0, 500),
        });
      }
      return { accepted: outcome.accepted, duplicates: outcome.duplicates };
    },
  );
}
