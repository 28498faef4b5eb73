import { Stream } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { fail } from './errors';

/** Nesting beyond which a request is not walked further (no route takes anything near this deep). */
const DEPTH_MAX = 32;

/** True when a string anywhere in the value (keys included) holds a NUL character. */
function holdsNul(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (typeof value !== 'object' || value === null || depth > DEPTH_MAX) return false;
  if (Array.isArray(value)) return value.some((item) => holdsNul(item, depth + 1));
  // A streamed body (text/csv) or raw bytes are read by their route.
  if (value instanceof Stream || ArrayBuffer.isView(value)) return false;
  for (const [key, item] of Object.entries(value)) if (key.includes('\u0000') || holdsNul(item, depth + 1)) return true;
  return false;
}

/**
 * PostgreSQL text cannot hold a NUL character: a JSON string carrying one (`\u0000`) would fail deep in a
 * query. Every request's parsed body, query string and path parameters are checked before validation,
 * and such a request is refused as a whole with invalid_characters.
 */
export function installInputGuard(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    if (holdsNul(request.body) || holdsNul(request.query) || holdsNul(request.params)) throw fail(400, 'invalid_characters');
  });
}
