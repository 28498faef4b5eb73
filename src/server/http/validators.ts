import { Ajv, type Options } from 'ajv';
import type { FastifyInstance } from 'fastify';

/**
 * JSON Schema validators by part of the request. A JSON body carries real types, so they are strict: `true`
 * is not a number and "false" is not a boolean (a silent coercion once stored 1 for a checkbox sent as a
 * number field). Query strings, path parameters and headers are text by nature: there "15" is read as 15.
 */
export function installValidators(app: FastifyInstance): void {
  const common: Options = { useDefaults: true, removeAdditional: false, allErrors: false, addUsedSchema: false };
  const strict = new Ajv({ ...common, coerceTypes: false });
  const textual = new Ajv({ ...common, coerceTypes: 'array' });
  app.setValidatorCompiler(({ schema, httpPart }) => (httpPart === 'body' ? strict : textual).compile(schema));
}
