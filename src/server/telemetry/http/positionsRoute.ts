import type { FastifyInstance } from 'fastify';
import { ApiError, fail } from '../../http/errors';
import { normalisePeer } from '../deviceIndex';
import type { Position, PositionError } from '../types';
import { authenticateSource, type TelemetrySource } from './sourceKeys';

interface RawPosition {
  device?: unknown;
  time?: unknown;
  lat?: unknown;
  lon?: unknown;
  speed?: unknown;
  course?: unknown;
  valid?: unknown;
  history?: unknown;
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:?\d{2})$/;
/** Enough to fix a feed; more would only make the answer heavy. */
const MAX_REPORTED_ERRORS = 500;

/**
 * POST /api/v1/telemetry/positions: batches of positions from external sources (another dispatch system,
 * a phone app, a converter). All-or-nothing: one bad item refuses the whole batch with every problem listed,
 * so a sender fixes and resends one batch instead of reconciling which items got in. Resends of positions
 * already received are not errors: they count as duplicates.
 */
export default async function positionsRoute(app: FastifyInstance): Promise<void> {
  const { pipeline, devices, config } = app.telemetry;

  app.post<{ Body: { positions: RawPosition[] } }>(
    '/api/v1/telemetry/positions',
    {
      config: { access: 'public' },
      bodyLimit: 4 * 1024 * 1024,
      schema: {
        tags: ['telemetry'],
        summary: `Приём координат пакетом до ${config.httpMaxBatch} точек. Доступ public: маршрут сам проверяет ключ источника в заголовке X-Telemetry-Key (401 без него или с неверным). Ошибочный пакет отклоняется целиком (400, errors: [{ index, field, message }]); повторы точек считаются в duplicates. Ответ 200 — после записи пакета на диск; 503 (database_unavailable, telemetry_not_stored) — повторить позже`,
        security: [],
        body: {
          type: 'object',
          required: ['positions'],
          properties: {
            positions: {
              type: 'array',
              maxItems: config.httpMaxBatch,
              items: {
                type: 'object',
                description:
                  'device — peer_address терминала или ТС; time — ISO 8601 или миллисекунды эпохи; lat, lon — градусы; speed — км/ч; course — 0..359; valid (по умолчанию true); history — данные «чёрного ящика» (по умолчанию false)',
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

      const now = Date.now();
      const errors: PositionError[] = [];
      const positions: Position[] = [];
      request.body.positions.forEach((raw, index) => {
        const parsed = parsePosition(raw, source, (device) => devices.vehicleOf(device));
        if ('errors' in parsed) {
          for (const e of parsed.errors) errors.push({ index, ...e });
          return;
        }
        const problems = pipeline.check(parsed.position, now);
        for (const problem of problems)
          errors.push({ index, field: problem.field === 'vehicleId' ? 'device' : problem.field, message: problem.message });
        if (problems.length === 0) positions.push(parsed.position);
      });
      if (errors.length > 0) {
        return reply.status(400).send({
          messages: ['bad_request', `${errors.length} problem(s) in the batch: nothing was stored`],
          errors: errors.slice(0, MAX_REPORTED_ERRORS),
        });
      }
      const outcome = pipeline.ingest(positions, now);
      // 200 only once the batch is durable (spooled and fsync'd); otherwise the sender is told to retry.
      if (!(await outcome.durable)) throw new ApiError(503, ['telemetry_not_stored'], { 'retry-after': '5' });
      return { accepted: outcome.accepted, duplicates: outcome.duplicates };
    },
  );
}

type Parsed = { position: Position } | { errors: { field: string; message: string }[] };

function parsePosition(raw: RawPosition, source: TelemetrySource, vehicleOf: (device: string) => number | undefined): Parsed {
  const errors: { field: string; message: string }[] = [];
  if (typeof raw !== 'object' || raw === null) return { errors: [{ field: '', message: 'each position must be an object' }] };
  let vehicleId = 0;
  const device = typeof raw.device === 'number' ? String(raw.device) : raw.device;
  if (typeof device !== 'string' || device.trim() === '') errors.push({ field: 'device', message: 'device is required (a peer address)' });
  else {
    const peer = normalisePeer(device);
    const known = peer === undefined ? undefined : vehicleOf(peer);
    if (known === undefined) errors.push({ field: 'device', message: `unknown device ${device.slice(0, 40)}` });
    else if (source.allowedDevices && !source.allowedDevices.has(peer!))
      errors.push({ field: 'device', message: `device ${peer} is not allowed for this source` });
    else vehicleId = known;
  }
  let time = Number.NaN;
  if (typeof raw.time === 'number') time = raw.time;
  else if (typeof raw.time === 'string' && ISO_DATE.test(raw.time)) time = Date.parse(raw.time);
  if (!Number.isFinite(time)) errors.push({ field: 'time', message: 'time must be an ISO 8601 date with time zone or epoch milliseconds' });
  const numberField = (field: 'lat' | 'lon' | 'speed' | 'course'): number => {
    const value = raw[field];
    if (typeof value !== 'number' || !Number.isFinite(value)) {
      errors.push({ field, message: `${field} must be a number` });
      return Number.NaN;
    }
    return value;
  };
  const lat = numberField('lat');
  const lon = numberField('lon');
  const speed = numberField('speed');
  const course = numberField('course');
  for (const field of ['valid', 'history'] as const) {
    if (raw[field] !== undefined && typeof raw[field] !== 'boolean') errors.push({ field, message: `${field} must be true or false` });
  }
  if (errors.length > 0) return { errors };
  return {
    position: {
      vehicleId,
      time,
      lat,
      lon,
      speed,
      // 359.6° is north again: rounding may give 360.
      course: course >= 0 && course < 360 ? Math.round(course) % 360 : course,
      valid: raw.valid !== false,
      history: raw.history === true,
    },
  };
}
