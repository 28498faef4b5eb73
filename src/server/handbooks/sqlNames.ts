import type { Column } from '../../shared/handbooks/fields';
import { columnByName } from '../../shared/handbooks/fields';
import type { HandbookSchema } from '../../shared/handbooks/types';
import { fail } from '../http/errors';

/**
 * SQL identifiers. Table and column names only ever come from the schema registry (a whitelist: a name
 * is looked up there, never copied from a request) and are always double-quoted, which also keeps the
 * spec's mixed-case names ("MarshType_id") and reserved words ("order", "end") intact.
 */
export function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

export function tableSql(schema: HandbookSchema): string {
  return `${quoteIdent(schema.table.schema)}.${quoteIdent(schema.table.name)}`;
}

/** `alias."column"` */
export function col(alias: string, name: string): string {
  return `${alias}.${quoteIdent(name)}`;
}

/** A column named by a request, or 400 bad_request: the whitelist check. */
export function requireColumn(schema: HandbookSchema, name: unknown): Column {
  const column = typeof name === 'string' ? columnByName(schema, name) : undefined;
  if (!column) throw fail(400, 'bad_request', `unknown field: ${String(name).slice(0, 64)}`);
  return column;
}

/** The PostgreSQL type a column's values travel in (staging tables, unnest arrays, casts). */
export function sqlTypeOf(column: Column): string {
  if (column.role !== 'value') return 'float8';
  const { field } = column;
  switch (field.kind) {
    case 'int':
    case 'port':
    case 'minutes':
      return 'int4';
    case 'bigint':
      return 'int8';
    case 'number':
      return 'float8';
    case 'boolean':
      return 'bool';
    case 'date':
      return 'date';
    case 'datetime':
      return 'timestamptz';
    case 'list':
    case 'ref':
      return field.valueType === 'int' ? 'int4' : 'text';
    default:
      return 'text';
  }
}

export const isGeometry = (column: Column): boolean =>
  column.role === 'value' && (column.field.kind === 'polygon' || column.field.kind === 'line');

/** Reading a column for the API: geometry as WKT text. */
export function selectExpr(alias: string, column: Column): string {
  return isGeometry(column) ? `ST_AsText(${col(alias, column.name)})` : col(alias, column.name);
}

/** Writing a parameter into a column: geometry from WKT in SRID 4326. */
export function valueExpr(column: Column, placeholder: string): string {
  return isGeometry(column) ? `ST_GeomFromText(${placeholder}, 4326)` : placeholder;
}

/** A parameter list builder: push a value, get its $n. */
export class Params {
  readonly values: unknown[] = [];
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}
