import { isAutoKey } from '../../shared/handbooks/fields';
import type { Field, HandbookSchema } from '../../shared/handbooks/types';
import { validateWithYup, type FieldErrors, type Row } from '../../shared/handbooks/validation';

/** The trip stops editor: edited beside the trip's form, through its own calls, never a column. */
export const isTripStops = (field: Field): boolean => field.kind === 'widget' && field.widget === 'tripStops';

/** A handbook whose records have stops (trips): they open on their page after creation. */
export const hasTripStops = (schema: HandbookSchema): boolean => schema.fields.some(isTripStops);

/** Where a field stands in the create or edit form. */
export type FormPlace = 'input' | 'locked' | 'absent';

/**
 * Generated keys are absent from a new record and shown locked in an existing one; a hand-entered key is
 * typed once and locked afterwards; server-stamped and read-only fields are locked; trip stops are edited
 * beside the form.
 */
export function formPlace(schema: HandbookSchema, field: Field, creating: boolean): FormPlace {
  if (isTripStops(field)) return 'absent';
  if (isAutoKey(field)) return creating ? 'absent' : 'locked';
  if (field.name === schema.primaryKey) return creating ? 'input' : 'locked';
  if (field.readOnly || (field.kind === 'datetime' && field.setOnSave)) return creating ? 'absent' : 'locked';
  return 'input';
}

/** A new record's values: the schema's defaults (colours #000000, 'disable auto-update' on...). */
export function defaultRecord(schema: HandbookSchema): Row {
  const row: Row = {};
  for (const field of schema.fields) {
    if ('default' in field && field.default !== undefined) row[field.name] = field.default;
  }
  return row;
}

/** The form's validation: the same rules the server applies on save (section 5), by column. */
export async function validateHandbookForm(schema: HandbookSchema, values: Row): Promise<FieldErrors> {
  return (await validateWithYup(schema, values)).errors;
}
