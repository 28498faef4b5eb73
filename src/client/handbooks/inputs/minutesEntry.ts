import { minutesOfDay, minutesToHhMm } from '../../../shared/time';

/**
 * What an hh:mm input holds after the user leaves it: minutes of day by the one rule of minutesOfDay
 * ('07:30' and '7:30' are 07:30, bare digits are minutes: '450' is 07:30), null when empty, the text
 * itself when unreadable (the form's validation then flags it).
 */
export function minutesOfEntry(text: string): number | string | null {
  const entry = text.trim();
  if (entry === '') return null;
  return minutesOfDay(entry) ?? entry;
}

/** The input's text of a form value: minutes as hh:mm, text being typed as it is. */
export function entryOfValue(value: unknown): string {
  if (typeof value === 'number') return minutesToHhMm(value);
  return typeof value === 'string' ? value : '';
}
