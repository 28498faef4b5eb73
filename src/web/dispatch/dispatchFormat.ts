import type { Adherence } from '../../shared/dispatch/api';

/** The adherence colours of the map, the line diagram and the board: late red, early violet, on time green. */
export const ADHERENCE_COLORS: Readonly<Record<Adherence, string>> = {
  late: '#c62828',
  on_time: '#2e7d32',
  early: '#6a1b9a',
  none: '#9e9e9e',
};

/** Seconds as a signed m:ss (+4:05 behind the timetable, −0:40 ahead); '' when unknown. */
export function formatDeviation(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined) return '';
  const sign = seconds > 0 ? '+' : seconds < 0 ? '−' : '';
  return `${sign}${formatDuration(Math.abs(seconds))}`;
}

/** Seconds as m:ss, or h:mm:ss from an hour; '' when unknown. */
export function formatDuration(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined) return '';
  const s = Math.round(seconds);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, '0');
  return h ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

/** A comma list of ids from the address (`?routes=3,5`), bad entries left out. */
export const idsFrom = (text: string | null): number[] =>
  (text ?? '')
    .split(',')
    .map(Number)
    .filter((n) => Number.isInteger(n) && n > 0);
