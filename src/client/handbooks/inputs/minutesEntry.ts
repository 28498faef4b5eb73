import { hhMmToMinutes, minutesToHhMm } from '../../../shared/time';

/**
 * What an hh:mm input holds after the user leaves it (spec section 5): minutes of day, or null when
 * empty. Underscores (the mask's blanks) count as zero, hours above 23 become 00, minutes above 59 become
 * 0. Bare digits read as a clock: '7' is 07:00, '730' is 07:30, '0730' is 07:30.
 */
export function minutesOfEntry(text: string): number | null {
  const entry = text.trim();
  if (entry === '') return null;
  const digits = /^[\d_]{1,4}$/.test(entry) ? entry : null;
  if (digits === null) return hhMmToMinutes(entry);
  if (digits.length <= 2) return hhMmToMinutes(`${digits}:00`);
  return hhMmToMinutes(`${digits.slice(0, -2)}:${digits.slice(-2)}`);
}

/** The input's text of a form value: minutes as hh:mm, text being typed as it is. */
export function entryOfValue(value: unknown): string {
  if (typeof value === 'number') return minutesToHhMm(value);
  return typeof value === 'string' ? value : '';
}
