import type { FastifyError, FastifyInstance } from 'fastify';
import type { ErrorCode } from '../../shared/errors';
import { QUERY_CANCELED } from '../db/types';

/** An error the client may read: HTTP status and message codes of the error catalogue. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly messages: string[],
    readonly headers: Record<string, string> = {},
  ) {
    super(messages.join(', '));
  }
}

export const fail = (status: number, ...codes: (ErrorCode | string)[]): ApiError => new ApiError(status, codes);

/**
 * Every error leaves as `{ messages: [...] }`: catalogue codes for known failures, schema validation as
 * bad_request plus the field at fault, anything unexpected as internal_error, never a stack trace or SQL.
 */
export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | ApiError, request, reply) => {
    if (error instanceof ApiError) {
      return reply.status(error.status).headers(error.headers).send({ messages: error.messages });
    }
    if (error.validation) {
      const details = error.validation.map((v) => `${v.instancePath.replace(/^\//, '') || v.params?.missingProperty || ''} ${v.message ?? ''}`.trim());
      return reply.status(400).send({ messages: ['bad_request', ...details] });
    }
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return reply.status(413).send({ messages: ['payload_too_large'] });
    // A query stopped by its time limit (statement_timeout, or the embedded engine's restart): the work was
    // cancelled and may be retried, so 503 as for an overloaded service.
    if (error.code === QUERY_CANCELED) {
      request.log.warn({ url: request.url }, 'query time limit reached');
      return reply.status(503).send({ messages: ['query_timeout'] });
    }
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      return reply.status(error.statusCode).send({ messages: [error.statusCode === 404 ? 'not_found' : 'bad_request'] });
    }
    request.log.error({ err: error }, 'request failed');
    return reply.status(500).send({ messages: ['internal_error'] });
  });
}
