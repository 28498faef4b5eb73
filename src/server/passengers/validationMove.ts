import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Queryable } from '../db/types';

/**
 * Where the validation import's checked rows go (src/server/passengers/validationImport.ts reads and checks
 * them): on PostgreSQL moved batch by batch inside the import's transaction while the file is still read, on
 * the embedded engine staged, then moved in one statement.
 */

const STAGE_BATCH = 100_000;
/**
 * The import's batches tried as plain inserts in a savepoint each (PipelinedMove.move); at 100,000 rows a batch, the
 * first 6,000,000 rows.
 */
const SAVEPOINTS_MAX = 60;
const UNIQUE_VIOLATION = '23505';

/** A sink of checked rows: where RowReader writes, batch by batch. */
export interface RowSink {
  add(
    tmMs: number,
    validator: number,
    vehicle: number,
    depot: number,
    route: number | null,
    stop: number | null,
    ticket: number,
    card: string,
  ): void;
  /** Called after each chunk of the file: sends a full batch (the previous one still going: one batch in flight). */
  maybeFlush(): Promise<void>;
}

/** The columns of a staged batch; `tm_ms` is the epoch milliseconds (no date text per row), made a time when moved. */
const STAGE_COLUMNS = 'tm_ms, validator_id, vehicle_id, depot_number, route_id, stop_id, ticket_type_id, card_token';
const STAGE_DEFINITION = `(tm_ms int8, validator_id int, vehicle_id int, depot_number int, route_id int, stop_id int, ticket_type_id int, card_token text)`;

/**
 * The insert of staged rows into pass.fare_transaction: rows already there, or twice in the file, are skipped
 * by the unique key (the first line of the file wins: a stage is read in the order it was written, and an
 * earlier batch is in before a later one).
 */
const moveSql = (
  stage: string,
  returning: string,
  skipKnown = true,
) => `insert into pass.fare_transaction (tm, validator_id, vehicle_id, depot_number, route_id, stop_id, ticket_type_id, card_token, source)
  select timestamptz 'epoch' + tm_ms * interval '1 millisecond', validator_id, vehicle_id, depot_number, route_id, stop_id, ticket_type_id, card_token, 'import'
    from ${stage}
  ${skipKnown ? 'on conflict (tm, validator_id, card_token) do nothing ' : ''}returning ${returning}`;

/**
 * A batch of COPY text (a card token is the only free text, and control characters are refused in it, so only a
 * backslash needs escaping).
 */
const copyLine = (
  tmMs: number,
  validator: number,
  vehicle: number,
  depot: number,
  route: number | null,
  stop: number | null,
  ticket: number,
  card: string,
) =>
  `${tmMs}\t${validator}\t${vehicle}\t${depot}\t${route ?? '\\N'}\t${stop ?? '\\N'}\t${ticket}\t${card.includes('\\') ? card.replace(/\\/g, '\\\\') : card}\n`;

/**
 * PostgreSQL: the file moved into pass.fare_transaction batch by batch while it is read, inside one transaction
 * (a refused row or a broken file rolls every batch back: nothing partial). Each batch is COPYed into a
 * temporary stage (local buffers, no WAL), moved with the duplicates skipped, and the stage emptied, while the
 * next batch is parsed: the database inserts and the server parses side by side, on the two cores, instead of
 * one after the other. The rollups of the added rows are counted per batch (pass.fare_rollups = 'writer', see
 * migration 072) and applied once at the end, so no rollup row stays locked during the import.
 */
export class PipelinedMove implements RowSink {
  private text: string[] = [];
  private piece = '';
  private size = 0;
  private pending: Promise<void> = Promise.resolve();
  added = 0;
  private savepoints = 0;
  /** Time spent waiting for the database before a batch could be sent (the database being the slower side). */
  waitedMs = 0;
  constructor(private readonly tx: Queryable) {}

  async open(): Promise<void> {
    await this.tx.query(`set local pass.fare_rollups = 'writer'`);
    await this.tx.query(`create temp table import_stage ${STAGE_DEFINITION} on commit drop`);
    // per operator day, vehicle, route (0: none) and ticket type: what the rollup trigger would have counted
    await this.tx.query(`create temp table import_added (day date, vehicle_id int, route_id int, ticket_type_id int, n int8,
      primary key (day, vehicle_id, route_id, ticket_type_id)) on commit drop`);
  }

  add(
    tmMs: number,
    validator: number,
    vehicle: number,
    depot: number,
    route: number | null,
    stop: number | null,
    ticket: number,
    card: string,
  ): void {
    // COPY's input in pieces of about 256 KB (few stream writes), not a string per row
    this.piece += copyLine(tmMs, validator, vehicle, depot, route, stop, ticket, card);
    this.size += 1;
    if (this.piece.length >= 262_144) {
      this.text.push(this.piece);
      this.piece = '';
    }
  }

  async maybeFlush(): Promise<void> {
    if (this.size >= STAGE_BATCH) await this.flush();
  }

  private async flush(): Promise<void> {
    const started = performance.now();
    await this.pending;
    this.waitedMs += performance.now() - started;
    if (!this.size) return;
    const lines = this.piece ? [...this.text, this.piece] : this.text;
    this.text = [];
    this.piece = '';
    this.size = 0;
    this.pending = this.move(lines);
    this.pending.catch(() => undefined);
  }

  private async move(lines: string[]): Promise<void> {
    const tx = this.tx;
    if (!tx.copyFrom) throw new Error('COPY needs PostgreSQL');
    await tx.copyFrom(`copy pg_temp.import_stage (${STAGE_COLUMNS}) from stdin`, lines);
    // A plain insert first: a batch of new rows (the usual file) goes in at about twice the speed of the
    // insert that skips known rows (ON CONFLICT checks the unique index once more and marks each row
    // speculative). A batch with any row already there, or twice in it, fails on the unique key: its savepoint
    // is rolled back and the batch inserted skipping those. A transaction with more than 64 subtransactions
    // slows every other session's snapshots (PostgreSQL's subtransaction cache overflows): past SAVEPOINTS_MAX
    // batches, the rest go the skipping way only.
    if (this.savepoints < SAVEPOINTS_MAX) {
      this.savepoints += 1;
      await tx.query('savepoint import_batch');
      try {
        this.added += await this.insertCounted(false);
        await tx.query('release savepoint import_batch');
        await tx.query('truncate pg_temp.import_stage');
        return;
      } catch (error) {
        if ((error as { code?: string }).code !== UNIQUE_VIOLATION) throw error;
        await tx.query('rollback to savepoint import_batch');
      }
    }
    this.added += await this.insertCounted(true);
    await tx.query('truncate pg_temp.import_stage');
  }

  /** The stage into pass.fare_transaction, the added rows counted into import_added; gives how many were added. */
  private async insertCounted(skipKnown: boolean): Promise<number> {
    // a validation's vehicle is always known in an import (by its depot number or its validator)
    const [moved] = await this.tx.query<{ added: number }>(
      `with ins as (${moveSql('pg_temp.import_stage', 'tm, vehicle_id, route_id, ticket_type_id', skipKnown)}),
            counted as (insert into pg_temp.import_added as a (day, vehicle_id, route_id, ticket_type_id, n)
                          select pass.local_time(tm)::date, vehicle_id, coalesce(route_id, 0), ticket_type_id, count(*) from ins group by 1, 2, 3, 4
                        on conflict (day, vehicle_id, route_id, ticket_type_id) do update set n = a.n + excluded.n)
       select count(*)::int as added from ins`,
    );
    return moved?.added ?? 0;
  }

  /** The last batch, then the rollups of everything added (as pass.fare_rollup_apply counts them). */
  async finish(): Promise<number> {
    await this.flush();
    await this.pending;
    await this.tx.query(`insert into pass.ticket_day as d (day, route_id, ticket_type_id, validations)
        select day, route_id, ticket_type_id, sum(n) from pg_temp.import_added group by 1, 2, 3
      on conflict (day, route_id, ticket_type_id) do update set validations = d.validations + excluded.validations`);
    await this.tx.query(`insert into pass.vehicle_day as d (day, vehicle_id, route_id, validations)
        select day, vehicle_id, route_id, sum(n) from pg_temp.import_added group by 1, 2, 3
      on conflict (day, vehicle_id, route_id) do update set validations = d.validations + excluded.validations`);
    return this.added;
  }

  /** After a failure: the batch in flight ends before its transaction is rolled back. */
  async settle(): Promise<void> {
    await this.pending.catch(() => undefined);
  }
}

/**
 * The embedded engine (one connection: a transaction held for the whole upload would stop every other
 * request): the rows staged in an unlogged table in batches outside any transaction, then moved in one
 * statement (the rollup trigger counting them).
 */
export class StagedMove implements RowSink {
  readonly table = `pass.import_stage_${Date.now()}_${randomBytes(4).toString('hex')}`;
  private columns: (number | string | null)[][] = STAGE_COLUMNS.split(', ').map(() => []);
  private size = 0;
  private pending: Promise<unknown> = Promise.resolve();
  constructor(private readonly app: FastifyInstance) {}

  async create(): Promise<void> {
    await this.app.db.query(`create unlogged table ${this.table} ${STAGE_DEFINITION}`);
  }

  add(
    tmMs: number,
    validator: number,
    vehicle: number,
    depot: number,
    route: number | null,
    stop: number | null,
    ticket: number,
    card: string,
  ): void {
    const values = [tmMs, validator, vehicle, depot, route, stop, ticket, card];
    for (let i = 0; i < values.length; i++) this.columns[i].push(values[i]);
    this.size += 1;
  }

  async maybeFlush(): Promise<void> {
    if (this.size >= STAGE_BATCH) await this.flush();
  }

  private async flush(): Promise<void> {
    await this.pending;
    if (!this.size) return;
    const columns = this.columns;
    this.columns = columns.map(() => []);
    this.size = 0;
    this.pending = this.app.db.query(
      `insert into ${this.table} select * from unnest($1::int8[], $2::int[], $3::int[], $4::int[], $5::int[], $6::int[], $7::int[], $8::text[])`,
      columns,
    );
    this.pending.catch(() => undefined);
  }

  async finish(): Promise<number> {
    await this.flush();
    await this.pending;
    const [moved] = await this.app.db.longRunning().transaction(async (tx) => {
      await tx.query('set local synchronize_seqscans = off');
      return tx.query<{ added: number }>(`with ins as (${moveSql(this.table, '1')}) select count(*)::int as added from ins`);
    });
    return moved?.added ?? 0;
  }

  async drop(): Promise<void> {
    await this.pending.catch(() => undefined);
    await this.app.db.query(`drop table if exists ${this.table}`).catch(() => undefined);
  }
}
