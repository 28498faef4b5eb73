import { PERIOD_PRESETS, type PeriodPreset, type ReportDeclaration, type ReportFilter } from './types';

/**
 * A report's filters as the query string carries them (the console's URL and the API's query are the same
 * parameters), read and checked by the declaration: the server refuses what does not pass before it runs
 * anything, and the console reads a link back into its filter bar by the same rules.
 */

export const MAX_IDS = 1000;
export const MAX_ID = 2_147_483_647;
export const ISO_MAX_LENGTH = 40;
/** A comma list of at most MAX_IDS ids of up to ten digits: its longest text. */
export const ID_LIST_MAX_LENGTH = MAX_IDS * 11;
export const ENUM_LIST_MAX_LENGTH = 2000;

export type FilterValue = string | number[] | string[];
/** Checked filters: `from`/`to` as ISO times, id lists as numbers, enum lists and texts as strings. */
export type ReportFilterValues = Record<string, FilterValue | undefined>;

export type QueryInput = Record<string, unknown>;

export type FilterResult = { ok: true; values: ReportFilterValues } | { ok: false; code: FilterErrorCode; field: string };
export type FilterErrorCode = 'bad_request' | 'report_period_required' | 'report_period_too_long';

const DAY_MS = 86_400_000;

function text(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  const s = String(value).trim();
  return s === '' ? undefined : s;
}

const list = (value: string) =>
  value
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);

/** An ISO 8601 date or date-time, as the canonical ISO time; undefined when not one. */
export function isoTimeOf(value: string): string | undefined {
  if (!/^\d{4}-\d{2}-\d{2}/.test(value) || value.length > ISO_MAX_LENGTH) return undefined;
  const time = Date.parse(value);
  return Number.isNaN(time) ? undefined : new Date(time).toISOString();
}

function ids(value: string): number[] | undefined {
  const items = list(value);
  if (items.length > MAX_IDS || items.some((item) => !/^\d{1,10}$/.test(item) || Number(item) > MAX_ID)) return undefined;
  return items.map(Number);
}

function readFilter(filter: ReportFilter, query: QueryInput, values: ReportFilterValues): FilterResult | undefined {
  const fail = (code: FilterErrorCode = 'bad_request', field = filter.name): FilterResult => ({ ok: false, code, field });
  if (filter.kind === 'period') {
    for (const end of ['from', 'to'] as const) {
      const raw = text(query[end]);
      if (raw === undefined) continue;
      const iso = isoTimeOf(raw);
      if (!iso) return fail('bad_request', end);
      values[end] = iso;
    }
    const { from, to } = values as { from?: string; to?: string };
    if (filter.required && (!from || !to)) return fail('report_period_required');
    if (from && to && from > to) return fail('bad_request', 'to');
    if (filter.maxDays && from && to && Date.parse(to) - Date.parse(from) > filter.maxDays * DAY_MS) return fail('report_period_too_long');
    return undefined;
  }
  const raw = text(query[filter.name]);
  if (filter.kind === 'choice') {
    const chosen = raw ?? filter.default;
    if (!filter.values.includes(chosen)) return fail();
    values[filter.name] = chosen;
    return undefined;
  }
  if (raw === undefined) return undefined;
  switch (filter.kind) {
    case 'enum': {
      const chosen = list(raw);
      if (raw.length > ENUM_LIST_MAX_LENGTH || chosen.some((value) => !filter.values.includes(value))) return fail();
      if (chosen.length) values[filter.name] = chosen;
      return undefined;
    }
    case 'text': {
      if (raw.length > filter.maxLength) return fail();
      const chosen = list(raw);
      if (chosen.length) values[filter.name] = chosen;
      return undefined;
    }
    default: {
      const chosen = raw.length > ID_LIST_MAX_LENGTH ? undefined : ids(raw);
      if (!chosen) return fail();
      if (chosen.length) values[filter.name] = chosen;
      return undefined;
    }
  }
}

/** The report's filters read from a query (or URL) and checked; the first fault is reported. */
export function parseReportFilters(report: ReportDeclaration, query: QueryInput): FilterResult {
  const values: ReportFilterValues = {};
  for (const filter of report.filters) {
    const failure = readFilter(filter, query, values);
    if (failure) return failure;
  }
  return { ok: true, values };
}

/** The checked filters as query parameters again (what the console puts in the URL and sends). */
export function filterQuery(values: ReportFilterValues): Record<string, string> {
  const query: Record<string, string> = {};
  for (const [name, value] of Object.entries(values)) {
    if (value === undefined) continue;
    const textValue = Array.isArray(value) ? value.join(',') : value;
    if (textValue !== '') query[name] = textValue;
  }
  return query;
}

/** The clock a period filter's presets read: a service day's change moves it back (PeriodFilter.dayChangeMinutes). */
export const presetClock = (filter: { dayChangeMinutes?: number } | undefined, now: number = Date.now()): Date =>
  new Date(now - (filter?.dayChangeMinutes ?? 0) * 60_000);

/**
 * A preset as a period in the local time of `now` (the browser's): days from midnight to the last
 * second; weeks start on Monday (Russian calendar).
 */
export function presetPeriod(preset: PeriodPreset, now: Date = new Date()): { from: Date; to: Date } {
  const startOfDay = (date: Date) => new Date(date.getFullYear(), date.getMonth(), date.getDate());
  const endOfDay = (date: Date) => new Date(date.getFullYear(), date.getMonth(), date.getDate(), 23, 59, 59);
  const daysAgo = (days: number) => new Date(now.getFullYear(), now.getMonth(), now.getDate() - days);
  switch (preset) {
    case 'today':
      return { from: startOfDay(now), to: endOfDay(now) };
    case 'yesterday':
      return { from: daysAgo(1), to: endOfDay(daysAgo(1)) };
    case 'thisWeek':
      return { from: daysAgo((now.getDay() + 6) % 7), to: endOfDay(now) };
    case 'lastWeek': {
      const sinceMonday = (now.getDay() + 6) % 7;
      return { from: daysAgo(sinceMonday + 7), to: endOfDay(daysAgo(sinceMonday + 1)) };
    }
    case 'last7Days':
      return { from: daysAgo(6), to: endOfDay(now) };
    case 'thisMonth':
      return { from: new Date(now.getFullYear(), now.getMonth(), 1), to: endOfDay(now) };
    case 'last30Days':
      return { from: daysAgo(29), to: endOfDay(now) };
  }
}

/**
 * The preset whose period is exactly from–to (ISO times) at `now`, so the filter bar can show it as chosen. Several
 * can match (on a Sunday the last 7 days are this week): the `preferred` ones win in their order, then the list's.
 */
export function presetOfPeriod(
  from: string | undefined,
  to: string | undefined,
  now: Date = new Date(),
  preferred: readonly (PeriodPreset | undefined)[] = [],
): PeriodPreset | undefined {
  if (!from || !to) return undefined;
  const [start, end] = [Date.parse(from), Date.parse(to)];
  const candidates = [...preferred.filter((preset): preset is PeriodPreset => preset !== undefined), ...PERIOD_PRESETS];
  return candidates.find((preset) => {
    const period = presetPeriod(preset, now);
    return period.from.getTime() === start && period.to.getTime() === end;
  });
}
