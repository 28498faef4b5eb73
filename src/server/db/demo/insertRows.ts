import type { Queryable } from '../types';
import type { SqlType, TableSpec } from './tables';

/**
 * Rows per statement. Each column travels as one array parameter, so the 65535-parameter limit never binds;
 * the chunk only bounds the size of one message (measured on PGlite: 20k rows per statement is as fast as
 * larger chunks and keeps the memory of one call small).
 */
const CHUNK_ROWS = 20_000;

const ARRAY_TYPE: Record<SqlType, string> = {
  int: 'int[]',
  smallint: 'smallint[]',
  bigint: 'bigint[]',
  float8: 'float8[]',
  text: 'text[]',
  bool: 'bool[]',
  date: 'date[]',
  timestamptz: 'timestamptz[]',
  numeric: 'numeric[]',
  geometry: 'text[]',
};

/** The INSERT ... SELECT FROM unnest(...) statement of a table: one array parameter per column. */
export function insertStatement<R>(spec: TableSpec<R>): string {
  const names = spec.columns.map(([name]) => `"${name}"`).join(', ');
  const params = spec.columns.map(([, type], i) => `$${i + 1}::${ARRAY_TYPE[type]}`).join(', ');
  const aliases = spec.columns.map((_, i) => `c${i + 1}`);
  const values = spec.columns.map(([, type], i) => (type === 'geometry' ? `ST_GeomFromText(c${i + 1}, 4326)` : `c${i + 1}`)).join(', ');
  return `insert into ${spec.table} (${names}) select ${values} from unnest(${params}) as t(${aliases.join(', ')})`;
}

/**
 * A PostgreSQL array literal such as {1,NULL,"say \"hi\""}: built here rather than by the drivers, which is faster
 * than pg's own array serialiser and makes both engines parse exactly the same text.
 */
export function arrayLiteral(values: readonly unknown[]): string {
  const items = values.map((value) => {
    if (value === null || value === undefined) return 'NULL';
    if (typeof value === 'number') {
      if (!Number.isFinite(value)) throw new Error(`not a finite number: ${value}`);
      return String(value);
    }
    if (typeof value === 'boolean') return value ? 't' : 'f';
    return `"${String(value).replace(/[\\"]/g, '\\$&')}"`;
  });
  return `{${items.join(',')}}`;
}

/** Inserts the rows in chunks; the caller's transaction makes it all or nothing. */
export async function insertRows<R>(tx: Queryable, spec: TableSpec<R>, rows: readonly R[]): Promise<void> {
  const sql = insertStatement(spec);
  for (let start = 0; start < rows.length; start += CHUNK_ROWS) {
    const chunk = rows.slice(start, start + CHUNK_ROWS);
    await tx.query(
      sql,
      spec.columns.map(([name]) => arrayLiteral(chunk.map((row) => row[name]))),
    );
  }
}

/** Moves the table's serial sequence past the explicit ids, so rows added later through the API do not collide. */
export async function resetSequence<R>(tx: Queryable, spec: TableSpec<R>): Promise<void> {
  if (!spec.serial) return;
  await tx.query(`select setval(pg_get_serial_sequence($1, $2), max("${spec.serial}")) from ${spec.table}`, [spec.table, spec.serial]);
}
