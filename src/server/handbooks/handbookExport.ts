import type { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { Filters, HandbookExportFormat, ListSort } from '../../shared/handbooks/api';
import { cellText } from '../../shared/handbooks/cellText';
import { exportColumns, formatCell } from '../../shared/handbooks/csv';
import { displayKey, type Column } from '../../shared/handbooks/fields';
import type { HandbookSchema } from '../../shared/handbooks/types';
import type { Row } from '../../shared/handbooks/validation';
import { buildWhere } from './filters';
import { buildOrder, displayExpr, sortKey, type SortKey } from './listQuery';
import { keyType } from './keys';
import { streamExport, type ExportSheet } from '../http/exportStream';
import { Params, col, quoteIdent, selectExpr, tableSql } from './sqlNames';

const KIND_NUMBERS = new Set(['int', 'bigint', 'number', 'port']);

/** A column's header for a person: the field's label, a point's two columns told apart. */
function columnLabel(column: Column): string {
  if (column.role === 'lat') return `${column.field.label}, широта`;
  if (column.role === 'lon') return `${column.field.label}, долгота`;
  return column.field.label;
}

/**
 * A spreadsheet cell as the list shows it (cellText: a link's target name, a list's option, hh:mm, DD.MM.YYYY),
 * numbers as numbers, shapes as their whole WKT.
 */
function xlsxCell(column: Column, row: Row, offsetMinutes: number): string | number | null {
  const value = row[column.name];
  if (value === null || value === undefined) return null;
  if (column.role !== 'value' || KIND_NUMBERS.has(column.field.kind)) return typeof value === 'number' ? value : String(value);
  if (column.field.kind === 'polygon' || column.field.kind === 'line') return String(value);
  const iso = value instanceof Date ? value.toISOString() : value;
  return cellText(column.field, { ...row, [column.name]: iso }, offsetMinutes) || null;
}

/**
 * A handbook's file: CSV as the import reads it back (the import headers, the stored values), XLSX for reading (the
 * fields' Russian labels, linked names).
 */
function handbookSheet(
  schema: HandbookSchema,
  columns: readonly Column[],
  format: HandbookExportFormat,
  offsetMinutes: number,
): ExportSheet<Row> {
  return {
    format,
    title: schema.title,
    csvHeader: columns.map((column) => column.name),
    csvRow: (row) => columns.map((column) => formatCell(column, row[column.name])),
    xlsxColumns: columns.map((column) => ({ header: columnLabel(column), width: 20 })),
    xlsxRow: (row) => columns.map((column) => xlsxCell(column, row, offsetMinutes)),
  };
}

/**
 * Keyset condition "after (lastValue, lastKey)" in the list's order (PostgreSQL sorts nulls last when
 * ascending, first when descending), so each batch is an index range, not an ever-growing OFFSET.
 */
function afterCondition(key: SortKey, pk: string, params: Params, last: { value: unknown; key: unknown }, pkType: string): string {
  const lastKey = `${params.add(last.key)}::${pkType}`;
  if (key.isKey) return `${pk} ${key.desc ? '<' : '>'} ${lastKey}`;
  if (last.value === null || last.value === undefined) {
    return key.desc
      ? `((${key.expr} is null and ${pk} < ${lastKey}) or ${key.expr} is not null)`
      : `(${key.expr} is null and ${pk} > ${lastKey})`;
  }
  const value = `${params.add(last.value)}::${key.type}`;
  const op = key.desc ? '<' : '>';
  const nulls = key.desc ? '' : ` or ${key.expr} is null`;
  return `(${key.expr} ${op} ${value} or (${key.expr} = ${value} and ${pk} ${op} ${lastKey})${nulls})`;
}

/**
 * POST /api/table/export: the handbook's rows (filtered and sorted like the list) as the CSV the import
 * reads back (BOM, semicolons, the import headers, hh:mm times, WKT geometry, text cells neutralised
 * against formula injection) or as XLSX for reading (the same columns under the fields' labels, links as
 * their targets' names, times at the client's offset). Rows are read in keyset batches and written as the
 * client takes them: no transaction or connection is held while a slow client downloads (on the embedded
 * engine that would stall every other request), and memory stays at one batch. The first batch is read
 * before the response starts, so a bad filter or a failing query is a JSON error, never a download cut short.
 */
export async function exportHandbook(
  app: FastifyInstance,
  schema: HandbookSchema,
  input: { filters?: Filters; sort?: ListSort; format?: HandbookExportFormat },
  offsetMinutes: number,
): Promise<Readable> {
  const format = input.format ?? 'csv';
  const columns = exportColumns(schema);
  const key = sortKey(schema, input.sort);
  const order = buildOrder(schema, input.sort);
  const pk = col('t', schema.primaryKey);
  const pkType = keyType(schema);
  const select = [
    ...columns.map((column) => `${selectExpr('t', column)} as ${quoteIdent(column.name)}`),
    ...(format === 'xlsx'
      ? columns.flatMap((column) =>
          column.field.kind === 'ref' ? [`${displayExpr(column.field, 't')} as ${quoteIdent(displayKey(column.name))}`] : [],
        )
      : []),
    `${key.expr} as "__sort"`,
    `${pk} as "__key"`,
  ].join(', ');
  // An export reads the whole selection: the long query limit (Db.longRunning), not a list's.
  const db = app.db.longRunning();
  const size = app.config.exportBatchRows;
  const batchAfter = (last: { value: unknown; key: unknown } | undefined) => {
    const params = new Params();
    const where = buildWhere(schema, input.filters, params);
    const after = last ? ` and ${afterCondition(key, pk, params, last, pkType)}` : '';
    return db.query<Row>(
      `select ${select} from ${tableSql(schema)} t where ${where}${after} order by ${order} limit ${params.add(size)}`,
      params.values,
    );
  };
  const first = await batchAfter(undefined);
  const next = (written: Row[]) => {
    const tail = written[written.length - 1];
    return written.length < size ? undefined : batchAfter({ value: tail.__sort, key: tail.__key });
  };
  return streamExport(app.log, handbookSheet(schema, columns, format, offsetMinutes), first, next, { handbook: schema.type });
}
