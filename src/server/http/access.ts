import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { canAccess, type Action } from '../../shared/permissions';
import { isEnabled, type ModuleId } from '../../shared/modules';
import { HEADERS } from '../../shared/constants';
import { fail } from './errors';
import type { SessionUser } from '../auth/sessions';

/**
 * What a route needs, declared in its `config`: 'public' (no session), 'session' (any logged-in user), or a
 * permission path and action checked by the shared canAccess. `module`/`section` make the route vanish (404)
 * while that module or section is switched off. `passive` requests (background polling) do not count as
 * user activity for the idle timeout.
 */
export interface RouteAccess {
  access: 'public' | 'session' | { path: string; action: Action };
  module?: ModuleId;
  section?: string;
  passive?: boolean;
}

declare module 'fastify' {
  interface FastifyContextConfig extends Partial<RouteAccess> {}
  interface FastifyRequest {
    user: SessionUser | null;
  }
}

export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers[HEADERS.token];
  const match = typeof header === 'string' ? /^Bearer\s+(\S+)$/i.exec(header) : null;
  return match?.[1];
}

async function accessPlugin(app: FastifyInstance): Promise<void> {
  app.decorateRequest('user', null);
  app.addHook('onRequest', async (request) => {
    const config = request.routeOptions.config;
    if (!config.access) return; // static files and the SPA fallback
    if (config.module) {
      const switches = await app.settings.switches();
      if (!isEnabled(switches, config.module, config.section)) throw fail(404, 'not_found');
    }
    if (config.access === 'public') return;
    const token = bearerToken(request);
    request.user = token ? await app.sessions.resolve(token, !config.passive) : null;
    if (!request.user) throw fail(401, 'unauthorized');
    if (config.access !== 'session' && !canAccess(request.user, config.access.path, config.access.action)) {
      throw fail(403, 'forbidden');
    }
  });
}

export default fp(accessPlugin, { name: 'access' });
