/** Messages between the main thread and the thread owning the embedded database (pgliteWorker.ts). */
export interface WorkerStart {
  /** Data folder; undefined keeps the database in the worker's memory. */
  dir?: string;
  /** A dumped data folder to start from (tests clone a prepared database that way). */
  loadDataDir?: ArrayBuffer;
  /** PostgreSQL settings added to PGlite's start parameters (`-c name=value`). */
  settings: string[];
}

export type WorkerRequest =
  | { id: number; op: 'query'; sql: string; params?: unknown[] }
  | { id: number; op: 'exec'; sql: string }
  | { id: number; op: 'dump' }
  | { id: number; op: 'close' };

/** PostgreSQL's error fields as plain data: message, code, detail, constraint, column… */
export type SerializedDbError = { message: string } & Record<string, string>;

export type WorkerReply = { id: number; rows: unknown[] } | { id: number; error: SerializedDbError } | { id: number; dump: ArrayBuffer };

export type WorkerEvent = WorkerReply | { ready: true };
