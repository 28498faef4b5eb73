import { describe, expect, it } from 'vitest';
import { importTime } from '../src/server/passengers/importTime';

/** The times of a validation file: ISO 8601 with a zone read by character codes must read as Date.parse does. */
describe('validation import times', () => {
  it('reads ISO 8601 with a zone as Date.parse does', () => {
    for (const text of [
      '2026-03-01T08:05:00Z',
      '2026-03-01T08:05:00+03:00',
      '2026-03-01T08:05:00-05:30',
      '2026-03-01T08:05:00.1Z',
      '2026-03-01T08:05:00.123456+03:00',
      '2024-02-29T23:59:59.999Z',
      '2026-03-01T08:05+03:00',
      '2026-03-01T08:05:00+0300',
    ])
      expect(importTime(text, 180), text).toBe(Date.parse(text));
  });

  it('refuses impossible dates and times whatever their form', () => {
    for (const text of [
      '2026-02-29T10:00:00Z',
      '2026-04-31T10:00:00Z',
      '2026-13-01T10:00:00Z',
      '2026-03-01T25:00:00Z',
      '2026-03-01T10:60:00Z',
      '31.02.2020 10:00',
      '2026-03-01T10:00:00.1234567Z',
      '2026-03-01 10:00:00 Z',
    ]) {
      expect(importTime(text, 180), text).toBeNaN();
    }
  });

  it('reads the operator-local forms in the operator zone', () => {
    expect(importTime('01.03.2026 08:05', 180)).toBe(Date.parse('2026-03-01T08:05:00+03:00'));
    expect(importTime('2026-03-01 08:05:30', 180)).toBe(Date.parse('2026-03-01T08:05:30+03:00'));
  });
});
