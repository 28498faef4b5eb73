import type { FastifyInstance } from 'fastify';
import type { ReportColumn, ReportDeclaration } from '../../shared/reports/types';
import type { ReportSource, ReportSql } from './reportSource';

export type Row = Record<string, unknown>;

/**
 * Memory of a report's sorts and hash tables on PostgreSQL: at the server's default (4 MB) a month of a city's
 * rollups (200,000 stop-day rows, 600,000 trips) sorted on disk. Reports run a quarter of the pool at once.
 */
const REPORT_WORK_MEM = '64MB';

/**
 * Every report query goes through here: reports and their exports run under the long query limit
 * (Db.longRunning, QUERY_TIMEOUT_LONG_MS) instead of a list's. On PostgreSQL the query runs without JIT: its
 * cost estimates over large tables switch JIT on, and compiling took 250 ms of a 600 ms report (and as much
 * again for each export batch) while the execution it saves is a few milliseconds.
 */
export function reportQuery<T = Row>(
  app: FastifyInstance,
  sql: string,
  params: unknown[],
  options: { byIndex?: boolean } = {},
): Promise<T[]> {
  const db = app.db.longRunning();
  if (db.engine !== 'postgres') return db.query<T>(sql, params);
  return db.transaction(async (tx) => {
    await tx.query(`set local jit = off; set local work_mem = '${REPORT_WORK_MEM}'`);
    // byIndex: a capped count stops after its rows; the planner, misjudging two correlated ranges (a day's
    // service date and arrivals), built bitmaps of a million rows for it (300 ms) where an index scan takes 40.
    if (options.byIndex) await tx.query('set local enable_bitmapscan = off; set local enable_seqscan = off');
    return tx.query<T>(sql, params);
  });
}

export interface ReportSort {
  /** The sort expression over the alias r. */
  expr: string;
  /** The type its text value is cast back to in export batches. */
  type: string;
  desc: boolean;
}

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** The requested sort (schema-checked against the sortable columns) or the declared default. */
export function reportSort(
  report: ReportDeclaration,
  source: ReportSource,
  field: string | undefined,
  order: string | undefined,
): ReportSort {
  const column =
    report.columns.find((c) => c.name === (field ?? report.defaultSort.field) && c.sortable) ??
    report.columns.find((c) => c.name === report.defaultSort.field)!;
  const desc = (order ?? (field ? 'DESC' : report.defaultSort.order)) === 'DESC';
  const own = source.sortSql?.[column.name] ?? `r.${quote(column.name)}`;
  return { ...sortTyped(column, own), desc };
}

/**
 * The sort expression cast to the declared column's type, so that it compares with an export batch's last
 * value (`$n::type`) whatever the select makes of the column (a date given as text, say); a cast to the type
 * the column already has is no cast at all. Numbers sort as float8, whose text form reads back exactly.
 */
function sortTyped(column: ReportColumn, expr: string): Omit<ReportSort, 'desc'> {
  const type = SORT_TYPES[column.type] ?? 'text';
  return { expr: `(${expr})::${type}`, type };
}

const SORT_TYPES: Partial<Record<ReportColumn['type'], string>> = {
  datetime: 'timestamptz',
  date: 'date',
  number: 'float8',
  integer: 'float8',
};

const direction = (sort: ReportSort) => (sort.desc ? 'desc' : 'asc');

/** ORDER BY: the sort, then the key (rows) or every other column (summary), so pages never overlap. */
export function orderBy(report: ReportDeclaration, source: ReportSource, sort: ReportSort): string {
  if (source.key) return `order by ${sort.expr} ${direction(sort)}, r.${quote(source.key)} ${direction(sort)}`;
  const rest = report.columns.filter((c) => c.type !== 'json').map((c) => `r.${quote(c.name)}`);
  return `order by ${[`${sort.expr} ${direction(sort)}`, ...rest].join(', ')}`;
}

/**
 * Rows after the last one written, in the export's order (PostgreSQL puts nulls last ascending, first
 * descending): an index range per batch instead of an ever-growing OFFSET. `last.sort` is the sort value
 * as text (exact for times with microseconds and for float8).
 */
export function afterLast(sort: ReportSort, key: string, last: { sort: string | null; key: unknown }, params: unknown[]): string {
  const add = (value: unknown) => `$${params.push(value)}`;
  const k = `r.${quote(key)}`;
  const lastKey = add(last.key);
  const op = sort.desc ? '<' : '>';
  if (last.sort === null)
    return sort.desc
      ? `((${sort.expr} is null and ${k} < ${lastKey}) or ${sort.expr} is not null)`
      : `(${sort.expr} is null and ${k} > ${lastKey})`;
  const value = `${add(last.sort)}::${sort.type}`;
  const range = `${sort.expr} ${op}= ${value} and (${sort.expr} ${op} ${value} or ${k} ${op} ${lastKey})`;
  return sort.desc ? `(${range})` : `((${range}) or ${sort.expr} is null)`;
}

export function wrap(sql: ReportSql): string {
  return `(${sql.text}) r`;
}

export const totalColumns = (report: ReportDeclaration): ReportColumn[] => (report.totals ? report.columns.filter((c) => c.total) : []);

/**
 * The sums of the totals row over the select `r`, each `, … as "<prefix><column>"`: aggregated, or beside every
 * row (`window`: over the whole result, as a page carries them).
 */
export function totalSums(report: ReportDeclaration, options: { window?: boolean; prefix?: string } = {}): string {
  const over = options.window ? ' over ()' : '';
  return totalColumns(report)
    .map((c) => `, coalesce(sum(r.${quote(c.name)})${over}, 0)::float8 as ${quote(`${options.prefix ?? ''}${c.name}`)}`)
    .join('');
}

/** count(*) and the sums of the totals row, in one pass; with a cap, the count stops one row past it. */
export function countSql(report: ReportDeclaration, sql: ReportSql, cap?: number): string {
  if (cap !== undefined) return `select count(*)::int as "__count" from (select 1 from ${wrap(sql)} limit ${cap + 1}) r`;
  return `select count(*)::int as "__count"${totalSums(report)} from ${wrap(sql)}`;
}
