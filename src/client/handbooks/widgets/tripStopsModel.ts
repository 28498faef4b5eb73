import type { TripStop, TripStopsSaveRequest } from '../../../shared/handbooks/api';
import { HANDBOOKS } from '../../../../schemas/index';

/**
 * The trip stops editor's state without React: rows in order, moved, added, removed and numbered 1..n
 * on save (spec section 3, Trip_Stops; POST /api/table/tripstops replaces the trip's stops).
 */
export type Kkp = TripStop['kkp'];

export interface StopRow {
  /** A stable React key: the saved row's id, or a fresh one for a row added here. */
  key: string;
  stop_id: number | null;
  stop_name: string;
  kkp: Kkp;
}

/** kkp choices as the Trip_Stops schema lists them: empty, 'B' Начало рейса, 'E' Конец рейса. */
export const KKP_OPTIONS: readonly { value: Kkp; label: string }[] = (() => {
  const field = HANDBOOKS.tripstops.fields.find((item) => item.name === 'kkp');
  if (field?.kind !== 'list') throw new Error('tripstops.kkp is not a list');
  return field.options.map((option) => ({ value: option.value as Kkp, label: option.label }));
})();

let fresh = 0;
export const newRowKey = (): string => `new-${++fresh}`;

export function rowsFromServer(list: readonly TripStop[]): StopRow[] {
  return [...list]
    .sort((a, b) => a.stop_sequence - b.stop_sequence)
    .map((stop, i) => ({
      key: stop.id !== undefined ? `id-${stop.id}` : `row-${i}`,
      stop_id: stop.stop_id,
      stop_name: stop.stop_name ?? '',
      kkp: stop.kkp ?? null,
    }));
}

/** The row moved by `delta` places (-1 up, +1 down); out of range leaves the list as it is. */
export function moveRow<T>(rows: readonly T[], index: number, delta: number): T[] {
  const target = index + delta;
  if (index < 0 || index >= rows.length || target < 0 || target >= rows.length) return [...rows];
  const next = [...rows];
  const [row] = next.splice(index, 1);
  next.splice(target, 0, row);
  return next;
}

export function removeRow<T>(rows: readonly T[], index: number): T[] {
  return rows.filter((_, i) => i !== index);
}

/** A new empty row at the end (the stop is picked afterwards). */
export function addRow(rows: readonly StopRow[]): StopRow[] {
  return [...rows, { key: newRowKey(), stop_id: null, stop_name: '', kkp: null }];
}

export function updateRow(rows: readonly StopRow[], index: number, patch: Partial<Omit<StopRow, 'key'>>): StopRow[] {
  return rows.map((row, i) => (i === index ? { ...row, ...patch } : row));
}

/** The body of POST /api/table/tripstops: the rows in their order, numbered 1..n. */
export function saveRequest(tripId: number, rows: readonly StopRow[]): TripStopsSaveRequest {
  return {
    trip_id: tripId,
    // an unpicked stop goes as null: the server refuses it with its per-stop message
    stops: rows.map((row, i) => ({ stop_id: row.stop_id as number, stop_sequence: i + 1, kkp: row.kkp })),
  };
}

/** Whether the rows differ from the saved ones (order, stop or kkp). */
export function hasChanges(rows: readonly StopRow[], saved: readonly StopRow[]): boolean {
  if (rows.length !== saved.length) return true;
  return rows.some((row, i) => row.stop_id !== saved[i].stop_id || row.kkp !== saved[i].kkp);
}

/**
 * Per-row messages of a refused save: the server names them 'stops.<index>.<field>' (index in the posted
 * order, which is the rows' order). Other keys go to `general`.
 */
export interface StopErrors {
  rows: Record<number, Partial<Record<'stop_id' | 'stop_sequence' | 'kkp', string>>>;
  general: string[];
}

export function stopErrors(body: unknown): StopErrors {
  const result: StopErrors = { rows: {}, general: [] };
  const errors = body && typeof body === 'object' ? (body as { errors?: unknown }).errors : undefined;
  if (!errors || typeof errors !== 'object' || Array.isArray(errors)) return result;
  for (const [key, message] of Object.entries(errors as Record<string, unknown>)) {
    if (typeof message !== 'string') continue;
    const match = /^stops\.(\d+)\.(stop_id|stop_sequence|kkp)$/.exec(key);
    if (match) {
      const index = Number(match[1]);
      (result.rows[index] ??= {})[match[2] as 'stop_id' | 'stop_sequence' | 'kkp'] = message;
    } else {
      result.general.push(message);
    }
  }
  return result;
}
