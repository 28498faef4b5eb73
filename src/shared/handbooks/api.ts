import type { HandbookType, SortOrder } from './types';
import type { Row } from './validation';

/**
 * Bodies of the handbook service (/api/table/*, spec console.md section 7, where the spec only says
 * "body config and row"). The server's OpenAPI document describes the same shapes.
 */

export interface HandbookConfig {
  type: HandbookType;
}

/**
 * Filter of one column, by its field kind:
 * - text, ip, color: a string matches case-insensitively anywhere (contains); an array matches exactly (IN).
 * - int, number, minutes, port, bigint, date, datetime: a value (equality), an array (IN) or a range
 *   { from?, to? } (both ends included; minutes may be 'hh:mm').
 * - list, ref: a value or an array of values (IN); null matches empty.
 * - boolean: true or false.
 * - `q` (not a column): free text over the text columns.
 * A null value matches empty cells.
 */
export type FilterValue =
  string | number | boolean | null | (string | number | null)[] | { from?: string | number | null; to?: string | number | null };
export type Filters = Record<string, FilterValue>;

export interface ListSort {
  /** A column, or '<ref column>__display' to sort a link by its shown text. */
  field: string;
  order: SortOrder;
}

export interface ListRequest {
  config: HandbookConfig;
  filters?: Filters;
  sort?: ListSort;
  /** 1-based. */
  page?: number;
  /** Default HANDBOOK_PAGE_SIZE (100), at most 1000. */
  perPage?: number;
}

export interface ListResponse {
  list: Row[];
  /** Exact up to 10,000 rows; beyond that the database's estimate (countExact false), never below 10,001. */
  count: number;
  countExact: boolean;
}

export interface SaveRequest {
  config: HandbookConfig;
  /** Columns by name; the primary key present means update, absent means insert. */
  row: Row;
}

/** 400 of save and import: message codes plus per-field Russian messages. */
export interface ValidationErrorBody {
  messages: string[];
  errors: Record<string, string>;
}

export interface DeleteRequest {
  config: HandbookConfig;
  ids: (number | string)[];
}

export interface DeleteOneRequest {
  config: HandbookConfig;
  row: Row;
}

export interface DeleteResponse {
  deleted: number;
}

export interface ImportRequest {
  config: HandbookConfig;
  csv: string;
}

export interface ImportResponse {
  /** Rows read from the file. */
  rows: number;
  inserted: number;
  updated: number;
  deleted: number;
}

export interface ImportRowError {
  /** Line in the file as the user sees it (header = 1). */
  row: number;
  /** Column (header) name; '' for the whole row. */
  column: string;
  message: string;
}

export interface ImportErrorBody {
  messages: ['import_failed', ...string[]];
  errors: ImportRowError[];
  /** Errors beyond the reported ones (the list is capped). */
  moreErrors: number;
}

export interface AppointResponse {
  rows: number;
  assigned: number;
  replaced: number;
  unchanged: number;
}

/** csv: the file the import reads back; xlsx: for reading (labels, linked names). */
export const HANDBOOK_EXPORT_FORMATS = ['csv', 'xlsx'] as const;
export type HandbookExportFormat = (typeof HANDBOOK_EXPORT_FORMATS)[number];

export interface ExportRequest {
  config: HandbookConfig;
  filters?: Filters;
  sort?: ListSort;
  format?: HandbookExportFormat;
}

export interface TripStop {
  id?: number;
  stop_id: number;
  stop_sequence: number;
  kkp: 'B' | 'E' | null;
  stop_name?: string;
}

export interface TripStopsSaveRequest {
  trip_id: number;
  stops: TripStop[];
}

export interface OptionsRequest {
  config: HandbookConfig;
  /** A ref column of that handbook (options are rows of its target), or a column with choicesFrom. */
  field: string;
  /** Text the display contains. */
  q?: string;
  /** Values to resolve (the current value of an input). */
  values?: (number | string)[];
  /** For a field with choicesFrom: the record's values of its match columns (no suggestions until all are set). */
  match?: Record<string, number | string | null>;
  /** Default and maximum 50 (spec section 9: suggestion lists). */
  limit?: number;
}

export interface OptionsResponse {
  list: { value: number | string; label: string }[];
}

export interface AddCamerasRequest {
  veh_list: number[];
}

export interface AddCamerasResponse {
  vehicles: number;
  recorders: number;
  added: number;
}

/** The field app's read-only generic query (field-app.md section 7). */
export interface GenericQueryRequest {
  schema: string;
  table: string;
  fields?: string[];
  sort?: ListSort | ListSort[];
  limit?: number;
  offset?: number;
  filters?: Filters;
  distinct?: boolean;
  /**
   * With `distinct`: only values whose text contains this (case-insensitive); a link is looked for in its
   * shown text. The field app's filter checklists search their values with it.
   */
  search?: string;
}

export interface ColumnsResponse {
  fields: string[];
}

export interface ColumnsSaveRequest {
  table: string;
  columns: string[];
}
