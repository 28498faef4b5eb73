import type { Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  CARD_TOKEN_MAX,
  IMPORT_ERRORS_JOURNALED,
  IMPORT_ERRORS_LISTED,
  IMPORT_REFUSALS_KEPT,
  VALIDATION_COLUMNS,
  VALIDATION_REQUIRED,
  type ValidationColumn,
  type ValidationImportResult,
  type ValidationRowError,
} from '../../shared/passengers/passengers';
import { CSV_BOM, csvLine, neutralizeCell } from '../../shared/handbooks/csv';
import { csvBatches, isEmptyRecord } from '../handbooks/csvStream';
import { importTime } from './importTime';
import { PipelinedMove, StagedMove, type RowSink } from './validationMove';
import { ImportFailedError } from '../handbooks/errorReplies';
import { declaredCharset, FileEncodingError, type FileCharset } from '../handbooks/textDecoding';

/**
 * The validation import of /import-data/tickets-validation (permission code 33): a semicolon-separated UTF-8
 * file from the fare system, streamed (read as it arrives and sent on in batches, so a file of millions of
 * rows goes through in bounded memory), row by row (docs/passengers.md):
 * - the good rows go into pass.fare_transaction, where the rows already there (the same time, validator and
 *   card) are skipped: re-importing a file adds nothing. On PostgreSQL batch by batch inside one transaction
 *   while the file is still read (PipelinedMove), on the embedded engine staged, then in one statement
 *   (StagedMove);
 * - a bad row is refused, the others still added: every refused row is counted, the first ones listed in the
 *   answer with line, column and reason, kept for the download (pass.import_refusal) and written to the
 *   pass-errors journal;
 * - a broken file (not UTF-8, another separator, a header without the required columns, CSV that cannot be
 *   read) is refused whole: nothing is added.
 * Either way the import history gets its row (who, when, file, rows, added, skipped, refused).
 */

/** A refusal of the whole file: a translated message, and the history row written. */
export class ImportRefused extends Error {
  constructor(
    readonly code: string,
    readonly detail: string,
    readonly result?: ValidationImportResult,
  ) {
    super(code);
  }
}

const MAX_AGE_MS = 3 * 366 * 86_400_000;

/** The uploaded file and the charset its Content-Type declares. */
interface FileUpload {
  bytes: Readable;
  charset: FileCharset | undefined;
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
    app.db.query<{ id: number; depot_number: number }>(
      'select distinct on (depot_number) id, depot_number from mgt.vehicles order by depot_number, id',
    ),
    app.db.query<{ validator_id: number; vehicle_id: number }>('select validator_id, vehicle_id from mgt.validator_vehicle'),
    app.db.query<{ route_id: number; route_short_name: string }>(
      'select distinct on (route_short_name) route_id, route_short_name from mgt.routes order by route_short_name, route_id',
    ),
    app.db.query<{ ticket_type_id: number; ticket_type_code: string }>(
      'select distinct on (ticket_type_code) ticket_type_id, ticket_type_code from cat.ticket_type order by ticket_type_code, ticket_type_id',
    ),
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

/** The header's columns by name; a file cut by another separator is named as such (an encoding, by the decoder). */
function readHeader(cells: string[]): Map<ValidationColumn, number> {
  const names = cells.map((cell) => cell.trim().toLowerCase());
  if (names.length === 1 && /[,\t|]/.test(names[0]))
    throw new ImportRefused('validation_import_separator', `line 1: ${names[0].slice(0, 80)}`);
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

  constructor(
    columns: Map<ValidationColumn, number>,
    private readonly known: Lookups,
    private readonly tzOffsetMinutes: number,
    private readonly now: number,
  ) {
    this.time = position(columns, 'time');
    this.validator = position(columns, 'validator');
    this.depot = position(columns, 'depot_number');
    this.route = position(columns, 'route');
    this.ticket = position(columns, 'ticket_type');
    this.card = position(columns, 'card_token');
    this.stop = position(columns, 'stop_id');
  }

  /** Checks the row and sends it to the sink when good (the decoder has refused a file not in UTF-8 or Windows-1251). */
  read(cells: string[], line: number, sink: RowSink): ValidationRowError | undefined {
    const timeText = cellAt(cells, this.time);
    if (!timeText) return refusal(line, 'time', 'Не указано время');
    const time = importTime(timeText, this.tzOffsetMinutes);
    if (!Number.isFinite(time)) return refusal(line, 'time', 'Время не в формате ДД.ММ.ГГГГ ЧЧ:ММ[:СС] или ISO 8601');
    if (time > this.now + 300_000 || time < this.now - MAX_AGE_MS) return refusal(line, 'time', 'Время в будущем или старше трёх лет');
    const validatorText = cellAt(cells, this.validator);
    if (!INT.test(validatorText) || Number(validatorText) > 2_147_483_647)
      return refusal(line, 'validator', 'Номер валидатора — целое число');
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
    if (card.length > CARD_TOKEN_MAX || CONTROL.test(card))
      return refusal(line, 'card_token', `Токен карты — до ${CARD_TOKEN_MAX} печатных символов`);
    const stopText = cellAt(cells, this.stop);
    let stop: number | null = null;
    if (stopText) {
      if (!INT.test(stopText) || !this.known.stops.has(Number(stopText)))
        return refusal(line, 'stop_id', `Остановки ${stopText.slice(0, 20)} нет в справочнике`);
      stop = Number(stopText);
    }
    sink.add(time, validator, vehicle, this.known.depotOf.get(vehicle) ?? 0, route, stop, ticket, card);
    return undefined;
  }
}

interface Who {
  userId: number | null;
  username: string | null;
}

/** The import history's row; `header` the file's, heading its refused rows' download. */
async function history(
  app: FastifyInstance,
  who: Who,
  file: string,
  counts: { rows: number; added: number; skipped: number; refused: number },
  status: 'done' | 'refused',
  message: string | null,
  header: string[] | null,
): Promise<number> {
  const [row] = await app.db.query<{ id: number }>(
    `insert into pass.import_run (user_id, username, file, rows, added, skipped, refused, status, message, header) values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10::jsonb) returning id`,
    [
      who.userId,
      who.username,
      file.slice(0, 255),
      counts.rows,
      counts.added,
      counts.skipped,
      counts.refused,
      status,
      message,
      header && JSON.stringify(header),
    ],
  );
  return row.id;
}

/** A refused row: its fault, and its cells as the file had them (for the download). */
interface Refusal {
  error: ValidationRowError;
  cells: string[];
}

/** The refused rows in the pass-errors journal (at most IMPORT_ERRORS_JOURNALED per import). */
async function journalRefusals(app: FastifyInstance, importId: number, file: string, refusals: readonly Refusal[]): Promise<void> {
  if (!refusals.length) return;
  await app.eventsWriter.vehicleEvents(
    refusals.slice(0, IMPORT_ERRORS_JOURNALED).map(({ error: e }) => ({
      kind: 'pass_error',
      details: {
        source: 'validation_import',
        import_id: importId,
        file: file.slice(0, 255),
        line: e.line,
        column: e.column,
        reason: e.reason,
      },
    })),
  );
}

/** Refused rows written per statement of keepRefusals. */
const REFUSALS_PER_STATEMENT = 5000;

/** The refused rows kept for the download, a few statements per file (never one per row). */
async function keepRefusals(app: FastifyInstance, importId: number, refusals: readonly Refusal[]): Promise<void> {
  for (let i = 0; i < refusals.length; i += REFUSALS_PER_STATEMENT) {
    await app.db.query(
      `insert into pass.import_refusal (import_id, line, column_name, reason, cells)
       select $1, line, col, reason, cells from jsonb_to_recordset($2::jsonb) as x(line int, col text, reason text, cells jsonb)`,
      [
        importId,
        JSON.stringify(
          refusals
            .slice(i, i + REFUSALS_PER_STATEMENT)
            .map(({ error: e, cells }) => ({ line: e.line, col: e.column, reason: e.reason, cells })),
        ),
      ],
    );
  }
}

/** What reading the file found: its header, its rows, the refused ones (the first IMPORT_REFUSALS_KEPT kept). */
interface FileRead {
  header: string[];
  rows: number;
  refused: number;
  refusals: Refusal[];
}

/**
 * Reads the file into `sink` as it arrives: the good rows sent, the refused ones counted and kept. Refuses a
 * header without the required columns, a file that is not CSV or not UTF-8, and an empty one.
 */
async function readFile(source: FileUpload, known: Lookups, tzOffsetMinutes: number, sink: RowSink, read: FileRead): Promise<void> {
  const now = Date.now();
  let reader: RowReader | undefined;
  let line = 0;
  try {
    for await (const batch of csvBatches(source.bytes, source.charset)) {
      for (const cells of batch) {
        line += 1;
        if (!reader) {
          reader = new RowReader(readHeader(cells), known, tzOffsetMinutes, now);
          read.header = cells;
          continue;
        }
        if (isEmptyRecord(cells)) continue;
        read.rows += 1;
        const fault = reader.read(cells, line, sink);
        if (fault) {
          read.refused += 1;
          if (read.refusals.length < IMPORT_REFUSALS_KEPT) read.refusals.push({ error: fault, cells });
        }
      }
      await sink.maybeFlush();
    }
  } catch (error) {
    if (error instanceof ImportFailedError) throw new ImportRefused('validation_import_broken', error.errors[0]?.message ?? 'broken file');
    if (error instanceof FileEncodingError) throw new ImportRefused('validation_import_encoding', `line ${error.line}`);
    throw error;
  }
  if (!reader) throw new ImportRefused('import_file_required', 'empty file');
}

/** A statement of the import's transaction (a batch's move, the rollups) may take this long on a loaded server. */
const IMPORT_STATEMENT_MS = 120_000;

/** Reads the file and moves its good rows (none of a broken file), giving the rows added. */
async function load(app: FastifyInstance, source: FileUpload, known: Lookups, tzOffsetMinutes: number, read: FileRead): Promise<number> {
  if (app.db.engine === 'postgres') {
    // a connection of the pool outside the reports' admission (an import is one long transaction, not a report)
    return app.db.withLimit(IMPORT_STATEMENT_MS).transaction(async (tx) => {
      const move = new PipelinedMove(tx);
      await move.open();
      try {
        await readFile(source, known, tzOffsetMinutes, move, read);
        const added = await move.finish();
        app.log.info(
          { rows: read.rows, added, refused: read.refused, waitedForDatabaseMs: Math.round(move.waitedMs) },
          'validation import moved',
        );
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
    return await stage.finish();
  } finally {
    await stage.drop();
  }
}

export async function importValidations(
  app: FastifyInstance,
  request: FastifyRequest,
  source: Readable,
  file: string,
  tzOffsetMinutes: number,
): Promise<ValidationImportResult> {
  const who: Who = { userId: request.user?.id ?? null, username: request.user?.username ?? null };
  const known = await lookups(app);
  const read: FileRead = { header: [], rows: 0, refused: 0, refusals: [] };
  let added: number;
  try {
    added = await load(app, { bytes: source, charset: declaredCharset(request.headers['content-type']) }, known, tzOffsetMinutes, read);
  } catch (error) {
    if (!(error instanceof ImportRefused)) throw error;
    const { rows, refused } = read;
    const id = await history(
      app,
      who,
      file,
      { rows, added: 0, skipped: 0, refused },
      'refused',
      `${error.code}: ${error.detail}`.slice(0, 500),
      null,
    );
    throw new ImportRefused(error.code, error.detail, { id, rows, added: 0, skipped: 0, refused, errors: [] });
  }
  const { rows, refused, refusals } = read;
  const skipped = rows - refused - added;
  const id = await history(
    app,
    who,
    file,
    { rows, added, skipped, refused },
    'done',
    refused ? `${refused} row(s) refused` : null,
    refused ? read.header : null,
  );
  await keepRefusals(app, id, refusals);
  await journalRefusals(app, id, file, refusals);
  return { id, rows, added, skipped, refused, errors: refusals.slice(0, IMPORT_ERRORS_LISTED).map((r) => r.error) };
}

/** The download's columns after the file's own: where the row was and why it was refused. */
const REFUSAL_COLUMNS = ['Строка', 'Столбец', 'Причина'];

/**
 * The refused rows of an import as CSV: the file's header and cells (corrected, the file imports again: the
 * added columns are not the import's), then line, column and reason; every cell neutralised against formula
 * injection. Null when the import kept no refused row.
 */
export async function refusedRowsCsv(app: FastifyInstance, importId: number): Promise<string | null> {
  const [run] = await app.db.query<{ header: string[] | null }>('select header from pass.import_run where id = $1', [importId]);
  if (!run?.header) return null;
  const rows = await app.db
    .longRunning()
    .query<{ line: number; column_name: string; reason: string; cells: string[] }>(
      'select line, column_name, reason, cells from pass.import_refusal where import_id = $1 order by line',
      [importId],
    );
  if (!rows.length) return null;
  const line = (cells: readonly string[]) => csvLine(cells.map(neutralizeCell));
  return (
    CSV_BOM +
    line([...run.header, ...REFUSAL_COLUMNS]) +
    rows.map((r) => line([...run.header!.map((_, i) => r.cells[i] ?? ''), String(r.line), r.column_name, r.reason])).join('')
  );
}
