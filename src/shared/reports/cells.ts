import { formatDate, formatDateTime, formatNumber } from '../format';
import { detailFields, detailValuesPrefix } from './journalEvents';
import type { ReportColumn } from './types';

/**
 * A report cell as text, the same in the console's table and in the exported file (spec section 9 formats
 * via src/shared/format.ts). `offsetMinutes` is the client's zone (absent in the browser: its own); `label` reads
 * a catalogue key (the export's Russian), for the labels an enum's values and a details column's fields declare.
 */
export function cellText(
  column: ReportColumn,
  value: unknown,
  offsetMinutes?: number,
  label?: (key: string) => string | undefined,
): string {
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
      const fields = column.labels;
      if (fields && label)
        return detailFields(
          value,
          (key) => label(`${fields}.${key}`) ?? key,
          offsetMinutes,
          (key, code) => label(`${detailValuesPrefix(fields)}.${key}.${code}`),
        )
          .map((f) => (f.label ? `${f.label}: ${f.value}` : f.value))
          .join('; ');
      return typeof value === 'string' ? value : JSON.stringify(value);
    }
    case 'enum':
      return (column.labels && label?.(`${column.labels}.${String(value)}`)) || String(value);
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
