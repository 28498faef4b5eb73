import { HANDBOOK_TYPES, HANDBOOKS } from '../../../schemas/index';
import { columnByName } from '../../shared/handbooks/fields';
import type { HandbookSchema } from '../../shared/handbooks/types';
import { MSG, referencedByMessage } from '../../shared/handbooks/messages';
import { FieldsError } from './errorReplies';

/** What the database says when a write breaks a constraint (both engines expose these fields). */
interface PgError {
  code?: string;
  detail?: string;
  constraint?: string;
  column?: string;
}

function asPgError(error: unknown): PgError | undefined {
  return typeof error === 'object' && error !== null && typeof (error as PgError).code === 'string' ? (error as PgError) : undefined;
}

/** Columns named in "Key (a, b)=(..)" of a constraint's detail. */
function keyColumns(detail: string | undefined): string[] {
  const match = /Key \(([^)]+)\)=/.exec(detail ?? '');
  return match ? match[1].split(',').map((name) => name.trim().replace(/^"|"$/g, '')) : [];
}

function titleOfTable(table: string): string {
  return HANDBOOK_TYPES.map((type) => HANDBOOKS[type]).find((handbook) => handbook.table.name === table)?.title ?? table;
}

/** "referenced from table "driver"" names the other table; its schema is not in the message. */
function referencingTable(detail: string | undefined): string | undefined {
  return /referenced from table "([^"]+)"/.exec(detail ?? '')?.[1];
}

/**
 * A constraint violation as a 400 the user can act on (never SQL text): the message code of the catalogue
 * and, where the column is known, that field's message. Anything else is rethrown (500 internal_error).
 */
export function translateDbError(error: unknown, schema: HandbookSchema): never {
  const pg = asPgError(error);
  if (!pg?.code) throw error;
  const errors: Record<string, string> = {};
  const mark = (names: string[], message: string) => {
    for (const name of names) if (columnByName(schema, name)) errors[name] = message;
  };
  switch (pg.code) {
    case '23503': {
      const other = referencingTable(pg.detail);
      // Deleting (or re-keying) a row another table still points to.
      if (other) throw withErrors(['reference_in_use'], { [schema.primaryKey]: referencedByMessage(titleOfTable(other)) });
      mark(keyColumns(pg.detail), MSG.referenceNotFound);
      throw withErrors(['reference_not_found'], errors);
    }
    case '23505':
      mark(keyColumns(pg.detail), MSG.duplicate);
      throw withErrors(['duplicate_row'], errors);
    case '23502':
      if (pg.column) mark([pg.column], MSG.required);
      throw withErrors(['validation_failed'], errors);
    case '23514': {
      const names = (schema.fields.map((field) => field.name) as string[]).filter((name) => pg.constraint?.includes(name));
      mark(names, MSG.outOfRange);
      throw withErrors(['check_violation'], errors);
    }
    case '22003':
      throw withErrors(['check_violation'], errors);
    case 'XX000':
    case '22023':
    case '22P02':
      if (/geometry|parse error/i.test(String((error as Error).message))) {
        for (const field of schema.fields) if (field.kind === 'polygon' || field.kind === 'line') errors[field.name] = MSG.badGeometry;
        throw withErrors(['validation_failed'], errors);
      }
      throw error;
    default:
      throw error;
  }
}

export function withErrors(messages: string[], errors: Record<string, string>): FieldsError {
  return new FieldsError(messages, errors);
}
