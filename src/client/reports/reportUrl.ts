import { filterQuery, parseReportFilters, type ReportFilterValues } from '../../shared/reports/filters';
import type { ReportDeclaration } from '../../shared/reports/types';

/**
 * A report's state lives in the URL (so a link or a reload reproduces it): the filters as the API's own
 * query parameters, plus sortField, sortOrder and page. A report that waits for «Сформировать» counts as
 * built once its URL carries any of them.
 */
export interface ReportUrlState {
  filters: ReportFilterValues;
  sort: { field: string; order: 'ASC' | 'DESC' };
  page: number;
  built: boolean;
  /** The URL's filters did not pass the declaration's checks (a hand-edited link): they were dropped. */
  invalid: boolean;
}

const PAGE = 'page';

/** The URL parameters a report's state is made of: its filters' (a period is from and to), the sort and the page. */
const stateParams = (report: ReportDeclaration) =>
  new Set([...report.filters.flatMap((f) => (f.kind === 'period' ? ['from', 'to'] : [f.name])), 'sortField', 'sortOrder', PAGE]);

export function readReportUrl(report: ReportDeclaration, search: URLSearchParams): ReportUrlState {
  const query = Object.fromEntries(search.entries());
  const parsed = parseReportFilters(report, query);
  const sortable = report.columns.some((c) => c.sortable && c.name === query.sortField);
  const page = Number(query[PAGE]);
  const carriesState = [...stateParams(report)].some((name) => search.has(name));
  return {
    filters: parsed.ok ? parsed.values : {},
    sort: sortable ? { field: query.sortField, order: query.sortOrder === 'ASC' ? 'ASC' : 'DESC' } : report.defaultSort,
    page: Number.isInteger(page) && page > 0 ? page : 1,
    // other parameters (an incident a notification links to) neither build the report nor make the link invalid
    built: report.build === 'auto' || (parsed.ok && carriesState),
    // a bare address (the menu's link) is a report not built yet, not a bad link, though its period is required
    invalid: !parsed.ok && carriesState,
  };
}

export function writeReportUrl(report: ReportDeclaration, state: Pick<ReportUrlState, 'filters' | 'sort' | 'page'>): URLSearchParams {
  const search = new URLSearchParams(filterQuery(state.filters));
  if (state.sort.field !== report.defaultSort.field || state.sort.order !== report.defaultSort.order) {
    search.set('sortField', state.sort.field);
    search.set('sortOrder', state.sort.order);
  }
  // a report built with none of its filters set still needs a mark in its URL that it was built
  if (state.page > 1 || search.size === 0) search.set(PAGE, String(state.page));
  return search;
}

/** The API query of the URL's state: filters, sort, and the page as skipCount and recordCount. */
export function reportApiQuery(report: ReportDeclaration, state: ReportUrlState): Record<string, string | number> {
  return {
    ...filterQuery(state.filters),
    sortField: state.sort.field,
    sortOrder: state.sort.order,
    skipCount: (state.page - 1) * report.pageSize,
    recordCount: report.pageSize,
  };
}
