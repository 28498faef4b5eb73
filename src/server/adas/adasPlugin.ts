import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { numberFromEnv } from '../map/config';
import { IncidentIngest } from './incidentIngest';
import incidentsIngestRoute from './incidentsIngestRoute';
import adasApiRoutes from './adasApiRoutes';

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
async function adasPlugin(app: FastifyInstance): Promise<void> {
  const tzOffsetMinutes = numberFromEnv(process.env.OPERATOR_TZ_OFFSET_MINUTES, 180);
  app.decorate('adas', { ingest: new IncidentIngest(app.db, app.eventsWriter, app.telemetry.devices, tzOffsetMinutes) });
  await app.register(incidentsIngestRoute);
  await app.register(adasApiRoutes);
}

export default fp(adasPlugin, { name: 'adas', dependencies: ['access', 'journals', 'telemetry'] });
