import type { Column } from '../../shared/handbooks/fields';
import { isAutoKey, primaryKeyField } from '../../shared/handbooks/fields';
import type { HandbookSchema } from '../../shared/handbooks/types';
import type { ImportResponse } from '../../shared/handbooks/api';
import type { Queryable } from '../db/types';
import type { ImportStage } from './importStage';
import { quoteIdent, tableSql, valueExpr } from './sqlNames';

type Counts = Omit<ImportResponse, 'rows'>;

/** `s."col"` as the target column takes it (geometry from its WKT text). */
const fromStage = (column: Column): string => valueExpr(column, `s.${quoteIdent(column.name)}`);

async function countOf(tx: Queryable, sql: string): Promise<number> {
  const [row] = await tx.query<{ n: number }>(`with w as (${sql} returning 1) select count(*)::int as n from w`);
  return row.n;
}

/** Server-stamped columns (vehicles.update_date): now() on every insert and update. */
const stampedNames = (schema: HandbookSchema): string[] =>
  schema.fields.filter((field) => field.kind === 'datetime' && field.setOnSave).map((field) => field.name);

function insertFrom(schema: HandbookSchema, columns: Column[], where = 'true', extra = ''): string {
  const names = columns.map((column) => quoteIdent(column.name)).join(', ');
  const values = columns.map(fromStage).join(', ');
  const stamped = stampedNames(schema);
  const stampNames = stamped.map((name) => `, ${quoteIdent(name)}`).join('');
  const stampValues = stamped.map(() => ', now()').join('');
  // No ORDER BY: sorting a million staged rows costs seconds, and the staging heap is read back in the
  // order it was written anyway (file order), which is all the new keys' order is good for.
  return `insert into ${tableSql(schema)} (${names}${stampNames}) select ${values}${stampValues} from STAGE s where ${where} ${extra}`;
}

const keyMatch = (keys: readonly string[], left: string, right: string): string =>
  keys.map((key) => `${left}.${quoteIdent(key)} = ${right}.${quoteIdent(key)}`).join(' and ');

/**
 * The statements that move a validated staging table into its handbook, by the schema's import mode (see
 * ImportMode). Runs inside the caller's transaction: all or nothing.
 */
export async function applyStage(tx: Queryable, schema: HandbookSchema, stage: ImportStage): Promise<Counts> {
  const run = (sql: string) => countOf(tx, sql.replace(/\bSTAGE\b/g, stage.table));
  const counts: Counts = { inserted: 0, updated: 0, deleted: 0 };
  const columns = stage.columns;
  const spec = schema.import;
  const pk = schema.primaryKey;
  const hasKey = columns.some((column) => column.name === pk);

  switch (spec.mode) {
    case 'insert':
      counts.inserted = await run(insertFrom(schema, columns));
      break;
    case 'replace': {
      const keys = spec.keys ?? [];
      counts.deleted = await run(
        `delete from ${tableSql(schema)} t using (select distinct ${keys.map(quoteIdent).join(', ')} from STAGE) s where ${keyMatch(keys, 't', 's')}`,
      );
      counts.inserted = await run(insertFrom(schema, columns));
      break;
    }
    case 'merge': {
      const keys = spec.keys ?? [];
      const sets = [
        ...columns.filter((column) => !keys.includes(column.name)).map((column) => `${quoteIdent(column.name)} = ${fromStage(column)}`),
        ...stampedNames(schema).map((name) => `${quoteIdent(name)} = now()`),
      ];
      if (sets.length)
        counts.updated = await run(`update ${tableSql(schema)} t set ${sets.join(', ')} from STAGE s where ${keyMatch(keys, 't', 's')}`);
      counts.inserted = await run(
        insertFrom(schema, columns, `not exists (select 1 from ${tableSql(schema)} t where ${keyMatch(keys, 't', 's')})`),
      );
      break;
    }
    case 'upsert':
    case 'procedure': {
      if (!hasKey) {
        counts.inserted = await run(insertFrom(schema, columns));
        break;
      }
      const rest = columns.filter((column) => column.name !== pk);
      counts.inserted = await run(insertFrom(schema, rest, `s.${quoteIdent(pk)} is null`));
      const sets = [
        ...rest.map((column) => `${quoteIdent(column.name)} = excluded.${quoteIdent(column.name)}`),
        ...stampedNames(schema).map((name) => `${quoteIdent(name)} = now()`),
      ];
      const conflict = sets.length
        ? `on conflict (${quoteIdent(pk)}) do update set ${sets.join(', ')}`
        : `on conflict (${quoteIdent(pk)}) do nothing`;
      const [row] = await tx.query<{ inserted: number; updated: number }>(
        `with w as (${insertFrom(schema, columns, `s.${quoteIdent(pk)} is not null`, conflict).replace(/\bSTAGE\b/g, stage.table)} returning (xmax = 0) as fresh)
         select (count(*) filter (where fresh))::int as inserted, (count(*) filter (where not fresh))::int as updated from w`,
      );
      counts.inserted += row.inserted;
      counts.updated = row.updated;
      if (isAutoKey(primaryKeyField(schema)) && row.inserted > 0) {
        // Rows inserted with keys from the file: the sequence must move past them.
        await tx.query(
          `select setval(pg_get_serial_sequence($1, $2), greatest((select max(${quoteIdent(pk)}) from ${tableSql(schema)}), 1))`,
          [`${quoteIdent(schema.table.schema)}.${quoteIdent(schema.table.name)}`, pk],
        );
      }
      break;
    }
  }
  return counts;
}
