import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HANDBOOK_SECTIONS_OFF, HANDBOOK_SECTIONS_ON } from '../src/shared/modules';
import { HANDBOOKS, HANDBOOK_TYPES, handbookByTable } from '../schemas/index';
import { exampleRow } from '../src/shared/handbooks/csv';
import { columnByName, columnsOf, displayFields, fieldByName } from '../src/shared/handbooks/fields';
import { validateRow } from '../src/shared/handbooks/validation';
import { ENGINES } from './helpers/engines';
import { startTestApp, type TestApp } from './helpers/testApp';

const ALL = HANDBOOK_TYPES.map((type) => [type] as const);

describe('handbook schemas', () => {
  it('cover exactly the handbook sections, one table each', () => {
    expect(Object.keys(HANDBOOKS).sort()).toEqual([...HANDBOOK_SECTIONS_ON, ...HANDBOOK_SECTIONS_OFF].sort());
    const tables = HANDBOOK_TYPES.map((type) => `${HANDBOOKS[type].table.schema}.${HANDBOOKS[type].table.name}`);
    expect(new Set(tables).size).toBe(tables.length);
  });

  it.each(ALL)('%s is consistent', (type) => {
    const schema = HANDBOOKS[type];
    expect(schema.type).toBe(type);
    expect(['mgt', 'cat', 'adas']).toContain(schema.table.schema);
    expect(handbookByTable(schema.table.schema, schema.table.name)).toBe(schema);
    expect(fieldByName(schema, schema.primaryKey)).toBeDefined();
    expect(columnByName(schema, schema.defaultSort.field)).toBeDefined();
    const names = columnsOf(schema).map((column) => column.name);
    expect(new Set(names).size).toBe(names.length);
    for (const field of schema.fields) expect(field.label.length).toBeGreaterThan(0);
    for (const header of schema.import.headers) {
      if (schema.import.mode !== 'procedure') expect(names, header).toContain(header);
    }
    for (const header of schema.exportHeaders ?? []) expect(names).toContain(header);
    for (const key of schema.import.keys ?? []) expect(schema.import.headers).toContain(key);
    expect(schema.import.example.length).toBe(schema.import.headers.length);
    if (schema.recordExample) expect(schema.recordExample.length).toBe(schema.exportHeaders?.length);
  });

  it.each(ALL)('%s example row passes its own rules', (type) => {
    const schema = HANDBOOKS[type];
    const { errors } = validateRow(schema, exampleRow(schema));
    expect(errors).toEqual({});
  });

  it.each(ALL)('%s links name existing handbooks and their columns', (type) => {
    for (const column of columnsOf(HANDBOOKS[type])) {
      if (column.field.kind !== 'ref') continue;
      const target = HANDBOOKS[column.field.target];
      expect(target, column.name).toBeDefined();
      expect(columnByName(target, column.field.valueField), `${type}.${column.name} value`).toBeDefined();
      for (const shown of displayFields(column.field))
        expect(columnByName(target, shown), `${type}.${column.name} display ${shown}`).toBeDefined();
    }
  });

  it('sorts camera types by index and work graphic types by code, ascending; the rest by id descending', () => {
    expect(HANDBOOKS.cameratype.defaultSort).toEqual({ field: 'index', order: 'ASC' });
    expect(HANDBOOKS.graphictype.defaultSort).toEqual({ field: 'code', order: 'ASC' });
    for (const type of HANDBOOK_TYPES.filter((t) => t !== 'cameratype' && t !== 'graphictype')) {
      expect(HANDBOOKS[type].defaultSort, type).toEqual({ field: HANDBOOKS[type].primaryKey, order: 'DESC' });
    }
  });

  it('hides the vehicle replacement import and routes the assignment import to its procedure', () => {
    expect(HANDBOOKS.replacevehicle.import.hidden).toBe(true);
    expect(HANDBOOKS.vehicletask.import).toMatchObject({ mode: 'procedure', endpoint: 'appoint-vehicles-to-route', headerOptional: true });
    expect(HANDBOOKS.vehicletask.import.headers).toEqual(['date', 'route_number', 'grafic', 'depot_number', 'start_time', 'end_time']);
    expect(HANDBOOKS.holidays.import.mode).toBe('insert');
    expect(HANDBOOKS.raspvariants.import).toMatchObject({ mode: 'replace', keys: ['srv_id'] });
  });
});

/** Schemas and migrations must never drift: every column a schema names exists with a fitting type. */
describe.each(ENGINES)('schema columns in the database on %s', (engine) => {
  let t: TestApp;
  let columns: Map<string, string>;
  beforeAll(async () => {
    t = await startTestApp(engine);
    const rows = await t.db.query<{ table_schema: string; table_name: string; column_name: string; udt_name: string }>(
      `select table_schema, table_name, column_name, udt_name from information_schema.columns where table_schema in ('mgt', 'cat', 'adas')`,
    );
    columns = new Map(rows.map((row) => [`${row.table_schema}.${row.table_name}.${row.column_name}`, row.udt_name]));
  });
  afterAll(() => t.close());

  it.each(ALL)('%s', (type) => {
    const schema = HANDBOOKS[type];
    for (const column of columnsOf(schema)) {
      const key = `${schema.table.schema}.${schema.table.name}.${column.name}`;
      const udt = columns.get(key);
      expect(udt, `${key} missing`).toBeDefined();
      const kind = column.role === 'value' ? column.field.kind : 'number';
      if (kind === 'polygon' || kind === 'line') expect(udt, key).toBe('geometry');
      if (kind === 'bigint') expect(udt, key).toBe('int8');
      if (kind === 'boolean') expect(udt, key).toBe('bool');
      if (kind === 'date') expect(udt, key).toBe('date');
      if (kind === 'int' || kind === 'minutes' || kind === 'port') expect(['int2', 'int4', 'int8'], key).toContain(udt);
    }
  });
});
