import type { FastifyInstance } from 'fastify';
import { fail } from './errors';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Exports and reports: a user runs at most HEAVY_REQUESTS_PER_USER of them at once (the rest: 429). */
    heavy?: boolean;
  }
}

/**
 * One user's exports and reports at once are bounded: more of them only queue behind each other on the
 * database and take turns from everyone else, so the next is refused (429, too_many_heavy_requests) until
 * one ends (its answer sent, or its client gone). Checked once access and input are known good.
 */
export function installHeavyRequestLimit(app: FastifyInstance, perUser: number): void {
  const running = new Map<number, number>();
  app.addHook('preHandler', async (request, reply) => {
    if (!request.routeOptions.config.heavy || !request.user) return;
    const userId = request.user.id;
    const count = running.get(userId) ?? 0;
    if (count >= perUser) throw fail(429, 'too_many_heavy_requests');
    running.set(userId, count + 1);
    reply.raw.once('close', () => {
      const left = (running.get(userId) ?? 1) - 1;
      if (left > 0) running.set(userId, left);
      else running.delete(userId);
    });
  });
}
