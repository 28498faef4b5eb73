import { formatDate, formatDateTime, formatNumber } from '../format';
import { detailFields, JOURNAL_LABELS } from './journalEvents';
import type { ReportColumn } from './types';

/**
 * A report cell as text, the same in the console's table and in the exported file (spec section 9 formats
 * via src/shared/format.ts). `offsetMinutes` is the client's zone (absent in the browser: its own).
 */
export function cellText(column: ReportColumn, value: unknown, offsetMinutes?: number): string {
  if (value === null || value === undefined || value === '') return '';
  switch (column.type) {
    case 'datetime':
      return formatDateTime(value as string | Date, { offsetMinutes });
    case 'date':
      return formatDate(value as string | Date, offsetMinutes);
    case 'period':
      return periodText(String(value));
    case 'number':
      return typeof value === 'number' ? formatNumber(value, column.decimals) : String(value);
    case 'json': {
      const names = column.labels ? JOURNAL_LABELS[column.labels] : undefined;
      if (names) return detailFields(value, (key) => names[key]?.ru ?? key, offsetMinutes).map((f) => (f.label ? `${f.label}: ${f.value}` : f.value)).join('; ');
      return typeof value === 'string' ? value : JSON.stringify(value);
    }
    case 'enum': {
      // the file is Russian, as its headers: a journal's codes by their names
      const names = column.labels ? JOURNAL_LABELS[column.labels] : undefined;
      return names?.[String(value)]?.ru ?? String(value);
    }
    default:
      return String(value);
  }
}

/** 'YYYY-MM-DDTHH:mm' wall-clock bucket start: DD.MM.YYYY, with HH:mm unless it is midnight. */
export function periodText(value: string): string {
  const date = formatDate(value.slice(0, 10));
  const clock = value.slice(11, 16);
  return clock && clock !== '00:00' ? `${date} ${clock}` : date;
}
