import type { FastifySchemaValidationError } from 'fastify';
import { fail, type ApiError } from '../http/errors';

/**
 * A refused settings body names the field at fault with its dotted path (video.archiveDays), including an
 * unknown field, which the generic handler would leave unnamed: `bad_request`, then "<field> <rule>".
 */
export function settingsValidationError(errors: FastifySchemaValidationError[]): ApiError {
  const [first] = errors;
  const path = (first?.instancePath ?? '').split('/').filter(Boolean).join('.');
  const params = first?.params ?? {};
  const child = params.additionalProperty ?? params.missingProperty;
  const field = [path, typeof child === 'string' ? child : ''].filter(Boolean).join('.');
  return fail(400, 'bad_request', `${field || 'body'} ${first?.message ?? 'is invalid'}`.trim());
}
