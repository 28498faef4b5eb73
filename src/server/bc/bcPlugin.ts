import type { FastifyInstance } from 'fastify';
import multipart from '@fastify/multipart';
import { registerFieldRoutes, todayOf } from './fieldRoutes';
import { registerTaskRoutes } from './taskRoutes';
import { sweepNotAchieved } from './taskStore';
import { photoStore } from './photoStore';
import type { BcContext } from './bcContext';
import { operatorTzOffset } from '../platform/operatorDay';
import { BC_SOURCES } from './bcReports';

/**
 * Ticket control (bc): work orders on the desktop and the controller's report from the field app. An
 * encapsulated plugin: multipart parsing (report photos) exists only here.
 */
export default async function bcPlugin(app: FastifyInstance): Promise<void> {
  app.reports.register(app, BC_SOURCES);
  const tzOffsetMinutes = operatorTzOffset();
  const bc: BcContext = {
    offsetMinutes: tzOffsetMinutes,
    today: () => todayOf(tzOffsetMinutes),
    sweep: async () => sweepNotAchieved(app.db, Date.now(), tzOffsetMinutes, (await app.settings.get()).bc.lateReportHours),
    photos: photoStore(app.config),
  };
  // the per-request limit is the /system/bc setting; this bound is only the setting's own maximum
  await app.register(multipart, { limits: { fileSize: 50 * 1024 * 1024, files: 1 } });
  registerFieldRoutes(app, bc);
  registerTaskRoutes(app, bc);
}
