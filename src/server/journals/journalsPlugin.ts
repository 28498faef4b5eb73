import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { EventsWriter } from './eventsWriter';
import userActionHook from './userActionHook';
import { startRetentionSweep } from './retention';
import { JOURNAL_SOURCES } from './journalReports';

declare module 'fastify' {
  interface FastifyInstance {
    /** Appends to the event journals; telemetry, video and ADAS call it. */
    eventsWriter: EventsWriter;
  }
}

/**
 * Journals: the generic user-action hook (every API write journaled), the EventsWriter service, and the
 * retention sweep. Their list and export routes are reports (src/server/reports/, journalReports.ts).
 */
async function journalsPlugin(app: FastifyInstance): Promise<void> {
  app.reports.register(app, JOURNAL_SOURCES);
  app.decorate('eventsWriter', new EventsWriter(app.db, app.notifier));
  await app.register(userActionHook);
  startRetentionSweep(app);
}

export default fp(journalsPlugin, { name: 'journals', dependencies: ['access', 'reports', 'notifications'] });
