import type { ReportFilterValues } from '../../shared/reports/filters';
import type { ReportDeclaration } from '../../shared/reports/types';
import type { Switches } from '../../shared/modules';
import type { SystemSettings } from '../../shared/api';

/** The SQL an area gives for a report: a select of the declared columns (by name), every value a parameter. */
export interface ReportSql {
  text: string;
  params: unknown[];
}

export interface ReportContext {
  switches: Switches;
  /** The client's zone, minutes east of UTC (X-Timezone-Offset): time buckets follow the user's days. */
  offsetMinutes: number;
  /** Who asks: a report of one's own rows (/video/myrequests) filters by it. */
  userId: number;
  /** The settings in force (a saved change applies to the next build: passenger peaks and load thresholds). */
  settings?: SystemSettings;
}

/**
 * What an area owns of a report: its SQL. `rows` reports (journals, and summaries too large to send whole)
 * are paged and counted in SQL and exported in keyset batches by `key` (without one, in one query); a
 * `summary` (grouped counts) is small: it runs once and is paged, totalled and charted from the one result.
 */
export interface ReportSource {
  shape: 'rows' | 'summary';
  select(filters: ReportFilterValues, context: ReportContext): ReportSql;
  /** rows: a unique, never null column breaking sort ties and keying the export's batches. */
  key?: string;
  /**
   * rows without totals, over raw data (millions of rows a month): counted exactly up to this many; beyond, the
   * answer says "more than countCap" (countExact false) instead of counting every row on each page.
   */
  countCap?: number;
  /**
   * rows with charts: the rows the charts read, a small aggregate of their own (a paged report has no full
   * result to chart from; the stop exchange of a city's month is 55,000 rows, its chart by hour 24).
   */
  chart?(filters: ReportFilterValues, context: ReportContext): ReportSql;
  /** Sort expressions over the select's alias `r` where a column is not sorted by its own value. */
  sortSql?: Readonly<Record<string, string>>;
}

/** One source for every declared path: leaving one out does not compile. */
export type ReportSources<R extends readonly ReportDeclaration[]> = { readonly [P in R[number]['path']]: ReportSource };

export interface BoundReport {
  report: ReportDeclaration;
  source: ReportSource;
}

/** Binds an area's declarations to its SQL. */
export function bindReports<const R extends readonly ReportDeclaration[]>(reports: R, sources: ReportSources<R>): BoundReport[] {
  const byPath = sources as Readonly<Record<string, ReportSource>>;
  return reports.map((report) => ({ report, source: byPath[report.path] }));
}
