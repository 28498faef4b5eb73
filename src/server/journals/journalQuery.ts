import { fail } from '../http/errors';
import type { Switches } from '../../shared/modules';
import type { JournalDefinition } from './journalDefinitions';

/** Query string of every journal list and export (comma lists select several users, vehicles or types). */
export interface JournalQuery {
  from?: string;
  to?: string;
  user?: string;
  vehicle?: string;
  type?: string;
  sortField?: string;
  sortOrder?: 'ASC' | 'DESC';
  skipCount?: number;
  recordCount?: number;
}

export const DEFAULT_PAGE = 30;
export const MAX_PAGE = 1000;
const ID_LIST = '^\\d{1,10}(,\\d{1,10})*$';
const MAX_INT = 2_147_483_647;

export function journalQuerySchema(journal: JournalDefinition, paged: boolean): Record<string, unknown> {
  const properties: Record<string, unknown> = {
    from: { type: 'string', maxLength: 40, description: 'Начало периода, ISO 8601 (включительно)' },
    to: { type: 'string', maxLength: 40, description: 'Конец периода, ISO 8601 (включительно)' },
    type: journal.type.kind === 'int'
      ? { type: 'string', pattern: ID_LIST, maxLength: 2000, description: 'Коды типов событий через запятую' }
      : { type: 'string', maxLength: 2000, description: journal.type.values ? `Типы через запятую: ${journal.type.values.join(', ')}` : 'Типы (действия) через запятую' },
    sortField: { type: 'string', enum: Object.keys(journal.sortable) },
    sortOrder: { type: 'string', enum: ['ASC', 'DESC'] },
  };
  if (journal.userColumn) properties.user = { type: 'string', pattern: ID_LIST, maxLength: 2000, description: 'ID пользователей через запятую' };
  if (journal.vehicleColumn) properties.vehicle = { type: 'string', pattern: ID_LIST, maxLength: 11_000, description: 'ID ТС через запятую' };
  if (paged) {
    properties.skipCount = { type: 'integer', minimum: 0, maximum: 2147483647, default: 0 };
    properties.recordCount = { type: 'integer', minimum: 1, maximum: MAX_PAGE, default: DEFAULT_PAGE };
  }
  return { type: 'object', additionalProperties: false, properties };
}

/** WHERE clause and its parameters; every value is a parameter, every column comes from the definition. */
export function journalWhere(journal: JournalDefinition, query: JournalQuery, switches: Switches): { where: string; params: unknown[] } {
  const conditions: string[] = [];
  const params: unknown[] = [];
  const add = (sql: (placeholder: string) => string, value: unknown) => {
    params.push(value);
    conditions.push(sql(`$${params.length}`));
  };
  if (query.from !== undefined) add((p) => `${journal.time} >= ${p}::timestamptz`, isoTime(query.from, 'from'));
  if (query.to !== undefined) add((p) => `${journal.time} <= ${p}::timestamptz`, isoTime(query.to, 'to'));
  if (query.user && journal.userColumn) add((p) => `${journal.userColumn} = any(${p}::int[])`, ids(query.user, 'user'));
  if (query.vehicle && journal.vehicleColumn) add((p) => `${journal.vehicleColumn} = any(${p}::int[])`, ids(query.vehicle, 'vehicle'));
  if (query.type) {
    if (journal.type.kind === 'int') add((p) => `${journal.type.sql} = any(${p}::int[])`, ids(query.type, 'type'));
    else add((p) => `${journal.type.sql} = any(${p}::text[])`, texts(query.type, journal.type.values));
  }
  const switched = journal.switchedWhere?.(switches);
  if (switched) conditions.push(switched);
  return { where: conditions.length ? `where ${conditions.join(' and ')}` : '', params };
}

/** ORDER BY from the whitelist, the id breaking ties so that pages never overlap. */
export function journalOrder(journal: JournalDefinition, query: JournalQuery): string {
  const column = journal.sortable[query.sortField ?? journal.defaultSort] ?? journal.sortable[journal.defaultSort];
  const direction = query.sortOrder ?? 'DESC';
  return `order by ${column} ${direction}, j.id ${direction}`;
}

export function selectList(journal: JournalDefinition): string {
  return journal.columns.map((column) => `${column.sql} as "${column.name}"`).join(', ');
}

function isoTime(text: string, field: string): string {
  const time = Date.parse(text);
  if (!/^\d{4}-\d{2}-\d{2}/.test(text) || Number.isNaN(time)) throw fail(400, 'bad_request', `${field} must be an ISO 8601 date-time`);
  return new Date(time).toISOString();
}

function ids(text: string, field: string): number[] {
  const list = text.split(',').map(Number);
  if (list.some((n) => !Number.isInteger(n) || n > MAX_INT)) throw fail(400, 'bad_request', `${field} must be a list of ids`);
  return list;
}

function texts(text: string, allowed: readonly string[] | undefined): string[] {
  const list = text.split(',').map((item) => item.trim()).filter(Boolean);
  const unknown = allowed ? list.find((item) => !allowed.includes(item)) : undefined;
  if (unknown !== undefined) throw fail(400, 'bad_request', `type must be one of ${allowed!.join(', ')}`);
  return list;
}
