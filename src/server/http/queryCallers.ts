import type { FastifyInstance } from 'fastify';
import { runAsCaller } from '../db/queryCaller';

/**
 * Every request runs as a query caller (db/queryCaller.ts): its user once the session is read (the client's
 * address before), and a signal aborted when the client closes the connection before the answer is complete.
 * Registered before the access check, so the session read counts too.
 */
export function installQueryCallers(app: FastifyInstance): void {
  app.addHook('onRequest', (request, reply, done) => {
    const gone = new AbortController();
    // Gone only when the connection closed before the answer was sent (an injected request's response closes
    // unfinished even after its answer).
    reply.raw.once('close', () => {
      if (!reply.raw.writableFinished && !reply.sent) gone.abort();
    });
    const key = () => (request.user ? `user ${request.user.id}` : `address ${request.ip}`);
    runAsCaller({ key, signal: gone.signal }, done);
  });
}
