import { Stream } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { fail } from './errors';

/** Nesting beyond which a request is not walked further (no route takes anything near this deep). */
const DEPTH_MAX = 32;

/** A NUL character, or half of a UTF-16 surrogate pair without the other half (the `u` flag pairs whole ones). */
const UNSTORABLE = /\u0000|\p{Cs}/u;

/** True when a string anywhere in the value (keys included) holds an unstorable character. */
function holdsUnstorable(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return UNSTORABLE.test(value);
  if (typeof value !== 'object' || value === null || depth > DEPTH_MAX) return false;
  if (Array.isArray(value)) return value.some((item) => holdsUnstorable(item, depth + 1));
  // A streamed body (text/csv) or raw bytes are read by their route.
  if (value instanceof Stream || ArrayBuffer.isView(value)) return false;
  for (const [key, item] of Object.entries(value)) if (UNSTORABLE.test(key) || holdsUnstorable(item, depth + 1)) return true;
  return false;
}

/**
 * Text PostgreSQL cannot keep as sent: a NUL character (`\u0000`) fails deep in a query; a lone surrogate
 * (`\ud800`, valid in JSON text, no character at all) is stored as U+FFFD by the driver's UTF-8 and refused by
 * jsonb, where the write's journal entry would go. Every request's parsed body, query string and path
 * parameters are checked before validation, and such a request is refused as a whole with invalid_characters.
 */
export function installInputGuard(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    if (holdsUnstorable(request.body) || holdsUnstorable(request.query) || holdsUnstorable(request.params))
      throw fail(400, 'invalid_characters');
  });
}
