import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { ADAS_SOURCES } from '../adas/incidentReports';
import { BC_SOURCES } from '../bc/bcReports';
import { EQUIPMENT_SOURCES } from '../equipment/equipmentReports';
import { JOURNAL_SOURCES } from '../journals/journalReports';
import { PDM_SOURCES } from '../pdm/pdmReports';
import { PASSENGER_SOURCES } from '../passengers/passengerReports';
import { registerReports } from './reportsRoutes';
import { VIDEO_SOURCES } from '../video/videoReports';

/** The routes of every declared report (src/shared/reports/), each area's SQL bound to its declarations. */
async function reportsPlugin(app: FastifyInstance): Promise<void> {
  registerReports(app, [...JOURNAL_SOURCES, ...ADAS_SOURCES, ...BC_SOURCES, ...VIDEO_SOURCES, ...EQUIPMENT_SOURCES, ...PDM_SOURCES, ...PASSENGER_SOURCES]);
}

export default fp(reportsPlugin, { name: 'reports', dependencies: ['access'] });
