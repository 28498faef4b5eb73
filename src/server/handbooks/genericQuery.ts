import type { FastifyInstance } from 'fastify';
import type { GenericQueryRequest, ListSort } from '../../shared/handbooks/api';
import { handbookByTable } from '../../../schemas/index';
import { columnsOf, displayKey, type Column } from '../../shared/handbooks/fields';
import type { Row } from '../../shared/handbooks/validation';
import { HANDBOOK_PAGE_SIZE } from '../../shared/constants';
import { fail } from '../http/errors';
import { buildWhere, containsCondition, containsPattern } from './filters';
import { PER_PAGE_MAX, buildOrder, countRows, displayExpr, selectList } from './listQuery';
import { Params, col, isGeometry, quoteIdent, selectExpr, tableSql } from './sqlNames';

/**
 * POST /api/v1/handbooks/query, the field app's read-only generic query (field-app.md section 7):
 * schema and table name a handbook table, fields its columns; every name must be in the schema registry
 * (else 400 bad_request) and the user needs read on that handbook (its section switched on; the route
 * declares it). `distinct`
 * gives the distinct combinations of the fields (the filter checklists; links with their shown text, `search`
 * narrowing the first field's values); otherwise links also come back with their display text.
 */
export async function genericQuery(
  app: FastifyInstance,
  input: GenericQueryRequest,
): Promise<{ list: Row[]; count: number; countExact?: boolean }> {
  // The route checked the read right and the section of this handbook (its declared permission).
  const schema = handbookByTable(String(input.schema), String(input.table));
  if (!schema) throw fail(400, 'bad_request');

  const all = columnsOf(schema);
  const names = input.fields?.length ? input.fields : all.map((column) => column.name);
  const columns: Column[] = names.map((name) => {
    const column = all.find((candidate) => candidate.name === name);
    if (!column) throw fail(400, 'bad_request');
    return column;
  });
  const sorts: ListSort[] = Array.isArray(input.sort) ? input.sort : input.sort ? [input.sort] : [];
  const limit = Math.min(Math.max(Math.trunc(Number(input.limit ?? HANDBOOK_PAGE_SIZE)) || HANDBOOK_PAGE_SIZE, 1), PER_PAGE_MAX);
  const offset = Math.max(Math.trunc(Number(input.offset ?? 0)) || 0, 0);
  const params = new Params();
  const where = buildWhere(schema, input.filters, params);
  const countParams = [...params.values];

  if (input.distinct) {
    // A link comes with its shown text, so a checklist of branches lists names, not ids.
    const picked = columns.flatMap((column) => {
      const value = `${selectExpr('t', column)} as ${quoteIdent(column.name)}`;
      return column.field.kind === 'ref' ? [value, `${displayExpr(column.field, 't')} as ${quoteIdent(displayKey(column.name))}`] : [value];
    });
    for (const sort of sorts) {
      if (!columns.some((column) => column.name === sort.field || (column.field.kind === 'ref' && displayKey(column.name) === sort.field)))
        throw fail(400, 'bad_request');
    }
    const text = typeof input.search === 'string' ? input.search.trim() : '';
    const conditions = [where];
    if (text) {
      // The first field is the one whose values are listed (a checklist lists one field).
      const [first] = columns;
      if (isGeometry(first)) throw fail(400, 'bad_request');
      const searched = first.field.kind === 'ref' ? displayExpr(first.field, 't') : `${col('t', first.name)}::text`;
      conditions.push(containsCondition(searched, params.add(containsPattern(text))));
    }
    const filtered = conditions.join(' and ');
    const searchParams = [...params.values];
    const order = sorts.length
      ? sorts.map((sort) => `${quoteIdent(sort.field)} ${String(sort.order).toUpperCase() === 'DESC' ? 'desc' : 'asc'}`).join(', ')
      : columns.map((column) => quoteIdent(column.name)).join(', ');
    const inner = `select distinct ${picked.join(', ')} from ${tableSql(schema)} t where ${filtered}`;
    const [list, [{ n }]] = await Promise.all([
      app.db.query<Row>(`${inner} order by ${order} limit ${params.add(limit)} offset ${params.add(offset)}`, params.values),
      app.db.query<{ n: number }>(`select count(*)::int as n from (${inner}) d`, searchParams),
    ]);
    return { list, count: n };
  }

  const order = sorts.length ? sorts.map((sort) => buildOrder(schema, sort)).join(', ') : buildOrder(schema, undefined);
  const page = `select t.* from ${tableSql(schema)} t where ${where} order by ${order} limit ${params.add(limit)} offset ${params.add(offset)}`;
  const [list, total] = await Promise.all([
    app.db.query<Row>(`select ${selectList(schema, 't', columns, false)} from (${page}) t order by ${order}`, params.values),
    countRows(app.db, schema, where, countParams),
  ]);
  return { list, ...total };
}
