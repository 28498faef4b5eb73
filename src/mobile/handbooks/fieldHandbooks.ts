import { HANDBOOKS, HANDBOOK_TYPES, handbookPermissionPath, handbookSchema } from '../../../schemas/index';
import { displayKey } from '../../shared/handbooks/fields';
import type { Field, HandbookSchema, HandbookType, RefField } from '../../shared/handbooks/types';
import type { Row } from '../../shared/handbooks/validation';
import { mayAccess } from '../../shared/routeAccess';
import type { AccessSubject } from '../../shared/permissions';
import type { Switches } from '../../shared/modules';
import { cellText } from '../../shared/handbooks/cellText';
import { DEFAULT_HANDBOOK_PAGE_SIZE } from './handbookConstants';

/**
 * The field app's handbooks (field-app spec 2.6, 3): the schemas that declare a phone page size are its index;
 * the connected look-ups (transport type, marsh type, capacity type) open through links. Everything comes
 * from the same schemas/ as the console.
 */
export const FIELD_HANDBOOK_TYPES: readonly HandbookType[] = HANDBOOK_TYPES.filter((type) => HANDBOOKS[type].mobile !== undefined);

export const pageSizeOf = (schema: HandbookSchema): number => schema.mobile?.pageSize ?? DEFAULT_HANDBOOK_PAGE_SIZE;

export const handbookListPath = (type: string): string => `/handbooks/${type}`;
export const handbookRecordPath = (type: string, id: unknown): string => `/handbooks/${type}/${encodeURIComponent(String(id))}`;

export function mayReadHandbook(user: AccessSubject | null | undefined, switches: Switches, type: HandbookType): boolean {
  return mayAccess(user, switches, handbookPermissionPath(type), 'read');
}

/** Fields shown as list columns: the console's default columns, without shapes (they show on the record). */
export function listFields(schema: HandbookSchema): Field[] {
  return schema.fields.filter(
    (field) => !field.hidden && !['polygon', 'line', 'widget'].includes(field.kind) && !(field.kind === 'text' && field.secret),
  );
}

/** Fields of the record screen: all but secrets and widgets (the route's trips have their own block). */
export function recordFields(schema: HandbookSchema): Field[] {
  return schema.fields.filter((field) => field.kind !== 'widget' && !(field.kind === 'text' && field.secret));
}

/** A field's filter checklist lists one column's values; points and shapes have none. */
export const isFilterable = (field: Field): boolean => !['point', 'polygon', 'line', 'widget'].includes(field.kind);

/** The sort key of a column: a link sorts by its shown text. */
export const sortKeyOf = (field: Field): string =>
  field.kind === 'ref' ? displayKey(field.name) : field.kind === 'point' ? field.lat : field.name;

/** Where a link leads: the target record, when the link holds its key and the user may read it. */
export function linkTarget(field: RefField, row: Row, user: AccessSubject | null | undefined, switches: Switches): string | undefined {
  const value = row[field.name];
  const target = handbookSchema(field.target);
  if (value === null || value === undefined || !target || target.primaryKey !== field.valueField) return undefined;
  return mayReadHandbook(user, switches, field.target) ? handbookRecordPath(field.target, value) : undefined;
}

/** The text of a value (a cell, a checklist line); '' when empty. */
export function valueText(field: Field, row: Row, words: { yes: string; no: string }): string {
  if (field.kind === 'boolean') {
    const value = row[field.name];
    return value === true ? words.yes : value === false ? words.no : '';
  }
  if (field.kind === 'color') return String(row[field.name] ?? '');
  return cellText(field, row);
}

/** The record's key in its row. */
export const recordId = (schema: HandbookSchema, row: Row): unknown => row[schema.primaryKey];
