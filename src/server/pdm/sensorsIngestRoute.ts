import type { FastifyInstance } from 'fastify';
import { fail } from '../http/errors';
import { authenticateSource } from '../telemetry/http/sourceKeys';
import { CHANNEL_KINDS, CHANNEL_MAX, SENSORS_BATCH_MAX, SENSORS_INGEST_PATH, type ChannelKind } from '../../shared/pdm/model';
import type { SensorBatch } from '../telemetry/egts/sensors';

interface RawReading {
  depot_number?: number;
  device?: string | number;
  tm: string | number;
  channel_kind: ChannelKind;
  channel: number;
  value?: number;
  error?: boolean;
}

const FUTURE_MS = 5 * 60_000;

/**
 * POST /api/v1/telemetry/sensors: the same readings as EGTS sensor subrecords, over HTTP with a source key
 * (X-Telemetry-Key, as positions). Whole batch or nothing: a bad item refuses it with every problem by index.
 * The answer comes once the readings are stored; a resent batch stores nothing twice.
 */
export default async function sensorsIngestRoute(app: FastifyInstance): Promise<void> {
  app.post<{ Body: { readings: RawReading[] } }>(
    SENSORS_INGEST_PATH,
    {
      config: { access: 'public', module: 'pdm' },
      bodyLimit: 4 * 1024 * 1024,
      schema: {
        tags: ['telemetry', 'pdm'],
        summary:
          `Приём показаний датчиков ПДМ пакетом до ${SENSORS_BATCH_MAX}. Ключ источника в заголовке X-Telemetry-Key. ` +
          'channel_kind: analog | digital | counter | liquid, channel — номер входа; value — сырое значение (масштаб и смещение узла дерева переводят его в единицы узла); ' +
          'error — датчик сообщил о своей неисправности. ТС — depot_number или device (peer_address). Показание канала без узла в дереве ТС не сохраняется (unmapped)',
        security: [],
        body: {
          type: 'object',
          required: ['readings'],
          additionalProperties: false,
          properties: {
            readings: {
              type: 'array',
              maxItems: SENSORS_BATCH_MAX,
              items: {
                type: 'object',
                required: ['tm', 'channel_kind', 'channel'],
                additionalProperties: false,
                properties: {
                  depot_number: { type: 'integer', minimum: 0, maximum: 2147483647 },
                  device: {
                    anyOf: [
                      { type: 'string', maxLength: 40 },
                      { type: 'integer', minimum: 0 },
                    ],
                  },
                  tm: { anyOf: [{ type: 'string', maxLength: 40 }, { type: 'number' }] },
                  channel_kind: { type: 'string', enum: [...CHANNEL_KINDS] },
                  channel: { type: 'integer', minimum: 0, maximum: CHANNEL_MAX },
                  value: { type: 'number' },
                  error: { type: 'boolean' },
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
      const errors: { index: number; field: string; message: string }[] = [];
      const batches: SensorBatch[] = [];
      const byDepot = new Map<number, number | undefined>();
      const depots = [...new Set(request.body.readings.map((r) => r.depot_number).filter((d): d is number => d !== undefined))];
      if (depots.length) {
        for (const row of await app.db.query<{ id: number; depot_number: number }>(
          'select id, depot_number from mgt.vehicles where depot_number = any($1::int[])',
          [depots],
        ))
          byDepot.set(row.depot_number, row.id);
      }
      const now = Date.now();
      request.body.readings.forEach((item, index) => {
        const vehicleId =
          item.depot_number !== undefined
            ? byDepot.get(item.depot_number)
            : item.device !== undefined
              ? app.telemetry.devices.vehicleOf(item.device)
              : undefined;
        if (vehicleId === undefined)
          errors.push({ index, field: item.depot_number !== undefined ? 'depot_number' : 'device', message: 'vehicle_not_found' });
        else if (source.allowedDevices && (item.device === undefined || !source.allowedDevices.has(String(item.device))))
          errors.push({ index, field: 'device', message: 'forbidden' });
        const time = typeof item.tm === 'number' ? item.tm : Date.parse(item.tm);
        if (!Number.isFinite(time) || time > now + FUTURE_MS || time < Date.UTC(2010, 0, 1))
          errors.push({ index, field: 'tm', message: 'bad_time' });
        if (item.value === undefined && !item.error) errors.push({ index, field: 'value', message: 'required' });
        if (item.value !== undefined && !Number.isFinite(item.value)) errors.push({ index, field: 'value', message: 'bad_number' });
        if (vehicleId !== undefined)
          batches.push({
            vehicleId,
            time,
            samples: [{ kind: item.channel_kind, channel: item.channel, raw: item.value ?? Number.NaN, error: item.error }],
          });
      });
      if (errors.length) {
        return reply.status(400).send({
          messages: ['bad_request', `${errors.length} problem(s) in the batch: nothing was stored`],
          errors: errors.slice(0, 500),
        });
      }
      const readings = app.pdm.ingest.readingsOf(batches);
      const stored = await app.pdm.writer.add(readings);
      if (!stored) throw fail(503, 'database_unavailable');
      return { accepted: readings.length, unmapped: batches.length - readings.length };
    },
  );
}
