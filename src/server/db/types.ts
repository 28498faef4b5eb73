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
  /**
   * Runs work inside one transaction: committed when work resolves, rolled back when it throws or when a
   * query of it runs past its time limit.
   */
  transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T>;
  /**
   * The same database with another time limit per query (and per transaction). Every query has one: the
   * default (QUERY_TIMEOUT_MS) suits lists and saves; reports and exports ask for `longRunning()`.
   */
  withLimit(ms: number): Db;
  /** The same database with the long limit (QUERY_TIMEOUT_LONG_MS) that reports and exports opt into. */
  longRunning(): Db;
  /**
   * The same database for work no one waits for (the demo history's fill). The embedded engine runs one
   * statement at a time: there it goes after every other query queued. PostgreSQL runs several: the same.
   */
  background(): Db;
  /** PGlite: restarts the engine on the same data so the heap a bulk load grew goes back to the system. */
  releaseMemory?(): Promise<void>;
  close(): Promise<void>;
}

/** Time limits of queries: the default for ordinary requests, the long one for reports and exports. */
export interface QueryLimits {
  defaultMs: number;
  longMs: number;
}

export const DEFAULT_QUERY_LIMITS: QueryLimits = { defaultMs: 15_000, longMs: 120_000 };

/** PostgreSQL's code of a statement cancelled by statement_timeout; PGlite's time limit reports the same. */
export const QUERY_CANCELED = '57014';

/** A query stopped by its time limit (the embedded engine's equivalent of statement_timeout). */
export class QueryTimeoutError extends Error {
  readonly code = QUERY_CANCELED;
  constructor(ms: number) {
    super(`canceling statement due to statement timeout (${ms} ms)`);
  }
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
