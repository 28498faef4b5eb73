import type { FastifyError, FastifyInstance } from 'fastify';
import type { ErrorCode } from '../../shared/errors';
import { isDatabaseUnavailable } from '../db/availability';
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
 * PostgreSQL's data exceptions (SQLSTATE class 22: a value out of range, text that is not a number or a
 * date, a NUL character) are what bad input looks like once it reached a query. Every route checks its
 * input first; this is the net under those checks, answering 400 instead of 500 (the statement failed,
 * so nothing was written by it, and a transaction around it was rolled back).
 */
function isDataException(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && /^22[0-9A-Z]{3}$/.test(code);
}

/**
 * Every error leaves as `{ messages: [...] }`: catalogue codes for known failures, schema validation as
 * bad_request plus the field at fault, the database out of reach as a retryable 503, anything unexpected as
 * internal_error, never a stack trace or SQL.
 */
export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | ApiError, request, reply) => {
    // JSON whatever the route had set before it failed (an export stream failing before its first byte)
    reply.removeHeader('content-disposition').type('application/json; charset=utf-8');
    if (error instanceof ApiError) {
      return reply.status(error.status).headers(error.headers).send({ messages: error.messages });
    }
    if (error.validation) {
      if (error.validation.some((v) => v.keyword === 'maxLength' || v.keyword === 'maxItems' || v.keyword === 'maxProperties')) {
        return reply.status(400).send({ messages: ['too_long', error.validation[0].instancePath.replace(/^\//, '')] });
      }
      const details = error.validation.map((v) =>
        `${v.instancePath.replace(/^\//, '') || v.params?.missingProperty || ''} ${v.message ?? ''}`.trim(),
      );
      return reply.status(400).send({ messages: ['bad_request', ...details] });
    }
    if (isDatabaseUnavailable(error)) {
      // PostgreSQL restarting or unreachable: the request changed nothing (its transaction, if any, is rolled
      // back) and may be retried in a few seconds.
      request.log.warn({ err: error }, 'database unavailable: request refused');
      return reply
        .status(503)
        .header('retry-after', '5')
        .send({ messages: ['database_unavailable'] });
    }
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return reply.status(413).send({ messages: ['payload_too_large'] });
    if (isDataException(error)) {
      request.log.warn({ err: error }, 'bad input reached the database');
      return reply.status(400).send({ messages: ['bad_request'] });
    }
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
