import * as yup from 'yup';
import { minutesOfDay } from '../time';
import { columnsOf, type Column } from './fields';
import type { HandbookSchema } from './types';
import { MSG, bigintMaxMessage, maxDigitsMessage, maxLengthMessage, rangeMessage } from './messages';

/**
 * The rules of spec section 5, generated from a handbook schema. Each column gets a `normalize` (what any
 * input — JSON, a form value, a CSV cell — becomes: '' to null, '12' to 12, '07:30' to 450) and a `check`
 * (the spec's message, or undefined). Two front-ends share them: the yup schema (form and single-record
 * save) and `validateRow`, a plain loop the import runs on millions of rows where yup's per-object cost
 * would dominate. One set of rules, so the form, the save and the import can never disagree.
 */

export type Row = Record<string, unknown>;
export type FieldErrors = Record<string, string>;

export interface ColumnRule {
  column: Column;
  normalize(input: unknown): unknown;
  check(value: unknown): string | undefined;
}

/** Minutes values accepted as numbers: night trips run past midnight, up to 48 hours. */
export const MINUTES_MAX = 48 * 60 - 1;
export const INT4_MAX = 2147483647;
export const INT4_MIN = -INT4_MAX - 1;
const INT8_MAX = '9223372036854775807';
/** A text field without its own maxLength still has a bound: far above any name or note people type. */
export const TEXT_MAX_DEFAULT = 2000;
/** A date with an optional time and zone, the forms both JavaScript and PostgreSQL read the same way. */
const DATETIME = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,6})?)?(?:Z|[+-]\d{2}(?::?\d{2})?)?)?$/;
const IP_PATTERN = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;
const NAME_CHARS = /^[\p{L}\p{N}_-]+$/u;
const LATIN_CODE = /^[A-Za-z0-9_-]+$/;
const COLOR = /^#[0-9a-fA-F]{6}$/;
const POLYGON_WKT = /^(MULTI)?POLYGON\s*(Z|M|ZM)?\s*\(/i;
const LINE_WKT = /^(MULTI)?LINESTRING\s*(Z|M|ZM)?\s*\(/i;
const TRUE_WORDS = new Set(['true', '1', 'да', 'yes', 'y', 'on', 't', 'истина']);
const FALSE_WORDS = new Set(['false', '0', 'нет', 'no', 'n', 'off', 'f', 'ложь']);

const isBlank = (value: unknown): boolean => value === undefined || value === null || (typeof value === 'string' && value.trim() === '');

/**
 * Digits (optionally signed, spaces around) to a number, else undefined. A plain loop: the import runs it
 * on every cell of millions of rows, where a regular expression plus trim costs several times more.
 */
export function parseInteger(text: string): number | undefined {
  let start = 0;
  let end = text.length;
  while (start < end && text.charCodeAt(start) <= 32) start++;
  while (end > start && text.charCodeAt(end - 1) <= 32) end--;
  let sign = 1;
  const first = text.charCodeAt(start);
  if (first === 45 || first === 43) {
    if (first === 45) sign = -1;
    start++;
  }
  if (start >= end) return undefined;
  let result = 0;
  for (let i = start; i < end; i++) {
    const digit = text.charCodeAt(i) - 48;
    if (digit < 0 || digit > 9) return undefined;
    result = result * 10 + digit;
  }
  return sign * result;
}

function toInteger(value: unknown): unknown {
  if (typeof value === 'number') return value;
  if (typeof value === 'string') return parseInteger(value) ?? value.trim();
  return value;
}

function toNumber(value: unknown): unknown {
  if (typeof value === 'number') return value;
  if (typeof value === 'string') {
    const text = value.trim().replace(',', '.');
    const parsed = Number(text);
    return text !== '' && Number.isFinite(parsed) ? parsed : value.trim();
  }
  return value;
}

function pad2(n: number): string {
  return String(n).padStart(2, '0');
}

/** 'YYYY-MM-DD' from the API, 'DD.MM.YYYY' as people type it, a Date from a picker (local calendar day). */
export function toIsoDate(value: unknown): unknown {
  if (value instanceof Date) {
    return Number.isNaN(value.getTime()) ? String(value) : `${value.getFullYear()}-${pad2(value.getMonth() + 1)}-${pad2(value.getDate())}`;
  }
  if (typeof value !== 'string') return value;
  const text = value.trim();
  const iso = /^(\d{4}-\d{2}-\d{2})(?:[T ].*)?$/.exec(text);
  if (iso) return iso[1];
  const ru = /^(\d{1,2})\.(\d{1,2})\.(\d{4})$/.exec(text);
  if (ru) return `${ru[3]}-${pad2(Number(ru[2]))}-${pad2(Number(ru[1]))}`;
  return text;
}

export function isCalendarDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const [y, m, d] = value.split('-').map(Number);
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

/** A time field's value by the one rule of minutesOfDay (hh:mm normalised, bare digits minutes of day). */
export function toMinutes(value: unknown): unknown {
  if (typeof value === 'number') return value;
  if (typeof value !== 'string') return value;
  // Fast path for the common 'hh:mm' (same result as the normalising rules below).
  if (
    value.length === 5 &&
    value.charCodeAt(2) === 58 &&
    isDigitAt(value, 0) &&
    isDigitAt(value, 1) &&
    isDigitAt(value, 3) &&
    isDigitAt(value, 4)
  ) {
    const hours = (value.charCodeAt(0) - 48) * 10 + value.charCodeAt(1) - 48;
    const minutes = (value.charCodeAt(3) - 48) * 10 + value.charCodeAt(4) - 48;
    return (hours > 23 ? 0 : hours) * 60 + (minutes > 59 ? 0 : minutes);
  }
  return minutesOfDay(value) ?? value.trim();
}

function isDigitAt(text: string, i: number): boolean {
  const code = text.charCodeAt(i);
  return code >= 48 && code <= 57;
}

function toBoolean(value: unknown): unknown {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number') return value === 1 ? true : value === 0 ? false : value;
  if (typeof value === 'string') {
    const word = value.trim().toLowerCase();
    if (TRUE_WORDS.has(word)) return true;
    if (FALSE_WORDS.has(word)) return false;
  }
  return value;
}

function toBigintText(value: unknown): unknown {
  if (typeof value === 'number' && Number.isSafeInteger(value)) return String(value);
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'string') {
    const text = value.trim();
    return /^\d+$/.test(text) ? text.replace(/^0+(?=\d)/, '') : text;
  }
  return value;
}

const toText = (value: unknown): unknown => (typeof value === 'string' ? value.trim() : typeof value === 'number' ? String(value) : value);

function checkInteger(value: unknown, min?: number, max?: number): string | undefined {
  if (typeof value !== 'number' || !Number.isInteger(value)) return MSG.integer;
  if ((min !== undefined && value < min) || (max !== undefined && value > max)) {
    return rangeMessage(min ?? -INT4_MAX - 1, max ?? INT4_MAX);
  }
  return undefined;
}

function checkNumber(value: unknown, min: number | undefined, max: number | undefined, message?: string): string | undefined {
  if (typeof value !== 'number' || !Number.isFinite(value)) return MSG.number;
  if ((min !== undefined && value < min) || (max !== undefined && value > max)) return message ?? rangeMessage(min ?? '', max ?? '');
  return undefined;
}

export function checkIp(value: string, octets: boolean): string | undefined {
  const match = IP_PATTERN.exec(value);
  if (!match) return MSG.ipFormat;
  if (octets && match.slice(1).some((part) => Number(part) > 255)) return MSG.ipFormat;
  return undefined;
}

/** The normalize/check pair of one column, by its field's kind. */
export function columnRule(column: Column): ColumnRule {
  const { field } = column;
  let normalize: (input: unknown) => unknown;
  let check: (value: unknown) => string | undefined;

  if (column.role !== 'value') {
    const isLat = column.role === 'lat';
    normalize = toNumber;
    check = (v) => checkNumber(v, isLat ? -90 : -180, isLat ? 90 : 180, isLat ? MSG.latitude : MSG.longitude);
  } else {
    switch (field.kind) {
      case 'text':
        normalize = toText;
        check = (v) => {
          if (typeof v !== 'string') return MSG.listValue;
          const maxLength = field.maxLength ?? TEXT_MAX_DEFAULT;
          if (v.length > maxLength && [...v].length > maxLength) return maxLengthMessage(maxLength);
          if (field.pattern === 'nameChars' && !NAME_CHARS.test(v)) return MSG.nameChars;
          if (field.pattern === 'latinCode' && !LATIN_CODE.test(v)) return MSG.latinCode;
          return undefined;
        };
        break;
      case 'int':
        normalize = toInteger;
        check = (v) => {
          if (
            field.maxDigits !== undefined &&
            typeof v === 'number' &&
            Number.isInteger(v) &&
            String(Math.abs(v)).length > field.maxDigits
          ) {
            return maxDigitsMessage(field.maxDigits);
          }
          return checkInteger(v, field.min ?? INT4_MIN, field.max ?? INT4_MAX);
        };
        break;
      case 'port':
        normalize = toInteger;
        check = (v) => checkInteger(v) ?? ((v as number) < 1 || (v as number) > 65535 ? MSG.port : undefined);
        break;
      case 'bigint':
        normalize = toBigintText;
        check = (v) => {
          if (typeof v !== 'string' || !/^\d+$/.test(v)) return MSG.bigint;
          if (BigInt(v) > BigInt(field.max ?? INT8_MAX)) return bigintMaxMessage(field.max ?? INT8_MAX);
          if (field.min !== undefined && BigInt(v) < BigInt(field.min)) return rangeMessage(field.min, field.max ?? '');
          return undefined;
        };
        break;
      case 'number':
        normalize = toNumber;
        check = (v) => checkNumber(v, field.min, field.max);
        break;
      case 'boolean':
        normalize = toBoolean;
        check = (v) => (typeof v === 'boolean' ? undefined : MSG.boolean);
        break;
      case 'date':
        normalize = toIsoDate;
        check = (v) => (typeof v === 'string' && isCalendarDate(v) ? undefined : MSG.date);
        break;
      case 'datetime':
        normalize = (v) => (v instanceof Date ? v.toISOString() : toText(v));
        check = (v) =>
          typeof v === 'string' && DATETIME.test(v) && isCalendarDate(v.slice(0, 10)) && !Number.isNaN(Date.parse(v))
            ? undefined
            : MSG.datetime;
        break;
      case 'minutes':
        normalize = (v) => (typeof v === 'string' && /^[_\s:]+$/.test(v) ? null : toMinutes(v));
        check = (v) => (typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= MINUTES_MAX ? undefined : MSG.time);
        break;
      case 'list':
        normalize = field.valueType === 'int' ? toInteger : toText;
        check = (v) => (field.options.some((option) => option.value === v) ? undefined : MSG.listValue);
        break;
      case 'ref':
        normalize = field.valueType === 'int' ? toInteger : toText;
        check = (v) =>
          field.valueType === 'int' ? checkInteger(v, undefined, INT4_MAX) : typeof v === 'string' ? undefined : MSG.listValue;
        break;
      case 'ip':
        normalize = toText;
        check = (v) => (typeof v === 'string' ? checkIp(v, field.octets === true) : MSG.ipFormat);
        break;
      case 'color':
        normalize = toText;
        check = (v) => (typeof v === 'string' && COLOR.test(v) ? undefined : MSG.color);
        break;
      case 'polygon':
      case 'line': {
        const pattern = field.kind === 'polygon' ? POLYGON_WKT : LINE_WKT;
        const message = field.kind === 'polygon' ? MSG.polygon : MSG.line;
        normalize = (v) => (typeof v === 'string' ? v.trim().replace(/^SRID=\d+;/i, '') : v);
        check = (v) => (typeof v === 'string' && pattern.test(v) ? undefined : message);
        break;
      }
      case 'point':
        throw new Error('a point field has lat/lon columns');
    }
  }

  const fallback = 'default' in field ? field.default : undefined;
  const required = field.required === true && !(field.kind === 'list' && field.options.some((option) => option.value === null));
  return {
    column,
    normalize: (input) => (isBlank(input) ? (fallback ?? null) : normalize(input)),
    check: (value) => {
      if (value === null || value === undefined) return required ? MSG.required : undefined;
      // PostgreSQL text cannot hold NUL: refused here, never a failed query.
      if (typeof value === 'string' && value.includes('\u0000')) return MSG.invalidCharacters;
      return check(value);
    },
  };
}

const ruleCache = new WeakMap<HandbookSchema, ColumnRule[]>();

/** Rules of the columns a client may write (generated keys are left to the database). */
export function rulesOf(schema: HandbookSchema): ColumnRule[] {
  let rules = ruleCache.get(schema);
  if (!rules) {
    rules = columnsOf(schema)
      .filter((column) => !column.field.readOnly && !('auto' in column.field && column.field.auto))
      .map(columnRule);
    ruleCache.set(schema, rules);
  }
  return rules;
}

/** Cross-field rules (schedule variant end after start). */
export function rowRuleErrors(schema: HandbookSchema, row: Row): FieldErrors {
  const errors: FieldErrors = {};
  for (const rule of schema.rules ?? []) {
    const later = row[rule.field];
    const earlier = row[rule.than];
    if (typeof later === 'string' && typeof earlier === 'string' && later <= earlier) errors[rule.field] = MSG.scheduleEnd;
  }
  return errors;
}

/** Dependent flags: media-server use follows whether all media-server fields are filled. */
export function applyDerived(schema: HandbookSchema, row: Row): void {
  for (const field of schema.fields) {
    if (field.kind === 'boolean' && field.setWhenFilled) {
      row[field.name] = field.setWhenFilled.every((name) => !isBlank(row[name]));
    }
  }
}

export interface RowValidation {
  value: Row;
  errors: FieldErrors;
}

/**
 * The plain validator: normalises every writable column present in `only` (all when absent), applies the
 * dependent flags and the cross-field rules, and collects every message. The import's hot loop.
 */
export function validateRow(schema: HandbookSchema, input: Row, only?: ReadonlySet<string>): RowValidation {
  const value: Row = {};
  const errors: FieldErrors = {};
  for (const rule of rulesOf(schema)) {
    const name = rule.column.name;
    if (only && !only.has(name)) continue;
    const normalized = rule.normalize(input[name]);
    value[name] = normalized;
    const message = rule.check(normalized);
    if (message) errors[name] = message;
  }
  applyDerived(schema, value);
  Object.assign(errors, rowRuleErrors(schema, value));
  return { value, errors };
}

const yupCache = new WeakMap<HandbookSchema, yup.ObjectSchema<Row>>();

/**
 * The yup schema of a handbook: react-admin's form resolver and the server's save use it. Unknown keys are
 * stripped by validate({ stripUnknown: true }); values come back normalised (hh:mm as minutes and so on).
 */
export function buildYupSchema(schema: HandbookSchema): yup.ObjectSchema<Row> {
  const cached = yupCache.get(schema);
  if (cached) return cached;
  const shape: Record<string, yup.Schema> = {};
  for (const rule of rulesOf(schema)) {
    shape[rule.column.name] = yup
      .mixed()
      .nullable()
      .transform((_value: unknown, original: unknown) => rule.normalize(original))
      .test({
        name: 'handbook',
        test(value, context) {
          const message = rule.check(value);
          return message ? context.createError({ message }) : true;
        },
      });
  }
  const objectSchema = yup
    .object(shape)
    .transform((value: Row) => {
      const row = { ...value };
      applyDerived(schema, row);
      return row;
    })
    .test({
      name: 'rows',
      test(row, context) {
        const [first] = Object.entries(rowRuleErrors(schema, (row ?? {}) as Row));
        return first ? context.createError({ path: first[0], message: first[1] }) : true;
      },
    }) as unknown as yup.ObjectSchema<Row>;
  yupCache.set(schema, objectSchema);
  return objectSchema;
}

/** Runs the yup schema and returns the normalised row or every field's message. */
export async function validateWithYup(schema: HandbookSchema, input: Row): Promise<RowValidation> {
  try {
    const value = await buildYupSchema(schema).validate(input, { abortEarly: false, stripUnknown: true });
    return { value: value as Row, errors: {} };
  } catch (error) {
    if (!(error instanceof yup.ValidationError)) throw error;
    const errors: FieldErrors = {};
    for (const item of error.inner.length ? error.inner : [error]) {
      const path = (item.path ?? '').replace(/^\["?|"?\]$/g, '');
      if (!errors[path]) errors[path] = item.message;
    }
    return { value: input, errors };
  }
}
