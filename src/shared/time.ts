/**
 * Time rules of spec section 5: hh:mm entry is normalised (hours above 23 become 00, minutes above 59
 * become 0, each padded to two digits); minutes-of-day input treats underscores as zero.
 */
export function normalizeHhMm(input: string): string {
  const cleaned = input.replace(/_/g, '0').trim();
  const match = /^(\d{1,2})\s*:?\s*(\d{0,2})$/.exec(cleaned);
  if (!match) return '00:00';
  let hours = Number(match[1]);
  let minutes = Number(match[2] || '0');
  if (hours > 23) hours = 0;
  if (minutes > 59) minutes = 0;
  return `${pad2(hours)}:${pad2(minutes)}`;
}

/** The clock form of a time entry: hours, a colon, minutes; a mask's underscores allowed. */
const CLOCK_ENTRY = /^[\d_]{1,2}\s*:\s*[\d_]{0,2}$/;
/** CLOCK_ENTRY for a JSON schema: an API field that takes a clock as text. */
export const CLOCK_ENTRY_PATTERN = CLOCK_ENTRY.source;

/** Minutes of day from an hh:mm entry (underscores as zero, normalised first). */
export function hhMmToMinutes(input: string): number {
  const [h, m] = normalizeHhMm(input).split(':').map(Number);
  return h * 60 + m;
}

/**
 * THE reading of a time-of-day entry, the same in the form, the save and the import (spec section 5: a time
 * field holds minutes of day, shown hh:mm):
 * - with a colon it is a clock, normalised: '7:30' and '07:30' are 450, '25:10' is 10, '0_:3_' is 30;
 * - bare digits are minutes of day, the stored unit itself: '450' is 07:30, '730' is 12:10, '1500' is a
 *   night trip's 25:00. Files and API clients written against the stored values keep their meaning, and a
 *   form shows the clock the digits stand for as soon as the field is left.
 * Underscores (a mask's blanks) count as zero in both. undefined when the text is neither.
 */
export function minutesOfDay(input: string): number | undefined {
  const text = input.trim();
  if (/^[\d_]+$/.test(text) && /\d/.test(text)) return Number(text.replace(/_/g, '0'));
  if (CLOCK_ENTRY.test(text)) return hhMmToMinutes(text);
  return undefined;
}

/** hh:mm display of a minutes value; values past midnight (night trips) keep counting hours. */
export function minutesToHhMm(minutes: number | null | undefined): string {
  if (minutes === null || minutes === undefined || Number.isNaN(minutes)) return '';
  const total = Math.max(0, Math.trunc(minutes));
  return `${pad2(Math.floor(total / 60))}:${pad2(total % 60)}`;
}

function pad2(n: number): string {
  return String(n).padStart(2, '0');
}
