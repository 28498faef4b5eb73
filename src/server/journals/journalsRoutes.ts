import type { FastifyInstance, FastifyRequest } from 'fastify';
import { HEADERS } from '../../shared/constants';
import type { ListResponse } from '../../shared/api';
import { CSV_BOM, csvLine, formatTime } from './csv';
import { JOURNALS, type JournalDefinition } from './journalDefinitions';
import { DEFAULT_PAGE, journalOrder, journalQuerySchema, journalWhere, selectList, type JournalQuery } from './journalQuery';

/** An export holds at most this many rows (newest first by default): a file a spreadsheet can still open. */
export const EXPORT_MAX_ROWS = 100_000;

type Row = Record<string, unknown>;

/**
 * The journals of spec section 2: GET /api/v1/journals/{journal} → { list, count } and
 * GET /api/v1/journals/{journal}/export → CSV, with period, user or vehicle, type, sort and paging. Each is
 * guarded by its console route's key and vanishes (404) while its section switch is off. There are no write
 * routes: journal rows are appended by the server only.
 */
export default async function journalsRoutes(app: FastifyInstance): Promise<void> {
  for (const journal of JOURNALS) {
    const config = { access: { path: journal.routeKey, action: 'read' as const }, module: 'journals' as const, section: journal.section };
    const url = `/api/v1/journals/${journal.id}`;

    app.get<{ Querystring: JournalQuery }>(url, {
      config,
      schema: {
        tags: ['journals'],
        summary: `${journal.title}: период (from, to), ${filterWords(journal)}, тип (type), сортировка (sortField, sortOrder), страница (skipCount, recordCount)`,
        querystring: journalQuerySchema(journal, true),
      },
    }, async (request): Promise<ListResponse<Row>> => {
      const { where, params } = journalWhere(journal, request.query, await app.settings.switches());
      const { skipCount = 0, recordCount = DEFAULT_PAGE } = request.query;
      const list = await app.db.query<Row>(
        `select ${selectList(journal)} from ${journal.from} ${where} ${journalOrder(journal, request.query)}
         limit $${params.length + 1} offset $${params.length + 2}`,
        [...params, recordCount, skipCount],
      );
      const [{ count }] = await app.db.query<{ count: number }>(`select count(*)::int as count from ${journal.from} ${where}`, params);
      return { list, count };
    });

    app.get<{ Querystring: JournalQuery }>(`${url}/export`, {
      config,
      schema: {
        tags: ['journals'],
        summary: `${journal.title}: выгрузка в CSV (UTF-8 с BOM, разделитель «;») с теми же фильтрами, не более ${EXPORT_MAX_ROWS} строк`,
        querystring: journalQuerySchema(journal, false),
      },
    }, async (request, reply) => {
      const { where, params } = journalWhere(journal, request.query, await app.settings.switches());
      const rows = await app.db.query<Row>(
        `select ${selectList(journal)} from ${journal.from} ${where} ${journalOrder(journal, request.query)} limit ${EXPORT_MAX_ROWS}`,
        params,
      );
      const file = `${journal.id}-${new Date().toISOString().slice(0, 10)}.csv`;
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${file}"`)
        .send(toCsv(journal, rows, clientOffset(request)));
    });
  }
}

function filterWords(journal: JournalDefinition): string {
  return [journal.userColumn ? 'пользователь (user)' : '', journal.vehicleColumn ? 'ТС (vehicle)' : ''].filter(Boolean).join(', ');
}

function toCsv(journal: JournalDefinition, rows: Row[], offset: number): string {
  let text = CSV_BOM + csvLine(journal.columns.map((column) => column.header));
  for (const row of rows) {
    text += csvLine(journal.columns.map((column) => {
      const value = row[column.name];
      return column.format === 'time' && (value instanceof Date || typeof value === 'string') ? formatTime(value, offset) : value;
    }));
  }
  return text;
}

/** The client's offset (minutes east of UTC, as the console sends it); UTC when absent or implausible. */
function clientOffset(request: FastifyRequest): number {
  const offset = Number(request.headers[HEADERS.timezoneOffset]);
  return Number.isInteger(offset) && Math.abs(offset) <= 14 * 60 ? offset : 0;
}
