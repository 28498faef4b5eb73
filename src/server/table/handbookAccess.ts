import type { FastifyInstance, FastifyRequest } from 'fastify';
import { canAccess, type Action } from '../../shared/permissions';
import { isEnabled } from '../../shared/modules';
import { handbookPermissionPath, handbookSchema, handbookSection } from '../../shared/handbooks/registry';
import type { HandbookSchema } from '../../shared/handbooks/types';
import { fail } from '../http/errors';

/**
 * The per-handbook checks every /api/table route makes after the route-level 'session' check, since the
 * handbook is named in the body: an unknown or switched-off handbook is absent (404 not_found), and the
 * user needs the action's bit on '/handbooks/table/<type>' (403 forbidden). Several actions: all needed.
 */
export async function requireHandbook(
  app: FastifyInstance,
  request: FastifyRequest,
  type: unknown,
  ...actions: Action[]
): Promise<HandbookSchema> {
  const schema = handbookSchema(type);
  if (!schema) throw fail(404, 'not_found');
  const switches = await app.settings.switches();
  if (!isEnabled(switches, 'handbooks', handbookSection(schema.type))) throw fail(404, 'not_found');
  for (const action of actions) {
    if (!canAccess(request.user, handbookPermissionPath(schema.type), action)) throw fail(403, 'forbidden');
  }
  return schema;
}
