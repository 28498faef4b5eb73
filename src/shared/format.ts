/**
 * The one place that turns dates, times and numbers into text (spec section 9): DD.MM.YYYY,
 * DD.MM.YYYY HH:mm and DD.MM.YYYY HH:mm:ss, numbers with Russian separators. The console formats in the
 * browser's time zone; the server (exports) passes the client's offset in minutes east of UTC, which it
 * reads from X-Timezone-Offset.
 */

import { COORDINATE_DECIMALS } from './constants';

const pad = (n: number) => String(n).padStart(2, '0');
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

export type DateLike = Date | string | number | null | undefined;

export interface TimeFormat {
  /** Show seconds (journals, popups) or stop at minutes (handbook cells, report periods). Default true. */
  seconds?: boolean;
  /** Minutes east of UTC; absent = the local time zone of whoever runs the code (the browser). */
  offsetMinutes?: number;
}

interface Parts {
  day: number;
  month: number;
  year: number;
  hours: number;
  minutes: number;
  seconds: number;
}

function partsOf(value: DateLike, offsetMinutes: number | undefined): Parts | undefined {
  if (value === null || value === undefined || value === '') return undefined;
  const date = value instanceof Date ? value : new Date(value);
  const time = date.getTime();
  if (Number.isNaN(time)) return undefined;
  if (offsetMinutes === undefined) {
    return {
      day: date.getDate(),
      month: date.getMonth() + 1,
      year: date.getFullYear(),
      hours: date.getHours(),
      minutes: date.getMinutes(),
      seconds: date.getSeconds(),
    };
  }
  const shifted = new Date(time + offsetMinutes * 60_000);
  return {
    day: shifted.getUTCDate(),
    month: shifted.getUTCMonth() + 1,
    year: shifted.getUTCFullYear(),
    hours: shifted.getUTCHours(),
    minutes: shifted.getUTCMinutes(),
    seconds: shifted.getUTCSeconds(),
  };
}

/**
 * DD.MM.YYYY. A bare 'YYYY-MM-DD' (a date column) is rewritten as it is, never shifted by a time zone;
 * a time is shown as its date in the chosen zone. '' when absent or unreadable.
 */
export function formatDate(value: DateLike, offsetMinutes?: number): string {
  if (typeof value === 'string') {
    const match = ISO_DATE.exec(value);
    if (match) return `${match[3]}.${match[2]}.${match[1]}`;
  }
  const parts = partsOf(value, offsetMinutes);
  return parts ? `${pad(parts.day)}.${pad(parts.month)}.${parts.year}` : '';
}

/** DD.MM.YYYY HH:mm:ss (or HH:mm with `seconds: false`); '' when absent or unreadable. */
export function formatDateTime(value: DateLike, format: TimeFormat = {}): string {
  const parts = partsOf(value, format.offsetMinutes);
  if (!parts) return '';
  const clock = `${pad(parts.hours)}:${pad(parts.minutes)}${format.seconds === false ? '' : `:${pad(parts.seconds)}`}`;
  return `${pad(parts.day)}.${pad(parts.month)}.${parts.year} ${clock}`;
}

/** HH:mm:ss (or HH:mm) of a time; '' when absent or unreadable. */
export function formatClock(value: DateLike, format: TimeFormat = {}): string {
  const parts = partsOf(value, format.offsetMinutes);
  if (!parts) return '';
  return `${pad(parts.hours)}:${pad(parts.minutes)}${format.seconds === false ? '' : `:${pad(parts.seconds)}`}`;
}

/** 'YYYY-MM-DD' of a time in the chosen zone (the ISO date of spec section 9), for APIs and file names. */
export function isoDate(value: DateLike, offsetMinutes?: number): string {
  const parts = partsOf(value, offsetMinutes);
  return parts ? `${parts.year}-${pad(parts.month)}-${pad(parts.day)}` : '';
}

/** An instant (epoch ms, a Date or a date text) as ISO 8601 in UTC, as the APIs send times; none stays none. */
export function isoTime(value: number | Date | string): string;
export function isoTime(value: number | Date | string | null | undefined): string | null;
export function isoTime(value: number | Date | string | null | undefined): string | null {
  return value === null || value === undefined ? null : new Date(value).toISOString();
}

const numberFormats = new Map<string, Intl.NumberFormat>();

/**
 * A number with Russian separators: groups of thousands split by a no-break space, a decimal comma
 * (1 234 567,8). `decimals` fixes the fraction digits; otherwise up to 2 are shown. '' for absent values.
 */
export function formatNumber(value: number | null | undefined, decimals?: number): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '';
  const key = decimals === undefined ? 'auto' : String(decimals);
  let format = numberFormats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(
      'ru-RU',
      decimals === undefined ? { maximumFractionDigits: 2 } : { minimumFractionDigits: decimals, maximumFractionDigits: decimals },
    );
    numberFormats.set(key, format);
  }
  // Intl uses a narrow no-break space (U+202F) in ru-RU; the ordinary no-break space reads the same and
  // survives fonts and spreadsheets that lack the narrow one.
  return format.format(value).replace(/\u202f/g, '\u00a0');
}

/**
 * A number as a file stores it (a CSV cell the import reads back, an XLSX value): rounded to `decimals`
 * fraction digits, or else to the 15 significant digits a double holds, which drops the binary noise of
 * arithmetic (59.903999999999996 → 59.904) and keeps every number written with fewer digits as written.
 */
export function plainNumber(value: number, decimals?: number): number {
  if (!Number.isFinite(value)) return value;
  return decimals === undefined ? Number(value.toPrecision(15)) : Number(value.toFixed(decimals));
}

/** A share 0..1 as a percentage with one decimal: 0.1234 → '12,3 %'. */
export function formatPercent(share: number | null | undefined, decimals = 1): string {
  if (share === null || share === undefined || !Number.isFinite(share)) return '';
  return `${formatNumber(share * 100, decimals)}\u00a0%`;
}

/**
 * A long text cut to `max` characters (whole code points), the cut marked with an ellipsis. Reads no
 * more than the head of the text, so a cell of megabytes costs no more than a short one.
 */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  const head = Array.from(text.slice(0, 2 * max));
  if (head.length <= max && text.length <= 2 * max) return text;
  return `${head.slice(0, max - 1).join('')}…`;
}

/** A coordinate as shown to a person: COORDINATE_DECIMALS decimals (about a metre), a point as decimal separator. */
export function formatCoordinate(value: number): string {
  return value.toFixed(COORDINATE_DECIMALS);
}

/** A position as «lat, lon» (formatCoordinate each). */
export function formatLatLon(lat: number, lon: number): string {
  return `${formatCoordinate(lat)}, ${formatCoordinate(lon)}`;
}

/** A value as one short line of text. */
export function showValue(value: unknown): string {
  if (value === undefined) return '';
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
}
