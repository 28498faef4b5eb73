import type { FastifyInstance, FastifyRequest, FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import { journalable } from './redact';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * false: a POST that only reads (a list or an export whose filters travel in the body) is not a write and
     * stays out of the user-actions journal.
     */
    journal?: boolean;
  }
}

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * DESIGN.md: every write is recorded in the user-actions journal. Routes that journal themselves (with the
 * object's before and after) mark the request; every other successful write by a logged-in user gets one
 * generic row: method and route, the route as object, its id parameter, and the redacted request.
 * It runs in onSend, before the reply leaves: the client never sees success for a write the journal lacks,
 * and a test reading the journal right after the call finds the row.
 */
async function userActionHook(app: FastifyInstance): Promise<void> {
  app.decorateRequest('journaled', false);
  app.addHook('onSend', async (request, reply, payload) => {
    if (shouldJournal(request, reply)) {
      const url = request.routeOptions.url!;
      const params = (request.params ?? {}) as Record<string, unknown>;
      const id = params.id;
      try {
        await app.journal.record(request, {
          action: `${request.method} ${url}`,
          object: url,
          objectId: typeof id === 'string' || typeof id === 'number' ? id : undefined,
          request: journalable({ params, body: request.body }),
        });
      } catch (err) {
        // The write itself succeeded; failing the reply now would make the client retry a done write.
        request.log.error({ err }, 'user-action journal write failed');
      }
    }
    return payload;
  });
}

function shouldJournal(request: FastifyRequest, reply: FastifyReply): boolean {
  const url = request.routeOptions.url;
  return (
    WRITE_METHODS.has(request.method) &&
    url !== undefined &&
    url.startsWith('/api/') &&
    Boolean(request.user) &&
    !request.journaled &&
    request.routeOptions.config.journal !== false &&
    reply.statusCode >= 200 &&
    reply.statusCode < 300
  );
}

export default fp(userActionHook, { name: 'user-action-journal', dependencies: ['access'] });
