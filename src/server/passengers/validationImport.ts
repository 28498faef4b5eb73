import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  CARD_TOKEN_MAX, IMPORT_ERRORS_JOURNALED, IMPORT_ERRORS_LISTED, VALIDATION_COLUMNS, VALIDATION_REQUIRED,
  type ValidationColumn, type ValidationImportResult, type ValidationRowError,
} from '../../shared/passengers/passengers';
import { csvBatches, isEmptyRecord } from '../table/csvStream';
import { ImportFailedError } from '../table/errorReplies';

/**
 * The validation import of /import-data/tickets-validation (permission code 33): a semicolon-separated UTF-8
 * file from the fare system, streamed (read as it arrives, staged in batches in an unlogged table, so a file
 * of millions of rows goes through in bounded memory), then all or nothing:
 * - any refused row refuses the file: nothing is added, every refused row is counted, the first ones listed
 *   with line, column and reason, and written to the pass-errors journal;
 * - otherwise the rows go into pass.fare_transaction in one statement, where the rows already there (the same
 *   time, validator and card) are skipped: re-importing a file adds nothing.
 * Either way the import history gets its row (who, when, file, added, skipped, refused).
 */

/** A refusal of the whole file before any row: a translated message, and the history row written. */
export class ImportRefused extends Error {
  constructor(readonly code: string, readonly detail: string, readonly result?: ValidationImportResult) {
    super(code);
  }
}

const STAGE_BATCH = 50_000;
const LOCAL_TIME = /^(\d{2})\.(\d{2})\.(\d{4})[ T](\d{2}):(\d{2})(?::(\d{2}))?$/;
const ISO_LOCAL = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})(?::(\d{2}))?$/;
const ISO_ZONED = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:?\d{2})$/;
const MAX_AGE_MS = 3 * 366 * 86_400_000;

/** An operator-local 'DD.MM.YYYY HH:mm[:ss]' or 'YYYY-MM-DD HH:mm[:ss]', or ISO 8601 with its zone: epoch ms. */
export function importTime(text: string, tzOffsetMinutes: number): number {
  if (ISO_ZONED.test(text)) return Date.parse(text);
  const local = LOCAL_TIME.exec(text);
  const iso = ISO_LOCAL.exec(text);
  const [y, mo, d, h, mi, s] = local ? [local[3], local[2], local[1], local[4], local[5], local[6]] : iso ? iso.slice(1) : [];
  if (!y) return Number.NaN;
  const ms = Date.UTC(+y, +mo - 1, +d, +h, +mi, +(s ?? 0));
  const back = new Date(ms);
  if (back.getUTCMonth() !== +mo - 1 || back.getUTCDate() !== +d || +h > 23 || +mi > 59 || +(s ?? 0) > 59) return Number.NaN;
  return ms - tzOffsetMinutes * 60_000;
}

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

  /** Checks the row and stages it (unless `stage` is null: a refused file stages nothing more). */
  read(cells: string[], line: number, stage: Stage | null): ValidationRowError | undefined {
    const refuse = (column: ValidationColumn, reason: string): ValidationRowError => ({ line, column, reason });
    for (const c of cells) if (c.includes('\uFFFD')) return { line, column: '', reason: 'Символы не в кодировке UTF-8' };
    const timeText = cellAt(cells, this.time);
    if (!timeText) return refuse('time', 'Не указано время');
    const time = importTime(timeText, this.tzOffsetMinutes);
    if (!Number.isFinite(time)) return refuse('time', 'Время не в формате ДД.ММ.ГГГГ ЧЧ:ММ[:СС] или ISO 8601');
    if (time > this.now + 300_000 || time < this.now - MAX_AGE_MS) return refuse('time', 'Время в будущем или старше трёх лет');
    const validatorText = cellAt(cells, this.validator);
    if (!INT.test(validatorText) || Number(validatorText) > 2_147_483_647) return refuse('validator', 'Номер валидатора — целое число');
    const validator = Number(validatorText);
    const depotText = cellAt(cells, this.depot);
    let vehicle: number | undefined;
    if (depotText) {
      if (!INT.test(depotText)) return refuse('depot_number', 'Гаражный номер — целое число');
      vehicle = this.known.vehicles.get(Number(depotText));
      if (vehicle === undefined) return refuse('depot_number', `ТС с гаражным номером ${depotText} нет в справочнике`);
    } else {
      vehicle = this.known.validators.get(validator);
      if (vehicle === undefined) return refuse('depot_number', 'Не указан гаражный номер, и валидатора нет в справочнике');
    }
    const routeText = cellAt(cells, this.route);
    let route: number | null = null;
    if (routeText) {
      route = this.known.routes.get(routeText.toLowerCase()) ?? null;
      if (route === null) return refuse('route', `Маршрута ${routeText.slice(0, 40)} нет в справочнике`);
    }
    const ticketText = cellAt(cells, this.ticket);
    if (!ticketText) return refuse('ticket_type', 'Не указан тип билета');
    const ticket = this.known.tickets.get(ticketText);
    if (ticket === undefined) return refuse('ticket_type', `Типа билета ${ticketText.slice(0, 40)} нет в справочнике`);
    const card = cellAt(cells, this.card);
    if (!card) return refuse('card_token', 'Не указан номер (токен) карты');
    if (card.length > CARD_TOKEN_MAX || CONTROL.test(card)) return refuse('card_token', `Токен карты — до ${CARD_TOKEN_MAX} печатных символов`);
    const stopText = cellAt(cells, this.stop);
    let stop: number | null = null;
    if (stopText) {
      if (!INT.test(stopText) || !this.known.stops.has(Number(stopText))) return refuse('stop_id', `Остановки ${stopText.slice(0, 20)} нет в справочнике`);
      stop = Number(stopText);
    }
    stage?.add(line, time, validator, vehicle, this.known.depotOf.get(vehicle) ?? 0, route, stop, ticket, card);
    return undefined;
  }
}

/** The stage's columns; `tm_ms` is the epoch milliseconds (no date text per row), made a time in the final insert. */
const STAGE_COLUMNS = 'line, tm_ms, validator_id, vehicle_id, depot_number, route_id, stop_id, ticket_type_id, card_token';

/**
 * An unlogged staging table of one import, written batch by batch outside any transaction: on PostgreSQL as
 * COPY text (a card token is the only free text, and control characters are refused in it, so only a
 * backslash needs escaping), on the embedded engine as column arrays.
 */
class Stage {
  readonly table = `pass.import_stage_${Date.now()}_${randomBytes(4).toString('hex')}`;
  private readonly copy: boolean;
  private text = '';
  private columns: (number | string | null)[][] = STAGE_COLUMNS.split(', ').map(() => []);
  private size = 0;
  private pending: Promise<unknown> = Promise.resolve();
  constructor(private readonly app: FastifyInstance) {
    this.copy = app.db.engine === 'postgres';
  }

  async create(): Promise<void> {
    await this.app.db.query(`create unlogged table ${this.table} (line int, tm_ms int8, validator_id int, vehicle_id int, depot_number int,
      route_id int, stop_id int, ticket_type_id int, card_token text)`);
  }

  add(line: number, tmMs: number, validator: number, vehicle: number, depot: number, route: number | null, stop: number | null, ticket: number, card: string): void {
    if (this.copy) {
      this.text += `${line}\t${tmMs}\t${validator}\t${vehicle}\t${depot}\t${route ?? '\\N'}\t${stop ?? '\\N'}\t${ticket}\t${card.includes('\\') ? card.replace(/\\/g, '\\\\') : card}\n`;
    } else {
      const values = [line, tmMs, validator, vehicle, depot, route, stop, ticket, card];
      for (let i = 0; i < values.length; i++) this.columns[i].push(values[i]);
    }
    this.size += 1;
  }

  /** Sends the batch when it is full (the previous one still going: one batch in flight, so memory stays bounded). */
  async maybeFlush(): Promise<void> {
    if (this.size >= STAGE_BATCH) await this.flush();
  }

  async flush(): Promise<void> {
    await this.pending;
    if (!this.size) return;
    const db = this.app.db;
    if (this.copy) {
      const text = this.text;
      this.text = '';
      // COPY runs on a connection of its own (a transaction's)
      this.pending = db.transaction(async (tx) => {
        if (!tx.copyFrom) throw new Error('COPY needs PostgreSQL');
        await tx.copyFrom(`copy ${this.table} (${STAGE_COLUMNS}) from stdin`, [text]);
      });
    } else {
      const columns = this.columns;
      this.columns = columns.map(() => []);
      this.pending = db.query(
        `insert into ${this.table} select * from unnest($1::int[], $2::int8[], $3::int[], $4::int[], $5::int[], $6::int[], $7::int[], $8::int[], $9::text[])`, columns,
      );
    }
    this.size = 0;
    this.pending.catch(() => undefined);
  }

  async finish(): Promise<void> {
    await this.flush();
    await this.pending;
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

export async function importValidations(app: FastifyInstance, request: FastifyRequest, source: Readable, file: string, tzOffsetMinutes: number): Promise<ValidationImportResult> {
  const who: Who = { userId: request.user?.id ?? null, username: request.user?.username ?? null };
  const known = await lookups(app);
  const stage = new Stage(app);
  await stage.create();
  const errors: ValidationRowError[] = [];
  let refused = 0;
  let rows = 0;
  let line = 0;
  const now = Date.now();
  try {
    let reader: RowReader | undefined;
    try {
      for await (const batch of csvBatches(source)) {
        for (const cells of batch) {
          line += 1;
          if (!reader) {
            reader = new RowReader(readHeader(cells), known, tzOffsetMinutes, now);
            continue;
          }
          if (isEmptyRecord(cells)) continue;
          rows += 1;
          const fault = reader.read(cells, line, refused ? null : stage);
          if (fault) {
            refused += 1;
            if (errors.length < IMPORT_ERRORS_JOURNALED) errors.push(fault);
          }
        }
        if (!refused) await stage.maybeFlush();
      }
    } catch (error) {
      if (error instanceof ImportFailedError) throw new ImportRefused('validation_import_broken', error.errors[0]?.message ?? 'broken file');
      throw error;
    }
    if (!reader) throw new ImportRefused('import_file_required', 'empty file');
    if (refused) {
      const id = await history(app, who, file, { rows, added: 0, skipped: 0, refused }, 'refused', `${refused} row(s) refused`);
      await journalRefusals(app, id, file, errors);
      throw new ImportRefused('validation_import_rows', `${refused} row(s) refused`, { id, rows, added: 0, skipped: 0, refused, errors: errors.slice(0, IMPORT_ERRORS_LISTED) });
    }
    await stage.finish();
    // One statement; rows already there, or twice in the file, are skipped by the unique key (the first line
    // of the file wins: the stage is read in the order it was written).
    const [moved] = await app.db.longRunning().transaction(async (tx) => {
      await tx.query('set local synchronize_seqscans = off');
      return tx.query<{ added: number }>(
        `with ins as (
           insert into pass.fare_transaction (tm, validator_id, vehicle_id, depot_number, route_id, stop_id, ticket_type_id, card_token, source)
           select timestamptz 'epoch' + tm_ms * interval '1 millisecond', validator_id, vehicle_id, depot_number, route_id, stop_id, ticket_type_id, card_token, 'import'
             from ${stage.table}
           on conflict (tm, validator_id, card_token) do nothing returning 1)
         select count(*)::int as added from ins`,
      );
    });
    const added = moved?.added ?? 0;
    const id = await history(app, who, file, { rows, added, skipped: rows - added, refused: 0 }, 'done', null);
    return { id, rows, added, skipped: rows - added, refused: 0, errors: [] };
  } catch (error) {
    if (error instanceof ImportRefused && !error.result && error.code !== 'validation_import_rows') {
      const id = await history(app, who, file, { rows, added: 0, skipped: 0, refused }, 'refused', `${error.code}: ${error.detail}`.slice(0, 500));
      throw new ImportRefused(error.code, error.detail, { id, rows, added: 0, skipped: 0, refused, errors: [] });
    }
    throw error;
  } finally {
    await stage.drop();
  }
}
