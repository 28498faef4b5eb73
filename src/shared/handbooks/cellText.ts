import { displayKey } from './fields';
import type { Field, ListField, PointField } from './types';
import type { Row } from './validation';
import { formatDate, formatDateTime, formatLatLon, truncate } from '../format';
import { minutesToHhMm } from '../time';

/** Texts of the handbook cells as a person reads them, by field kind (spec section 2: minutes as hh:mm): lists, the XLSX export. */

export function listLabel(field: ListField, value: unknown): string {
  const option = field.options.find((item) => item.value === (value ?? null) || String(item.value) === String(value));
  return option ? option.label : value === null || value === undefined ? '' : String(value);
}

export function formatPoint(field: PointField, row: Row): string {
  const lat = row[field.lat];
  const lon = row[field.lon];
  if (typeof lat !== 'number' || typeof lon !== 'number') return '';
  return formatLatLon(lat, lon);
}

const GEOMETRY_CELL_MAX = 40;

/**
 * The text of a field in a list cell (colours, booleans and links have their own cells in the console) or a
 * spreadsheet; times at `offsetMinutes` east of UTC, the browser's zone when absent.
 */
export function cellText(field: Field, row: Row, offsetMinutes?: number): string {
  const value = row[field.name];
  switch (field.kind) {
    case 'date':
      return typeof value === 'string' ? formatDate(value) : '';
    case 'datetime':
      return typeof value === 'string' ? formatDateTime(value, { seconds: false, offsetMinutes }) : '';
    case 'boolean':
      return value === null || value === undefined ? '' : value ? 'Да' : 'Нет';
    case 'minutes':
      return typeof value === 'number' ? minutesToHhMm(value) : '';
    case 'list':
      return listLabel(field, value);
    case 'ref':
      return String(row[displayKey(field.name)] ?? value ?? '');
    case 'point':
      return formatPoint(field, row);
    case 'polygon':
    case 'line':
      return typeof value === 'string' ? truncate(value, GEOMETRY_CELL_MAX) : '';
    case 'number':
      return typeof value === 'number' && field.decimals !== undefined ? value.toFixed(field.decimals) : String(value ?? '');
    case 'widget':
      return Array.isArray(value) ? value.join(', ') : '';
    case 'text':
      return field.secret && value ? '••••••' : String(value ?? '');
    default:
      return value === null || value === undefined ? '' : String(value);
  }
}
