import { describe, expect, it } from 'vitest';
import { formatClock, formatDate, formatDateTime, formatLatLon, formatNumber, formatPercent, isoDate } from '../../src/shared/format';
import { ADAS_EVENTS_JOURNAL } from '../../src/shared/reports/journals';
import { cellText } from '../../src/shared/reports/cells';

describe('shared formatting (spec section 9)', () => {
  it('shows coordinates to 5 decimals wherever a person reads them', () => {
    expect(formatLatLon(55.7512345, 37.6184567)).toBe('55.75123, 37.61846');
    const lat = ADAS_EVENTS_JOURNAL.columns.find((column) => column.name === 'lat')!;
    expect(cellText(lat, 55.7512345)).toBe('55,75123');
  });

  it('writes a date column as DD.MM.YYYY without shifting it by a time zone', () => {
    expect(formatDate('2025-09-01')).toBe('01.09.2025');
    expect(formatDate('2025-12-31', -600)).toBe('31.12.2025');
  });

  it('writes times at the given offset, with or without seconds', () => {
    const at = '2025-03-04T21:05:09Z';
    expect(formatDateTime(at, { offsetMinutes: 180 })).toBe('05.03.2025 00:05:09');
    expect(formatDateTime(at, { offsetMinutes: 0, seconds: false })).toBe('04.03.2025 21:05');
    expect(formatDate(at, 180)).toBe('05.03.2025');
    expect(formatClock(at, { offsetMinutes: 180, seconds: false })).toBe('00:05');
    expect(isoDate(at, 180)).toBe('2025-03-05');
  });

  it('gives an empty text for what is absent or unreadable', () => {
    for (const value of [null, undefined, '', 'not a date', Number.NaN]) {
      expect(formatDateTime(value)).toBe('');
      expect(formatDate(value)).toBe('');
    }
    expect(formatNumber(null)).toBe('');
    expect(formatNumber(Number.POSITIVE_INFINITY)).toBe('');
  });

  it('writes numbers with a no-break space between thousands and a decimal comma', () => {
    expect(formatNumber(1234567.891)).toBe('1\u00a0234\u00a0567,89');
    expect(formatNumber(1234.5, 2)).toBe('1\u00a0234,50');
    expect(formatNumber(-42)).toBe('-42');
    expect(formatPercent(0.1234)).toBe('12,3\u00a0%');
  });
});
