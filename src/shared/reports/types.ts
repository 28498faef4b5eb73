import type { ModuleId } from '../modules';
import type { MenuGroup } from '../menuGroups';

/**
 * A report (SCREENS.md, "Reports: the common shape"; DESIGN.md, "Reports"): one declaration read by the
 * server (routes, filter validation, export) and the console (the page, its filter bar, table and charts).
 * `path` is the console route, the permission key and the react-admin resource at once.
 */

/**
 * How a column's values read: the console's cell and the export's cell follow it. 'period' is the start
 * of a time bucket as local wall-clock text 'YYYY-MM-DDTHH:mm' (shown as a date, or a date and hour).
 * 'integer' is an id or a code, written as it is; 'number' a quantity, with Russian separators.
 */
export type ColumnType = 'text' | 'number' | 'integer' | 'date' | 'datetime' | 'period' | 'enum' | 'json';

/** Console cells with a behaviour of their own (src/client/reports/reportCells.tsx). */
export type SpecialCell = 'action' | 'object' | 'rate' | 'taskLink' | 'videoStatus';

export interface ReportColumn {
  /** The API row's field. */
  name: string;
  /** Russian header of the exported file. */
  header: string;
  type: ColumnType;
  /** i18n key of the console's column label (default `<report labels>.<name>`). */
  label?: string;
  sortable?: boolean;
  /** enum: the i18n prefix of its values' labels (`journals.kinds` → journals.kinds.<value>); json: of its fields' labels. */
  labels?: string;
  /** Exported but not shown in the console's table (ids, raw JSON documents). */
  exportOnly?: boolean;
  /** Summed into the totals row. */
  total?: boolean;
  /** Fraction digits of a number. */
  decimals?: number;
  cell?: SpecialCell;
}

/** The entity lists a report can filter by, chosen in the console's filter modal (console.md section 2). */
export const PICKER_KINDS = [
  'vehicles',
  'routes',
  'depots',
  'users',
  'incidentTypes',
  'departments',
  'controllers',
  'stops',
  'ticketTypes',
] as const;
export type PickerKind = (typeof PICKER_KINDS)[number];

export const PERIOD_PRESETS = ['today', 'yesterday', 'thisWeek', 'lastWeek', 'last7Days', 'thisMonth', 'last30Days'] as const;
export type PeriodPreset = (typeof PERIOD_PRESETS)[number];

interface FilterBase {
  /** The query-string parameter (and URL parameter) it travels in. */
  name: string;
  /** i18n key of its label. */
  label: string;
}

/** from and to (ISO 8601) with presets; `maxDays` caps the period, `required` refuses a build without one. */
export interface PeriodFilter extends FilterBase {
  kind: 'period';
  name: 'period';
  withTime?: boolean;
  maxDays?: number;
  required?: boolean;
  /** The preset a bare screen starts with. */
  preset?: PeriodPreset;
  /**
   * The report's days are service days, which change this many minutes after midnight: until then the presets
   * read the clock as the day before («Сегодня» at 01:00 is the service day still running).
   */
  dayChangeMinutes?: number;
}
/** Several ids of an entity list, as a comma list. */
export interface PickerFilter extends FilterBase {
  kind: PickerKind;
}
/** Several of known values (labels `<labels>.<value>`), as a comma list. */
export interface EnumFilter extends FilterBase {
  kind: 'enum';
  values: readonly string[];
  labels: string;
}
/** Exactly one of known values, with a default (grouping steps and the like). */
export interface ChoiceFilter extends FilterBase {
  kind: 'choice';
  values: readonly string[];
  labels: string;
  default: string;
}
/** Free text, at most `maxLength` characters (several values separated by commas). */
export interface TextFilter extends FilterBase {
  kind: 'text';
  maxLength: number;
}

export type ReportFilter = PeriodFilter | PickerFilter | EnumFilter | ChoiceFilter | TextFilter;
export type FilterKind = ReportFilter['kind'];

/**
 * A chart over the report's rows: `x` the category column, `value` the plotted number; `stackBy` splits
 * each bar into one series per value of that column (long rows pivoted into one bar per x). `top` keeps the
 * x values with the largest totals, largest first; a pie sums the rest into one «other» slice. `label` names
 * each x when x is a key (a stop id): rows of one key make one point, shown by that column, so two stops of
 * one name stay two.
 */
export interface ReportChart {
  kind: 'bar' | 'line' | 'pie';
  title: string;
  x: string;
  label?: string;
  value: string;
  stackBy?: string;
  top?: number;
}

export type ExportFormat = 'csv' | 'xlsx';

export interface ReportDeclaration<P extends string = string> {
  path: P;
  module: ModuleId;
  section?: string;
  /** Where the menu lists it, and its label (i18n key). */
  menu: { group: MenuGroup; label: string };
  /** Russian title: API summaries, the export's sheet. */
  title: string;
  /** Export file name stem. */
  file: string;
  /** API list path; the export is `<api>/export`. Default /api/v1/reports<path>. */
  api?: string;
  /** i18n prefix of the column labels. */
  labels: string;
  filters: readonly ReportFilter[];
  columns: readonly ReportColumn[];
  defaultSort: { field: string; order: 'ASC' | 'DESC' };
  charts?: readonly ReportChart[];
  export: readonly ExportFormat[];
  /** Rows per page of the console's table (the spec's reports: 100). */
  pageSize: number;
  /** A totals row under the table, summing the columns marked `total`. */
  totals?: boolean;
  /** 'auto' loads at once (the journals); 'button' waits for «Сформировать» (reports). */
  build: 'auto' | 'button';
  /** A row opens a detail view (src/client/reports/ReportTable.tsx). */
  expand?: 'userActionDiff' | 'adasVehicleIncidents';
  /**
   * A special part of the screen (src/client/reports/ReportScreen.tsx names the components: a map, a profile,
   * a matrix), drawn above the table from every row of the result: the list then answers all rows in `chart`
   * (the matrix: only its cells, src/shared/reports/odMatrix.ts).
   */
  part?: 'passengerSummary' | 'stopsMap' | 'loadProfile' | 'odMatrix';
  /** Each row ends with its actions (src/client/reports/ReportTable.tsx names the components). */
  rowActions?: 'videoRequest';
  /** The list loads again every `everyMs` while a row's `field` holds one of `values` (work still under way). */
  refresh?: { everyMs: number; field: string; values: readonly string[] };
}

/** Identity with the types checked: the one way to declare a report. */
export function defineReport<const P extends string>(report: ReportDeclaration<P>): ReportDeclaration<P> {
  return report;
}

export const reportApi = (report: ReportDeclaration): string => report.api ?? `/api/v1/reports${report.path}`;
export const reportResource = (report: ReportDeclaration): string => report.path.slice(1);
export const sortableColumns = (report: ReportDeclaration): string[] => report.columns.filter((c) => c.sortable).map((c) => c.name);
export const pickerFilters = (report: ReportDeclaration): PickerFilter[] =>
  report.filters.filter((f): f is PickerFilter => (PICKER_KINDS as readonly string[]).includes(f.kind));
export const periodFilter = (report: ReportDeclaration): PeriodFilter | undefined =>
  report.filters.find((f): f is PeriodFilter => f.kind === 'period');
