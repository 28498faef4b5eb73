import { COORDINATE_DECIMALS } from '../constants';
import { plainNumber } from '../format';
import { minutesToHhMm } from '../time';
import { columnByName, type Column } from './fields';
import type { HandbookSchema } from './types';
import { rulesOf, type Row } from './validation';

/** Handbook CSV (spec section 2): semicolon-separated, UTF-8; exports start with a BOM so Excel reads UTF-8. */
export const CSV_DELIMITER = ';';
export const CSV_BOM = '\uFEFF';

/**
 * Formula injection: a spreadsheet runs a cell that starts with = + - @ (or tab, CR). Export puts an
 * apostrophe in front (Excel's own "this is text" mark) and import takes it off again, so an exported file
 * imports back unchanged. A text that itself starts with apostrophes before such a character gets one more,
 * which keeps the round trip exact.
 */
const DANGEROUS_START = /^'*[=+\-@\t\r]/;

export function neutralizeCell(text: string): string {
  return DANGEROUS_START.test(text) ? `'${text}` : text;
}

export function restoreCell(text: string): string {
  return text.startsWith("'") && DANGEROUS_START.test(text) ? text.slice(1) : text;
}

/** Kinds whose cells may hold free text (numbers such as -5 are never formulas and stay as they are). */
const TEXT_KINDS = new Set(['text', 'ip', 'color', 'polygon', 'line', 'list', 'ref']);

/** One value as the CSV cell the import reads back. */
export function formatCell(column: Column, value: unknown): string {
  if (value === null || value === undefined) return '';
  const { field } = column;
  if (column.role === 'value' && field.kind === 'minutes' && typeof value === 'number') return minutesToHhMm(value);
  if (value instanceof Date) return value.toISOString();
  // coordinates to the handbook's precision (its forms and map picker): 1 m
  if (typeof value === 'number') return String(plainNumber(value, column.role === 'value' ? undefined : COORDINATE_DECIMALS));
  const text = typeof value === 'string' ? value : String(value);
  return column.role === 'value' && TEXT_KINDS.has(field.kind) ? neutralizeCell(text) : text;
}

/** Quotes a cell holding the delimiter, a quote or a line break (RFC 4180 style). */
export function quoteCell(text: string): string {
  return /[;"\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvLine(cells: readonly string[]): string {
  return `${cells.map(quoteCell).join(CSV_DELIMITER)}\r\n`;
}

/** The columns behind a header line; unknown names are reported by the import. */
export function headerColumns(schema: HandbookSchema, headers: readonly string[]): (Column | undefined)[] {
  return headers.map((header) => columnByName(schema, header.trim()));
}

/** Columns the export writes, in order. */
export function exportColumns(schema: HandbookSchema): Column[] {
  return (schema.exportHeaders ?? schema.import.headers).map((name) => {
    const column = columnByName(schema, name);
    if (!column) throw new Error(`handbook ${schema.type}: export header ${name} is not a column`);
    return column;
  });
}

/** The schema's example as an API row (what the import would store from it, or its record example). */
export function exampleRow(schema: HandbookSchema): Row {
  const rules = new Map(rulesOf(schema).map((rule) => [rule.column.name, rule]));
  const headers = schema.recordExample && schema.exportHeaders ? schema.exportHeaders : schema.import.headers;
  const cells = schema.recordExample && schema.exportHeaders ? schema.recordExample : schema.import.example;
  const row: Row = {};
  headers.forEach((header, i) => {
    const rule = rules.get(header);
    const cell = restoreCell(cells[i] ?? '');
    row[header] = rule ? rule.normalize(cell) : cell === '' ? null : cell;
  });
  return row;
}

/** A template file (header and example) the console offers for download. */
export function templateCsv(schema: HandbookSchema): string {
  return CSV_BOM + csvLine(schema.import.headers) + csvLine(schema.import.example);
}
