import type { Filters, ListSort } from '../../shared/handbooks/api';
import { HANDBOOKS } from '../../../schemas/index';
import { columnByName, columnsOf, displayKey, type Column } from '../../shared/handbooks/fields';
import type { HandbookSchema, RefField } from '../../shared/handbooks/types';
import type { Row } from '../../shared/handbooks/validation';
import { HANDBOOK_PAGE_SIZE } from '../../shared/constants';
import type { Queryable } from '../db/types';
import { fail } from '../http/errors';
import { buildWhere } from './filters';
import { refLabelExpr } from './refLabel';
import { Params, col, isGeometry, quoteIdent, selectExpr, sqlTypeOf, tableSql } from './sqlNames';
import { widgetFields, widgetSelect } from './widgets';

export const PER_PAGE_MAX = 1000;
const DISPLAY_SUFFIX = '__display';

/** The display text of a ref column (refLabelExpr), looked up for one row; 'sort' gives its calendar-ordered form. */
export function displayExpr(field: RefField, alias: string, purpose: 'show' | 'sort' = 'show'): string {
  const target = HANDBOOKS[field.target];
  return `(select ${refLabelExpr(field, 'r', purpose)} from ${tableSql(target)} r where r.${quoteIdent(field.valueField)} = ${col(alias, field.name)} limit 1)`;
}

/** The select list of API rows: columns (geometry as WKT), ref display texts, widget values. */
export function selectList(schema: HandbookSchema, alias: string, columns: Column[] = columnsOf(schema), withWidgets = true): string {
  const items: string[] = [];
  for (const column of columns) {
    items.push(`${selectExpr(alias, column)} as ${quoteIdent(column.name)}`);
    if (column.field.kind === 'ref') items.push(`${displayExpr(column.field, alias)} as ${quoteIdent(displayKey(column.name))}`);
  }
  if (withWidgets) {
    for (const field of widgetFields(schema)) {
      const expr = widgetSelect(schema, field, alias);
      if (expr) items.push(`${expr} as ${quoteIdent(field.name)}`);
    }
  }
  return items.join(', ');
}

/** What a list is ordered by: an expression (column or a ref's display text), its type, the direction. */
export interface SortKey {
  expr: string;
  type: string;
  desc: boolean;
  /** Ordering by the primary key alone. */
  isKey: boolean;
}

/** The requested sort (default: the schema's), checked against the whitelist: unknown or geometry refused. */
export function sortKey(schema: HandbookSchema, sort: ListSort | undefined, alias = 't'): SortKey {
  const wanted = sort?.field ? sort : schema.defaultSort;
  const desc = String(wanted.order ?? 'ASC').toUpperCase() === 'DESC';
  const byDisplay = wanted.field.endsWith(DISPLAY_SUFFIX);
  const name = byDisplay
    ? wanted.field.slice(0, -DISPLAY_SUFFIX.length)
    : wanted.field === 'id' && !columnByName(schema, 'id')
      ? schema.primaryKey
      : wanted.field;
  const column = columnByName(schema, name);
  if (!column || isGeometry(column) || (byDisplay && column.field.kind !== 'ref')) {
    throw fail(400, 'bad_request', `unknown sort field: ${String(wanted.field).slice(0, 64)}`);
  }
  if (byDisplay && column.field.kind === 'ref') return { expr: displayExpr(column.field, alias, 'sort'), type: 'text', desc, isKey: false };
  return { expr: col(alias, column.name), type: sqlTypeOf(column), desc, isKey: column.name === schema.primaryKey };
}

/**
 * ORDER BY of a list: the sort key, then the primary key in the same direction so pages are stable.
 */
export function buildOrder(schema: HandbookSchema, sort: ListSort | undefined, alias = 't'): string {
  const key = sortKey(schema, sort, alias);
  const order = key.desc ? 'desc' : 'asc';
  const pk = col(alias, schema.primaryKey);
  return key.isKey ? `${pk} ${order}` : `${key.expr} ${order}, ${pk} ${order}`;
}

export interface ListInput {
  filters?: Filters;
  sort?: ListSort;
  page?: number;
  perPage?: number;
}

export function pageOf(input: Pick<ListInput, 'page' | 'perPage'>): { limit: number; offset: number } {
  const perPage = Math.min(Math.max(Math.trunc(Number(input.perPage ?? HANDBOOK_PAGE_SIZE)) || HANDBOOK_PAGE_SIZE, 1), PER_PAGE_MAX);
  const page = Math.max(Math.trunc(Number(input.page ?? 1)) || 1, 1);
  return { limit: perPage, offset: (page - 1) * perPage };
}

/** Lists count exactly up to this many rows; beyond, the planner's estimate (countExact false). */
export const COUNT_EXACT_MAX = 10_000;

/**
 * One page and the total. The page is cut from the table first and only its rows get their display
 * texts and widget values (correlated lookups on at most perPage rows), so a link never costs a join
 * over the whole table. The total is exact up to COUNT_EXACT_MAX: counting a million schedule times on
 * every page turn would cost more than the page itself.
 */
export async function listRows(
  db: Queryable,
  schema: HandbookSchema,
  input: ListInput,
): Promise<{ list: Row[]; count: number; countExact: boolean }> {
  const params = new Params();
  const where = buildWhere(schema, input.filters, params);
  const order = buildOrder(schema, input.sort);
  const countParams = [...params.values];
  const { limit, offset } = pageOf(input);
  const page = `select t.* from ${tableSql(schema)} t where ${where} order by ${order} limit ${params.add(limit)} offset ${params.add(offset)}`;
  const [list, total] = await Promise.all([
    db.query<Row>(`select ${selectList(schema, 't')} from (${page}) t order by ${order}`, params.values),
    countRows(db, schema, where, countParams),
  ]);
  return { list, ...total };
}

/** Exact count up to the cap, else the planner's estimate (never below the cap). */
export async function countRows(
  db: Queryable,
  schema: HandbookSchema,
  where: string,
  params: unknown[],
): Promise<{ count: number; countExact: boolean }> {
  const from = `from ${tableSql(schema)} t where ${where}`;
  const [row] = await db.query<{ n: number }>(`select count(*)::int as n from (select 1 ${from} limit ${COUNT_EXACT_MAX + 1}) c`, params);
  if (row.n <= COUNT_EXACT_MAX) return { count: row.n, countExact: true };
  const [plan] = await db.query<{ 'QUERY PLAN': [{ Plan: { 'Plan Rows': number } }] | string }>(
    `explain (format json) select 1 ${from}`,
    params,
  );
  const json = plan['QUERY PLAN'];
  const estimate = (typeof json === 'string' ? (JSON.parse(json) as [{ Plan: { 'Plan Rows': number } }]) : json)[0].Plan['Plan Rows'];
  return { count: Math.max(COUNT_EXACT_MAX + 1, Math.round(estimate)), countExact: false };
}

/** One row as the API shows it, or undefined. */
export async function readRow(db: Queryable, schema: HandbookSchema, id: unknown): Promise<Row | undefined> {
  const [row] = await db.query<Row>(
    `select ${selectList(schema, 't')} from ${tableSql(schema)} t where ${col('t', schema.primaryKey)} = $1`,
    [id],
  );
  return row;
}
