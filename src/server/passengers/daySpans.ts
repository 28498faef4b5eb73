/**
 * Periods read as aligned spans of days: the daily rollups that reports sum over long periods have copies summed
 * over spans of 2, 4, 8, 16 (and 32) days, aligned from 2000-01-01 as pass.span_start aligns them (migrations
 * 071 and 074), so a month is a few spans and single days instead of thirty days of rows.
 */
const DAY_MS = 86_400_000;

/** The spans of pass.od_span (migration 071), longest first; a single day is pass.od_day. */
export const OD_SPANS = [32, 16, 8, 4, 2];
/** The spans of pass.stop_hour_span (migration 074); a single day is pass.stop_hour. */
export const EXCHANGE_SPANS = [16, 8, 4, 2];
const SPAN_EPOCH_DAY = Date.UTC(2000, 0, 1) / DAY_MS;

/** A query's parameter list (passengerQueries.ts' Params): adds a value, answers its placeholder. */
interface Params {
  add(value: unknown): string;
}

/**
 * The days from..to as the fewest aligned spans (of the given lengths, longest first) and single days
 * (pass.span_start aligns them the same way): a month is at most eight blocks instead of thirty days.
 */
export function spanBlocks(
  from: string,
  to: string,
  lengths: readonly number[],
): { spans: { span: number; first: string }[]; days: string[] } {
  const spans: { span: number; first: string }[] = [];
  const days: string[] = [];
  const date = (n: number) => new Date(n * DAY_MS).toISOString().slice(0, 10);
  const last = Date.parse(to) / DAY_MS;
  for (let day = Date.parse(from) / DAY_MS; day <= last;) {
    const span = lengths.find((n) => (day - SPAN_EPOCH_DAY) % n === 0 && day + n - 1 <= last);
    if (span) spans.push({ span, first: date(day) });
    else days.push(date(day));
    day += span ?? 1;
  }
  return { spans, days };
}

/**
 * The rows of a daily rollup over from..to read from its spanned sums and single days, `union all`: `columns`
 * and `conditions` over the alias x, which both tables share; the caller sums them.
 */
export function spannedRows(
  p: Params,
  from: string,
  to: string,
  source: { spans: string; lengths: readonly number[]; days: string },
  columns: string,
  conditions: readonly string[],
): string {
  const blocks = spanBlocks(from, to, source.lengths);
  const where = (own: string[]) => `where ${[...own, ...conditions].join(' and ')}`;
  return [
    ...blocks.spans.map(
      ({ span, first }) =>
        `select ${columns} from ${source.spans} x ${where([`x.span = ${p.add(span)}::int`, `x.first_day = ${p.add(first)}::date`])}`,
    ),
    ...(blocks.days.length ? [`select ${columns} from ${source.days} x ${where([`x.day = any(${p.add(blocks.days)}::date[])`])}`] : []),
  ].join(' union all ');
}
