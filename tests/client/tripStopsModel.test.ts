import { describe, expect, it } from 'vitest';
import {
  addRow,
  hasChanges,
  KKP_OPTIONS,
  moveRow,
  removeRow,
  rowsFromServer,
  saveRequest,
  stopErrors,
  updateRow,
} from '../../src/client/handbooks/widgets/tripStopsModel';

const server = [
  { id: 12, stop_id: 3, stop_sequence: 2, kkp: null, stop_name: 'Вторая' },
  { id: 11, stop_id: 1, stop_sequence: 1, kkp: 'B' as const, stop_name: 'Первая' },
  { id: 13, stop_id: 7, stop_sequence: 5, kkp: 'E' as const, stop_name: 'Третья' },
];

describe('trip stops editor model', () => {
  it('reads the server rows in sequence order', () => {
    expect(rowsFromServer(server).map((row) => [row.key, row.stop_id, row.stop_name, row.kkp])).toEqual([
      ['id-11', 1, 'Первая', 'B'],
      ['id-12', 3, 'Вторая', null],
      ['id-13', 7, 'Третья', 'E'],
    ]);
  });

  it('offers the kkp choices of the Trip_Stops schema: empty, B, E', () => {
    expect(KKP_OPTIONS).toEqual([
      { value: null, label: '—' },
      { value: 'B', label: 'Начало рейса' },
      { value: 'E', label: 'Конец рейса' },
    ]);
  });

  it('moves a row up and down, and leaves the ends alone', () => {
    const rows = ['a', 'b', 'c'];
    expect(moveRow(rows, 2, -1)).toEqual(['a', 'c', 'b']);
    expect(moveRow(rows, 0, 1)).toEqual(['b', 'a', 'c']);
    expect(moveRow(rows, 0, -1)).toEqual(rows);
    expect(moveRow(rows, 2, 1)).toEqual(rows);
    expect(moveRow(rows, 1, -1)).not.toBe(rows);
    expect(rows).toEqual(['a', 'b', 'c']);
  });

  it('removes and adds rows; an added row has its own key and no stop', () => {
    const rows = rowsFromServer(server);
    expect(removeRow(rows, 1).map((row) => row.stop_id)).toEqual([1, 7]);
    const added = addRow(addRow(rows));
    expect(added).toHaveLength(5);
    expect(added[3]).toMatchObject({ stop_id: null, stop_name: '', kkp: null });
    expect(new Set(added.map((row) => row.key)).size).toBe(5);
  });

  it('numbers the stops 1..n in the order shown when saving', () => {
    let rows = rowsFromServer(server);
    rows = addRow(rows);
    rows = updateRow(rows, 3, { stop_id: 42, stop_name: 'Новая', kkp: 'E' });
    rows = updateRow(rows, 2, { kkp: null });
    rows = moveRow(rows, 3, -1);
    expect(saveRequest(9, rows)).toEqual({
      trip_id: 9,
      stops: [
        { stop_id: 1, stop_sequence: 1, kkp: 'B' },
        { stop_id: 3, stop_sequence: 2, kkp: null },
        { stop_id: 42, stop_sequence: 3, kkp: 'E' },
        { stop_id: 7, stop_sequence: 4, kkp: null },
      ],
    });
  });

  it('sends an unpicked stop as null, for the server to refuse', () => {
    expect(saveRequest(1, addRow([])).stops).toEqual([{ stop_id: null, stop_sequence: 1, kkp: null }]);
  });

  it('notices changes of order, stop and kkp, and their undoing', () => {
    const saved = rowsFromServer(server);
    expect(hasChanges(saved, saved)).toBe(false);
    expect(hasChanges(moveRow(saved, 0, 1), saved)).toBe(true);
    expect(hasChanges(moveRow(moveRow(saved, 0, 1), 1, -1), saved)).toBe(false);
    expect(hasChanges(updateRow(saved, 1, { kkp: 'E' }), saved)).toBe(true);
    expect(hasChanges(updateRow(saved, 1, { stop_id: 99 }), saved)).toBe(true);
    expect(hasChanges(addRow(saved), saved)).toBe(true);
    expect(hasChanges(removeRow(saved, 2), saved)).toBe(true);
  });

  it('puts the per-stop messages of a refusal on their rows', () => {
    expect(
      stopErrors({
        messages: ['validation_failed'],
        errors: {
          'stops.0.kkp': 'Недопустимое значение',
          'stops.1.stop_id': 'Это обязательное поле',
          'stops.3.stop_sequence': 'Значение повторяется в файле',
          trip_id: 'Рейс не найден',
        },
      }),
    ).toEqual({
      rows: {
        0: { kkp: 'Недопустимое значение' },
        1: { stop_id: 'Это обязательное поле' },
        3: { stop_sequence: 'Значение повторяется в файле' },
      },
      general: ['Рейс не найден'],
    });
    expect(stopErrors({ messages: ['bad_request'] })).toEqual({ rows: {}, general: [] });
    expect(stopErrors(null)).toEqual({ rows: {}, general: [] });
  });
});
