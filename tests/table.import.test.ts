import { Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HANDBOOKS } from '../schemas/index';
import { CSV_BOM, csvLine, formatCell } from '../src/shared/handbooks/csv';
import { columnByName } from '../src/shared/handbooks/fields';
import { MSG } from '../src/shared/handbooks/messages';
import type { HandbookSchema } from '../src/shared/handbooks/types';
import type { Row } from '../src/shared/handbooks/validation';
import { defaultSwitches } from '../src/shared/modules';
import { loadConfig } from '../src/server/config';
import { ENGINES } from './helpers/engines';
import { startTestApp, type TestApp } from './helpers/testApp';
import { minutesOfEntry } from '../src/client/handbooks/inputs/minutesEntry';
import { api, insertExample, preparedExample, tableCount } from './tableFixtures';

/** CSV of rows given as API rows, in the schema's import headers. */
function csvOf(schema: HandbookSchema, rows: Row[], headers: readonly string[] = schema.import.headers): string {
  return csvLine(headers) + rows.map((row) => csvLine(headers.map((name) => formatCell(columnByName(schema, name)!, row[name])))).join('');
}

/** A body split into tiny chunks, so multi-byte characters straddle chunk boundaries. */
function chunked(text: string, size = 7): Readable {
  const bytes = Buffer.from(text, 'utf8');
  const parts: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += size) parts.push(bytes.subarray(i, i + size));
  return Readable.from(parts);
}

describe.each(ENGINES)('handbook import and export on %s', (engine) => {
  let t: TestApp;
  let call: ReturnType<typeof api>;
  let auth: string;
  beforeAll(async () => {
    const switches = defaultSwitches();
    switches.sections['handbooks.graphictype'] = true;
    switches.sections['handbooks.validator'] = true;
    t = await startTestApp(engine, { switches: { ...loadConfig({}).switches, sections: { ...switches.sections } } });
    auth = await t.login('admin', 'admin123');
    call = api(t, auth);
  });
  afterAll(() => t.close());

  const importCsv = (type: string, csv: string) => call('/api/table/import', { config: { type }, csv });

  it('refuses a file with one bad row and changes nothing', async () => {
    const schema = HANDBOOKS.agency;
    const good = await preparedExample(t.db, schema);
    const before = await tableCount(t.db, schema);
    const csv = csvOf(schema, [good, { ...good, transporter_id: 40000 }, good, { ...good, title: '' }]);
    const response = await importCsv('agency', csv);
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      messages: ['import_failed'],
      errors: [
        { row: 3, column: 'transporter_id', message: 'Значение должно быть от 0 до 32767' },
        { row: 5, column: 'title', message: MSG.required },
      ],
      moreErrors: 0,
    });
    expect(await tableCount(t.db, schema)).toBe(before);
  });

  it('reports unknown and missing columns against the header line', async () => {
    const response = await importCsv('agency', 'title;colour\nПеревозчик;red\n');
    expect(response.status).toBe(400);
    expect(response.body.errors).toEqual([
      { row: 1, column: 'colour', message: MSG.unknownColumn },
      { row: 1, column: 'transporter_id', message: MSG.missingColumn },
    ]);
  });

  it('caps the error list at 100 and counts the rest', async () => {
    const lines = ['title;transporter_id', ...Array.from({ length: 150 }, (_, i) => `Перевозчик ${i};-1`)];
    const before = await tableCount(t.db, HANDBOOKS.agency);
    const response = await importCsv('agency', lines.join('\n'));
    expect(response.status).toBe(400);
    expect((response.body.errors as unknown[]).length).toBe(100);
    expect(response.body.moreErrors).toBe(50);
    expect((response.body.errors as { row: number }[])[0].row).toBe(2);
    expect(await tableCount(t.db, HANDBOOKS.agency)).toBe(before);
  });

  it('finds links that point nowhere, by file row, in tables without foreign keys', async () => {
    const example = await preparedExample(t.db, HANDBOOKS.rasptimes);
    const before = await tableCount(t.db, HANDBOOKS.rasptimes);
    const response = await importCsv('rasptimes', csvOf(HANDBOOKS.rasptimes, [example, { ...example, stop_id: 99999999 }]));
    expect(response.status).toBe(400);
    expect(response.body.errors).toEqual([{ row: 3, column: 'stop_id', message: MSG.referenceNotFound }]);
    expect(await tableCount(t.db, HANDBOOKS.rasptimes)).toBe(before);
  });

  it('refuses a key repeated in the file', async () => {
    const stop = await insertExample(t.db, HANDBOOKS.stops);
    const response = await importCsv('stops', `stop_id;stop_name\n${stop.stop_id};А\n${stop.stop_id};Б\n`);
    expect(response.status).toBe(400);
    expect(response.body.errors).toEqual([{ row: 3, column: 'stop_id', message: MSG.duplicateInFile }]);
  });

  it('reports a constraint the database refuses as an import error, not SQL', async () => {
    const link = await insertExample(t.db, HANDBOOKS.routestop, { stop_order: 777 });
    const response = await importCsv('routestop', csvOf(HANDBOOKS.routestop, [{ ...link, id: null }]));
    expect(response.status).toBe(400);
    expect(response.body.messages).toEqual(['import_failed']);
    expect((response.body.errors as { message: string }[])[0].message).toContain(MSG.duplicate);
  });

  it('streams a text/csv upload (?type=) in chunks that split Cyrillic characters', async () => {
    const rows = Array.from({ length: 6000 }, (_, i) => `Остановка «Ёлочка» № ${i};${59 + i / 10000};${30 + i / 10000}`);
    const before = await tableCount(t.db, HANDBOOKS.stops);
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/table/import?type=stops',
      headers: { authorization: auth, 'content-type': 'text/csv; charset=utf-8' },
      payload: chunked(`${CSV_BOM}stop_name;stop_lat;stop_lon\r\n${rows.join('\r\n')}\r\n`),
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ rows: 6000, inserted: 6000, updated: 0 });
    expect(await tableCount(t.db, HANDBOOKS.stops)).toBe(before + 6000);
    const [last] = await t.db.query<{ stop_name: string }>('select stop_name from mgt.stops order by stop_id desc limit 1');
    expect(last.stop_name).toBe('Остановка «Ёлочка» № 5999');
  });

  it('neutralises formulas on export and imports the file back unchanged', async () => {
    const dangerous = {
      ...(await preparedExample(t.db, HANDBOOKS.agency)),
      title: '=HYPERLINK("http://x","y")',
      address: "'@SUM(A1)",
      phone: '+7 812 000-00-00',
    };
    const created = await call('/api/table/element/save', { config: { type: 'agency' }, row: dangerous });
    expect(created.status).toBe(200);
    const id = created.body.agency_id;
    const exported = await call('/api/table/export', { config: { type: 'agency' }, filters: { agency_id: [id] } });
    const text = exported.raw.rawPayload.toString('utf8');
    expect(text.startsWith(CSV_BOM)).toBe(true);
    const dataLine = text.split('\r\n')[1];
    expect(dataLine).toContain(`"'=HYPERLINK(""http://x"",""y"")"`);
    expect(dataLine).toContain(`''@SUM(A1)`);
    expect(dataLine).toContain(`'+7 812 000-00-00`);
    const reimported = await importCsv('agency', text);
    expect(reimported.status, JSON.stringify(reimported.body)).toBe(200);
    expect(reimported.body).toMatchObject({ rows: 1, inserted: 0, updated: 1 });
    const [row] = await t.db.query<Row>('select title, address, phone from mgt.agency where agency_id = $1', [id]);
    expect(row).toEqual({ title: dangerous.title, address: dangerous.address, phone: dangerous.phone });
  });

  it('round-trips a whole handbook: export, import, same table', async () => {
    const exported = await call('/api/table/export', { config: { type: 'routes' }, sort: { field: 'route_short_name', order: 'ASC' } });
    const before = await t.db.query('select * from mgt.routes order by route_id');
    const response = await importCsv('routes', exported.raw.rawPayload.toString('utf8'));
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body).toMatchObject({ inserted: 0, updated: before.length });
    expect(await t.db.query('select * from mgt.routes order by route_id')).toEqual(before);
  });

  it("exports XLSX to read: the fields' Russian labels, linked records by name, the CSV unchanged", async () => {
    const [vehicle] = await t.db.query<{
      id: number;
      depot_number: number;
      model: string | null;
      depot_name: string;
      vehicle_type: string;
      depot_id: number;
    }>(
      `select v.id, v.depot_number, v.model, v.depot_id, d.depot_name, tt.title as vehicle_type from mgt.vehicles v
         join mgt.depot d on d.depot_id = v.depot_id join mgt.transport_type tt on tt.id = v.vehicle_type_id order by v.id limit 1`,
    );
    const request = { config: { type: 'vehicles' }, filters: { id: [vehicle.id] } };
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/table/export',
      payload: { ...request, format: 'xlsx' },
      headers: { authorization: auth, 'x-timezone-offset': '180' },
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(response.headers['content-disposition']).toBe('attachment; filename="vehicles.xlsx"');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(response.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0];
    expect(sheet.name).toBe('Транспортные средства');
    const [header, row] = [1, 2].map((n) => (sheet.getRow(n).values as unknown[]).slice(1));
    expect(header).toEqual(HANDBOOKS.vehicles.import.headers.map((name) => columnByName(HANDBOOKS.vehicles, name)!.field.label));
    expect(header.slice(0, 6)).toEqual(['ID', 'Филиал', 'Вид транспорта', 'Модель', 'Вместимость', 'Гаражный номер']);
    expect(row[0]).toBe(vehicle.id);
    expect(row[1]).toBe(vehicle.depot_name);
    expect(row[2]).toBe(vehicle.vehicle_type);
    expect(row[5]).toBe(vehicle.depot_number);
    expect(sheet.rowCount).toBe(2);
    // the CSV stays the file the import reads: column names and ids
    const csv = await call('/api/table/export', request);
    const lines = csv.raw.body.slice(1).trim().split(/\r?\n/);
    expect(lines[0]).toBe(HANDBOOKS.vehicles.import.headers.join(';'));
    expect(lines[1].split(';').slice(0, 2)).toEqual([String(vehicle.id), String(vehicle.depot_id)]);
    // an unknown format is refused before anything is read
    expect((await call('/api/table/export', { ...request, format: 'pdf' })).status).toBe(400);
  });

  it('inserts with new keys after rows imported with explicit keys', async () => {
    const response = await importCsv('ticketviews', 'ticket_kind_id;ticket_kind_name\n5000;Разовый\n');
    expect(response.body).toMatchObject({ inserted: 1 });
    const next = await call('/api/table/element/save', { config: { type: 'ticketviews' }, row: { ticket_kind_name: 'Следующий' } });
    expect(next.status).toBe(200);
    expect(next.body.ticket_kind_id).toBe(5001);
  });

  it('imports holidays insert-only', async () => {
    const example = await preparedExample(t.db, HANDBOOKS.holidays);
    const csv = csvOf(HANDBOOKS.holidays, [example]);
    const before = await tableCount(t.db, HANDBOOKS.holidays);
    expect((await importCsv('holidays', csv)).body).toMatchObject({ inserted: 1 });
    expect((await importCsv('holidays', csv)).body).toMatchObject({ inserted: 1 });
    expect(await tableCount(t.db, HANDBOOKS.holidays)).toBe(before + 2);
  });

  it('replaces schedule variants per srv_id', async () => {
    const example = await preparedExample(t.db, HANDBOOKS.raspvariants);
    const two = [
      { ...example, srv_id: 900777, startdate: '2025-01-01' },
      { ...example, srv_id: 900777, startdate: '2025-03-01', enddate: null },
    ];
    expect((await importCsv('raspvariants', csvOf(HANDBOOKS.raspvariants, two))).body).toMatchObject({ inserted: 2 });
    const again = await importCsv('raspvariants', csvOf(HANDBOOKS.raspvariants, [two[1]]));
    expect(again.body).toMatchObject({ deleted: 2, inserted: 1 });
    const rows = await t.db.query('select 1 from mgt.rasp_variant where srv_id = 900777');
    expect(rows.length).toBe(1);
  });

  it('replaces the schedule times of each variant in the file', async () => {
    const variant = await insertExample(t.db, HANDBOOKS.raspvariants, { srv_id: 900888 });
    const example = { ...(await preparedExample(t.db, HANDBOOKS.rasptimes)), RaspVariant_id: variant.id };
    const times = [0, 1, 2].map((i) => ({ ...example, order: i + 1, time: 360 + i * 5 }));
    expect((await importCsv('rasptimes', csvOf(HANDBOOKS.rasptimes, times))).body).toMatchObject({ deleted: 0, inserted: 3 });
    const again = await importCsv('rasptimes', csvOf(HANDBOOKS.rasptimes, times.slice(0, 2)));
    expect(again.body).toMatchObject({ deleted: 3, inserted: 2 });
    const rows = await t.db.query<{ time: number }>('select time from mgt.rasp_time where "RaspVariant_id" = $1 order by "order"', [
      variant.id,
    ]);
    expect(rows.map((row) => row.time)).toEqual([360, 365]);
  });

  it('keeps backslashes, tabs and line breaks of imported text exactly (PostgreSQL bulk-loads with COPY)', async () => {
    const variant = await insertExample(t.db, HANDBOOKS.raspvariants, { srv_id: 900889 });
    const example = { ...(await preparedExample(t.db, HANDBOOKS.rasptimes)), RaspVariant_id: variant.id };
    const shifts = ['a\\b', 'tab\there', 'two\nlines', '\\N', 'in\rside'];
    const times = shifts.map((smena, i) => ({ ...example, smena, order: i + 1 }));
    expect((await importCsv('rasptimes', csvOf(HANDBOOKS.rasptimes, times))).body).toMatchObject({ inserted: shifts.length });
    const rows = await t.db.query<{ smena: string }>('select smena from mgt.rasp_time where "RaspVariant_id" = $1 order by "order"', [
      variant.id,
    ]);
    expect(rows.map((row) => row.smena)).toEqual(shifts);
  });

  it('merges work graphic types by code', async () => {
    const csv = 'code;title;short;start;end;work_hours\n9901;Утренняя;У;06:00;14:30;8,5\n';
    expect((await importCsv('graphictype', csv)).body).toMatchObject({ inserted: 1, updated: 0 });
    expect((await importCsv('graphictype', csv.replace('Утренняя', 'Ранняя'))).body).toMatchObject({ inserted: 0, updated: 1 });
    const rows = await t.db.query('select title, start, "end", work_hours from cat.work_graphic_type where code = 9901');
    expect(rows).toEqual([{ title: 'Ранняя', start: 360, end: 870, work_hours: 8.5 }]);
  });

  it('reads bare digits in a time field as minutes of day, in the save and the import as in the form', async () => {
    // what the form stores when '450' or '07:30' is typed and the field is left
    expect([minutesOfEntry('450'), minutesOfEntry('07:30'), minutesOfEntry('730')]).toEqual([450, 450, 730]);
    const saved = await call('/api/table/element/save', {
      config: { type: 'graphictype' },
      row: { code: 9801, title: 'Цифры', short: 'Ц', start: '450', end: '730' },
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect([saved.body.start, saved.body.end]).toEqual([450, 730]);
    const imported = await importCsv(
      'graphictype',
      'code;title;short;start;end;work_hours\n9802;Цифры;Ц;450;07:30;8\n9803;Цифры;Ц;730;12:10;8\n',
    );
    expect(imported.status, JSON.stringify(imported.body)).toBe(200);
    const rows = await t.db.query<{ code: number; start: number; end: number }>(
      'select code, start, "end" from cat.work_graphic_type where code between 9801 and 9803 order by code',
    );
    expect(rows.map((row) => [row.code, row.start, row.end])).toEqual([
      [9801, 450, 730],
      [9802, 450, 450],
      [9803, 730, 730],
    ]);
  });

  it('links validators to vehicles by depot number: the file carries it, the list shows it, the export writes it', async () => {
    const [vehicle] = await t.db.query<{ id: number; depot_number: number }>(
      'select id, depot_number from mgt.vehicles where depot_number <> id order by id limit 1',
    );
    const csv = `validator_id;validator_name;vehicle_id\n990001;Передняя дверь;${vehicle.depot_number}\n990002;Задняя дверь;${vehicle.depot_number}\n`;
    expect((await importCsv('validator', csv)).body).toMatchObject({ inserted: 2 });
    const stored = await t.db.query<{ vehicle_id: number }>('select vehicle_id from mgt.validator where validator_id in (990001, 990002)');
    expect(stored).toEqual([{ vehicle_id: vehicle.depot_number }, { vehicle_id: vehicle.depot_number }]);
    const list = await call('/api/table/list', { config: { type: 'validator' }, filters: { validator_id: [990001] } });
    expect((list.body.list as Row[])[0]).toMatchObject({
      vehicle_id: vehicle.depot_number,
      vehicle_id__display: String(vehicle.depot_number),
    });

    const exported = await call('/api/table/export', {
      config: { type: 'validator' },
      filters: { validator_id: [990001, 990002] },
      sort: { field: 'validator_id', order: 'ASC' },
    });
    const text = exported.raw.rawPayload.toString('utf8').replace(CSV_BOM, '');
    expect(text.split('\r\n').filter(Boolean)).toEqual(csv.trim().split('\n'));
    expect((await importCsv('validator', text)).body).toMatchObject({ inserted: 0, updated: 2 });
    expect(
      await t.db.query('select validator_id, vehicle_id from mgt.validator where validator_id in (990001, 990002) order by 1'),
    ).toEqual([
      { validator_id: 990001, vehicle_id: vehicle.depot_number },
      { validator_id: 990002, vehicle_id: vehicle.depot_number },
    ]);

    // a vehicle's id is not its depot number: a file of ids is refused, row by row
    const [{ unknown }] = await t.db.query<{ unknown: number }>('select max(depot_number) + 1 as unknown from mgt.vehicles');
    const refused = await importCsv('validator', `validator_id;validator_name;vehicle_id\n990003;Средняя дверь;${unknown}\n`);
    expect(refused.body.errors).toEqual([{ row: 2, column: 'vehicle_id', message: MSG.referenceNotFound }]);
    const saved = await call('/api/table/element/save', {
      config: { type: 'validator' },
      row: { validator_id: 990004, vehicle_id: vehicle.depot_number },
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body.vehicle_id).toBe(vehicle.depot_number);
  });

  it('merges vehicle replacements (import hidden in the interface, the API works)', async () => {
    const example = await preparedExample(t.db, HANDBOOKS.replacevehicle);
    const first = await importCsv('replacevehicle', csvOf(HANDBOOKS.replacevehicle, [{ ...example, starttime: 600 }]));
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body).toMatchObject({ inserted: 1 });
    const second = await importCsv('replacevehicle', csvOf(HANDBOOKS.replacevehicle, [{ ...example, starttime: 660 }]));
    expect(second.body).toMatchObject({ inserted: 0, updated: 1 });
  });

  it('exports filtered and sorted rows in keyset batches beyond one batch', async () => {
    const response = await call('/api/table/export', { config: { type: 'stops' }, sort: { field: 'stop_name', order: 'DESC' } });
    const lines = response.raw.rawPayload.toString('utf8').split('\r\n').filter(Boolean);
    expect(lines.length - 1).toBe(await tableCount(t.db, HANDBOOKS.stops));
    const ids = lines.slice(1).map((line) => line.split(';')[0]);
    expect(new Set(ids).size).toBe(ids.length);
    const names = await t.db.query<{ stop_id: number }>('select stop_id from mgt.stops order by stop_name desc, stop_id desc');
    expect(ids).toEqual(names.map((row) => String(row.stop_id)));
  });

  it('refuses a bad filter on export before starting the file', async () => {
    const response = await call('/api/table/export', { config: { type: 'stops' }, filters: { nope: 1 } });
    expect(response.status).toBe(400);
  });
});
