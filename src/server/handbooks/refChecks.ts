import { HANDBOOKS } from '../../../schemas/index';
import { columnsOf, type Column } from '../../shared/handbooks/fields';
import { MSG } from '../../shared/handbooks/messages';
import type { HandbookSchema, RefField } from '../../shared/handbooks/types';
import type { FieldErrors, Row } from '../../shared/handbooks/validation';
import type { Queryable } from '../db/types';
import type { ErrorList } from './importRead';
import { ROW_COLUMN, type ImportStage } from './importStage';
import { quoteIdent, sqlTypeOf, tableSql } from './sqlNames';

type RefColumn = Column & { field: RefField };

const refColumns = (columns: Column[]): RefColumn[] => columns.filter((column): column is RefColumn => column.field.kind === 'ref');

/**
 * Links are checked by the service, not only by foreign keys: the big tables (schedule times) have none
 * on purpose (import speed), and a check names the field where a constraint error could not.
 */
export async function missingRefs(db: Queryable, schema: HandbookSchema, row: Row): Promise<FieldErrors> {
  const errors: FieldErrors = {};
  for (const column of refColumns(columnsOf(schema))) {
    const value = row[column.name];
    if (value === null || value === undefined) continue;
    const target = HANDBOOKS[column.field.target];
    const found = await db.query(
      `select 1 from ${tableSql(target)} r where r.${quoteIdent(column.field.valueField)} = $1::${sqlTypeOf(column)} limit 1`,
      [value],
    );
    if (!found.length) errors[column.name] = MSG.referenceNotFound;
  }
  return errors;
}

/** The staged rows whose links point nowhere, one set-based anti-join per link column. */
export async function stagedRefErrors(db: Queryable, stage: ImportStage, errors: ErrorList, limit: number): Promise<void> {
  for (const column of refColumns(stage.columns)) {
    const target = HANDBOOKS[column.field.target];
    const rows = await db.query<{ row: number }>(
      `select s.${quoteIdent(ROW_COLUMN)} as row from ${stage.table} s
        where s.${quoteIdent(column.name)} is not null
          and not exists (select 1 from ${tableSql(target)} r where r.${quoteIdent(column.field.valueField)} = s.${quoteIdent(column.name)})
        order by 1 limit ${Math.max(1, Math.trunc(limit))}`,
    );
    for (const { row } of rows) errors.add(row, column.name, MSG.referenceNotFound);
  }
}
