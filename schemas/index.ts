import { HANDBOOK_SECTIONS_OFF, HANDBOOK_SECTIONS_ON, type HandbookType } from '../src/shared/modules';
import type { HandbookSchema } from '../src/shared/handbooks/types';
import { SCHEMA_FILES } from './registry';

/**
 * Every handbook definition by its type key: each file of schemas/ but common.ts, by its name
 * (schemas/registry.ts, written from the folder). Server and both front ends import this; the server builds
 * SQL only from names found here.
 */
export const HANDBOOKS: Readonly<Record<HandbookType, HandbookSchema>> = SCHEMA_FILES;

/** Menu order (each schema file's `section.menuOrder`). */
export const HANDBOOK_TYPES: readonly HandbookType[] = [...HANDBOOK_SECTIONS_ON, ...HANDBOOK_SECTIONS_OFF];

export function isHandbookType(value: unknown): value is HandbookType {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(HANDBOOKS, value);
}

export function handbookSchema(type: unknown): HandbookSchema | undefined {
  return isHandbookType(type) ? HANDBOOKS[type] : undefined;
}

/** The handbook stored in schema.table (the field app's generic query names tables, not types). */
export function handbookByTable(schemaName: string, tableName: string): HandbookSchema | undefined {
  return HANDBOOK_TYPES.map((type) => HANDBOOKS[type]).find(
    (handbook) => handbook.table.schema === schemaName && handbook.table.name === tableName,
  );
}

/** Section id of a handbook's switch. */
export const handbookSection = (type: HandbookType): string => `handbooks.${type}`;

/** Permission path of a handbook (src/shared/permissions.ts HANDBOOKS_PREFIX). */
export const handbookPermissionPath = (type: HandbookType): string => `/handbooks/table/${type}`;
