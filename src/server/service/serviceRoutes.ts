import type { FastifyInstance } from 'fastify';
import { MANUALS } from '../../shared/constants';
import { MODULES } from '../../shared/modules';
import { BUILD } from '../build';

/** Health for load balancers, and the about page's facts (always available, spec section 2). */
export default async function serviceRoutes(app: FastifyInstance): Promise<void> {
  app.get(
    '/api/health',
    {
      config: { access: 'public' },
      schema: {
        tags: ['service'],
        summary:
          'Проверка готовности сервера и базы данных; history — заполнение демонстрационной истории в фоне после первого запуска (дней готово из всех); bus — связан ли процесс с другими (shared) или один (local); leases — одиночные задания, которые выполняет этот процесс',
      },
    },
    async () => {
      await app.db.query('select 1');
      return {
        status: 'ok',
        engine: app.db.engine,
        version: BUILD.version,
        history: app.demoHistory.status(),
        bus: app.bus.shared ? 'shared' : 'local',
        leases: app.leases.heldNames(),
      };
    },
  );

  app.get(
    '/api/v1/about',
    {
      config: { access: 'public' },
      schema: { tags: ['service'], summary: 'Модули и руководства для страницы «О системе»' },
    },
    async () => {
      const { modules } = await app.settings.switches();
      return {
        build: BUILD,
        modules: MODULES.map((id) => ({ id, enabled: modules[id] !== false })),
        manuals: MANUALS,
      };
    },
  );
}
