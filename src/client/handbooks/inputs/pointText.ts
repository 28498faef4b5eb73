import { COORDINATE_DECIMALS } from '../../../shared/constants';

/**
 * The text of a coordinate-pair input ("lat, lon", as map services copy it): what a user types or pastes
 * into the one field that stands for two columns (park dp_lat/dp_lon, department td_lat/td_lon, stops).
 */
export type PointTextError = 'format' | 'latitude' | 'longitude';

export type PointText = { kind: 'empty' } | { kind: 'point'; lat: number; lon: number } | { kind: 'error'; error: PointTextError };

const NUMBER = /^[-+]?(?:\d+(?:\.\d*)?|\.\d+)$/;

/** One ordinate: a decimal point or comma, an optional degree sign. */
function ordinate(text: string): number | null {
  const cleaned = text.trim().replace(/°$/, '').replace(',', '.');
  if (!NUMBER.test(cleaned)) return null;
  const value = Number(cleaned);
  return Number.isFinite(value) ? value : null;
}

/**
 * The two parts of the text: split at ';' when there is one ('59,93; 30,33' keeps decimal commas), else at
 * blanks ('59.93 30.33', '59.93, 30.33', '59,93 30,33'), else at the one comma ('59.93,30.33').
 */
function parts(text: string): string[] | null {
  if (text.includes(';')) return text.split(';');
  const words = text.split(/\s+/);
  if (words.length === 2) return [words[0].replace(/,$/, ''), words[1]];
  if (words.length === 3 && words[1] === ',') return [words[0], words[2]];
  if (words.length === 1 && text.split(',').length === 2) return text.split(',');
  return null;
}

/** "59.93428, 30.33510" → { lat, lon }; blank → empty; otherwise the first problem found. */
export function parsePointText(input: string | null | undefined): PointText {
  const text = (input ?? '').trim().replace(/^[([]\s*|\s*[)\]]$/g, '');
  if (!text) return { kind: 'empty' };
  const split = parts(text);
  if (!split || split.length !== 2) return { kind: 'error', error: 'format' };
  const lat = ordinate(split[0]);
  const lon = ordinate(split[1]);
  if (lat === null || lon === null) return { kind: 'error', error: 'format' };
  if (lat < -90 || lat > 90) return { kind: 'error', error: 'latitude' };
  if (lon < -180 || lon > 180) return { kind: 'error', error: 'longitude' };
  return { kind: 'point', lat, lon };
}

const isCoordinate = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);

/** The two columns' values as the input shows them: "59.93428, 30.33510"; '' when neither is set. */
export function formatPointText(lat: unknown, lon: unknown): string {
  const show = (value: unknown): string => {
    const number = toCoordinate(value);
    return number !== null ? number.toFixed(COORDINATE_DECIMALS) : value == null ? '' : String(value);
  };
  if ((lat == null || lat === '') && (lon == null || lon === '')) return '';
  return `${show(lat)}, ${show(lon)}`;
}

/** A column's value as a number (the API may send numeric text); null when it is not one. */
function toCoordinate(value: unknown): number | null {
  if (isCoordinate(value)) return value;
  return typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value)) ? Number(value) : null;
}

/** The point in the two columns when both hold valid coordinates. */
export function pointOf(lat: unknown, lon: unknown): { lat: number; lon: number } | null {
  const a = toCoordinate(lat);
  const b = toCoordinate(lon);
  return a !== null && b !== null && Math.abs(a) <= 90 && Math.abs(b) <= 180 ? { lat: a, lon: b } : null;
}
