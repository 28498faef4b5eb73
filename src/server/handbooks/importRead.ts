import type { ImportRowError } from '../../shared/handbooks/api';
import { restoreCell } from '../../shared/handbooks/csv';
import { columnByName, columnsOf, isAutoKey, type Column } from '../../shared/handbooks/fields';
import { MSG, missingCellsMessage } from '../../shared/handbooks/messages';
import { truncate } from '../../shared/format';
import type { HandbookSchema } from '../../shared/handbooks/types';
import { columnRule, rulesOf, validateRow, type ColumnRule, type Row } from '../../shared/handbooks/validation';
import { ImportFailedError } from './errorReplies';
import { isEmptyRecord } from './csvStream';

/** Errors listed in a refused import; the rest are only counted (moreErrors). */
export const IMPORT_ERRORS_MAX = 100;
/** A column named in an error is the file's own text: only this much of it comes back. */
const COLUMN_EXCERPT = 60;

/** Collects row errors up to the cap. */
export class ErrorList {
  readonly list: ImportRowError[] = [];
  more = 0;

  add(row: number, column: string, message: string): void {
    if (this.list.length < IMPORT_ERRORS_MAX) this.list.push({ row, column: truncate(column, COLUMN_EXCERPT), message });
    else this.more += 1;
  }

  get count(): number {
    return this.list.length + this.more;
  }

  get empty(): boolean {
    return this.count === 0;
  }

  fail(): ImportFailedError {
    return new ImportFailedError(this.list, this.more);
  }
}

/** A written column: where its cell is in a record (-1: derived) and the rule that reads it. */
export interface Slot {
  column: Column;
  cell: number;
  rule: ColumnRule;
}

export interface HeaderPlan {
  /** Column per cell position (undefined: unknown header, already reported). */
  cells: (Column | undefined)[];
  /** Columns written, in order, with their cells. */
  slots: Slot[];
  /** The columns present, for validateRow. */
  present: Set<string>;
  /**
   * Cross-field rules or dependent flags need the whole row (validateRow); otherwise each cell is read by
   * its own rule straight into the batch arrays, which is what makes million-row files fast.
   */
  wholeRow: boolean;
  /** Positions (in slots) of the columns that must not repeat within the file. */
  unique: number[];
}

/** Reads the header line against the schema: unknown names, missing required columns, import keys. */
export function planHeaders(schema: HandbookSchema, header: string[], errors: ErrorList): HeaderPlan {
  const cells = header.map((name) => columnByName(schema, name.trim()));
  header.forEach((name, i) => {
    if (!cells[i]) errors.add(1, name.trim(), MSG.unknownColumn);
  });
  const present = new Set(cells.filter((c): c is Column => c !== undefined).map((column) => column.name));
  const rules = new Map(rulesOf(schema).map((rule) => [rule.column.name, rule]));
  for (const rule of rules.values()) {
    const { field } = rule.column;
    const hasDefault = 'default' in field && field.default !== undefined;
    if (!present.has(rule.column.name) && !hasDefault && rule.check(null) !== undefined) errors.add(1, rule.column.name, MSG.missingColumn);
  }
  for (const key of schema.import.keys ?? []) if (!present.has(key)) errors.add(1, key, MSG.missingColumn);

  const keyColumn = columnByName(schema, schema.primaryKey)!;
  const slots: Slot[] = [];
  let derived = false;
  for (const column of columnsOf(schema)) {
    const { field } = column;
    const isKey = column.name === schema.primaryKey;
    // A dependent flag is written only when all the fields it follows are in the file.
    if (field.kind === 'boolean' && field.setWhenFilled) {
      if (field.setWhenFilled.every((name) => present.has(name))) {
        derived = true;
        slots.push({ column, cell: -1, rule: rules.get(column.name)! });
      }
      continue;
    }
    if (!present.has(column.name) || (!isKey && !rules.has(column.name))) continue;
    const rule = isKey && isAutoKey(keyColumn.field) ? columnRule(keyColumn) : rules.get(column.name)!;
    slots.push({ column, cell: cells.findIndex((c) => c?.name === column.name), rule });
  }
  const uniqueNames =
    schema.import.mode === 'merge' ? (schema.import.keys ?? []) : schema.import.mode === 'upsert' ? [schema.primaryKey] : [];
  const unique = uniqueNames.map((name) => slots.findIndex((slot) => slot.column.name === name)).filter((i) => i >= 0);
  return {
    cells,
    slots,
    present,
    wholeRow: derived || (schema.rules?.length ?? 0) > 0,
    unique: unique.length === uniqueNames.length ? unique : [],
  };
}

/** Where validated rows go: a staging table, or the handbook itself (importDirect.ts). */
export interface RowSink {
  /** Buffers a row (values in slot order); true when a batch is full and should be flushed. */
  add(line: number, values: readonly unknown[]): boolean;
  /** Writes the buffered batch; one batch may be in flight while the next is read. */
  flush(): Promise<void>;
  /** Everything written. */
  finish(): Promise<void>;
}

export interface ReadResult {
  plan: HeaderPlan;
  rows: number;
  sink: RowSink;
}

/**
 * Reads a file's records: header line, then each record through the column rules into the sink, file
 * line numbers on every error. After the first error nothing more is written, the rest is only checked.
 * Throws the import failure when anything was wrong.
 */
export async function readRecords(
  schema: HandbookSchema,
  batches: AsyncIterable<string[][]>,
  errors: ErrorList,
  openSink: (plan: HeaderPlan) => Promise<RowSink>,
): Promise<ReadResult> {
  let plan: HeaderPlan | undefined;
  let sink: RowSink | undefined;
  let line = 0;
  let rows = 0;
  const seenKeys = new Set<string>();

  for await (const batch of batches) {
    for (const cells of batch) {
      line += 1;
      if (!plan) {
        plan = planHeaders(schema, cells, errors);
        continue;
      }
      if (isEmptyRecord(cells)) continue;
      rows += 1;
      const before = errors.count;
      const values = readRecord(schema, plan, cells, line, errors);
      if (plan.unique.length && plan.unique.every((j) => values[j] !== null && values[j] !== undefined)) {
        const signature = plan.unique.map((j) => String(values[j])).join('\u0001');
        if (seenKeys.has(signature)) errors.add(line, plan.unique.map((j) => plan!.slots[j].column.name).join(', '), MSG.duplicateInFile);
        else seenKeys.add(signature);
      }
      if (errors.count === before && errors.empty) {
        sink ??= await openSink(plan);
        if (sink.add(line, values)) await sink.flush();
      }
    }
  }
  if (!plan || rows === 0) errors.add(Math.max(line, 1), '', MSG.emptyFile);
  if (!errors.empty) throw errors.fail();
  sink ??= await openSink(plan!);
  await sink.finish();
  if (!errors.empty) throw errors.fail();
  return { plan: plan!, rows, sink };
}

/** One record into the written columns' values, reporting its errors. */
function readRecord(schema: HandbookSchema, plan: HeaderPlan, cells: string[], line: number, errors: ErrorList): unknown[] {
  const { slots } = plan;
  const values = new Array<unknown>(slots.length);
  // A short row would write NULL over the columns it lacks: refused whole, like a long one.
  if (cells.length < plan.cells.length) {
    errors.add(line, '', missingCellsMessage(cells.length, plan.cells.length));
    return values;
  }
  if (cells.length > plan.cells.length && cells.slice(plan.cells.length).some((cell) => cell.trim() !== '')) {
    errors.add(line, '', MSG.extraCells);
  }
  if (plan.wholeRow) {
    const input: Row = {};
    plan.cells.forEach((column, i) => {
      if (column) input[column.name] = restoreCell(cells[i] ?? '');
    });
    const { value, errors: rowErrors } = validateRow(schema, input, plan.present);
    for (const column in rowErrors) errors.add(line, column, rowErrors[column]);
    slots.forEach((slot, j) => {
      values[j] = slot.column.name in value ? value[slot.column.name] : slot.rule.normalize(input[slot.column.name]);
    });
    return values;
  }
  for (let j = 0; j < slots.length; j++) {
    const slot = slots[j];
    const value = slot.rule.normalize(restoreCell(cells[slot.cell] ?? ''));
    const message = slot.rule.check(value);
    if (message) errors.add(line, slot.column.name, message);
    values[j] = value;
  }
  return values;
}
