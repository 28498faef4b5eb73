import { HANDBOOKS } from '../../shared/handbooks/registry';
import type { Column } from '../../shared/handbooks/fields';
import { MSG } from '../../shared/handbooks/messages';
import type { HandbookSchema, RefField } from '../../shared/handbooks/types';
import type { Queryable } from '../db/types';
import type { ErrorList, RowSink } from './importRead';
import { STAGE_BATCH } from './importStage';
import { quoteIdent, sqlTypeOf, tableSql, valueExpr } from './sqlNames';

/**
 * The fast path of the insert and replace imports on PostgreSQL (holidays, schedule variants, schedule
 * times): batches go straight into the handbook inside the import's transaction while the next batch is
 * read, instead of into a staging table first and across again at the end, so the database writes each
 * row once and writing overlaps reading. All or nothing still holds: the transaction commits only after
 * the whole file passed. (Not on PGlite, where an open transaction would stall every other request for the
 * length of the upload; there the staging path runs.)
 *
 * Per batch: links are checked against their targets (row numbers reported from the batch), a replace
 * import deletes the stored rows of the keys it meets for the first time, then the batch is inserted.
 */
export class DirectInsert implements RowSink {
  inserted = 0;
  deleted = 0;
  private rows: number[] = [];
  private buffers: unknown[][];
  private pending: Promise<void> = Promise.resolve();
  private readonly replacedKeys = new Set<string>();
  private readonly insertSql: string;

  constructor(
    private readonly tx: Queryable,
    private readonly schema: HandbookSchema,
    private readonly columns: Column[],
    private readonly errors: ErrorList,
  ) {
    this.buffers = columns.map(() => []);
    const names = columns.map((column) => quoteIdent(column.name)).join(', ');
    const values = columns.map((column, i) => valueExpr(column, `s.c${i}`)).join(', ');
    const arrays = columns.map((column, i) => `$${i + 1}::${sqlTypeOf(column)}[]`).join(', ');
    const aliases = columns.map((_, i) => `c${i}`).join(', ');
    const stamped = schema.fields.filter((field) => field.kind === 'datetime' && field.setOnSave).map((field) => field.name);
    this.insertSql = `insert into ${tableSql(schema)} (${names}${stamped.map((name) => `, ${quoteIdent(name)}`).join('')})
      select ${values}${stamped.map(() => ', now()').join('')} from unnest(${arrays}) as s(${aliases})`;
  }

  add(line: number, values: readonly unknown[]): boolean {
    this.rows.push(line);
    for (let i = 0; i < values.length; i++) this.buffers[i].push(values[i] ?? null);
    return this.rows.length >= STAGE_BATCH;
  }

  async flush(): Promise<void> {
    await this.pending;
    if (!this.rows.length) return;
    const rows = this.rows;
    const buffers = this.buffers;
    this.rows = [];
    this.buffers = this.columns.map(() => []);
    this.pending = this.write(rows, buffers);
    this.pending.catch(() => undefined);
  }

  async finish(): Promise<void> {
    await this.flush();
    await this.pending;
  }

  private async write(rows: number[], buffers: unknown[][]): Promise<void> {
    if (!this.errors.empty) return;
    await this.checkLinks(rows, buffers);
    if (!this.errors.empty) return;
    if (this.schema.import.mode === 'replace') await this.deleteReplaced(buffers);
    await this.tx.query(this.insertSql, buffers);
    this.inserted += rows.length;
  }

  private async checkLinks(rows: number[], buffers: unknown[][]): Promise<void> {
    for (const [i, column] of this.columns.entries()) {
      if (column.field.kind !== 'ref') continue;
      const field: RefField = column.field;
      const missing = await this.tx.query<{ v: unknown }>(
        `select d.v from (select distinct v from unnest($1::${sqlTypeOf(column)}[]) v where v is not null) d
          where not exists (select 1 from ${tableSql(HANDBOOKS[field.target])} r where r.${quoteIdent(field.valueField)} = d.v)`,
        [buffers[i]],
      );
      if (!missing.length) continue;
      const bad = new Set(missing.map((row) => String(row.v)));
      buffers[i].forEach((value, j) => {
        if (value !== null && bad.has(String(value))) this.errors.add(rows[j], column.name, MSG.referenceNotFound);
      });
    }
  }

  /** Replace mode: the first time a key (srv_id, schedule variant) is met, its stored rows go. */
  private async deleteReplaced(buffers: unknown[][]): Promise<void> {
    const keys = this.schema.import.keys ?? [];
    const positions = keys.map((key) => this.columns.findIndex((column) => column.name === key));
    const fresh: unknown[][] = keys.map(() => []);
    const length = buffers[0]?.length ?? 0;
    for (let j = 0; j < length; j++) {
      const signature = positions.map((p) => String(buffers[p][j])).join('\u0001');
      if (this.replacedKeys.has(signature)) continue;
      this.replacedKeys.add(signature);
      positions.forEach((p, k) => fresh[k].push(buffers[p][j]));
    }
    if (!fresh[0]?.length) return;
    const types = positions.map((p) => sqlTypeOf(this.columns[p]));
    const match = keys.map((key, k) => `t.${quoteIdent(key)} = d.k${k}`).join(' and ');
    const [{ n }] = await this.tx.query<{ n: number }>(
      `with w as (delete from ${tableSql(this.schema)} t using unnest(${types.map((type, k) => `$${k + 1}::${type}[]`).join(', ')}) as d(${keys.map((_, k) => `k${k}`).join(', ')})
        where ${match} returning 1) select count(*)::int as n from w`,
      fresh,
    );
    this.deleted += n;
  }
}
