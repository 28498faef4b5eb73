import type { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { IMPORT_API, PASSENGER_DEFAULTS, type PassengerSettings } from '../../shared/passengers/passengers';
import { fail } from '../http/errors';
import { authenticateSource } from '../telemetry/http/sourceKeys';
import { LiveFlow } from './liveFlow';
import { fillHistory } from './passengerHistory';
import { ingestCounts, ingestValidations, type IngestOutcome } from './passengerIngest';
import passengerSummaryRoute from './passengerSummaryRoute';
import { ImportRefused, importValidations, refusedRowsCsv } from './validationImport';
import { operatorTzOffset } from '../platform/operatorDay';
import { PASSENGER_SOURCES } from './passengerReports';

/** Routes of the city demo's passenger history (the live flow counts the whole fleet from the start on). */
export const CITY_PILOT_ROUTES = 12;

/** Items per ingestion batch: a unit sends what it collected while offline in a few batches. */
export const MAX_PASSENGER_BATCH = 5000;

/** The rollups count the operator's days (migration 070): a new OPERATOR_TZ_OFFSET_MINUTES rebuilds them. */
async function keepRollupZone(app: FastifyInstance, offsetMinutes: number): Promise<void> {
  const [zone] = await app.db.query<{ offset_minutes: number }>('select offset_minutes from pass.rollup_zone limit 1');
  if (zone?.offset_minutes === offsetMinutes) return;
  app.log.info({ offsetMinutes }, "passenger rollups rebuilt for the operator's time zone");
  await app.db.longRunning().transaction(async (tx) => {
    await tx.query('update pass.rollup_zone set offset_minutes = $1', [offsetMinutes]);
    await tx.query('select pass.rebuild_rollups()');
  });
}

const itemSchema = (description: string, properties: Record<string, unknown>) => ({
  type: 'object',
  required: ['items'],
  additionalProperties: false,
  properties: { items: { type: 'array', maxItems: MAX_PASSENGER_BATCH, items: { type: 'object', description, properties } } },
});

const vehicle = { depot_number: { type: 'integer' }, device: { anyOf: [{ type: 'string', maxLength: 40 }, { type: 'integer' }] } };
const time = { anyOf: [{ type: 'string', maxLength: 40 }, { type: 'number' }] };

function outcomeReply(outcome: IngestOutcome) {
  if (!outcome.ok)
    return {
      status: 400,
      body: {
        messages: ['bad_request', `${outcome.errors.length} problem(s) in the batch: nothing was stored`],
        errors: outcome.errors.slice(0, 500),
      },
    };
  return { status: 200, body: { accepted: outcome.accepted, duplicates: outcome.duplicates, unmatched: outcome.unmatched } };
}

/**
 * Passenger flow: counts and validations in (HTTP ingestion), the validation import, the analysis
 * overview; the thirteen report screens are declarations served by the reports plugin with passengerQueries.ts.
 * With the demo data and the simulator, a fresh start gets HISTORY_DAYS days of history in the background and
 * the simulated fleet's counters and validators report live.
 */
async function passengersPlugin(app: FastifyInstance): Promise<void> {
  app.reports.register(app, PASSENGER_SOURCES);
  const tzOffsetMinutes = operatorTzOffset();
  await keepRollupZone(app, tzOffsetMinutes);
  const settings = async (): Promise<PassengerSettings> => ({ ...PASSENGER_DEFAULTS, ...((await app.settings.get()).passengers ?? {}) });

  const source = async (header: unknown) => {
    const found = await authenticateSource(app.db, typeof header === 'string' ? header : undefined);
    if (!found) throw fail(401, 'unauthorized');
    return { sourceId: found.id, allowedDevices: found.allowedDevices };
  };

  app.post<{ Body: { items: unknown[] } }>(
    '/api/v1/telemetry/passenger-counts',
    {
      config: { access: 'public', module: 'passengers' },
      bodyLimit: 4 * 1024 * 1024,
      schema: {
        tags: ['telemetry', 'passengers'],
        summary:
          `Приём счёта пассажиров по дверям пакетом до ${MAX_PASSENGER_BATCH}. Ключ источника в X-Telemetry-Key. Счёт на остановке (tm — время отправления, stop_id необязателен) ` +
          'или за интервал (from, to — не длиннее часа): интервал относится к остановочному посещению, на котором ТС было по расписанию. ' +
          'Пакет с ошибкой отклоняется целиком (400, errors: [{ index, field, message }]); повтор (то же ТС, дверь и время) считается в duplicates; unmatched — не сопоставленные с рейсом',
        security: [],
        body: itemSchema('ТС — depot_number или device; door — номер двери 1..16; boardings, alightings — вошло и вышло 0..500', {
          ...vehicle,
          door: { type: 'integer' },
          tm: time,
          from: time,
          to: time,
          stop_id: { type: 'integer' },
          boardings: { type: 'integer' },
          alightings: { type: 'integer' },
        }),
      },
    },
    async (request, reply) => {
      const sender = await source(request.headers['x-telemetry-key']);
      const { status, body } = outcomeReply(await ingestCounts(app.db, app.telemetry.devices, request.body.items, sender, tzOffsetMinutes));
      return reply.status(status).send(body);
    },
  );

  app.post<{ Body: { items: unknown[] } }>(
    '/api/v1/telemetry/validations',
    {
      config: { access: 'public', module: 'passengers' },
      bodyLimit: 4 * 1024 * 1024,
      schema: {
        tags: ['telemetry', 'passengers'],
        summary:
          `Приём валидаций пакетом до ${MAX_PASSENGER_BATCH}. Ключ источника в X-Telemetry-Key. ТС — по validator (справочник валидаторов), depot_number или device; ` +
          'ticket_type — код типа билета; card_token — токен карты (до 64 символов); маршрут и остановка — по расписанию ТС (или stop_id). ' +
          'Повтор (то же время, валидатор и карта) не сохраняется и считается в duplicates',
        security: [],
        body: itemSchema('Валидация', {
          ...vehicle,
          validator: { type: 'integer' },
          tm: time,
          ticket_type: { anyOf: [{ type: 'string', maxLength: 40 }, { type: 'integer' }] },
          card_token: { type: 'string', maxLength: 200 },
          stop_id: { type: 'integer' },
        }),
      },
    },
    async (request, reply) => {
      const sender = await source(request.headers['x-telemetry-key']);
      const { status, body } = outcomeReply(
        await ingestValidations(app.db, app.telemetry.devices, request.body.items, sender, tzOffsetMinutes),
      );
      return reply.status(status).send(body);
    },
  );

  app.addContentTypeParser('text/csv', (_request, payload, done) => done(null, payload));
  app.post<{ Body: Readable; Querystring: { file?: string } }>(
    IMPORT_API,
    {
      config: { access: { path: '/import-data/tickets-validation', action: 'create' }, module: 'importData' },
      bodyLimit: 2 * 1024 ** 3,
      schema: {
        tags: ['passengers'],
        summary:
          'Импорт файла валидаций (CSV UTF-8, разделитель «;», Content-Type: text/csv, потоковая загрузка; ?file= — имя файла для истории). ' +
          'Столбцы: time;validator;depot_number;route;ticket_type;card_token[;stop_id] (README, «Passenger flow»). Верные строки добавляются, ошибочные отклоняются: ' +
          'errors: [{ line, column, reason }] в ответе (первые 100), все — файлом по GET …/import/{id}/refused, и в журнале ошибок проходов. ' +
          'Повреждённый файл (не UTF-8, другой разделитель, нет обязательных столбцов) отклоняется целиком: 400 { messages: [код] }. ' +
          'Уже загруженные строки (то же время, валидатор и карта) пропускаются. Ответ { id, rows, added, skipped, refused, errors }',
        querystring: { type: 'object', additionalProperties: false, properties: { file: { type: 'string', maxLength: 255 } } },
        body: { content: { 'text/csv': { schema: {} } } },
      },
    },
    async (request, reply) => {
      const body = request.body as unknown;
      if (!body || typeof (body as Readable).pipe !== 'function') throw fail(400, 'import_file_required');
      try {
        return await importValidations(app, request, body as Readable, request.query.file?.trim() || 'validations.csv', tzOffsetMinutes);
      } catch (error) {
        if (error instanceof ImportRefused)
          return reply.status(400).send({ messages: [error.code], detail: error.detail, result: error.result });
        throw error;
      }
    },
  );

  app.get<{ Params: { id: number } }>(
    `${IMPORT_API}/:id/refused`,
    {
      config: { access: { path: '/import-data/tickets-validation', action: 'read' }, module: 'importData' },
      schema: {
        tags: ['passengers'],
        summary: 'Отклонённые строки импорта валидаций файлом CSV: столбцы файла, затем строка, столбец и причина',
        params: { type: 'object', required: ['id'], properties: { id: { type: 'integer', minimum: 1, maximum: 2147483647 } } },
      },
    },
    async (request, reply) => {
      const csv = await refusedRowsCsv(app, request.params.id);
      if (csv === null) throw fail(404, 'not_found');
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="validations-${request.params.id}-refused.csv"`)
        .send(csv);
    },
  );

  await app.register(passengerSummaryRoute);

  const pilot = app.config.demoScale === 'city' ? CITY_PILOT_ROUTES : undefined;
  const live = app.simulator
    ? new LiveFlow(
        app.db,
        app.simulator,
        tzOffsetMinutes,
        settings,
        app.log.child({ area: 'passengers' }),
        Date.now,
        pilot,
        app.leases.lease('simulator'),
      )
    : null;
  if (app.config.demoData && app.simulator) {
    app.addHook('onListen', async () => {
      // after listen: the history fills in the background (newest day first), the console answers meanwhile
      app.demoHistory.track(
        'passengers',
        settings()
          .then((s) =>
            fillHistory(app.db.background(), {
              // the city's month covers its pilot routes (the console answers meanwhile); the test city is whole
              detailDays: app.config.demoScale === 'city' ? 7 : 30,
              pilotRoutes: pilot,
              tzOffsetMinutes,
              maxWalkMeters: s.maxWalkMeters,
              transferMinutes: s.transferMinutes,
              log: app.log,
              plans: app.demoHistory.plans,
              onProgress: app.demoHistory.progress('passengers'),
            }),
          )
          .then((filled) => filled.days),
      );
      live?.start();
    });
  }
  app.addHook('preClose', async () => live?.stop());
}

// encapsulated: its text/csv body parser stays its own
export default fp(passengersPlugin, {
  name: 'passengers',
  encapsulate: true,
  dependencies: ['access', 'reports', 'journals', 'telemetry', 'simulator'],
});
