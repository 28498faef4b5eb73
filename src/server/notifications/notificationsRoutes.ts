import type { FastifyInstance, FastifyRequest } from 'fastify';
import { NOTIFICATION_TYPE_IDS, visibleTypes, type NotificationType } from './notificationTypes';
import { NotificationRing } from './notificationRing';

const count = { type: 'object', properties: { count: { type: 'integer' } } } as const;

/**
 * The bell of spec section 7: the unseen count (polled; passive, so polling never keeps an idle session
 * alive), the list with new_list, and "set all viewed". Every logged-in user has a bell; what it shows
 * depends on the user's rights (notificationTypes).
 */
export default async function notificationsRoutes(app: FastifyInstance): Promise<void> {
  const ring = new NotificationRing(app.db);
  const typesOf = async (request: FastifyRequest) => visibleTypes(request.user!, await app.settings.switches());

  app.get(
    '/api/v1/events/ring/count',
    {
      config: { access: 'session', passive: true },
      schema: { tags: ['events'], summary: 'Число непросмотренных уведомлений (опрос; не продлевает сессию)', response: { 200: count } },
    },
    async (request) => ({ count: await ring.unseenCount(request.user!.id, await typesOf(request)) }),
  );

  app.get<{ Querystring: { type?: string; skipCount?: number; recordCount?: number } }>(
    '/api/v1/events/ring/list',
    {
      config: { access: 'session' },
      schema: {
        tags: ['events'],
        summary: 'Уведомления, новые сначала: list (isNew — не просмотрено), count — всего, new_list — id непросмотренных (до 100)',
        querystring: {
          type: 'object',
          additionalProperties: false,
          properties: {
            type: { type: 'string', maxLength: 200, description: `Типы через запятую: ${NOTIFICATION_TYPE_IDS.join(', ')}` },
            skipCount: { type: 'integer', minimum: 0, maximum: 2147483647, default: 0 },
            recordCount: { type: 'integer', minimum: 1, maximum: 200, default: 30 },
          },
        },
      },
    },
    async (request) => {
      const { type, skipCount = 0, recordCount = 30 } = request.query;
      const asked = type ? type.split(',').map((item) => item.trim()) : undefined;
      const types = (await typesOf(request)).filter((item) => !asked || asked.includes(item));
      return ring.list(request.user!.id, types as NotificationType[], skipCount, recordCount);
    },
  );

  app.post<{ Body: { upTo?: number } }>(
    '/api/v1/events/ring/viewed',
    {
      config: { access: 'session' },
      // "Set all viewed" is a bare POST in the console: no body means {}.
      preValidation: async (request) => {
        request.body ??= {};
      },
      schema: {
        tags: ['events'],
        summary: 'Отметить уведомления просмотренными (все или до upTo включительно); ответ — оставшееся число непросмотренных',
        body: {
          type: 'object',
          additionalProperties: false,
          properties: { upTo: { type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER } },
        },
        response: { 200: count },
      },
    },
    async (request) => {
      await ring.markViewed(request.user!.id, request.body.upTo);
      return { count: await ring.unseenCount(request.user!.id, await typesOf(request)) };
    },
  );
}
