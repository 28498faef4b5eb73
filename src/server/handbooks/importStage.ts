import { randomBytes } from 'node:crypto';
import type { Column } from '../../shared/handbooks/fields';
import type { Db, Queryable } from '../db/types';
import { quoteIdent, sqlTypeOf } from './sqlNames';
import type { RowSink } from './importRead';

export const STAGE_SCHEMA = 'import_stage';
/** Rows per staging insert: one unnest statement per batch keeps round trips few and memory flat. */
export const STAGE_BATCH = 10_000;
const STALE_MS = 24 * 3600 * 1000;
export const ROW_COLUMN = '__row';

/**
 * A staging table of one import: unlogged (nothing to recover after a crash), named with its creation
 * time so a process can drop the leftovers of crashed imports. Rows arrive in batches as column arrays
 * inserted with unnest, one statement per batch, which both engines run fast through plain parameters.
 */
export class ImportStage implements RowSink {
  readonly table: string;
  private readonly buffers: unknown[][];
  private rows: number[] = [];
  private pending: Promise<void> = Promise.resolve();
  private readonly insertSql: string;

  private constructor(
    private readonly db: Db,
    readonly columns: Column[],
    name: string,
  ) {
    this.table = `${quoteIdent(STAGE_SCHEMA)}.${quoteIdent(name)}`;
    this.buffers = columns.map(() => []);
    const types = ['int4', ...columns.map(sqlTypeOf)];
    this.insertSql = `insert into ${this.table} select * from unnest(${types.map((type, i) => `$${i + 1}::${type}[]`).join(', ')})`;
  }

  static async create(db: Db, columns: Column[]): Promise<ImportStage> {
    const name = `s_${Date.now()}_${randomBytes(4).toString('hex')}`;
    const stage = new ImportStage(db, columns, name);
    const definitions = [`${quoteIdent(ROW_COLUMN)} int4`, ...columns.map((column) => `${quoteIdent(column.name)} ${sqlTypeOf(column)}`)];
    await db.query(`create unlogged table ${stage.table} (${definitions.join(', ')})`);
    return stage;
  }

  /** Buffers one validated row (values in `columns` order); true when a batch is full and should be flushed. */
  add(rowNumber: number, values: readonly unknown[]): boolean {
    this.rows.push(rowNumber);
    for (let i = 0; i < values.length; i++) this.buffers[i].push(values[i] ?? null);
    return this.rows.length >= STAGE_BATCH;
  }

  /** Starts writing the buffered batch (while the next one is read); waits for the previous one first. */
  async flush(): Promise<void> {
    await this.pending;
    if (!this.rows.length) return;
    const params = [this.rows, ...this.buffers.map((buffer) => buffer.splice(0))];
    this.rows = [];
    this.pending = this.db.query(this.insertSql, params).then(() => undefined);
    this.pending.catch(() => undefined);
  }

  /** All rows written. */
  async finish(): Promise<void> {
    await this.flush();
    await this.pending;
  }

  async drop(tx: Queryable = this.db): Promise<void> {
    await this.pending.catch(() => undefined);
    await tx.query(`drop table if exists ${this.table}`);
  }
}

/** Drops staging tables left by imports that died with their process more than a day ago. */
export async function dropStaleStages(db: Db): Promise<void> {
  const tables = await db.query<{ name: string }>('select tablename as name from pg_tables where schemaname = $1', [STAGE_SCHEMA]);
  for (const { name } of tables) {
    const created = Number(/^s_(\d+)_/.exec(name)?.[1]);
    if (Number.isFinite(created) && Date.now() - created > STALE_MS) {
      await db.query(`drop table if exists ${quoteIdent(STAGE_SCHEMA)}.${quoteIdent(name)}`);
    }
  }
}
