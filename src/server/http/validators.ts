import { Ajv, type ErrorObject, type Options, type ValidateFunction } from 'ajv';
import type { FastifyInstance } from 'fastify';
import { nonDecimalParam, numericParams } from './pathIds';

/**
 * JSON Schema validators by part of the request. A JSON body carries real types, so they are strict: `true`
 * is not a number and "false" is not a boolean (a silent coercion once stored 1 for a checkbox sent as a
 * number field). Query strings, path parameters and headers are text by nature: there "15" is read as 15.
 */
export function installValidators(app: FastifyInstance): void {
  const common: Options = { useDefaults: true, removeAdditional: false, allErrors: false, addUsedSchema: false };
  const strict = new Ajv({ ...common, coerceTypes: false });
  const textual = new Ajv({ ...common, coerceTypes: 'array' });
  app.setValidatorCompiler(({ schema, httpPart }) => {
    if (httpPart === 'body') return strict.compile(schema);
    const validate = textual.compile(schema);
    return httpPart === 'params' ? decimalPathNumbers(validate, numericParams(schema)) : validate;
  });
}

/** A path's numbers are plain decimal digits before the validator reads them ("0x10" and "1e3" are refused). */
function decimalPathNumbers(validate: ValidateFunction, names: string[]) {
  if (!names.length) return validate;
  const check = (params: unknown): boolean => {
    const bad = nonDecimalParam(params, names);
    if (bad !== undefined) {
      const error: ErrorObject = {
        instancePath: `/${bad}`,
        schemaPath: '#/pattern',
        keyword: 'pattern',
        params: {},
        message: 'must be a decimal integer',
      };
      check.errors = [error];
      return false;
    }
    const valid = validate(params);
    check.errors = validate.errors;
    return valid;
  };
  check.errors = null as ErrorObject[] | null | undefined;
  return check;
}
