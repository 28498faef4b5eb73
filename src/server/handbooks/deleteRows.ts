import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { HandbookSchema } from '../../shared/handbooks/types';
import type { Row } from '../../shared/handbooks/validation';
import { fail } from '../http/errors';
import { translateDbError } from './dbErrors';
import { keyType, keyValue } from './keys';
import { selectList } from './listQuery';
import { col, tableSql } from './sqlNames';

/** Most rows one delete request may name (react-admin's bulk delete sends a page at most). */
export const DELETE_MAX = 1000;

/**
 * Deletes rows by key in one transaction, journaling each deleted row. A row still referenced elsewhere
 * refuses the whole request with the referencing handbook's name (reference_in_use).
 */
export async function deleteRows(app: FastifyInstance, request: FastifyRequest, schema: HandbookSchema, rawIds: unknown[]): Promise<Row[]> {
  if (rawIds.length > DELETE_MAX) throw fail(400, 'bad_request', `at most ${DELETE_MAX} ids`);
  const ids = [...new Set(rawIds.map((raw) => keyValue(schema, raw)))];
  if (!ids.length) return [];
  const key = col('t', schema.primaryKey);
  try {
    return await app.db.transaction(async (tx) => {
      const before = await tx.query<Row>(
        `select ${selectList(schema, 't')} from ${tableSql(schema)} t where ${key} = any($1::${keyType(schema)}[])`,
        [ids],
      );
      await tx.query(`delete from ${tableSql(schema)} t where ${key} = any($1::${keyType(schema)}[])`, [ids]);
      for (const row of before) {
        await app.journal.record(
          request,
          { action: 'handbook.delete', object: schema.type, objectId: String(row[schema.primaryKey]), before: row },
          tx,
        );
      }
      return before;
    });
  } catch (error) {
    return translateDbError(error, schema);
  }
}
