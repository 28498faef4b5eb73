import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import type { ReportFilterValues } from '../../shared/reports/filters';
import type { ReportDeclaration } from '../../shared/reports/types';

/** What a report's special part gets: its declaration, every row of the result, the filters it was built with. */
export interface ReportPartProps {
  report: ReportDeclaration;
  rows: readonly Record<string, unknown>[];
  filters: ReportFilterValues;
}

/** The special parts of the report screens (ReportDeclaration.part), each lazy-loaded with its libraries. */
export const REPORT_PARTS: Readonly<Record<NonNullable<ReportDeclaration['part']>, LazyExoticComponent<ComponentType<ReportPartProps>>>> = {
  passengerSummary: lazy(() => import('./PassengerSummaryPart')),
  stopsMap: lazy(() => import('./StopsMapPart')),
  loadProfile: lazy(() => import('./LoadProfilePart')),
  odMatrix: lazy(() => import('./OdMatrixPart')),
};
