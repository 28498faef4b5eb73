/**
 * Numeric ids in paths: decimal digits only. Path parameters are text, and the validators read "15" as 15;
 * without this they would also read "0x10" as 16 and "1e3" as 1000 (JavaScript's own number syntax), so a
 * typo or a probe would act on another row than the one the address seems to name.
 */

/** The id of a row (int4 key) in a path. */
export const PATH_ID = { type: 'integer', minimum: 1, maximum: 2_147_483_647 } as const;
/** Path parameters of a route with one id, `/:id`. */
export const idParams = { type: 'object', required: ['id'], properties: { id: PATH_ID } } as const;

const DECIMAL = /^-?[0-9]+$/;
type ParamsSchema = { properties?: Record<string, { type?: string | string[] }> };

/** The path parameters a schema declares as numbers. */
export function numericParams(schema: unknown): string[] {
  const properties = (schema as ParamsSchema | undefined)?.properties ?? {};
  return Object.entries(properties)
    .filter(([, property]) => [property.type ?? []].flat().some((type) => type === 'integer' || type === 'number'))
    .map(([name]) => name);
}

/** The first of `names` whose text in the request's path parameters is not a decimal integer. */
export function nonDecimalParam(params: unknown, names: string[]): string | undefined {
  if (typeof params !== 'object' || params === null) return undefined;
  const values = params as Record<string, unknown>;
  return names.find((name) => typeof values[name] === 'string' && !DECIMAL.test(values[name] as string));
}
