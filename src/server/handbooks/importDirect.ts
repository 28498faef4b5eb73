import { HANDBOOKS } from '../../../schemas/index';
import type { Column } from '../../shared/handbooks/fields';
import { MSG } from '../../shared/handbooks/messages';
import type { HandbookSchema, RefField } from '../../shared/handbooks/types';
import type { Queryable } from '../db/types';
import type { ErrorList, RowSink } from './importRead';
import { STAGE_BATCH } from './importStage';
import { isGeometry, quoteIdent, sqlTypeOf, tableSql, valueExpr } from './sqlNames';

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
/** Link targets up to this many rows are checked in memory. */
const KEYS_IN_MEMORY_MAX = 200_000;

function missingIn(keys: Set<string>, values: unknown[]): Set<string> {
  const missing = new Set<string>();
  for (const value of values) {
    if (value === null || value === undefined) continue;
    const text = String(value);
    if (!keys.has(text)) missing.add(text);
  }
  return missing;
}

export class DirectInsert implements RowSink {
  inserted = 0;
  deleted = 0;
  private rows: number[] = [];
  private buffers: unknown[][];
  private pending: Promise<void> = Promise.resolve();
  private readonly replacedKeys = new Set<string>();
  /** Keys of each link's target, by link column (null: too many to hold, asked per batch). */
  private readonly keysOfTargets = new Map<string, Set<string> | null>();
  private readonly insertSql: string;
  /** COPY … FROM STDIN on PostgreSQL when every column goes in as it is (no geometry, no stamps). */
  private readonly copySql: string | undefined;

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
    const plain = stamped.length === 0 && !columns.some(isGeometry);
    this.copySql = tx.copyFrom && plain ? `copy ${tableSql(schema)} (${names}) from stdin` : undefined;
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
    if (this.copySql && this.tx.copyFrom) await this.tx.copyFrom(this.copySql, copyLines(buffers, rows.length));
    else await this.tx.query(this.insertSql, buffers);
    this.inserted += rows.length;
  }

  /**
   * Links are checked against the target's keys held in memory when the target is a handbook of modest
   * size (schedule variants, stops, vehicles: thousands of rows), loaded once per import; larger targets
   * are asked per batch. The foreign keys still guard what changes meanwhile.
   */
  private async checkLinks(rows: number[], buffers: unknown[][]): Promise<void> {
    for (const [i, column] of this.columns.entries()) {
      if (column.field.kind !== 'ref') continue;
      const keys = await this.targetKeys(column.field);
      const bad = keys ? missingIn(keys, buffers[i]) : await this.missingInDatabase(column, column.field, buffers[i]);
      if (!bad.size) continue;
      buffers[i].forEach((value, j) => {
        if (value !== null && bad.has(String(value))) this.errors.add(rows[j], column.name, MSG.referenceNotFound);
      });
    }
  }

  private async targetKeys(field: RefField): Promise<Set<string> | null> {
    const cached = this.keysOfTargets.get(field.name);
    if (cached !== undefined) return cached;
    const target = tableSql(HANDBOOKS[field.target]);
    const [{ n }] = await this.tx.query<{ n: number }>(`select count(*)::int as n from ${target}`);
    let keys: Set<string> | null = null;
    if (n <= KEYS_IN_MEMORY_MAX) {
      const list = await this.tx.query<{ v: string }>(`select ${quoteIdent(field.valueField)}::text as v from ${target}`);
      keys = new Set(list.map((row) => row.v));
    }
    this.keysOfTargets.set(field.name, keys);
    return keys;
  }

  private async missingInDatabase(column: Column, field: RefField, values: unknown[]): Promise<Set<string>> {
    const missing = await this.tx.query<{ v: unknown }>(
      `select d.v from (select distinct v from unnest($1::${sqlTypeOf(column)}[]) v where v is not null) d
        where not exists (select 1 from ${tableSql(HANDBOOKS[field.target])} r where r.${quoteIdent(field.valueField)} = d.v)`,
      [values],
    );
    return new Set(missing.map((row) => String(row.v)));
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

/** A value in COPY's text format: \N for null; backslash, tab, newline and carriage return escaped. */
export function copyText(value: unknown): string {
  if (value === null || value === undefined) return '\\N';
  if (typeof value === 'boolean') return value ? 't' : 'f';
  const text = String(value);
  return /[\\\t\n\r]/.test(text) ? text.replace(/[\\\t\n\r]/g, (char) => COPY_ESCAPES[char]) : text;
}

const COPY_ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };

/** The batch's rows as COPY text lines (buffers hold one array per column). */
function copyLines(buffers: unknown[][], count: number): string[] {
  const lines = new Array<string>(count);
  for (let j = 0; j < count; j++) {
    let line = copyText(buffers[0][j]);
    for (let i = 1; i < buffers.length; i++) line += '\t' + copyText(buffers[i][j]);
    lines[j] = line + '\n';
  }
  return lines;
}
