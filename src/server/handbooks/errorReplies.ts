import type { FastifyInstance } from 'fastify';
import { ApiError } from '../http/errors';
import type { ImportRowError } from '../../shared/handbooks/api';

/** A refused save: message codes plus each field's Russian message (the form shows them under inputs). */
export class FieldsError extends ApiError {
  constructor(
    messages: string[],
    readonly errors: Record<string, string>,
  ) {
    super(400, messages);
  }
}

/** A refused import: nothing was written; the first errors by file row, and how many more there were. */
export class ImportFailedError extends ApiError {
  constructor(
    readonly errors: ImportRowError[],
    readonly moreErrors: number,
  ) {
    super(400, ['import_failed']);
  }
}

/**
 * The shared handler sends `{ messages }` only; handbook refusals carry `errors` too. Set in the table
 * plugin's own context; whatever it does not know it throws on to the shared handler.
 */
export function installTableErrorReplies(app: FastifyInstance): void {
  app.setErrorHandler((error, _request, reply) => {
    if (error instanceof ImportFailedError) {
      return reply.status(400).send({ messages: error.messages, errors: error.errors, moreErrors: error.moreErrors });
    }
    if (error instanceof FieldsError) return reply.status(400).send({ messages: error.messages, errors: error.errors });
    throw error;
  });
}
