import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  ADAS_API,
  type AdasFiltersBody,
  FALSE_ALARM_CHOICES,
  INCIDENT_REVIEWS,
  INCIDENT_STEPS,
  INCIDENTS_DETAILING,
  INCIDENTS_DISTRIBUTION,
  INCIDENTS_DYNAMIC,
  REVIEW_COMMENT_MAX,
  type IncidentReview,
} from '../../shared/reports/adas';
import { ISO_MAX_LENGTH, MAX_ID, MAX_IDS, parseReportFilters, type ReportFilterValues } from '../../shared/reports/filters';
import { ADAS_EVENTS_JOURNAL } from '../../shared/reports/journals';
import type { ReportDeclaration } from '../../shared/reports/types';
import { fail } from '../http/errors';
import type { Permission } from '../http/access';
import type { Action } from '../../shared/permissions';
import { JOURNAL_SOURCES } from '../journals/journalReports';
import { reportQuery, type Row } from '../reports/reportQuery';
import { clientOffset, MAX_PAGE, SUMMARY_MAX_ROWS } from '../reports/reportsRoutes';
import type { ReportSql } from '../reports/reportSource';
import { detailingSql, distributionSql, dynamicsSql, incidentSql, incidentsSql, vehiclesOnRoutesSql } from './incidentQueries';
import { incidentTypesOf } from '../map/incidentRoutes';

const ids = (description: string) => ({
  type: 'array',
  maxItems: MAX_IDS,
  items: { type: 'integer', minimum: 0, maximum: MAX_ID },
  description,
});
const FILTERS_BODY = {
  type: 'object',
  additionalProperties: false,
  properties: {
    from: {
      type: 'string',
      maxLength: ISO_MAX_LENGTH,
      description: 'Начало периода, ISO 8601 (включительно); обязательно, кроме incidents-journal',
    },
    to: { type: 'string', maxLength: ISO_MAX_LENGTH, description: 'Конец периода, ISO 8601 (включительно); период не длиннее 366 сут.' },
    vehicles: ids('ID ТС'),
    routes: ids('ID маршрутов'),
    depots: ids('ID предприятий (филиалов)'),
    types: ids('Коды типов инцидентов'),
    step: { type: 'string', enum: [...INCIDENT_STEPS], description: 'Шаг динамики (по умолчанию day)' },
    falseAlarms: {
      type: 'string',
      enum: [...FALSE_ALARM_CHOICES],
      description: 'include (по умолчанию) или exclude — не считать ложные срабатывания',
    },
    skipCount: { type: 'integer', minimum: 0, maximum: 2_147_483_647, description: 'Таблицы: пропустить строк' },
    recordCount: { type: 'integer', minimum: 1, maximum: MAX_PAGE, description: 'Таблицы: строк на странице (по умолчанию 100)' },
    top: {
      type: 'integer',
      minimum: 1,
      maximum: 100,
      description: 'Круговая диаграмма: маршрутов отдельно (по умолчанию 10), остальные — «Прочие»',
    },
  },
} as const;

/** The body as the report's query string, checked by the report's own declaration (same codes as the screens). */
function filtersOf(report: ReportDeclaration, body: AdasFiltersBody = {}): ReportFilterValues {
  const list = (values?: number[]) => (values?.length ? values.join(',') : undefined);
  const parsed = parseReportFilters(report, {
    from: body.from,
    to: body.to,
    step: body.step,
    falseAlarms: body.falseAlarms,
    vehicle: list(body.vehicles),
    route: list(body.routes),
    depot: list(body.depots),
    type: list(body.types),
  });
  if (!parsed.ok) throw fail(400, parsed.code, parsed.field);
  return parsed.values;
}

const access = (path: string, action: Action = 'read'): Permission => ({ path, action });

/**
 * The field app's ADAS calls (field-app.md section 7): POST with the filters body, answered from the same SQL
 * as the console's reports (incidentQueries.ts). Every one needs code 34's read right on its report; the
 * review needs the update right on the detailing.
 */
export default async function adasApiRoutes(app: FastifyInstance): Promise<void> {
  const summary = async (sql: ReportSql, order: string): Promise<Row[]> => {
    const rows = await reportQuery(app, `select * from (${sql.text}) r order by ${order} limit ${SUMMARY_MAX_ROWS + 1}`, sql.params);
    if (rows.length > SUMMARY_MAX_ROWS) throw fail(400, 'report_too_large');
    return rows;
  };
  const page = async (sql: ReportSql, order: string, body: AdasFiltersBody): Promise<{ list: Row[]; count: number }> => {
    const n = sql.params.length;
    const [list, [{ count }]] = await Promise.all([
      reportQuery(app, `select * from (${sql.text}) r order by ${order} limit $${n + 1} offset $${n + 2}`, [
        ...sql.params,
        body.recordCount ?? 100,
        body.skipCount ?? 0,
      ]),
      reportQuery<{ count: number }>(app, `select count(*)::int as count from (${sql.text}) r`, sql.params),
    ]);
    return { list, count };
  };
  const post = (
    path: string,
    report: ReportDeclaration,
    summaryText: string,
    handler: (filters: ReportFilterValues, body: AdasFiltersBody, request: FastifyRequest) => Promise<unknown>,
  ) => {
    app.post<{ Body: AdasFiltersBody }>(
      `${ADAS_API}/${path}`,
      {
        config: { access: access(report.path), module: 'adas', journal: false },
        schema: { tags: ['adas'], summary: summaryText, body: FILTERS_BODY },
      },
      (request) => handler(filtersOf(report, request.body), request.body ?? {}, request),
    );
  };
  const offsetOf = (request: FastifyRequest) => ({ offsetMinutes: clientOffset(request) });

  app.get(
    '/api/v1/adas/incidents-types',
    {
      config: { access: access(INCIDENTS_DYNAMIC.path), module: 'adas' },
      schema: {
        tags: ['adas'],
        summary:
          "Типы инцидентов ИСПВ для полевого приложения: incidentType, colour, shortName, name (без названия — 'ISPV event {код}'), как /api/v1/map/incident-types",
      },
    },
    () => incidentTypesOf(app.db),
  );

  post(
    'quantity-and-dynamics-incidents-report',
    INCIDENTS_DYNAMIC,
    'Динамика инцидентов (как /adas/incidents-dynamic): list — period (начало интервала, местное время клиента), incident_type, incident_name, count, false_alarms, false_share',
    async (filters, _body, request) => ({ list: await summary(dynamicsSql(filters, offsetOf(request)), 'r.period, r.incident_type') }),
  );

  post(
    'incidents-route-distribution-report',
    INCIDENTS_DISTRIBUTION,
    'Распределение по маршрутам (как /adas/incidents-distribution): list — route_id (null — без маршрута), route_name, count, share (%), km, trips, per_100km, per_1000_trips, previous (прошлый период той же длины), change (%), false_alarms, false_share',
    async (filters, _body, request) => ({ list: await summary(distributionSql(filters, offsetOf(request)), 'r.count desc, r.route_name') }),
  );

  post(
    'incidents-route-distribution-pie-chart',
    INCIDENTS_DISTRIBUTION,
    'Круговая диаграмма распределения: top маршрутов по количеству и «Прочие» (route_id null, other: true); list — route_id, route_name, count, share (%); total',
    async (filters, body, request) => {
      const rows = await summary(distributionSql(filters, offsetOf(request)), 'r.count desc, r.route_name');
      const shown = rows.filter((row) => Number(row.count) > 0);
      const top = body.top ?? 10;
      const total = shown.reduce((sum, row) => sum + Number(row.count), 0);
      const share = (count: number) => (total ? Math.round((1000 * count) / total) / 10 : 0);
      const list: Row[] = shown
        .slice(0, top)
        .map((row) => ({ route_id: row.route_id, route_name: row.route_name, count: row.count, share: row.share }));
      const rest = shown.slice(top).reduce((sum, row) => sum + Number(row.count), 0);
      if (rest > 0) list.push({ route_id: null, route_name: 'Прочие', count: rest, share: share(rest), other: true });
      return { list, total };
    },
  );

  post(
    'vehicle-list',
    INCIDENTS_DETAILING,
    'ТС с инцидентами (как /adas/incidents-detailing): list — vehicle_id, depot_number, state_number, depot_name, count, high (степень 3), km, per_100km, false_alarms, false_share',
    async (filters, _body, request) => ({ list: await summary(detailingSql(filters, offsetOf(request)), 'r.count desc, r.depot_number') }),
  );

  post(
    'vehicle-on-route-list',
    INCIDENTS_DETAILING,
    'ТС на маршрутах: list — route_id (null — без маршрута), route_name, vehicle_id, depot_number, state_number, count',
    async (filters, _body, request) => ({
      list: await summary(vehiclesOnRoutesSql(filters, offsetOf(request)), 'r.route_name, r.count desc, r.depot_number'),
    }),
  );

  post(
    'vehicle-incidents-detail-table',
    INCIDENTS_DETAILING,
    'Отдельные инциденты (детализация, обычно одного ТС: vehicles): list — id, tm, vehicle_id, depot_number, state_number, incident_type, incident_name, incident_color, grade, speed, lat, lon, route_id, route_name, trip_id, race_num, driver_id, driver_name, evidence, review, review_comment, reviewed_by, reviewed_at; count. Новые первыми, страница skipCount/recordCount',
    (filters, body) => page(incidentsSql(filters), 'r.tm desc, r.id desc', body),
  );

  app.post<{ Body: AdasFiltersBody }>(
    '/api/v1/adas/incidents-journal',
    {
      config: { access: access(INCIDENTS_DETAILING.path), module: 'adas', journal: false },
      schema: {
        tags: ['adas'],
        summary:
          'Журнал инцидентов (как /journal/adas): период необязателен, фильтры vehicles и types; list — строки журнала, новые первыми; count; страница skipCount/recordCount',
        body: FILTERS_BODY,
      },
    },
    async (request) => {
      const filters = filtersOf(ADAS_EVENTS_JOURNAL, request.body);
      const source = JOURNAL_SOURCES.find((bound) => bound.report === ADAS_EVENTS_JOURNAL)!.source;
      const sql = source.select(filters, {
        switches: await app.settings.switches(),
        offsetMinutes: clientOffset(request),
        userId: request.user!.id,
      });
      return page(sql, 'r.tm desc, r.id desc', request.body ?? {});
    },
  );

  app.get<{ Params: { id: number } }>(
    '/api/v1/adas/incidents/:id',
    {
      config: { access: access(INCIDENTS_DETAILING.path), module: 'adas' },
      schema: {
        tags: ['adas'],
        summary: 'Один инцидент (поля как в vehicle-incidents-detail-table и trip_line — линия рейса, WKT)',
        params: { type: 'object', required: ['id'], properties: { id: { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER } } },
      },
    },
    async (request) => {
      const sql = incidentSql(request.params.id);
      const [row] = await app.db.query(sql.text, sql.params);
      if (!row) throw fail(404, 'not_found');
      return row;
    },
  );

  app.put<{ Params: { id: number }; Body: { review: IncidentReview | null; comment?: string } }>(
    '/api/v1/adas/incidents/:id/review',
    {
      config: { access: access(INCIDENTS_DETAILING.path, 'update'), module: 'adas' },
      schema: {
        tags: ['adas'],
        summary:
          'Разбор инцидента: review — confirmed (подтверждён), false_alarm (ложное срабатывание) или null (снять разбор); comment. Право: изменение в детализации инцидентов. Попадает в журналы /journal/adas и действий пользователей',
        params: { type: 'object', required: ['id'], properties: { id: { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER } } },
        body: {
          type: 'object',
          required: ['review'],
          additionalProperties: false,
          properties: {
            review: { anyOf: [{ type: 'string', enum: [...INCIDENT_REVIEWS] }, { type: 'null' }] },
            comment: { type: 'string', maxLength: REVIEW_COMMENT_MAX },
          },
        },
      },
    },
    async (request) => {
      const { id } = request.params;
      const { review } = request.body;
      const comment = request.body.comment?.trim() || null;
      return app.db.transaction(async (tx) => {
        const [before] = await tx.query<{ review: string | null; review_comment: string | null }>(
          'select review, review_comment from adas.incident_event where id = $1 for update',
          [id],
        );
        if (!before) throw fail(404, 'not_found');
        await tx.query(
          `update adas.incident_event set review = $2, review_comment = $3, reviewed_by = $4, reviewed_at = case when $2::text is null then null else now() end where id = $1`,
          [id, review, review === null ? null : comment, review === null ? null : request.user!.id],
        );
        await app.journal.record(
          request,
          {
            action: 'update',
            object: 'adas_incident',
            objectId: id,
            before,
            after: { review, review_comment: review === null ? null : comment },
          },
          tx,
        );
        const sql = incidentSql(id);
        const [row] = await tx.query(sql.text, sql.params);
        return row;
      });
    },
  );
}
