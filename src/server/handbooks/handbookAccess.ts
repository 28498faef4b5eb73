import type { FastifyInstance } from 'fastify';
import { isEnabled } from '../../shared/modules';
import { handbookSchema, handbookSection } from '../../../schemas/index';
import type { HandbookSchema } from '../../shared/handbooks/types';
import { fail } from '../http/errors';

/**
 * The handbook a /api/table request names, once the route's declared permission on it was checked
 * (http/access.ts, `/handbooks/table/:type`): an unknown or switched-off handbook is absent (404).
 */
export async function requireHandbook(app: FastifyInstance, type: unknown): Promise<HandbookSchema> {
  const schema = handbookSchema(type);
  if (!schema) throw fail(404, 'not_found');
  const switches = await app.settings.switches();
  if (!isEnabled(switches, 'handbooks', handbookSection(schema.type))) throw fail(404, 'not_found');
  return schema;
}
