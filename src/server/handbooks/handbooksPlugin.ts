import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type {
  AddCamerasRequest,
  DeleteOneRequest,
  DeleteRequest,
  ExportRequest,
  GenericQueryRequest,
  ImportRequest,
  ListRequest,
  OptionsRequest,
  SaveRequest,
  TripStopsSaveRequest,
} from '../../shared/handbooks/api';
import { canAccess } from '../../shared/permissions';
import { handbookByTable, handbookPermissionPath, handbookSection, HANDBOOKS, isHandbookType } from '../../../schemas/index';
import { HANDBOOKS_PREFIX } from '../../shared/permissions';
import type { HandbookType } from '../../shared/modules';
import type { Permission } from '../http/access';
import type { ErrorCode } from '../../shared/errors';
import { fail } from '../http/errors';
import { appointVehicles } from './appointVehicles';
import { addCamerasToVehicles } from './cameraWidget';
import columnsRoutes from './columnsRoutes';
import { textSource } from './csvStream';
import { deleteRows } from './deleteRows';
import { installTableErrorReplies } from './errorReplies';
import { exportHandbook } from './handbookExport';
import { SHEET_CONTENT_TYPES } from '../http/exportStream';
import { clientOffset } from '../reports/reportsRoutes';
import { genericQuery } from './genericQuery';
import { requireHandbook } from './handbookAccess';
import { importCsv } from './importCsv';
import { dropStaleStages } from './importStage';
import { listRows } from './listQuery';
import { refOptions } from './optionsQuery';
import * as bodies from './routeSchemas';
import { saveRow } from './saveRow';
import { readTripStops, saveTripStops } from './tripStops';

/**
 * The handbook a /api/table request names: `config.type` of a JSON body, or `?type=` of a streamed CSV.
 * A request with no body, or one the route does not read (text/plain), names none: `noBody` says why.
 */
function namedHandbook(request: FastifyRequest, noBody: ErrorCode = 'bad_request'): string {
  const body = request.body as { config?: { type?: unknown } } | undefined;
  if (!isStream(body) && (typeof body !== 'object' || body === null)) throw fail(400, noBody);
  const type = isStream(body) ? (request.query as { type?: unknown }).type : body.config?.type;
  // An unknown handbook is absent, like a switched-off one.
  if (!isHandbookType(type)) throw fail(404, 'not_found');
  return type;
}

/** The handbook the field app's generic query names by its table; names outside the registry are a 400. */
function queriedHandbook(request: FastifyRequest): string {
  const body = request.body as { schema?: unknown; table?: unknown } | undefined;
  const schema = handbookByTable(String(body?.schema), String(body?.table));
  if (!schema) throw fail(400, 'bad_request');
  return schema.type;
}

/**
 * A route over the handbook the request names: the permission is that handbook's own key
 * (/handbooks/table/<type>, or the whole handbooks prefix), its section must be on.
 */
const handbookRoute = (action: Permission['action'], options: { any?: boolean; accessParam?: (request: FastifyRequest) => string } = {}) =>
  ({
    access: { path: `${HANDBOOKS_PREFIX}/:type`, action, any: options.any },
    accessParam: options.accessParam ?? namedHandbook,
    module: 'handbooks',
    section: 'handbooks.:type',
  }) as const;
/** Routes of one fixed handbook. */
const fixedHandbookRoute = (type: HandbookType, action: Permission['action']) =>
  ({
    access: { path: handbookPermissionPath(type), action },
    module: 'handbooks',
    section: handbookSection(type),
  }) as const;
/** Lists, exports and look-ups travel as POST but only read: they stay out of the user-actions journal. */
const HANDBOOK_READ_ROUTE = { ...handbookRoute('read'), journal: false } as const;
/** JSON imports carry a file of a few MB; larger files are streamed as text/csv. */
const IMPORT_JSON_LIMIT = 64 * 1024 * 1024;

const isStream = (body: unknown): body is Readable => body instanceof Readable;

/**
 * The handbook service (spec console.md section 7; DESIGN.md 'Schema-driven handbooks'): one generic
 * set of routes over every handbook of the schema registry, plus the field app's generic query and the
 * per-user column choice.
 */
export default async function handbooksPlugin(app: FastifyInstance): Promise<void> {
  installTableErrorReplies(app);
  // The streamed import reads the request itself (csvStream.ts), so the body is handed over unread.
  app.addContentTypeParser('text/csv', (_request, payload, done) => done(null, payload));
  await dropStaleStages(app.db).catch((error: unknown) => app.log.warn({ err: error }, 'stale import stages not dropped'));

  app.post<{ Body: ListRequest }>(
    '/api/table/list',
    {
      config: HANDBOOK_READ_ROUTE,
      schema: {
        tags: ['handbooks'],
        summary: 'Список записей справочника: фильтры, сортировка, страницы',
        description:
          'Ответ { list, count }. Ссылки возвращаются вместе с отображаемым текстом (<поле>__display), геометрия — WKT. По умолчанию 100 записей на странице.',
        body: bodies.listBody,
      },
    },
    async (request) => {
      const schema = await requireHandbook(app, request.body.config.type);
      return listRows(app.db, schema, request.body);
    },
  );

  // Create or update, as the row is new or not: saveRow checks which one it is.
  app.post<{ Body: SaveRequest }>(
    '/api/table/element/save',
    {
      config: handbookRoute(['create', 'update'], { any: true }),
      schema: {
        tags: ['handbooks'],
        summary: 'Сохранить запись справочника (без ключа — добавить, с ключом — изменить)',
        description: 'Ответ — сохранённая запись. Ошибки проверки: 400 { messages: ["validation_failed"], errors: { поле: сообщение } }.',
        body: bodies.saveBody,
      },
    },
    async (request) => {
      const schema = await requireHandbook(app, request.body.config.type);
      return saveRow(app, request, schema, request.body.row);
    },
  );

  app.post<{ Body: DeleteRequest }>(
    '/api/table/list/delete',
    {
      config: handbookRoute('delete'),
      schema: {
        tags: ['handbooks'],
        summary: 'Удалить записи справочника по ключам',
        description: 'Ответ { deleted }.',
        body: bodies.deleteBody,
      },
    },
    async (request) => {
      const schema = await requireHandbook(app, request.body.config.type);
      return { deleted: (await deleteRows(app, request, schema, request.body.ids)).length };
    },
  );

  app.post<{ Body: DeleteOneRequest }>(
    '/api/table/list/deleteRA',
    {
      config: handbookRoute('delete'),
      schema: {
        tags: ['handbooks'],
        summary: 'Удалить одну запись справочника (удаление react-admin)',
        description: 'Ключ берётся из row по первичному ключу справочника (или row.id). Ответ { deleted, row } — удалённая запись.',
        body: bodies.deleteOneBody,
      },
    },
    async (request) => {
      const schema = await requireHandbook(app, request.body.config.type);
      const row = request.body.row;
      const [deleted] = await deleteRows(app, request, schema, [row[schema.primaryKey] ?? row.id]);
      if (!deleted) throw fail(404, 'not_found');
      return { deleted: 1, row: deleted };
    },
  );

  app.get<{ Querystring: { trip_id: number } }>(
    '/api/table/tripstops',
    {
      config: fixedHandbookRoute('trips', 'read'),
      schema: { tags: ['handbooks'], summary: 'Остановки рейса по порядку, с названиями', querystring: bodies.tripStopsQuery },
    },
    async (request) => {
      return { list: await readTripStops(app, request.query.trip_id) };
    },
  );

  app.post<{ Body: TripStopsSaveRequest }>(
    '/api/table/tripstops',
    {
      config: fixedHandbookRoute('trips', 'update'),
      schema: {
        tags: ['handbooks'],
        summary: 'Заменить остановки рейса (в одной транзакции)',
        description: 'Ответ { list } — остановки после сохранения. Ошибки: errors["stops.<номер>.<поле>"].',
        body: bodies.tripStopsBody,
      },
    },
    async (request) => {
      return { list: await saveTripStops(app, request, request.body.trip_id, request.body.stops) };
    },
  );

  const importSource = (request: FastifyRequest<{ Body: ImportRequest | Readable; Querystring: { type?: string } }>) => {
    const body = request.body;
    if (isStream(body)) return { type: request.query.type, source: body };
    // No body, or one of a type the route does not read (text/plain): nothing to import.
    if (typeof body !== 'object' || body === null || typeof body.csv !== 'string') throw fail(400, 'import_file_required');
    return { type: body.config.type, source: textSource(body.csv) };
  };
  const importSchema = (summary: string, description: string) => ({
    tags: ['handbooks'],
    summary,
    description,
    querystring: bodies.importQuery,
    body: { content: { 'application/json': { schema: bodies.importJsonBody }, 'text/csv': { schema: {} } } },
  });

  app.post<{ Body: ImportRequest | Readable; Querystring: { type?: string } }>(
    '/api/table/import',
    {
      config: handbookRoute(['create', 'update'], { accessParam: (request) => namedHandbook(request, 'import_file_required') }),
      bodyLimit: IMPORT_JSON_LIMIT,
      schema: importSchema(
        'Импорт CSV в справочник (всё или ничего)',
        'JSON { config, csv } для файлов до нескольких МБ или сам файл с Content-Type: text/csv и ?type= (потоковая загрузка). ' +
          'Разделитель «;», первая строка — заголовки справочника. Ответ { rows, inserted, updated, deleted }. ' +
          'Ошибки: 400 { messages: ["import_failed"], errors: [{ row, column, message }], moreErrors } — номер строки как в файле (заголовок — 1), не более 100 ошибок.',
      ),
    },
    async (request) => {
      const { type, source } = importSource(request);
      const schema = await requireHandbook(app, type);
      if (schema.import.mode === 'procedure') {
        return appointVehicles(app, request, schema, source);
      }
      // Replacing (schedule times) deletes what the file no longer has.
      if (schema.import.mode === 'replace' && !canAccess(request.user, handbookPermissionPath(schema.type), 'delete'))
        throw fail(403, 'forbidden');
      return importCsv(app, request, schema, source);
    },
  );

  app.post<{ Body: ImportRequest | Readable; Querystring: { type?: string } }>(
    '/api/table/import/appoint-vehicles-to-route',
    {
      config: fixedHandbookRoute('vehicletask', ['create', 'update']),
      bodyLimit: IMPORT_JSON_LIMIT,
      schema: importSchema(
        'Импорт назначений ТС на маршруты (процедура назначения или замены)',
        'Столбцы date;route_number;grafic;depot_number;start_time;end_time, строка заголовков необязательна. Каждая строка выполняется процедурой ' +
          'mgt.assign_or_replace_vehicle: назначение ТС на выход или, если выход уже занят другим ТС, замена с start_time. Ответ { rows, assigned, replaced, unchanged }.',
      ),
    },
    async (request) => {
      const { source } = importSource(request);
      return appointVehicles(app, request, HANDBOOKS.vehicletask, source);
    },
  );

  app.post<{ Body: ExportRequest }>(
    '/api/table/export',
    {
      config: { ...HANDBOOK_READ_ROUTE, heavy: true },
      schema: {
        tags: ['handbooks'],
        summary: 'Экспорт справочника в CSV или XLSX (скачивание файла)',
        description:
          'format: csv (по умолчанию) — UTF-8 с BOM, разделитель «;», заголовки как при импорте (файл читается импортом обратно); ячейки, начинающиеся с = + - @, экранируются апострофом. ' +
          'xlsx — для чтения: те же столбцы под русскими названиями полей, ссылки — названиями записей, время — по смещению X-Timezone-Offset. Фильтры и сортировка как у списка.',
        body: bodies.exportBody,
      },
    },
    async (request, reply) => {
      const schema = await requireHandbook(app, request.body.config.type);
      const format = request.body.format ?? 'csv';
      const stream = await exportHandbook(app, schema, request.body, clientOffset(request));
      return reply
        .header('content-type', SHEET_CONTENT_TYPES[format])
        .header('content-disposition', `attachment; filename="${schema.type}.${format}"`)
        .send(stream);
    },
  );

  app.post<{ Body: OptionsRequest }>(
    '/api/table/options',
    {
      config: HANDBOOK_READ_ROUTE,
      schema: {
        tags: ['handbooks'],
        summary: 'Варианты для поля-ссылки справочника или подсказки поля (не более 50)',
        description:
          'Ответ { list: [{ value, label }] }: записи справочника, на который ссылается поле; q — поиск по тексту, values — найти текущие значения.',
        body: bodies.optionsBody,
      },
    },
    async (request) => {
      const schema = await requireHandbook(app, request.body.config.type);
      return refOptions(app.db, schema, request.body);
    },
  );

  // Camera create or recorder update: either handbook's right, each while its section is on.
  app.post<{ Body: AddCamerasRequest }>(
    '/api/widget/addcamersvehicle',
    {
      config: {
        module: 'handbooks',
        access: {
          anyOf: [
            { path: handbookPermissionPath(HANDBOOKS.camera.type), action: 'create', section: `handbooks.${HANDBOOKS.camera.type}` },
            { path: handbookPermissionPath(HANDBOOKS.dvr.type), action: 'update', section: `handbooks.${HANDBOOKS.dvr.type}` },
          ],
        },
      },
      schema: {
        tags: ['handbooks'],
        summary: 'Добавить стандартный набор камер (по одной каждого типа) видеорегистраторам ТС',
        description:
          'Право: создание в справочнике камер или изменение в справочнике видеорегистраторов. veh_list — идентификаторы ТС. Ответ { vehicles, recorders, added }. Нет видеорегистратора у ТС или нет типов камер — 400 dvr_or_camera_not_found, ничего не добавляется.',
        body: bodies.addCamerasBody,
      },
    },
    async (request) => {
      return addCamerasToVehicles(app, request, request.body.veh_list);
    },
  );

  app.post<{ Body: GenericQueryRequest }>(
    '/api/v1/handbooks/query',
    {
      config: { ...handbookRoute('read', { accessParam: queriedHandbook }), journal: false },
      schema: {
        tags: ['handbooks'],
        summary: 'Мобильное приложение: чтение справочника (POST /api/v1/handbooks/query)',
        description:
          'Обобщённый запрос только для чтения: schema, table, fields, sort, limit, offset, filters, distinct. Имена схем, таблиц и полей — только из описаний справочников, иначе 400 bad_request. Ответ { list, count }.',
        body: bodies.genericQueryBody,
      },
    },
    async (request) => genericQuery(app, request.body),
  );

  await app.register(columnsRoutes);
}
