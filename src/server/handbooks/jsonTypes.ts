import { columnsOf, type Column } from '../../shared/handbooks/fields';
import type { HandbookSchema } from '../../shared/handbooks/types';
import { MSG } from '../../shared/handbooks/messages';
import { rulesOf, type FieldErrors, type Row } from '../../shared/handbooks/validation';

type JsonType = 'number' | 'string' | 'boolean';

/**
 * The JSON types a column takes in a handbook body. A CSV cell is text by nature and the import converts it;
 * a JSON body carries real types, so "12" for a number or 123 for a text is the client's mistake, refused
 * rather than read as something it may not mean. Times may come as minutes or as "hh:mm", int8 values as
 * digits (beyond a JavaScript number) or as a number.
 */
function acceptedTypes(column: Column): { types: JsonType[]; message: string } {
  if (column.role !== 'value') return { types: ['number'], message: MSG.number };
  const { field } = column;
  switch (field.kind) {
    case 'int':
    case 'port':
      return { types: ['number'], message: MSG.integer };
    case 'number':
      return { types: ['number'], message: MSG.number };
    case 'bigint':
      return { types: ['number', 'string'], message: MSG.bigint };
    case 'minutes':
      return { types: ['number', 'string'], message: MSG.time };
    case 'boolean':
      return { types: ['boolean'], message: MSG.boolean };
    case 'list':
    case 'ref':
      return field.valueType === 'int' ? { types: ['number'], message: MSG.integer } : { types: ['string'], message: MSG.text };
    default:
      return { types: ['string'], message: MSG.text };
  }
}

/**
 * Each column a save reads (the writable ones and the key) whose JSON value is of a type the column does not
 * take, with the message. Blank ('' or null) is no value; columns a save ignores (read-only ones a form sends
 * back) are not looked at.
 */
export function jsonTypeErrors(schema: HandbookSchema, row: Row): FieldErrors {
  const errors: FieldErrors = {};
  const read = new Set([schema.primaryKey, ...rulesOf(schema).map((rule) => rule.column.name)]);
  for (const column of columnsOf(schema).filter((item) => read.has(item.name))) {
    const value = row[column.name];
    if (value === undefined || value === null || value === '') continue;
    const { types, message } = acceptedTypes(column);
    if (!(types as string[]).includes(typeof value)) errors[column.name] = message;
  }
  return errors;
}
