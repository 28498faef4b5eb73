import { lazy } from 'react';
import type { ReportExtensions } from '../reports/reportExtensions';

/** The driver-assistance parts of the report scaffold: a vehicle's incidents under its row, the linked incident above the detailing. */
export const adasReportParts: Partial<ReportExtensions> = {
  expands: {
    adasVehicleIncidents: {
      view: lazy(() => import('./VehicleIncidents').then((m) => ({ default: m.VehicleIncidents }))),
      opens: (row) => row.vehicle_id != null,
    },
  },
  leading: { '/adas/incidents-detailing': lazy(() => import('./IncidentFromLink').then((m) => ({ default: m.IncidentFromLink }))) },
};
