import type { AppointResponse, ImportResponse, ImportRowError } from '../../shared/handbooks/api';
import type { HandbookSchema } from '../../shared/handbooks/types';
import { TRANSPORT_MESSAGES, translateMessage, type Locale } from '../../shared/errors';

/**
 * The import dialog's logic without React: where the file goes, how an answer reads (spec sections 2, 3
 * and 7: CSV import, all or nothing, errors by row).
 */

/** POST /api/table/import?type=…, or the procedure's own path for vehicle assignment. */
export function importUrl(schema: HandbookSchema): string {
  const type = encodeURIComponent(schema.type);
  if (schema.import.mode === 'procedure' && schema.import.endpoint) return `/api/table/import/${schema.import.endpoint}?type=${type}`;
  return `/api/table/import?type=${type}`;
}

export type ImportFailure =
  | { kind: 'rows'; status: number; errors: ImportRowError[]; moreErrors: number; messages: string[] }
  | { kind: 'messages'; status: number; messages: string[] };

const isRowError = (value: unknown): value is ImportRowError =>
  typeof value === 'object' &&
  value !== null &&
  Number.isFinite(Number((value as ImportRowError).row)) &&
  typeof (value as ImportRowError).message === 'string';

/**
 * A refused import (status 0: no answer): the row-numbered errors of a bad file
 * (400 { messages: ['import_failed'], errors: [{ row, column, message }], moreErrors }), or the server's
 * message codes.
 */
export function parseImportFailure(status: number, body: unknown): ImportFailure {
  const object = body && typeof body === 'object' ? (body as Record<string, unknown>) : {};
  const messages = Array.isArray(object.messages) ? object.messages.filter((m): m is string => typeof m === 'string' && m !== '') : [];
  if (Array.isArray(object.errors)) {
    const errors = object.errors
      .filter(isRowError)
      .map((error) => ({ row: Number(error.row), column: typeof error.column === 'string' ? error.column : '', message: error.message }));
    const more = Number(object.moreErrors);
    return { kind: 'rows', status, errors, moreErrors: Number.isFinite(more) && more > 0 ? Math.trunc(more) : 0, messages };
  }
  return { kind: 'messages', status, messages };
}

/**
 * What the dialog says under its headline, translated (spec section 8): the server's messages, or what the
 * status means when it sent none. import_failed is left out: the row list speaks for it.
 */
export function failureMessages(failure: ImportFailure, locale: Locale): string[] {
  const codes = failure.messages.filter((message) => message !== 'import_failed');
  if (codes.length || failure.kind === 'rows') return codes.map((code) => translateMessage(code, locale));
  const transport = TRANSPORT_BY_STATUS[failure.status];
  if (transport) return [TRANSPORT_MESSAGES[transport][locale]];
  return [
    translateMessage(failure.status === 400 ? 'bad_request' : failure.status === 413 ? 'payload_too_large' : 'internal_error', locale),
  ];
}

const TRANSPORT_BY_STATUS: Partial<Record<number, keyof typeof TRANSPORT_MESSAGES>> = {
  0: 'error',
  403: 'accessDenied',
  404: 'notFound',
  502: 'badGateway',
  503: 'unavailable',
};

/** The counts of a successful import, as catalogue keys (handbookEditor.import.counts.*) and numbers. */
export function importCounts(answer: ImportResponse | AppointResponse): { key: string; value: number }[] {
  const keys =
    'assigned' in answer ? (['rows', 'assigned', 'replaced', 'unchanged'] as const) : (['rows', 'inserted', 'updated', 'deleted'] as const);
  const record = answer as unknown as Record<string, unknown>;
  return keys.map((key) => ({ key, value: Number(record[key] ?? 0) }));
}

/** Whether a picked file looks like CSV (by name or type); the server checks the content. */
export function isCsvFile(file: { name: string; type: string }): boolean {
  return /\.csv$/i.test(file.name) || file.type === 'text/csv' || file.type === 'application/vnd.ms-excel';
}

/** Bytes as the user reads them, in kilobytes or megabytes of the locale ("12 кБ", "3,4 МБ"). */
export function fileSize(bytes: number, locale: string): string {
  const mb = bytes >= 1024 * 1024;
  const format = new Intl.NumberFormat(locale, { style: 'unit', unit: mb ? 'megabyte' : 'kilobyte', maximumFractionDigits: 1 });
  return format.format(mb ? bytes / 1024 / 1024 : Math.max(bytes / 1024, 0.1));
}
