import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { ADAS_SOURCES } from '../adas/incidentReports';
import { BC_SOURCES } from '../bc/bcReports';
import { DISPATCH_SOURCES } from '../dispatch/dispatchReports';
import { EQUIPMENT_SOURCES } from '../equipment/equipmentReports';
import { JOURNAL_SOURCES } from '../journals/journalReports';
import { PDM_SOURCES } from '../pdm/pdmReports';
import { PASSENGER_SOURCES } from '../passengers/passengerReports';
import { registerReports } from './reportsRoutes';
import type { BoundReport } from './reportSource';
import { VIDEO_SOURCES } from '../video/videoReports';

/** Every declared report (src/shared/reports/) with its area's SQL. */
export const REPORT_SOURCES: readonly BoundReport[] = [
  ...JOURNAL_SOURCES,
  ...ADAS_SOURCES,
  ...BC_SOURCES,
  ...VIDEO_SOURCES,
  ...EQUIPMENT_SOURCES,
  ...PDM_SOURCES,
  ...PASSENGER_SOURCES,
  ...DISPATCH_SOURCES,
];

/** The routes of every declared report. */
async function reportsPlugin(app: FastifyInstance): Promise<void> {
  registerReports(app, REPORT_SOURCES);
}

export default fp(reportsPlugin, { name: 'reports', dependencies: ['access'] });
