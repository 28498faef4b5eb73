import type { GtfsFeed } from '../feed/gtfsFeed';

const DAY_MS = 86_400_000;
/** Longest period of a feed the conversion looks at: a year's timetable and a little more. */
const MAX_PERIOD_DAYS = 400;

const NUL = '\u0000';

export const dayNumber = (iso: string): number => Math.round(Date.parse(`${iso}T00:00:00Z`) / DAY_MS);
export const isoOfDay = (day: number): string => new Date(day * DAY_MS).toISOString().slice(0, 10);
/** 0 Sunday … 6 Saturday, as PostgreSQL's extract(dow) and the timetable variants' `dow`. */
export const weekdayOf = (day: number): number => (((day + 4) % 7) + 7) % 7;

/** The days (numbers since the epoch) each service runs, from calendar.txt and its exceptions. */
export interface ServiceDays {
  first: number;
  last: number;
  days: Map<string, Set<number>>;
}

export function serviceDays(feed: GtfsFeed): ServiceDays {
  const days = new Map<string, Set<number>>();
  const of = (service: string) => days.get(service) ?? days.set(service, new Set()).get(service)!;
  let first = Infinity;
  let last = -Infinity;
  for (const calendar of feed.calendars) {
    if (!calendar.start || !calendar.end) continue;
    const from = dayNumber(calendar.start);
    const to = Math.min(dayNumber(calendar.end), from + MAX_PERIOD_DAYS);
    const set = of(calendar.serviceId);
    for (let day = from; day <= to; day++) if (calendar.days & (1 << weekdayOf(day))) set.add(day);
    first = Math.min(first, from);
    last = Math.max(last, to);
  }
  for (const exception of feed.calendarDates) {
    const day = dayNumber(exception.date);
    if (exception.added) of(exception.serviceId).add(day);
    else days.get(exception.serviceId)?.delete(day);
    if (exception.added) {
      first = Math.min(first, day);
      last = Math.max(last, day);
    }
  }
  if (first === Infinity) return { first: 0, last: -1, days };
  return { first, last: Math.min(last, first + MAX_PERIOD_DAYS), days };
}

/** One timetable of a route: the services run together on its days, and how the product finds it on a date. */
export interface PlannedVariant {
  /** Stable across imports of the same feed: route, services and weekday. */
  key: string;
  services: string[];
  /** The usual timetable, a weekday's own, or one date's. */
  kind: 'usual' | 'weekday' | 'date';
  /** null: the route's usual timetable, in force on days without a timetable of their own weekday. */
  dow: number | null;
  startdate: string;
  /** The last day in force (inclusive, as the handbook reads it). */
  enddate: string;
}

export interface PlannedHoliday {
  date: string;
  /** The weekday whose timetable the route runs that date. */
  dow: number;
}

export interface RouteCalendar {
  variants: PlannedVariant[];
  holidays: PlannedHoliday[];
}

/**
 * The product's form of one route's GTFS calendar. The product finds a route's timetable on a date from its
 * variants: a holiday may name the weekday whose timetable runs; a variant of that weekday is preferred to the
 * usual one (no weekday); the latest start wins. So: the set of services running most days is the usual
 * variant; each weekday whose most frequent set differs gets a variant of its own (an empty one for a weekday
 * without service); a date whose set differs from what those give is a holiday naming a weekday that gives it,
 * else a variant of that date alone (empty for a date without service).
 */
export function routeCalendar(routeKey: string, services: ReadonlySet<string>, calendar: ServiceDays): RouteCalendar {
  // The services running each day, joined; '' when the route does not run that day.
  const setOn: string[] = [];
  for (let day = calendar.first; day <= calendar.last; day++) {
    setOn.push(
      [...services]
        .filter((s) => calendar.days.get(s)?.has(day))
        .sort()
        .join(NUL),
    );
  }
  const at = (day: number) => setOn[day - calendar.first];
  const allDays = Array.from({ length: calendar.last - calendar.first + 1 }, (_, i) => calendar.first + i);
  const mostFrequent = (days: number[], withNone: boolean): string | null => {
    const n = new Map<string, number>();
    for (const day of days) if (withNone || at(day)) n.set(at(day), (n.get(at(day)) ?? 0) + 1);
    return [...n].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0]?.[0] ?? null;
  };
  const usual = mostFrequent(allDays, false);
  if (usual === null) return { variants: [], holidays: [] };

  const variants: PlannedVariant[] = [];
  const add = (set: string, dow: number | null, start: number, end: number, dated = false) => {
    variants.push({
      key: `${routeKey}|${set.replaceAll(NUL, '+')}|${dow ?? '*'}${dated ? `|${isoOfDay(start)}` : ''}`,
      services: set ? set.split(NUL) : [],
      dow,
      kind: dated ? 'date' : dow === null ? 'usual' : 'weekday',
      // The end date is the last day in force, and the handbook wants it after the start.
      startdate: isoOfDay(start),
      enddate: isoOfDay(Math.max(end, start + 1)),
    });
  };
  const spanOf = (set: string, dow: number | null) => {
    const days = allDays.filter((d) => at(d) === set && (dow === null || weekdayOf(d) === dow));
    return { set, start: days[0], end: days[days.length - 1] };
  };
  const usualSpan = spanOf(usual, null);
  add(usual, null, usualSpan.start, usualSpan.end);
  const byWeekday = new Map<number, { set: string; start: number; end: number }>();
  for (let dow = 0; dow < 7; dow++) {
    const days = allDays.filter((d) => weekdayOf(d) === dow);
    const set = mostFrequent(days, true);
    if (set === null || set === usual) continue;
    // A weekday without service is an empty timetable over the whole period, not one per date.
    const span = set ? spanOf(set, dow) : { set, start: days[0], end: days[days.length - 1] };
    byWeekday.set(dow, span);
    add(set, dow, span.start, span.end);
  }

  // Variants of one date are in force on the next day too (the handbook's end date is after its start): the
  // next day's choice sees them, which is why the days are taken in order.
  const dated = new Map<number, { set: string; dow: number }>();
  /** The services the product runs on `day` with the timetable of weekday `dow` (its rule, in 004_handbook_links). */
  const given = (day: number, dow: number): string => {
    const own = byWeekday.get(dow);
    const candidates: { set: string; start: number }[] = [];
    if (own && own.start <= day && Math.max(own.end, own.start + 1) >= day) candidates.push({ set: own.set, start: own.start });
    for (const start of [day - 1, day]) {
      const single = dated.get(start);
      if (single && single.dow === dow) candidates.push({ set: single.set, start });
    }
    if (candidates.length) return candidates.reduce((a, b) => (b.start >= a.start ? b : a)).set;
    return usualSpan.start <= day && Math.max(usualSpan.end, usualSpan.start + 1) >= day ? usual : '';
  };
  const holidays: PlannedHoliday[] = [];
  for (const day of allDays) {
    const wanted = at(day);
    if (given(day, weekdayOf(day)) === wanted) continue;
    const other = [0, 1, 2, 3, 4, 5, 6].find((dow) => given(day, dow) === wanted);
    if (other !== undefined) holidays.push({ date: isoOfDay(day), dow: other });
    else {
      dated.set(day, { set: wanted, dow: weekdayOf(day) });
      add(wanted, weekdayOf(day), day, day, true);
    }
  }
  return { variants, holidays };
}
