import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { HandbookSchema } from '../../shared/handbooks/types';
import { isAutoKey, primaryKeyField } from '../../shared/handbooks/fields';
import { rulesOf, validateWithYup, type Row } from '../../shared/handbooks/validation';
import { canAccess } from '../../shared/permissions';
import { handbookPermissionPath } from '../../../schemas/index';
import type { Queryable } from '../db/types';
import { fail } from '../http/errors';
import { translateDbError } from './dbErrors';
import { FieldsError } from './errorReplies';
import { jsonTypeErrors } from './jsonTypes';
import { isBlankKey, keyValue } from './keys';
import { readRow } from './listQuery';
import { missingRefs } from './refChecks';
import { Params, quoteIdent, tableSql, valueExpr } from './sqlNames';
import { saveWidgets } from './widgets';

/** Server-set columns: stamped on every save (vehicles.update_date). */
function stampedColumns(schema: HandbookSchema): string[] {
  return schema.fields.filter((field) => field.kind === 'datetime' && field.setOnSave).map((field) => field.name);
}

/** Inserts a validated row; returns its key. Used by save and by tests preparing linked rows. */
export async function insertRow(tx: Queryable, schema: HandbookSchema, value: Row): Promise<number | string> {
  const params = new Params();
  const names: string[] = [];
  const values: string[] = [];
  for (const rule of rulesOf(schema)) {
    if (!(rule.column.name in value)) continue;
    names.push(quoteIdent(rule.column.name));
    values.push(valueExpr(rule.column, params.add(value[rule.column.name])));
  }
  for (const name of stampedColumns(schema)) {
    names.push(quoteIdent(name));
    values.push('now()');
  }
  const sql = names.length
    ? `insert into ${tableSql(schema)} (${names.join(', ')}) values (${values.join(', ')})`
    : `insert into ${tableSql(schema)} default values`;
  const [row] = await tx.query<{ id: number | string }>(`${sql} returning ${quoteIdent(schema.primaryKey)} as id`, params.values);
  return row.id;
}

async function updateRow(tx: Queryable, schema: HandbookSchema, id: unknown, value: Row): Promise<void> {
  const params = new Params();
  const sets: string[] = [];
  for (const rule of rulesOf(schema)) {
    if (rule.column.name === schema.primaryKey || !(rule.column.name in value)) continue;
    sets.push(`${quoteIdent(rule.column.name)} = ${valueExpr(rule.column, params.add(value[rule.column.name]))}`);
  }
  for (const name of stampedColumns(schema)) sets.push(`${quoteIdent(name)} = now()`);
  if (!sets.length) return;
  await tx.query(
    `update ${tableSql(schema)} set ${sets.join(', ')} where ${quoteIdent(schema.primaryKey)} = ${params.add(id)}`,
    params.values,
  );
}

/**
 * POST /api/table/element/save: insert when the row has no key (or a hand-entered key not yet used),
 * update when it names an existing row. An update merges the stored row with the input, so a client may
 * send only what changed. Validated by the handbook's yup schema; constraint violations come back as field
 * messages; the write and its journal entry (before/after) commit together.
 */
export async function saveRow(app: FastifyInstance, request: FastifyRequest, schema: HandbookSchema, input: Row): Promise<Row> {
  const mistyped = jsonTypeErrors(schema, input);
  if (Object.keys(mistyped).length) throw new FieldsError(['validation_failed'], mistyped);
  const rawId = input[schema.primaryKey];
  const id = isBlankKey(rawId) ? undefined : keyValue(schema, rawId);
  const before = id === undefined ? undefined : await readRow(app.db, schema, id);
  if (id !== undefined && !before && isAutoKey(primaryKeyField(schema))) throw fail(404, 'not_found');
  const action = before ? 'update' : 'create';
  if (!canAccess(request.user, handbookPermissionPath(schema.type), action)) throw fail(403, 'forbidden');

  const merged: Row = before ? { ...before, ...input } : { ...input };
  const { value, errors } = await validateWithYup(schema, merged);
  if (Object.keys(errors).length) throw new FieldsError(['validation_failed'], errors);
  // Links are checked here too, not only by foreign keys: the big tables have none (refChecks.ts).
  const missing = await missingRefs(app.db, schema, value);
  if (Object.keys(missing).length) throw new FieldsError(['reference_not_found'], missing);

  try {
    return await app.db.transaction(async (tx) => {
      let key: number | string;
      if (before) {
        key = id!;
        await updateRow(tx, schema, key, value);
      } else {
        key = await insertRow(tx, schema, value);
      }
      await saveWidgets(tx, schema, key, input);
      const after = (await readRow(tx, schema, key))!;
      await app.journal.record(request, { action: `handbook.${action}`, object: schema.type, objectId: key, before, after }, tx);
      return after;
    });
  } catch (error) {
    if (error instanceof FieldsError) throw error;
    return translateDbError(error, schema);
  }
}
