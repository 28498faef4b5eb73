import { dayNumber, isoOfDay, weekdayOf } from '../import/serviceCalendar';

export interface VariantRow {
  id: number;
  route_id: number;
  dow: number | null;
  startdate: string;
  enddate: string | null;
}
export interface HolidayRow {
  id: number;
  route_id: number | null;
  date: string;
  dow: number | null;
}

/**
 * The days (numbers since the epoch) each timetable variant is in force within [first, last], by the product's
 * rule (mgt.assign_or_replace_vehicle in 004_handbook_links): a holiday of the route, else of all routes, runs
 * the weekday it names; the variant of that weekday goes before the usual one, the latest start first, then
 * the latest id.
 */
export function variantDays(
  variants: readonly VariantRow[],
  holidays: readonly HolidayRow[],
  first: number,
  last: number,
): Map<number, number[]> {
  const holidaysOn = new Map<number, HolidayRow[]>();
  for (const h of [...holidays].sort((a, b) => Number(a.route_id === null) - Number(b.route_id === null) || a.id - b.id)) {
    const day = dayNumber(h.date);
    if (day < first || day > last) continue;
    (holidaysOn.get(day) ?? holidaysOn.set(day, []).get(day)!).push(h);
  }
  const byRoute = new Map<number, (VariantRow & { from: number; to: number })[]>();
  for (const v of variants) {
    const list = byRoute.get(v.route_id) ?? byRoute.set(v.route_id, []).get(v.route_id)!;
    list.push({ ...v, from: dayNumber(v.startdate), to: v.enddate ? dayNumber(v.enddate) : Infinity });
  }
  const days = new Map<number, number[]>();
  for (const [routeId, list] of byRoute) {
    list.sort((a, b) => Number(a.dow === null) - Number(b.dow === null) || b.from - a.from || b.id - a.id);
    for (let day = first; day <= last; day++) {
      const holiday = holidaysOn.get(day)?.find((h) => h.route_id === routeId || h.route_id === null);
      const dow = holiday?.dow ?? weekdayOf(day);
      const variant = list.find((v) => v.from <= day && v.to >= day && (v.dow === null || v.dow === dow));
      if (variant) (days.get(variant.id) ?? days.set(variant.id, []).get(variant.id)!).push(day);
    }
  }
  return days;
}

/** A service as calendar.txt (days of the week over a range; none when `days` is 0) and calendar_dates.txt say it. */
export interface ServiceCalendar {
  /** Bit 0 Sunday … bit 6 Saturday. */
  days: number;
  start: string;
  end: string;
  added: string[];
  removed: string[];
}

/**
 * The shortest plain form of a set of days: the weekdays it runs on most of their dates in its range, and
 * exceptions for the rest. The same days always give the same form, so a re-import exports the same rows.
 */
export function calendarOf(sortedDays: readonly number[]): ServiceCalendar {
  const first = sortedDays[0];
  const last = sortedDays[sortedDays.length - 1];
  const runs = new Set(sortedDays);
  const total = new Array<number>(7).fill(0);
  const running = new Array<number>(7).fill(0);
  for (let day = first; day <= last; day++) {
    total[weekdayOf(day)]++;
    if (runs.has(day)) running[weekdayOf(day)]++;
  }
  let days = 0;
  for (let dow = 0; dow < 7; dow++) if (running[dow] * 2 > total[dow]) days |= 1 << dow;
  const added: string[] = [];
  const removed: string[] = [];
  for (let day = first; day <= last; day++) {
    const inPattern = (days & (1 << weekdayOf(day))) !== 0;
    if (runs.has(day) && !inPattern) added.push(isoOfDay(day));
    if (!runs.has(day) && inPattern) removed.push(isoOfDay(day));
  }
  return { days, start: isoOfDay(first), end: isoOfDay(last), added, removed };
}
