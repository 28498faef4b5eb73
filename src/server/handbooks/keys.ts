import { columnByName } from '../../shared/handbooks/fields';
import type { HandbookSchema } from '../../shared/handbooks/types';
import { columnRule } from '../../shared/handbooks/validation';
import { fail } from '../http/errors';
import { sqlTypeOf } from './sqlNames';

/** A primary key value from a request, normalised to its column type; 400 when it cannot be one. */
export function keyValue(schema: HandbookSchema, raw: unknown): number | string {
  const column = columnByName(schema, schema.primaryKey)!;
  const rule = columnRule({ ...column, field: { ...column.field, required: true } });
  const value = rule.normalize(raw);
  if (rule.check(value) || (typeof value !== 'number' && typeof value !== 'string')) {
    throw fail(400, 'bad_request', `${schema.primaryKey}: bad key`);
  }
  return value;
}

export const keyType = (schema: HandbookSchema): string => sqlTypeOf(columnByName(schema, schema.primaryKey)!);

export const isBlankKey = (raw: unknown): boolean => raw === undefined || raw === null || raw === '';
