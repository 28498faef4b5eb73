import type { ReportFilterValues } from '../../shared/reports/filters';
import type { ReportDeclaration } from '../../shared/reports/types';

/** What a report's special part (ReportDeclaration.part) gets: its declaration, every row of the result, the filters it was built with. */
export interface ReportPartProps {
  report: ReportDeclaration;
  rows: readonly Record<string, unknown>[];
  filters: ReportFilterValues;
}
