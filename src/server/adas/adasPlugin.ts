import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { IncidentIngest } from './incidentIngest';
import incidentsIngestRoute from './incidentsIngestRoute';
import adasApiRoutes from './adasApiRoutes';
import { operatorTzOffset } from '../platform/operatorDay';
import { ADAS_SOURCES } from './incidentReports';

declare module 'fastify' {
  interface FastifyInstance {
    /** Driver-assistance incidents: `ingest` is the one way in (HTTP units and the simulator). */
    adas: { ingest: IncidentIngest };
  }
}

/**
 * The ADAS area: incidents in (ingestion), their review, and the field app's calls of field-app.md section 7.
 * The three report screens are declarations served by the reports plugin with the SQL of incidentQueries.ts.
 */
/** The daily rollups count the operator's days (migration 041): a new OPERATOR_TZ_OFFSET_MINUTES rebuilds them. */
async function keepRollupZone(app: FastifyInstance, offsetMinutes: number): Promise<void> {
  const [zone] = await app.db.query<{ offset_minutes: number }>('select offset_minutes from adas.rollup_zone limit 1');
  if (zone?.offset_minutes === offsetMinutes) return;
  app.log.info({ offsetMinutes }, "ADAS rollups rebuilt for the operator's time zone");
  await app.db.longRunning().transaction(async (tx) => {
    await tx.query('update adas.rollup_zone set offset_minutes = $1', [offsetMinutes]);
    await tx.query('select adas.rebuild_rollups()');
  });
}

async function adasPlugin(app: FastifyInstance): Promise<void> {
  app.reports.register(app, ADAS_SOURCES);
  const tzOffsetMinutes = operatorTzOffset();
  await keepRollupZone(app, tzOffsetMinutes);
  app.decorate('adas', { ingest: new IncidentIngest(app.db, app.eventsWriter, app.telemetry.devices, tzOffsetMinutes) });
  await app.register(incidentsIngestRoute);
  await app.register(adasApiRoutes);
}

export default fp(adasPlugin, { name: 'adas', dependencies: ['access', 'reports', 'journals', 'telemetry'] });
