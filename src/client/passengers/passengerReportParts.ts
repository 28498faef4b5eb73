import { lazy } from 'react';
import type { ReportExtensions } from '../reports/reportExtensions';

/** The passenger-flow parts of the report scaffold (ReportDeclaration.part), each lazy-loaded with its libraries. */
export const passengerReportParts: Partial<ReportExtensions> = {
  parts: {
    passengerSummary: lazy(() => import('./PassengerSummaryPart')),
    stopsMap: lazy(() => import('./StopsMapPart')),
    loadProfile: lazy(() => import('./LoadProfilePart')),
    odMatrix: lazy(() => import('./OdMatrixPart')),
  },
};
