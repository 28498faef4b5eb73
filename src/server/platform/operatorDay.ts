import { group, number, type Environment } from '../configuration/variables';

/**
 * The operator's calendar: schedules count minutes from the local midnight and assignments are per local date,
 * while the server may run in UTC. A fixed offset is enough here (Russia has no daylight saving time since 2014).
 * Every area that counts the operator's days (map, dispatch, GTFS, the simulator, remote configuration, ADAS,
 * passengers, ticket control, video, the demo data) takes the offset and the day arithmetic from here.
 */

/** The operator's offset from UTC in minutes; default +180, Europe/Moscow. */
export const operatorTzOffsetMinutes = number('OPERATOR_TZ_OFFSET_MINUTES', {
  default: 180,
  unit: 'min',
  meaning: "the operator's time zone: its days (reports' rollups, orders' days, schedules)",
});

export const operatorDayVariables = group("Operator's day", {
  tzOffsetMinutes: operatorTzOffsetMinutes,
});

/** The operator's offset from UTC in minutes, as configured. */
export function operatorTzOffset(env: Environment = process.env): number {
  return operatorDayVariables.read(env).tzOffsetMinutes;
}

const DAY_MS = 86_400_000;

/** 'YYYY-MM-DD' of the operator's local date at `nowMs`. */
export function operatorDate(nowMs: number, offsetMinutes: number): string {
  return new Date(nowMs + offsetMinutes * 60_000).toISOString().slice(0, 10);
}

/** Minutes since the operator's local midnight at `nowMs` (fractional). */
export function operatorMinuteOfDay(nowMs: number, offsetMinutes: number): number {
  const local = nowMs + offsetMinutes * 60_000;
  return (((local % DAY_MS) + DAY_MS) % DAY_MS) / 60_000;
}

/** Epoch milliseconds of the operator's local midnight that starts `date` ('YYYY-MM-DD'). */
export function operatorMidnight(date: string, offsetMinutes: number): number {
  return Date.parse(`${date}T00:00:00Z`) - offsetMinutes * 60_000;
}

/** The date `days` after `date`, both 'YYYY-MM-DD'. */
export function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}
