import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HANDBOOK_SECTIONS_ON } from '../src/shared/modules';
import { HANDBOOKS } from '../schemas/index';
import { CSV_BOM, csvLine, exportColumns, formatCell } from '../src/shared/handbooks/csv';
import { columnByName, columnsOf, displayKey, type Column } from '../src/shared/handbooks/fields';
import type { HandbookSchema } from '../src/shared/handbooks/types';
import type { Row } from '../src/shared/handbooks/validation';
import { ENGINES } from './helpers/engines';
import { startTestApp, type TestApp } from './helpers/testApp';
import { api, preparedExample, tableCount } from './tableFixtures';

/**
 * Generated from the schemas: every enabled handbook goes through the API the way the console uses it —
 * create from the schema's example row, list, filter, sort by each column, edit, delete, import the
 * example as CSV, export (BOM and headers).
 */
const sortable = (column: Column) => column.field.kind !== 'polygon' && column.field.kind !== 'line';

/** A value that differs from the stored one and still passes the rules, for the edit step. */
function editedValue(schema: HandbookSchema, row: Row): [string, unknown] | undefined {
  for (const column of columnsOf(schema)) {
    const { field } = column;
    if (column.role !== 'value' || field.readOnly || column.name === schema.primaryKey) continue;
    if (field.kind === 'text' && !field.pattern)
      return [column.name, `${String(row[column.name] ?? 'x').slice(0, (field.maxLength ?? 40) - 2)}-2`.replace(/^-/, 'x')];
    if (field.kind === 'text') return [column.name, 'Edited_2'];
    if (field.kind === 'int' && field.min !== undefined) return [column.name, Number(row[column.name] ?? 0) + 1];
    if (field.kind === 'minutes') return [column.name, '23:59'];
  }
  return undefined;
}

/** Values equal as the API gives them back (numbers may come as numbers, dates as strings). */
function sameValue(column: Column, sent: unknown, stored: unknown): boolean {
  if (sent === null || sent === undefined)
    return stored === null || stored === undefined || column.field.kind === 'boolean' || column.field.kind === 'color';
  if (column.field.kind === 'polygon' || column.field.kind === 'line')
    return typeof stored === 'string' && stored.startsWith(String(sent).split('(')[0].trim());
  return String(stored) === String(sent);
}

describe.each(ENGINES)('handbook round trips on %s', (engine) => {
  let t: TestApp;
  let call: ReturnType<typeof api>;
  beforeAll(async () => {
    t = await startTestApp(engine);
    call = api(t, await t.login('admin', 'admin123'));
  });
  afterAll(() => t.close());

  describe.each(HANDBOOK_SECTIONS_ON.map((type) => [type]))('%s', (type) => {
    const schema = HANDBOOKS[type];
    const pk = schema.primaryKey;
    let example: Row;
    let saved: Row;

    it('creates a record from the example row', async () => {
      example = await preparedExample(t.db, schema);
      const response = await call('/api/table/element/save', { config: { type }, row: example });
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      saved = response.body;
      expect(saved[pk]).toBeDefined();
      for (const [name, value] of Object.entries(example)) {
        const column = columnByName(schema, name)!;
        expect(sameValue(column, value, saved[name]), `${name}: sent ${String(value)}, stored ${String(saved[name])}`).toBe(true);
      }
      for (const column of columnsOf(schema)) if (column.field.kind === 'ref') expect(saved).toHaveProperty(displayKey(column.name));
    });

    it('lists it, by key and in the default page', async () => {
      const byKey = await call('/api/table/list', { config: { type }, filters: { [pk]: [saved[pk]] } });
      expect(byKey.status).toBe(200);
      expect(byKey.body.count).toBe(1);
      expect((byKey.body.list as Row[])[0][pk]).toEqual(saved[pk]);
      const page = await call('/api/table/list', { config: { type }, page: 1, perPage: 5 });
      expect(page.status).toBe(200);
      expect(page.body.count).toBe(await tableCount(t.db, schema));
      expect((page.body.list as Row[]).length).toBeLessThanOrEqual(5);
    });

    it('filters by a column of the record', async () => {
      const column = columnsOf(schema).find(
        (c) =>
          c.name !== pk &&
          c.role === 'value' &&
          saved[c.name] !== null &&
          ['text', 'int', 'ref', 'date', 'list', 'minutes'].includes(c.field.kind),
      );
      if (!column) return;
      const value = saved[column.name];
      const filter = column.field.kind === 'text' ? String(value).slice(1, 4) || String(value) : value;
      const response = await call('/api/table/list', { config: { type }, filters: { [column.name]: filter, [pk]: [saved[pk]] } });
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      expect(response.body.count).toBe(1);
    });

    it('sorts by every column both ways', async () => {
      for (const column of columnsOf(schema).filter(sortable)) {
        for (const order of ['ASC', 'DESC']) {
          const response = await call('/api/table/list', { config: { type }, sort: { field: column.name, order }, perPage: 3 });
          expect(response.status, `${column.name} ${order}: ${JSON.stringify(response.body)}`).toBe(200);
        }
      }
      const byKey = await call('/api/table/list', { config: { type }, sort: { field: pk, order: 'ASC' }, perPage: 50 });
      const keys = (byKey.body.list as Row[]).map((row) => Number(row[pk]));
      expect(keys).toEqual([...keys].sort((a, b) => a - b));
    });

    it('edits it', async () => {
      const change = editedValue(schema, saved);
      if (!change) return;
      const [name, value] = change;
      const response = await call('/api/table/element/save', { config: { type }, row: { ...saved, [name]: value } });
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      expect(response.body[pk]).toEqual(saved[pk]);
      expect(
        sameValue(columnByName(schema, name)!, typeof value === 'string' && /^\d\d:\d\d$/.test(value) ? 1439 : value, response.body[name]),
      ).toBe(true);
    });

    it('deletes it', async () => {
      const response = await call('/api/table/list/deleteRA', { config: { type }, row: saved });
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      const after = await call('/api/table/list', { config: { type }, filters: { [pk]: [saved[pk]] } });
      expect(after.body.count).toBe(0);
    });

    it.skipIf(schema.import.mode === 'procedure')('imports the example row as CSV', async () => {
      const cells = schema.import.headers.map((name) => {
        const column = columnByName(schema, name)!;
        return name === pk ? '' : formatCell(column, example[name]);
      });
      const csv = csvLine(schema.import.headers) + csvLine(cells);
      const response = await call('/api/table/import', { config: { type }, csv });
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      expect(response.body).toMatchObject({ rows: 1, inserted: 1 });
    });

    it('exports with BOM and the import headers', async () => {
      const response = await call('/api/table/export', { config: { type } });
      expect(response.status).toBe(200);
      expect(response.raw.headers['content-disposition']).toBe(`attachment; filename="${type}.csv"`);
      const text = response.raw.rawPayload.toString('utf8');
      expect(text.startsWith(CSV_BOM + csvLine(exportColumns(schema).map((column) => column.name)))).toBe(true);
      expect(text.split('\r\n').length - 2).toBe(await tableCount(t.db, schema));
    });
  });
});
