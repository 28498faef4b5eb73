import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { canAccess, type Action } from '../../shared/permissions';
import { isEnabled, type ModuleId } from '../../shared/modules';
import { HEADERS } from '../../shared/constants';
import { fail } from './errors';
import type { SessionUser } from '../auth/sessions';

/** A permission a route needs: the actions on a path (all of them, or any one with `any`). */
export interface Permission {
  path: string;
  action: Action | readonly Action[];
  any?: boolean;
}

/**
 * Alternatives, any one of which lets the request through, each counted only while its own section (of the
 * route's module) is on; with every section off the route is not found. E.g. the camera widget: create on
 * the camera handbook, or update on the recorder handbook.
 */
export interface AnyOfPermissions {
  anyOf: readonly (Permission & { section: string })[];
}

/**
 * What a route needs, declared in its `config`: 'public' (no session), 'session' (any logged-in user), or a
 * permission checked by the shared canAccess. `module`/`section` make the route vanish (404) while that
 * module or section is switched off. `passive` requests (background polling) do not count as user
 * activity for the idle timeout.
 *
 * A path and section may name what the request names, as `:param` (`/handbooks/table/:type` for the
 * handbook routes, whose handbook travels in the body): `accessParam` reads it from the request once the
 * body is parsed (before validation), or throws the route's own error when the request names none.
 */
export interface RouteAccess {
  access: 'public' | 'session' | Permission | AnyOfPermissions;
  accessParam?: (request: FastifyRequest) => string;
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

const PARAM = /:\w+/g;
const isTemplate = (text: string | undefined): boolean => text !== undefined && text.includes(':');

/** The actions of a permission as a list. */
export const actionsOf = (permission: Permission): readonly Action[] => [permission.action].flat();

/** The route's single permission, or undefined for public, session and any-of routes. */
export const singlePermission = (access: RouteAccess['access']): Permission | undefined =>
  typeof access === 'object' && !('anyOf' in access) ? access : undefined;

function permits(user: SessionUser, permission: Permission, path: string): boolean {
  const held = actionsOf(permission).map((action) => canAccess(user, path, action));
  return permission.any ? held.some(Boolean) : held.every(Boolean);
}

async function accessPlugin(app: FastifyInstance): Promise<void> {
  app.decorateRequest('user', null);
  const switchedOff = async (module: ModuleId, section: string | undefined) => !isEnabled(await app.settings.switches(), module, section);

  app.addHook('onRequest', async (request) => {
    const config = request.routeOptions.config;
    if (!config.access) return; // static files and the SPA fallback
    if (config.module && (await switchedOff(config.module, isTemplate(config.section) ? undefined : config.section)))
      throw fail(404, 'not_found');
    if (config.access === 'public') return;
    const token = bearerToken(request);
    request.user = token ? await app.sessions.resolve(token, !config.passive) : null;
    if (!request.user) throw fail(401, 'unauthorized');
    if (typeof config.access === 'object' && 'anyOf' in config.access) {
      const switches = await app.settings.switches();
      const open = config.access.anyOf.filter((permission) => isEnabled(switches, config.module!, permission.section));
      if (!open.length) throw fail(404, 'not_found');
      if (!open.some((permission) => permits(request.user!, permission, permission.path))) throw fail(403, 'forbidden');
      return;
    }
    const permission = singlePermission(config.access);
    if (permission && !isTemplate(permission.path) && !permits(request.user, permission, permission.path)) throw fail(403, 'forbidden');
  });

  // API answers carry tokens (login, stream links) and personal data: no browser or proxy keeps a copy,
  // unless the route chose its own caching (tiles, timetables, photos).
  app.addHook('onSend', async (request, reply) => {
    if (request.routeOptions.config.access && !reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
  });

  // Paths naming what the request names are checked once the body is read.
  app.addHook('preValidation', async (request) => {
    const config = request.routeOptions.config;
    const permission = config.access && singlePermission(config.access);
    if (!permission || !isTemplate(permission.path)) return;
    const value = config.accessParam!(request);
    if (config.module && isTemplate(config.section) && (await switchedOff(config.module, config.section!.replace(PARAM, value))))
      throw fail(404, 'not_found');
    if (!permits(request.user!, permission, permission.path.replace(PARAM, value))) throw fail(403, 'forbidden');
  });
}

export default fp(accessPlugin, { name: 'access' });
