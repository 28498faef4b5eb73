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
function acceptedTypes(column: Column): JsonType[] {
  if (column.role !== 'value') return ['number'];
  const { field } = column;
  switch (field.kind) {
    case 'int':
    case 'port':
    case 'number':
      return ['number'];
    case 'bigint':
    case 'minutes':
      return ['number', 'string'];
    case 'boolean':
      return ['boolean'];
    case 'list':
    case 'ref':
      return [field.valueType === 'int' ? 'number' : 'string'];
    default:
      return ['string'];
  }
}

const MESSAGE_OF: Record<JsonType, string> = { number: MSG.number, string: MSG.text, boolean: MSG.boolean };

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
    const accepted = acceptedTypes(column);
    const type = typeof value;
    if (!(accepted as string[]).includes(type)) errors[column.name] = MESSAGE_OF[accepted[0]];
  }
  return errors;
}
