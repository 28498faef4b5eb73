import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import type { ReportDeclaration } from '../../shared/reports/types';
import type { ReportPartProps } from '../reports/reportPart';

/** The special parts of the report screens (ReportDeclaration.part), each lazy-loaded with its libraries. */
export const REPORT_PARTS: Readonly<Record<NonNullable<ReportDeclaration['part']>, LazyExoticComponent<ComponentType<ReportPartProps>>>> = {
  passengerSummary: lazy(() => import('./PassengerSummaryPart')),
  stopsMap: lazy(() => import('./StopsMapPart')),
  loadProfile: lazy(() => import('./LoadProfilePart')),
  odMatrix: lazy(() => import('./OdMatrixPart')),
};
