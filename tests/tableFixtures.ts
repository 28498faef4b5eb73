import { HANDBOOKS } from '../schemas/index';
import { exampleRow } from '../src/shared/handbooks/csv';
import { columnsOf, type Column } from '../src/shared/handbooks/fields';
import type { HandbookSchema, RefField } from '../src/shared/handbooks/types';
import { validateRow, type Row } from '../src/shared/handbooks/validation';
import { insertRow } from '../src/server/handbooks/saveRow';
import { quoteIdent, tableSql } from '../src/server/handbooks/sqlNames';
import type { Queryable } from '../src/server/db/types';
import type { TestApp } from './helpers/testApp';

/**
 * Test data for handbook tests built from the schemas themselves: a handbook's example row, with every
 * link pointing at a row that exists (the test data's small ids when the demo data has them, otherwise a
 * row created from the linked handbook's own example, recursively). Linked rows are written straight to
 * the database so that switched-off handbooks (departments...) can be linked too.
 */
type RefColumn = Column & { field: RefField };

export async function valueExists(db: Queryable, field: RefField, value: unknown): Promise<boolean> {
  const target = HANDBOOKS[field.target];
  const rows = await db.query(`select 1 from ${tableSql(target)} where ${quoteIdent(field.valueField)}::text = $1::text limit 1`, [
    String(value),
  ]);
  return rows.length > 0;
}

/** The example row of a handbook with links that resolve. */
export async function preparedExample(db: Queryable, schema: HandbookSchema, depth = 0): Promise<Row> {
  const row = exampleRow(schema);
  for (const column of columnsOf(schema).filter((c): c is RefColumn => c.field.kind === 'ref')) {
    const value = row[column.name];
    if (value === null || value === undefined) continue;
    if (await valueExists(db, column.field, value)) continue;
    row[column.name] = await createLinked(db, column.field, depth + 1);
  }
  delete row[schema.primaryKey];
  return row;
}

/** Inserts the target handbook's example and returns the linked value of the new row. */
export async function createLinked(db: Queryable, field: RefField, depth = 0): Promise<unknown> {
  if (depth > 8) throw new Error(`link chain too deep at ${field.target}`);
  const target = HANDBOOKS[field.target];
  const example = await preparedExample(db, target, depth);
  const { value, errors } = validateRow(target, example);
  if (Object.keys(errors).length) throw new Error(`example of ${target.type} invalid: ${JSON.stringify(errors)}`);
  const key = await insertRow(db, target, value);
  const [row] = await db.query<{ v: unknown }>(
    `select ${quoteIdent(field.valueField)} as v from ${tableSql(target)} where ${quoteIdent(target.primaryKey)} = $1`,
    [key],
  );
  return row.v;
}

/** A row inserted directly (fixtures of other tests), with overrides. */
export async function insertExample(db: Queryable, schema: HandbookSchema, overrides: Row = {}): Promise<Row> {
  const example = { ...(await preparedExample(db, schema)), ...overrides };
  const { value, errors } = validateRow(schema, example);
  if (Object.keys(errors).length) throw new Error(`example of ${schema.type} invalid: ${JSON.stringify(errors)}`);
  const key = await insertRow(db, schema, value);
  return { ...value, [schema.primaryKey]: key };
}

/** POST helper with a login header. */
export function api(t: TestApp, auth: string) {
  return async (url: string, payload?: unknown, method: 'POST' | 'GET' = payload === undefined ? 'GET' : 'POST') => {
    const response = await t.app.inject({
      method,
      url,
      payload: payload as Record<string, unknown> | undefined,
      headers: { authorization: auth },
    });
    const isJson = String(response.headers['content-type'] ?? '').includes('json');
    return {
      status: response.statusCode,
      body: (isJson ? response.json() : response.body) as Record<string, unknown> & Row,
      raw: response,
    };
  };
}

/** Count of a handbook's rows, straight from the table. */
export async function tableCount(db: Queryable, schema: HandbookSchema): Promise<number> {
  const [row] = await db.query<{ n: number }>(`select count(*)::int as n from ${tableSql(schema)}`);
  return row.n;
}
