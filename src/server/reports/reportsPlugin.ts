import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { registerReports } from './reportsRoutes';
import type { BoundReport } from './reportSource';

/** The report scaffold's registry: each area's plugin registers its declared reports (src/shared/reports/) with its SQL. */
export interface ReportRegistry {
  /** Adds the routes of an area's reports to `scope` (the area's plugin). */
  register(scope: FastifyInstance, bound: readonly BoundReport[]): void;
  /** Every report registered so far. */
  readonly bound: readonly BoundReport[];
}

declare module 'fastify' {
  interface FastifyInstance {
    reports: ReportRegistry;
  }
}

/** The report routes' scaffold; it knows no area, the areas register into it. */
async function reportsPlugin(app: FastifyInstance): Promise<void> {
  const bound: BoundReport[] = [];
  app.decorate('reports', {
    register(scope: FastifyInstance, reports: readonly BoundReport[]) {
      registerReports(scope, reports);
      bound.push(...reports);
    },
    bound,
  });
}

export default fp(reportsPlugin, { name: 'reports', dependencies: ['access'] });
