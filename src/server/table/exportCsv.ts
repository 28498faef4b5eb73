import { PassThrough } from 'node:stream';
import { once } from 'node:events';
import type { FastifyInstance } from 'fastify';
import type { Filters, ListSort } from '../../shared/handbooks/api';
import { CSV_BOM, csvLine, exportColumns, formatCell } from '../../shared/handbooks/csv';
import type { HandbookSchema } from '../../shared/handbooks/types';
import type { Row } from '../../shared/handbooks/validation';
import { buildWhere } from './filters';
import { buildOrder, sortKey, type SortKey } from './listQuery';
import { keyType } from './keys';
import { nextTurn, ROWS_PER_TURN } from '../http/eventLoop';
import { Params, col, quoteIdent, selectExpr, tableSql } from './sqlNames';

/**
 * Keyset condition "after (lastValue, lastKey)" in the list's order (PostgreSQL sorts nulls last when
 * ascending, first when descending), so each batch is an index range, not an ever-growing OFFSET.
 */
function afterCondition(key: SortKey, pk: string, params: Params, last: { value: unknown; key: unknown }, pkType: string): string {
  const lastKey = `${params.add(last.key)}::${pkType}`;
  if (key.isKey) return `${pk} ${key.desc ? '<' : '>'} ${lastKey}`;
  if (last.value === null || last.value === undefined) {
    return key.desc ? `((${key.expr} is null and ${pk} < ${lastKey}) or ${key.expr} is not null)` : `(${key.expr} is null and ${pk} > ${lastKey})`;
  }
  const value = `${params.add(last.value)}::${key.type}`;
  const op = key.desc ? '<' : '>';
  const nulls = key.desc ? '' : ` or ${key.expr} is null`;
  return `(${key.expr} ${op} ${value} or (${key.expr} = ${value} and ${pk} ${op} ${lastKey})${nulls})`;
}

/**
 * POST /api/table/export: the handbook's rows (filtered and sorted like the list) as the CSV the import
 * reads back: BOM, semicolons, the import headers, hh:mm times, WKT geometry, text cells neutralised
 * against formula injection. Rows are read in keyset batches and written as the client takes them: no
 * transaction or connection is held while a slow client downloads (on the embedded engine that would
 * stall every other request), and memory stays at one batch. The first batch is read before the response
 * starts, so a bad filter or a failing query is a JSON error, never a download cut short.
 */
export async function exportCsv(app: FastifyInstance, schema: HandbookSchema, input: { filters?: Filters; sort?: ListSort }): Promise<PassThrough> {
  const columns = exportColumns(schema);
  const key = sortKey(schema, input.sort);
  const order = buildOrder(schema, input.sort);
  const pk = col('t', schema.primaryKey);
  const pkType = keyType(schema);
  const select = [
    ...columns.map((column) => `${selectExpr('t', column)} as ${quoteIdent(column.name)}`),
    `${key.expr} as "__sort"`,
    `${pk} as "__key"`,
  ].join(', ');
  const out = new PassThrough();

  const write = async (text: string) => {
    if (!out.write(text)) await Promise.race([once(out, 'drain'), once(out, 'close')]);
    if (out.destroyed) throw new Error('client went away');
  };

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

  const run = async () => {
    await write(CSV_BOM + csvLine(columns.map((column) => column.name)));
    let last: { value: unknown; key: unknown } | undefined;
    for (let rows = first; ; rows = await batchAfter(last)) {
      if (!rows.length) break;
      for (let i = 0; i < rows.length; i += ROWS_PER_TURN) {
        await write(rows.slice(i, i + ROWS_PER_TURN).map((row) => csvLine(columns.map((column) => formatCell(column, row[column.name])))).join(''));
        await nextTurn();
      }
      const tail = rows[rows.length - 1];
      last = { value: tail.__sort, key: tail.__key };
      if (rows.length < size) break;
    }
  };

  run()
    .then(() => out.end())
    .catch((error: unknown) => {
      if (!out.destroyed) {
        app.log.error({ err: error }, 'export failed');
        out.destroy(error instanceof Error ? error : new Error(String(error)));
      }
    });
  return out;
}
