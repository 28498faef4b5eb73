import type { FastifyInstance, FastifyRequest } from 'fastify';
import { HEADERS } from '../../shared/constants';
import { isoDate } from '../../shared/format';
import {
  ENUM_LIST_MAX_LENGTH,
  ID_LIST_MAX_LENGTH,
  ISO_MAX_LENGTH,
  parseReportFilters,
  type ReportFilterValues,
} from '../../shared/reports/filters';
import {
  pickerFilters,
  reportApi,
  sortableColumns,
  type ExportFormat,
  type ReportDeclaration,
  type ReportFilter,
} from '../../shared/reports/types';
import { fail } from '../http/errors';
import { odMatrixCells } from '../../shared/reports/odMatrix';
import { SHEET_CONTENT_TYPES } from '../http/exportStream';
import { exportReport } from './reportExport';
import { PICKER_MAX, PICKER_SQL } from './pickerOptions';
import { countSql, orderBy, reportQuery, reportSort, totalColumns, totalSums, wrap, type Row } from './reportQuery';
import type { BoundReport, ReportContext, ReportSource } from './reportSource';

export const MAX_PAGE = 1000;
/** A summary (grouped counts) larger than this is refused: the filters should narrow it. */
export const SUMMARY_MAX_ROWS = 50_000;

export interface ReportQueryString {
  sortField?: string;
  sortOrder?: 'ASC' | 'DESC';
  skipCount?: number;
  recordCount?: number;
  format?: ExportFormat;
  [filter: string]: unknown;
}

/** The list's answer: a page, the count, and where declared the totals row and every row for the charts. */
export interface ReportListResponse {
  list: Row[];
  count: number;
  /** false: more than `count` rows (a capped count, ReportSource.countCap). */
  countExact?: boolean;
  totals?: Row;
  chart?: Row[];
}

function filterSchema(filter: ReportFilter): Record<string, Record<string, unknown>> {
  switch (filter.kind) {
    case 'period': {
      const time = (description: string) => ({ type: 'string', maxLength: ISO_MAX_LENGTH, description });
      return { from: time('Начало периода, ISO 8601 (включительно)'), to: time('Конец периода, ISO 8601 (включительно)') };
    }
    case 'choice':
      return { [filter.name]: { type: 'string', enum: [...filter.values], default: filter.default } };
    case 'enum':
      return {
        [filter.name]: { type: 'string', maxLength: ENUM_LIST_MAX_LENGTH, description: `Через запятую: ${filter.values.join(', ')}` },
      };
    case 'text':
      return { [filter.name]: { type: 'string', maxLength: filter.maxLength, description: 'Значения через запятую' } };
    default:
      return { [filter.name]: { type: 'string', maxLength: ID_LIST_MAX_LENGTH, pattern: '^[0-9,]*$', description: 'ID через запятую' } };
  }
}

/** The query string a report accepts, from its declaration: bounded strings, integer ranges, known names. */
export function reportQuerySchema(report: ReportDeclaration, kind: 'list' | 'export'): Record<string, unknown> {
  const properties: Record<string, unknown> = Object.assign({}, ...report.filters.map(filterSchema));
  properties.sortField = { type: 'string', enum: sortableColumns(report) };
  properties.sortOrder = { type: 'string', enum: ['ASC', 'DESC'] };
  if (kind === 'list') {
    properties.skipCount = { type: 'integer', minimum: 0, maximum: 2_147_483_647, default: 0 };
    properties.recordCount = { type: 'integer', minimum: 1, maximum: MAX_PAGE, default: report.pageSize };
  } else {
    properties.format = { type: 'string', enum: [...report.export], default: report.export[0] };
  }
  return { type: 'object', additionalProperties: false, properties };
}

/** The client's offset (minutes east of UTC, as the console sends it); UTC when absent or implausible. */
export function clientOffset(request: FastifyRequest): number {
  const offset = Number(request.headers[HEADERS.timezoneOffset]);
  return Number.isInteger(offset) && Math.abs(offset) <= 14 * 60 ? offset : 0;
}

async function checkedFilters(
  app: FastifyInstance,
  report: ReportDeclaration,
  request: FastifyRequest,
): Promise<{ values: ReportFilterValues; context: ReportContext }> {
  const parsed = parseReportFilters(report, request.query as Record<string, unknown>);
  if (!parsed.ok) throw fail(400, parsed.code, parsed.field);
  const settings = await app.settings.get();
  return {
    values: parsed.values,
    context: {
      switches: { modules: settings.modules, sections: settings.sections },
      offsetMinutes: clientOffset(request),
      userId: request.user?.id ?? 0,
      settings,
    },
  };
}

async function listReport(
  app: FastifyInstance,
  report: ReportDeclaration,
  source: ReportSource,
  request: FastifyRequest<{ Querystring: ReportQueryString }>,
): Promise<ReportListResponse> {
  const { values, context } = await checkedFilters(app, report, request);
  const sql = source.select(values, context);
  const sort = reportSort(report, source, request.query.sortField, request.query.sortOrder);
  const { skipCount = 0, recordCount = report.pageSize } = request.query;
  const order = orderBy(report, source, sort);
  if (source.shape === 'summary') {
    const rows = await reportQuery(app, `select * from ${wrap(sql)} ${order} limit ${SUMMARY_MAX_ROWS + 1}`, sql.params);
    if (rows.length > SUMMARY_MAX_ROWS) throw fail(400, 'report_too_large');
    const response: ReportListResponse = { list: rows.slice(skipCount, skipCount + recordCount), count: rows.length };
    if (report.totals)
      response.totals = Object.fromEntries(
        totalColumns(report).map((c) => [c.name, rows.reduce((sum, row) => sum + Number(row[c.name] ?? 0), 0)]),
      );
    if (report.charts?.length || report.part) response.chart = chartRows(report, rows);
    return response;
  }
  const n = sql.params.length;
  const chartSql = source.chart && report.charts?.length ? source.chart(values, context) : undefined;
  const chart = chartSql ? reportQuery(app, chartSql.text, chartSql.params) : undefined;
  chart?.catch(() => undefined);
  if (report.totals) {
    // the page with the count and totals of every row beside it (window sums): one pass over a grouped
    // select instead of one for the page and another for its count
    const sums = totalSums(report, { window: true, prefix: TOTAL_PREFIX });
    const page = await reportQuery(
      app,
      `select r.*, count(*) over ()::int as "__count"${sums} from ${wrap(sql)} ${order} limit $${n + 1} offset $${n + 2}`,
      [...sql.params, recordCount, skipCount],
    );
    let count = Number(page[0]?.__count ?? 0);
    let totals: Row = Object.fromEntries(totalColumns(report).map((c) => [c.name, Number(page[0]?.[`${TOTAL_PREFIX}${c.name}`] ?? 0)]));
    if (!page.length && skipCount > 0)
      [{ __count: count, ...totals }] = await reportQuery<{ __count: number } & Row>(app, countSql(report, sql), sql.params);
    const list = page.map(({ __count: _count, ...row }) =>
      Object.fromEntries(Object.entries(row).filter(([name]) => !name.startsWith(TOTAL_PREFIX))),
    );
    return chart ? { list, count, totals, chart: await chart } : { list, count, totals };
  }
  const list = await reportQuery(app, `select * from ${wrap(sql)} ${order} limit $${n + 1} offset $${n + 2}`, [
    ...sql.params,
    recordCount,
    skipCount,
  ]);
  const cap = source.countCap;
  const [{ __count: count }] = await reportQuery<{ __count: number } & Row>(app, countSql(report, sql, cap), sql.params, {
    byIndex: cap !== undefined,
  });
  const response: ReportListResponse = cap !== undefined && count > cap ? { list, count: cap, countExact: false } : { list, count };
  if (chart) response.chart = await chart;
  return response;
}

/** The window totals' column names beside a page's rows (no declared column starts so). */
const TOTAL_PREFIX = '__total_';

/** What a special part draws, where it needs less than every row: the correspondence's 225 matrix cells of 20,000 pairs. */
const PART_ROWS: Partial<Record<NonNullable<ReportDeclaration['part']>, (rows: Row[]) => Row[]>> = { odMatrix: odMatrixCells };

/**
 * The rows the charts need: all of them, except for a single bar chart of the `top` categories, which needs
 * only those (the detailing's 20 vehicles of thousands), and the parts that draw less.
 */
function chartRows(report: ReportDeclaration, rows: Row[]): Row[] {
  if (report.part) return PART_ROWS[report.part]?.(rows) ?? rows;
  const [chart, ...more] = report.charts ?? [];
  if (!chart || more.length || chart.kind !== 'bar' || !chart.top || chart.stackBy) return rows;
  return [...rows].sort((a, b) => Number(b[chart.value] ?? 0) - Number(a[chart.value] ?? 0)).slice(0, chart.top);
}

/**
 * Every declared report's routes, each guarded by the report's own permission (its path, read) and gone
 * (404) while its module or section is off:
 * - GET <api>: { list, count, totals?, chart? } with the declared filters, sortField/sortOrder, skipCount/recordCount;
 * - GET <api>/export?format=csv|xlsx: exactly what the filters select, streamed;
 * - GET <api>/options/<filter>: the choices of a picker filter for the filter modal.
 * Filters are checked (400, catalogue codes) before any query runs or any byte is sent.
 */
export function registerReports(app: FastifyInstance, bound: readonly BoundReport[]): void {
  for (const { report, source } of bound) {
    const config = { access: { path: report.path, action: 'read' as const }, module: report.module, section: report.section };
    // An export counts against the user's heavy requests (one at a time). A list is what a person waits for on the
    // screen (a rebuild may overlap the last one): the engine's fair order (reports after light work) bounds it.
    const heavyConfig = { ...config, heavy: true };
    const url = reportApi(report);
    const filters = report.filters.map((f) => (f.kind === 'period' ? 'период (from, to)' : f.name)).join(', ');

    app.get<{ Querystring: ReportQueryString }>(
      url,
      {
        config,
        schema: {
          tags: ['reports'],
          summary: `${report.title}: ${filters}; сортировка (sortField, sortOrder), страница (skipCount, recordCount)`,
          querystring: reportQuerySchema(report, 'list'),
        },
      },
      (request) => listReport(app, report, source, request),
    );

    app.get<{ Querystring: ReportQueryString }>(
      `${url}/export`,
      {
        config: heavyConfig,
        schema: {
          tags: ['reports'],
          summary: `${report.title}: выгрузка (format: ${report.export.join(', ')}) всего, что выбрано фильтрами`,
          querystring: reportQuerySchema(report, 'export'),
        },
      },
      async (request, reply) => {
        const { values, context } = await checkedFilters(app, report, request);
        const format = request.query.format ?? report.export[0];
        const sort = reportSort(report, source, request.query.sortField, request.query.sortOrder);
        const file = `${report.file}-${isoDate(new Date(), context.offsetMinutes)}.${format}`;
        const stream = await exportReport(app, report, source, source.select(values, context), sort, format, context.offsetMinutes);
        return reply
          .header('content-type', SHEET_CONTENT_TYPES[format])
          .header('content-disposition', `attachment; filename="${file}"`)
          .send(stream);
      },
    );

    for (const filter of pickerFilters(report)) {
      app.get(
        `${url}/options/${filter.name}`,
        {
          config,
          schema: { tags: ['reports'], summary: `${report.title}: варианты фильтра ${filter.name} для окна выбора` },
        },
        async () => reportQuery<{ id: number; name: string }>(app, `${PICKER_SQL[filter.kind]} limit ${PICKER_MAX}`, []),
      );
    }
  }
}
