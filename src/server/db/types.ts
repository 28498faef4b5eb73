/** One interface over the embedded engine (PGlite) and a PostgreSQL server (pg), so every area runs on both. */
export interface Queryable {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  /**
   * PostgreSQL only: `COPY <table> (<columns>) FROM STDIN` fed with text-format lines (each ending in a
   * newline). Bulk loads a third faster than insert … select from unnest. Absent on PGlite.
   */
  copyFrom?(sql: string, lines: readonly string[]): Promise<void>;
}

export interface Db extends Queryable {
  readonly engine: 'pglite' | 'postgres';
  /** Several statements without parameters (migrations, demo data). */
  exec(sql: string): Promise<void>;
  transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/**
 * Type parsing both engines share: int8 as string (peer_address reaches 9223372036854775807, beyond a JS
 * number), date as 'YYYY-MM-DD' text (no time-zone shift), numeric as number.
 */
export const TYPE_PARSERS: Record<number, (value: string) => unknown> = {
  20: (value) => value,
  1082: (value) => value,
  1700: (value) => Number(value),
};
