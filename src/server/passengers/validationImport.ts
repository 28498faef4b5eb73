import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Queryable } from '../db/types';
import {
  CARD_TOKEN_MAX, IMPORT_ERRORS_JOURNALED, IMPORT_ERRORS_LISTED, VALIDATION_COLUMNS, VALIDATION_REQUIRED,
  type ValidationColumn, type ValidationImportResult, type ValidationRowError,
} from '../../shared/passengers/passengers';
import { csvBatches, isEmptyRecord } from '../table/csvStream';
import { importTime } from './importTime';
import { ImportFailedError } from '../table/errorReplies';

/**
 * The validation import of /import-data/tickets-validation (permission code 33): a semicolon-separated UTF-8
 * file from the fare system, streamed (read as it arrives and sent on in batches, so a file of millions of
 * rows goes through in bounded memory), all or nothing:
 * - any refused row refuses the file: nothing is added, every refused row is counted, the first ones listed
 *   with line, column and reason, and written to the pass-errors journal;
 * - otherwise the rows go into pass.fare_transaction, where the rows already there (the same time, validator
 *   and card) are skipped: re-importing a file adds nothing. On PostgreSQL batch by batch inside one
 *   transaction while the file is still read (PipelinedMove), on the embedded engine staged, then in one
 *   statement (StagedMove).
 * Either way the import history gets its row (who, when, file, added, skipped, refused).
 */

/** A refusal of the whole file before any row: a translated message, and the history row written. */
export class ImportRefused extends Error {
  constructor(readonly code: string, readonly detail: string, readonly result?: ValidationImportResult) {
    super(code);
  }
}

const STAGE_BATCH = 100_000;
/** The import's batches tried as plain inserts in a savepoint each (PipelinedMove.move); at 100,000 rows a batch, the first 6,000,000 rows. */
const SAVEPOINTS_MAX = 60;
const UNIQUE_VIOLATION = '23505';
const MAX_AGE_MS = 3 * 366 * 86_400_000;

interface Lookups {
  vehicles: Map<number, number>;
  validators: Map<number, number>;
  depotOf: Map<number, number>;
  routes: Map<string, number>;
  tickets: Map<string, number>;
  stops: Set<number>;
}

async function lookups(app: FastifyInstance): Promise<Lookups> {
  const [vehicles, validators, routes, tickets, stops] = await Promise.all([
    app.db.query<{ id: number; depot_number: number }>('select distinct on (depot_number) id, depot_number from mgt.vehicles order by depot_number, id'),
    app.db.query<{ validator_id: number; vehicle_id: number }>('select validator_id, vehicle_id from mgt.validator'),
    app.db.query<{ route_id: number; route_short_name: string }>('select distinct on (route_short_name) route_id, route_short_name from mgt.routes order by route_short_name, route_id'),
    app.db.query<{ ticket_type_id: number; ticket_type_code: string }>('select distinct on (ticket_type_code) ticket_type_id, ticket_type_code from cat.ticket_type order by ticket_type_code, ticket_type_id'),
    app.db.query<{ stop_id: number }>('select stop_id from mgt.stops'),
  ]);
  return {
    vehicles: new Map(vehicles.map((v) => [v.depot_number, v.id])),
    depotOf: new Map(vehicles.map((v) => [v.id, v.depot_number])),
    validators: new Map(validators.map((v) => [v.validator_id, v.vehicle_id])),
    routes: new Map(routes.map((r) => [r.route_short_name.trim().toLowerCase(), r.route_id])),
    tickets: new Map(tickets.map((t) => [t.ticket_type_code.trim(), t.ticket_type_id])),
    stops: new Set(stops.map((s) => s.stop_id)),
  };
}

/** The header's columns by name; a file cut by another separator or in another encoding is named as such. */
function readHeader(cells: string[]): Map<ValidationColumn, number> {
  const names = cells.map((cell) => cell.trim().toLowerCase());
  if (names.some((name) => name.includes('\uFFFD'))) throw new ImportRefused('validation_import_encoding', 'line 1');
  if (names.length === 1 && /[,\t|]/.test(names[0])) throw new ImportRefused('validation_import_separator', `line 1: ${names[0].slice(0, 80)}`);
  const index = new Map<ValidationColumn, number>();
  names.forEach((name, i) => {
    if ((VALIDATION_COLUMNS as readonly string[]).includes(name)) index.set(name as ValidationColumn, i);
  });
  const missing = VALIDATION_REQUIRED.filter((name) => !index.has(name));
  if (missing.length) throw new ImportRefused('validation_import_header', `missing: ${missing.join(', ')}`);
  return index;
}

/** A column's position in the file's rows, -1 when the header lacks it. */
const position = (columns: Map<ValidationColumn, number>, name: ValidationColumn) => columns.get(name) ?? -1;
const cellAt = (cells: string[], i: number) => (i < 0 ? '' : (cells[i] ?? '').trim());
const INT = /^\d{1,10}$/;
const CONTROL = /[\u0000-\u001f]/;

const refusal = (line: number, column: ValidationColumn, reason: string): ValidationRowError => ({ line, column, reason });

/**
 * The checks of a data row, with the header's positions resolved once: the import's hot path (millions of
 * rows), so a row is checked against the in-memory handbooks and written straight to the stage, with no
 * object per row. A refused row gives its first fault.
 */
class RowReader {
  private readonly time: number;
  private readonly validator: number;
  private readonly depot: number;
  private readonly route: number;
  private readonly ticket: number;
  private readonly card: number;
  private readonly stop: number;

  constructor(columns: Map<ValidationColumn, number>, private readonly known: Lookups, private readonly tzOffsetMinutes: number, private readonly now: number) {
    this.time = position(columns, 'time');
    this.validator = position(columns, 'validator');
    this.depot = position(columns, 'depot_number');
    this.route = position(columns, 'route');
    this.ticket = position(columns, 'ticket_type');
    this.card = position(columns, 'card_token');
    this.stop = position(columns, 'stop_id');
  }

  /** Checks the row and sends it to the sink (unless null: a refused file sends nothing more). */
  read(cells: string[], line: number, sink: RowSink | null): ValidationRowError | undefined {
    for (const c of cells) if (c.includes('\uFFFD')) return { line, column: '', reason: 'Символы не в кодировке UTF-8' };
    const timeText = cellAt(cells, this.time);
    if (!timeText) return refusal(line, 'time', 'Не указано время');
    const time = importTime(timeText, this.tzOffsetMinutes);
    if (!Number.isFinite(time)) return refusal(line, 'time', 'Время не в формате ДД.ММ.ГГГГ ЧЧ:ММ[:СС] или ISO 8601');
    if (time > this.now + 300_000 || time < this.now - MAX_AGE_MS) return refusal(line, 'time', 'Время в будущем или старше трёх лет');
    const validatorText = cellAt(cells, this.validator);
    if (!INT.test(validatorText) || Number(validatorText) > 2_147_483_647) return refusal(line, 'validator', 'Номер валидатора — целое число');
    const validator = Number(validatorText);
    const depotText = cellAt(cells, this.depot);
    let vehicle: number | undefined;
    if (depotText) {
      if (!INT.test(depotText)) return refusal(line, 'depot_number', 'Гаражный номер — целое число');
      vehicle = this.known.vehicles.get(Number(depotText));
      if (vehicle === undefined) return refusal(line, 'depot_number', `ТС с гаражным номером ${depotText} нет в справочнике`);
    } else {
      vehicle = this.known.validators.get(validator);
      if (vehicle === undefined) return refusal(line, 'depot_number', 'Не указан гаражный номер, и валидатора нет в справочнике');
    }
    const routeText = cellAt(cells, this.route);
    let route: number | null = null;
    if (routeText) {
      route = this.known.routes.get(routeText.toLowerCase()) ?? null;
      if (route === null) return refusal(line, 'route', `Маршрута ${routeText.slice(0, 40)} нет в справочнике`);
    }
    const ticketText = cellAt(cells, this.ticket);
    if (!ticketText) return refusal(line, 'ticket_type', 'Не указан тип билета');
    const ticket = this.known.tickets.get(ticketText);
    if (ticket === undefined) return refusal(line, 'ticket_type', `Типа билета ${ticketText.slice(0, 40)} нет в справочнике`);
    const card = cellAt(cells, this.card);
    if (!card) return refusal(line, 'card_token', 'Не указан номер (токен) карты');
    if (card.length > CARD_TOKEN_MAX || CONTROL.test(card)) return refusal(line, 'card_token', `Токен карты — до ${CARD_TOKEN_MAX} печатных символов`);
    const stopText = cellAt(cells, this.stop);
    let stop: number | null = null;
    if (stopText) {
      if (!INT.test(stopText) || !this.known.stops.has(Number(stopText))) return refusal(line, 'stop_id', `Остановки ${stopText.slice(0, 20)} нет в справочнике`);
      stop = Number(stopText);
    }
    sink?.add(time, validator, vehicle, this.known.depotOf.get(vehicle) ?? 0, route, stop, ticket, card);
    return undefined;
  }
}

/** A sink of checked rows: where RowReader writes, batch by batch. */
interface RowSink {
  add(tmMs: number, validator: number, vehicle: number, depot: number, route: number | null, stop: number | null, ticket: number, card: string): void;
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
const moveSql = (stage: string, returning: string, skipKnown = true) => `insert into pass.fare_transaction (tm, validator_id, vehicle_id, depot_number, route_id, stop_id, ticket_type_id, card_token, source)
  select timestamptz 'epoch' + tm_ms * interval '1 millisecond', validator_id, vehicle_id, depot_number, route_id, stop_id, ticket_type_id, card_token, 'import'
    from ${stage}
  ${skipKnown ? 'on conflict (tm, validator_id, card_token) do nothing ' : ''}returning ${returning}`;

/** A batch of COPY text (a card token is the only free text, and control characters are refused in it, so only a backslash needs escaping). */
const copyLine = (tmMs: number, validator: number, vehicle: number, depot: number, route: number | null, stop: number | null, ticket: number, card: string) =>
  `${tmMs}\t${validator}\t${vehicle}\t${depot}\t${route ?? '\\N'}\t${stop ?? '\\N'}\t${ticket}\t${card.includes('\\') ? card.replace(/\\/g, '\\\\') : card}\n`;

/**
 * PostgreSQL: the file moved into pass.fare_transaction batch by batch while it is read, inside one transaction
 * (a refused row or a broken file rolls every batch back: nothing partial). Each batch is COPYed into a
 * temporary stage (local buffers, no WAL), moved with the duplicates skipped, and the stage emptied, while the
 * next batch is parsed: the database inserts and the server parses side by side, on the two cores, instead of
 * one after the other. The rollups of the added rows are counted per batch (pass.fare_rollups = 'writer', see
 * migration 072) and applied once at the end, so no rollup row stays locked during the import.
 */
class PipelinedMove implements RowSink {
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

  add(tmMs: number, validator: number, vehicle: number, depot: number, route: number | null, stop: number | null, ticket: number, card: string): void {
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
class StagedMove implements RowSink {
  readonly table = `pass.import_stage_${Date.now()}_${randomBytes(4).toString('hex')}`;
  private columns: (number | string | null)[][] = STAGE_COLUMNS.split(', ').map(() => []);
  private size = 0;
  private pending: Promise<unknown> = Promise.resolve();
  constructor(private readonly app: FastifyInstance) {}

  async create(): Promise<void> {
    await this.app.db.query(`create unlogged table ${this.table} ${STAGE_DEFINITION}`);
  }

  add(tmMs: number, validator: number, vehicle: number, depot: number, route: number | null, stop: number | null, ticket: number, card: string): void {
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
      `insert into ${this.table} select * from unnest($1::int8[], $2::int[], $3::int[], $4::int[], $5::int[], $6::int[], $7::int[], $8::text[])`, columns,
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

interface Who { userId: number | null; username: string | null }

async function history(app: FastifyInstance, who: Who, file: string, counts: { rows: number; added: number; skipped: number; refused: number }, status: 'done' | 'refused', message: string | null): Promise<number> {
  const [row] = await app.db.query<{ id: number }>(
    `insert into pass.import_run (user_id, username, file, rows, added, skipped, refused, status, message) values ($1, $2, $3, $4, $5, $6, $7, $8, $9) returning id`,
    [who.userId, who.username, file.slice(0, 255), counts.rows, counts.added, counts.skipped, counts.refused, status, message],
  );
  return row.id;
}

/** The refused rows in the pass-errors journal (at most IMPORT_ERRORS_JOURNALED per import). */
async function journalRefusals(app: FastifyInstance, importId: number, file: string, errors: ValidationRowError[]): Promise<void> {
  if (!errors.length) return;
  await app.eventsWriter.vehicleEvents(errors.slice(0, IMPORT_ERRORS_JOURNALED).map((e) => ({
    kind: 'pass_error', details: { source: 'validation_import', import_id: importId, file: file.slice(0, 255), line: e.line, column: e.column, reason: e.reason },
  })));
}

/** What reading the file found: its rows, and the refused ones (the first IMPORT_ERRORS_JOURNALED kept). */
interface FileRead {
  rows: number;
  refused: number;
  errors: ValidationRowError[];
}

/** A file with refused rows: thrown inside the import's transaction so that every batch moved is rolled back. */
class RowsRefused extends Error {}

/**
 * Reads the file into `sink` as it arrives; after the first refused row nothing more is sent, but the rest is
 * still read so that every refused row is counted. Refuses a header without the required columns, a file
 * that is not CSV, and an empty one.
 */
async function readFile(source: Readable, known: Lookups, tzOffsetMinutes: number, sink: RowSink, read: FileRead): Promise<void> {
  const now = Date.now();
  let reader: RowReader | undefined;
  let line = 0;
  try {
    for await (const batch of csvBatches(source)) {
      for (const cells of batch) {
        line += 1;
        if (!reader) {
          reader = new RowReader(readHeader(cells), known, tzOffsetMinutes, now);
          continue;
        }
        if (isEmptyRecord(cells)) continue;
        read.rows += 1;
        const fault = reader.read(cells, line, read.refused ? null : sink);
        if (fault) {
          read.refused += 1;
          if (read.errors.length < IMPORT_ERRORS_JOURNALED) read.errors.push(fault);
        }
      }
      if (!read.refused) await sink.maybeFlush();
    }
  } catch (error) {
    if (error instanceof ImportFailedError) throw new ImportRefused('validation_import_broken', error.errors[0]?.message ?? 'broken file');
    throw error;
  }
  if (!reader) throw new ImportRefused('import_file_required', 'empty file');
}

/** A statement of the import's transaction (a batch's move, the rollups) may take this long on a loaded server. */
const IMPORT_STATEMENT_MS = 120_000;

/** Reads and moves the file (all or nothing), giving the rows added; throws RowsRefused for refused rows. */
async function load(app: FastifyInstance, source: Readable, known: Lookups, tzOffsetMinutes: number, read: FileRead): Promise<number> {
  if (app.db.engine === 'postgres') {
    // a connection of the pool outside the reports' admission (an import is one long transaction, not a report)
    return app.db.withLimit(IMPORT_STATEMENT_MS).transaction(async (tx) => {
      const move = new PipelinedMove(tx);
      await move.open();
      try {
        await readFile(source, known, tzOffsetMinutes, move, read);
        if (read.refused) throw new RowsRefused();
        const added = await move.finish();
        app.log.info({ rows: read.rows, added, waitedForDatabaseMs: Math.round(move.waitedMs) }, 'validation import moved');
        return added;
      } finally {
        await move.settle();
      }
    });
  }
  const stage = new StagedMove(app);
  await stage.create();
  try {
    await readFile(source, known, tzOffsetMinutes, stage, read);
    if (read.refused) throw new RowsRefused();
    return await stage.finish();
  } finally {
    await stage.drop();
  }
}

export async function importValidations(app: FastifyInstance, request: FastifyRequest, source: Readable, file: string, tzOffsetMinutes: number): Promise<ValidationImportResult> {
  const who: Who = { userId: request.user?.id ?? null, username: request.user?.username ?? null };
  const known = await lookups(app);
  const read: FileRead = { rows: 0, refused: 0, errors: [] };
  try {
    const added = await load(app, source, known, tzOffsetMinutes, read);
    const id = await history(app, who, file, { rows: read.rows, added, skipped: read.rows - added, refused: 0 }, 'done', null);
    return { id, rows: read.rows, added, skipped: read.rows - added, refused: 0, errors: [] };
  } catch (error) {
    const { rows, refused, errors } = read;
    if (error instanceof RowsRefused) {
      const id = await history(app, who, file, { rows, added: 0, skipped: 0, refused }, 'refused', `${refused} row(s) refused`);
      await journalRefusals(app, id, file, errors);
      throw new ImportRefused('validation_import_rows', `${refused} row(s) refused`, { id, rows, added: 0, skipped: 0, refused, errors: errors.slice(0, IMPORT_ERRORS_LISTED) });
    }
    if (error instanceof ImportRefused) {
      const id = await history(app, who, file, { rows, added: 0, skipped: 0, refused }, 'refused', `${error.code}: ${error.detail}`.slice(0, 500));
      throw new ImportRefused(error.code, error.detail, { id, rows, added: 0, skipped: 0, refused, errors: [] });
    }
    throw error;
  }
}
