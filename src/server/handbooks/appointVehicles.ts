import type { Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppointResponse } from '../../shared/handbooks/api';
import { restoreCell } from '../../shared/handbooks/csv';
import type { Column } from '../../shared/handbooks/fields';
import { MSG, missingCellsMessage, type MessageKey } from '../../shared/handbooks/messages';
import type { HandbookSchema } from '../../shared/handbooks/types';
import { columnRule, type ColumnRule } from '../../shared/handbooks/validation';
import { fail } from '../http/errors';
import { csvRecords, isEmptyRecord } from './csvStream';
import { declaredCharset } from './textDecoding';
import { ErrorList } from './importRead';

/** Dispatch files are a day's assignments: thousands of rows. Beyond this it is not such a file. */
export const APPOINT_MAX_ROWS = 100_000;

/** The dispatch columns (spec section 3, Vehicle_Task import), as fields so the usual rules check them. */
const APPOINT_COLUMNS: Column[] = [
  { name: 'date', role: 'value', field: { kind: 'date', name: 'date', label: 'Дата', required: true } },
  { name: 'route_number', role: 'value', field: { kind: 'text', name: 'route_number', label: 'Номер маршрута', required: true } },
  { name: 'grafic', role: 'value', field: { kind: 'int', name: 'grafic', label: 'Выход', required: true, min: 0, max: 2147483647 } },
  {
    name: 'depot_number',
    role: 'value',
    field: { kind: 'int', name: 'depot_number', label: 'Гаражный номер', required: true, min: 0, max: 2147483647 },
  },
  { name: 'start_time', role: 'value', field: { kind: 'minutes', name: 'start_time', label: 'Начало', required: true } },
  { name: 'end_time', role: 'value', field: { kind: 'minutes', name: 'end_time', label: 'Окончание', required: true } },
];
const RULES: ColumnRule[] = APPOINT_COLUMNS.map(columnRule);
const NAMES = APPOINT_COLUMNS.map((column) => column.name);

/** Message codes mgt.assign_or_replace_vehicle raises, as the user reads them. */
const PROCEDURE_MESSAGES: Record<string, MessageKey> = {
  route_not_found: 'routeNotFound',
  variant_not_found: 'variantNotFound',
  vehicle_not_found: 'vehicleNotFound',
  exit_not_found: 'exitNotFound',
  driver_not_found: 'driverNotFound',
};

/** Where a procedure refusal points in the file. */
const PROCEDURE_COLUMNS: Record<string, string> = {
  route_not_found: 'route_number',
  variant_not_found: 'date',
  vehicle_not_found: 'depot_number',
  exit_not_found: 'grafic',
  driver_not_found: 'depot_number',
};

interface Assignment {
  line: number;
  values: unknown[];
}

/**
 * POST /api/table/import/appoint-vehicles-to-route: date;route_number;grafic;depot_number;start_time;end_time,
 * the header line optional (recognised by its first cell 'date'), columns in that order unless a header
 * orders them otherwise. Each row goes through mgt.assign_or_replace_vehicle in one transaction, each
 * under a savepoint so every refused row is reported; any refusal rolls the whole file back.
 */
export async function appointVehicles(
  app: FastifyInstance,
  request: FastifyRequest,
  schema: HandbookSchema,
  source: Readable,
): Promise<AppointResponse> {
  const errors = new ErrorList();
  const assignments: Assignment[] = [];
  let order = NAMES.map((_, i) => i);
  let line = 0;
  for await (const cells of csvRecords(source, declaredCharset(request.headers['content-type']))) {
    line += 1;
    if (line === 1 && cells[0]?.trim().toLowerCase() === 'date') {
      const positions = NAMES.map((name) => cells.findIndex((cell) => cell.trim().toLowerCase() === name));
      NAMES.forEach((name, i) => {
        if (positions[i] < 0) errors.add(1, name, MSG.missingColumn);
      });
      order = positions;
      continue;
    }
    if (isEmptyRecord(cells)) continue;
    if (assignments.length >= APPOINT_MAX_ROWS) throw fail(400, 'bad_request', `at most ${APPOINT_MAX_ROWS} rows`);
    const expected = Math.max(...order) + 1;
    if (cells.length < expected) {
      errors.add(line, '', missingCellsMessage(cells.length, expected));
      continue;
    }
    const values = RULES.map((rule, i) => {
      const value = rule.normalize(restoreCell(cells[order[i]] ?? ''));
      const message = rule.check(value);
      if (message) errors.add(line, rule.column.name, message);
      return value;
    });
    assignments.push({ line, values });
  }
  if (!assignments.length) errors.add(Math.max(line, 1), '', MSG.emptyFile);
  if (!errors.empty) throw errors.fail();

  const result: AppointResponse = { rows: assignments.length, assigned: 0, replaced: 0, unchanged: 0 };
  await app.db.transaction(async (tx) => {
    for (const { line: row, values } of assignments) {
      await tx.query('savepoint appoint_row');
      try {
        const [{ outcome }] = await tx.query<{ outcome: 'assigned' | 'replaced' | 'unchanged' }>(
          'select mgt.assign_or_replace_vehicle($1::date, $2::text, $3::int, $4::int, $5::int, $6::int) as outcome',
          values,
        );
        result[outcome] += 1;
        await tx.query('release savepoint appoint_row');
      } catch (error) {
        const code = error instanceof Error ? error.message : '';
        const key = PROCEDURE_MESSAGES[code];
        if (!key) throw error;
        await tx.query('rollback to savepoint appoint_row');
        errors.add(row, PROCEDURE_COLUMNS[code], MSG[key]);
      }
    }
    if (!errors.empty) throw errors.fail();
    await app.journal.record(request, { action: 'handbook.import', object: schema.type, after: result }, tx);
  });
  return result;
}
