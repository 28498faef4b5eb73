import { describe, expect, it } from 'vitest';
import { HANDBOOKS } from '../../schemas/index';
import { failureMessages, fileSize, importCounts, importUrl, isCsvFile, parseImportFailure } from '../../src/client/handbooks/importModel';

describe('handbook import dialog model', () => {
  it('posts to /api/table/import?type=, or to the procedure path of vehicle assignment', () => {
    expect(importUrl(HANDBOOKS.stops)).toBe('/api/table/import?type=stops');
    expect(importUrl(HANDBOOKS.holidays)).toBe('/api/table/import?type=holidays');
    expect(HANDBOOKS.vehicletask.import.mode).toBe('procedure');
    expect(importUrl(HANDBOOKS.vehicletask)).toBe('/api/table/import/appoint-vehicles-to-route?type=vehicletask');
  });

  it('hides the import of vehicle replacement only', () => {
    expect(
      Object.values(HANDBOOKS)
        .filter((schema) => schema.import.hidden)
        .map((schema) => schema.type),
    ).toEqual(['replacevehicle']);
  });

  it('reads the row-numbered errors of a refused file', () => {
    const failure = parseImportFailure(400, {
      messages: ['import_failed'],
      errors: [
        { row: 3, column: 'stop_name', message: 'Это обязательное поле' },
        { row: 5, column: '', message: 'Лишние значения в строке' },
        { nonsense: true },
      ],
      moreErrors: 12,
    });
    expect(failure).toEqual({
      kind: 'rows',
      status: 400,
      messages: ['import_failed'],
      errors: [
        { row: 3, column: 'stop_name', message: 'Это обязательное поле' },
        { row: 5, column: '', message: 'Лишние значения в строке' },
      ],
      moreErrors: 12,
    });
    // the row list says it all: no extra line under the headline
    expect(failureMessages(failure, 'ru')).toEqual([]);
    expect(parseImportFailure(400, { messages: ['import_failed'], errors: [] })).toMatchObject({ kind: 'rows', moreErrors: 0 });
  });

  it('translates other refusals, and says what a status means when the server sent nothing', () => {
    expect(failureMessages(parseImportFailure(403, { messages: ['forbidden'] }), 'ru')).toEqual(['Доступ запрещен']);
    expect(failureMessages(parseImportFailure(400, { messages: ['something_odd'] }), 'ru')).toEqual(['SOMETHING_ODD']);
    expect(failureMessages(parseImportFailure(413, null), 'ru')).toEqual(['Слишком большой запрос']);
    expect(failureMessages(parseImportFailure(0, null), 'ru')).toEqual(['Ошибка']);
    expect(failureMessages(parseImportFailure(503, '<html>'), 'ru')).toEqual(['Сервис временно недоступен']);
    expect(failureMessages(parseImportFailure(500, {}), 'en')).toEqual(['Server error']);
    expect(failureMessages(parseImportFailure(404, { messages: ['not_found'] }), 'en')).toEqual(['Not found']);
  });

  it('reports the counts of an import and of the assignment procedure', () => {
    expect(importCounts({ rows: 3, inserted: 2, updated: 1, deleted: 0 })).toEqual([
      { key: 'rows', value: 3 },
      { key: 'inserted', value: 2 },
      { key: 'updated', value: 1 },
      { key: 'deleted', value: 0 },
    ]);
    expect(importCounts({ rows: 2, assigned: 1, replaced: 1, unchanged: 0 }).map((count) => count.key)).toEqual([
      'rows',
      'assigned',
      'replaced',
      'unchanged',
    ]);
  });

  it('accepts CSV files by name or type', () => {
    expect(isCsvFile({ name: 'stops.CSV', type: '' })).toBe(true);
    expect(isCsvFile({ name: 'export', type: 'text/csv' })).toBe(true);
    expect(isCsvFile({ name: 'photo.png', type: 'image/png' })).toBe(false);
  });

  it('shows file sizes in kilobytes or megabytes', () => {
    expect(fileSize(2048, 'en')).toBe('2 kB');
    expect(fileSize(3.5 * 1024 * 1024, 'en')).toBe('3.5 MB');
    expect(fileSize(10, 'en')).toBe('0.1 kB');
  });
});
