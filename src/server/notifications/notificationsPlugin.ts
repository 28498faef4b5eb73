import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { Notifier } from './notifier';
import notificationsRoutes from './notificationsRoutes';

declare module 'fastify' {
  interface FastifyInstance {
    /** Raises bell notifications; other areas call it (equipment faults, ADAS incidents, finished video). */
    notifier: Notifier;
  }
}

/** Notifications: the Notifier service and the bell's routes. */
async function notificationsPlugin(app: FastifyInstance): Promise<void> {
  app.decorate('notifier', new Notifier(app.db));
  await app.register(notificationsRoutes);
}

export default fp(notificationsPlugin, { name: 'notifications', dependencies: ['access'] });
