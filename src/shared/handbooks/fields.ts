import type { Field, HandbookSchema, PointField, RefField } from './types';

/**
 * Columns behind the fields: most fields are one column, a point is two (lat, lon), a widget none.
 * The API row, the CSV and the SQL all speak columns; the form speaks fields.
 */
export interface Column {
  name: string;
  field: Exclude<Field, { kind: 'widget' }>;
  role: 'value' | 'lat' | 'lon';
}

const columnCache = new WeakMap<HandbookSchema, Column[]>();

export function columnsOf(schema: HandbookSchema): Column[] {
  let columns = columnCache.get(schema);
  if (!columns) {
    columns = [];
    for (const field of schema.fields) {
      if (field.kind === 'widget') continue;
      if (field.kind === 'point') {
        columns.push({ name: field.lat, field, role: 'lat' }, { name: field.lon, field, role: 'lon' });
      } else {
        columns.push({ name: field.name, field, role: 'value' });
      }
    }
    columnCache.set(schema, columns);
  }
  return columns;
}

export function columnByName(schema: HandbookSchema, name: string): Column | undefined {
  return columnsOf(schema).find((column) => column.name === name);
}

export function fieldByName(schema: HandbookSchema, name: string): Field | undefined {
  return schema.fields.find((field) => field.name === name);
}

/** The field a column name belongs to (a point's lat/lon name its point field). */
export function fieldOfColumn(schema: HandbookSchema, name: string): Field | undefined {
  return columnByName(schema, name)?.field ?? fieldByName(schema, name);
}

export function pointColumns(field: PointField): [string, string] {
  return [field.lat, field.lon];
}

export function displayFields(field: RefField): readonly string[] {
  return typeof field.displayField === 'string' ? [field.displayField] : field.displayField;
}

/** API rows carry a ref's display text under this key beside its value: depot_id, depot_id__display. */
export const displayKey = (column: string): string => `${column}__display`;

/** The list's columns when the user saved no choice: every field not hidden and not a secret. */
export function defaultVisibleFields(schema: HandbookSchema): string[] {
  return schema.fields
    .filter((field) => !field.hidden && !(field.kind === 'text' && field.secret) && field.kind !== 'widget')
    .map((field) => field.name);
}

/** Columns written from input: not generated keys, not read-only. */
export function writableColumns(schema: HandbookSchema): Column[] {
  return columnsOf(schema).filter((column) => !column.field.readOnly && !isAutoKey(column.field));
}

export function isAutoKey(field: Field): boolean {
  return (field.kind === 'int' || field.kind === 'bigint') && field.auto === true;
}

export function primaryKeyField(schema: HandbookSchema): Field {
  const field = fieldByName(schema, schema.primaryKey);
  if (!field) throw new Error(`handbook ${schema.type}: primary key ${schema.primaryKey} is not a field`);
  return field;
}

/** Text-like columns a free-text search (`q`) looks in. */
export function searchableColumns(schema: HandbookSchema): Column[] {
  return columnsOf(schema).filter((column) => column.field.kind === 'text' && !column.field.secret);
}
