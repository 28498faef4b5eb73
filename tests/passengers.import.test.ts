import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from './helpers/engines';
import { startTestApp, type TestApp } from './helpers/testApp';

const URL = '/api/v1/passengers/validations/import';

/** The validation import of /import-data/tickets-validation: a good file, the same again, bad rows among good ones, a broken file. */
describe.each(ENGINES)('validation import on %s', (engine) => {
  let t: TestApp;
  let admin: string;
  let route: string;
  const day = new Date(Date.now() - 3 * 86_400_000).toISOString().slice(0, 10);
  const local = `${day.slice(8, 10)}.${day.slice(5, 7)}.${day.slice(0, 4)}`;

  beforeAll(async () => {
    t = await startTestApp(engine);
    admin = await t.login('admin', 'admin123');
    await t.db.query('insert into mgt.vehicles (depot_number) values (994001)');
    [{ route_short_name: route }] = await t.db.query<{ route_short_name: string }>(
      'select route_short_name from mgt.routes order by route_id limit 1',
    );
  });
  afterAll(() => t.close());

  const upload = (body: string | Buffer, file = 'validations.csv') =>
    t.app.inject({
      method: 'POST',
      url: `${URL}?file=${encodeURIComponent(file)}`,
      payload: body,
      headers: { authorization: admin, 'content-type': 'text/csv', 'x-timezone-offset': '180' },
    });
  const count = async () =>
    (await t.db.query<{ n: number }>(`select count(*)::int as n from pass.fare_transaction where source = 'import'`))[0].n;
  const header = 'time;validator;depot_number;route;ticket_type;card_token';
  const good = () =>
    [
      header,
      `${local} 08:01:02;501;994001;${route};101;TOKEN-1`,
      `${day}T08:05:00+03:00;501;994001;${route};201;TOKEN-2`,
      `${local} 09:00;501;994001;;401;TOKEN-3`,
      '',
    ].join('\r\n');

  it('adds a good file and records it in the history', async () => {
    const response = await upload(good(), 'day-1.csv');
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ rows: 3, added: 3, skipped: 0, refused: 0, errors: [] });
    expect(await count()).toBe(3);
    const [stored] = await t.db.query<{ tm: string }>(`select tm::text as tm from pass.fare_transaction where card_token = 'TOKEN-1'`);
    expect(new Date(stored.tm.replace(' ', 'T').replace(/\+00$/, 'Z')).toISOString()).toBe(new Date(`${day}T05:01:02Z`).toISOString());
    const history = await t.app.inject({
      method: 'GET',
      url: '/api/v1/reports/import-data/tickets-validation',
      headers: { authorization: admin },
    });
    expect(history.json().list[0]).toMatchObject({
      username: 'admin',
      file: 'day-1.csv',
      rows: 3,
      added: 3,
      skipped: 0,
      refused: 0,
      status: 'done',
    });
  });

  it('adds nothing when the same file comes again', async () => {
    const response = await upload(good(), 'day-1-again.csv');
    expect(response.json()).toMatchObject({ rows: 3, added: 0, skipped: 3 });
    expect(await count()).toBe(3);
  });

  // the rollups the reports read count what was added, once
  const rollups = async () =>
    (
      await t.db.query<{ tickets: number; vehicles: number }>(
        `select (select coalesce(sum(validations), 0)::int from pass.ticket_day where day = $1::date) as tickets,
            (select coalesce(sum(validations), 0)::int from pass.vehicle_day v join mgt.vehicles vh on vh.id = v.vehicle_id where v.day = $1::date and vh.depot_number = 994001) as vehicles`,
        [day],
      )
    )[0];

  it('counts the added validations in the daily rollups, once', async () => {
    const before = await rollups();
    const response = await upload(
      [
        header,
        `${local} 11:00;502;994001;${route};101;TOKEN-20`,
        `${local} 11:01;502;994001;;101;TOKEN-21`,
        `${local} 08:01:02;501;994001;${route};101;TOKEN-1`,
      ].join('\n'),
    );
    expect(response.json()).toMatchObject({ rows: 3, added: 2, skipped: 1 });
    expect(await rollups()).toEqual({ tickets: before.tickets + 2, vehicles: before.vehicles + 2 });
    await t.db.query(`delete from pass.fare_transaction where card_token in ('TOKEN-20', 'TOKEN-21')`);
    expect(await rollups()).toEqual(before);
  });

  it('adds the good rows of a file of several batches and refuses its bad one, once', async () => {
    const before = await rollups();
    const lines = [header];
    for (let i = 0; i < 120_000; i++)
      lines.push(`${local} 12:${String(Math.floor(i / 60_000) + 10).padStart(2, '0')}:00;${600 + (i % 60_000)};994001;;101;BATCH-${i}`);
    lines.push(`${local} 12:00;501;994001;;999;BATCH-BAD`);
    const response = await upload(lines.join('\n'), 'batches.csv');
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({
      rows: 120_001,
      added: 120_000,
      skipped: 0,
      refused: 1,
      errors: [{ line: 120_002, column: 'ticket_type' }],
    });
    expect(await count()).toBe(3 + 120_000);
    expect(await rollups()).toEqual({ tickets: before.tickets + 120_000, vehicles: before.vehicles + 120_000 });
    const again = await upload(lines.join('\n'), 'batches.csv');
    expect(again.json()).toMatchObject({ rows: 120_001, added: 0, skipped: 120_000, refused: 1 });
    expect(await rollups()).toEqual({ tickets: before.tickets + 120_000, vehicles: before.vehicles + 120_000 });
    await t.db.query(`delete from pass.fare_transaction where card_token like 'BATCH-%'`);
  }, 120_000);

  it('adds the good rows and refuses each bad one by line, column and reason: in the answer, the history, the pass-errors journal and a file', async () => {
    const before = (await t.db.query<{ n: number }>(`select count(*)::int as n from app.vehicle_event where kind = 'pass_error'`))[0].n;
    const file = [
      header,
      `${local} 10:00;501;994001;${route};101;TOKEN-10`,
      `31.02.2020 10:00;501;994001;${route};101;TOKEN-11`,
      `${local} 10:02;501;994001;${route};999;=1+2`,
      `${local} 10:03;501;777777;${route};101;TOKEN-13`,
    ].join('\n');
    const response = await upload(file, 'bad.csv');
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({ rows: 4, added: 1, skipped: 0, refused: 3 });
    expect(body.errors.map((e: { line: number; column: string }) => `${e.line}:${e.column}`)).toEqual([
      '3:time',
      '4:ticket_type',
      '5:depot_number',
    ]);
    expect(body.errors.every((e: { reason: string }) => e.reason.length > 5)).toBe(true);
    expect(await count()).toBe(4);
    const journal = await t.db.query<{ details: { line: number; file: string } }>(
      `select details from app.vehicle_event where kind = 'pass_error' order by id`,
    );
    expect(journal.length - before).toBe(3);
    expect(journal.at(-1)!.details).toMatchObject({ line: 5, file: 'bad.csv' });
    const history = await t.app.inject({
      method: 'GET',
      url: '/api/v1/reports/import-data/tickets-validation',
      headers: { authorization: admin },
    });
    expect(history.json().list[0]).toMatchObject({
      id: body.id,
      file: 'bad.csv',
      rows: 4,
      added: 1,
      skipped: 0,
      refused: 3,
      status: 'done',
    });
    // the refused rows as a file: the file's columns, then line, column and reason; no cell a spreadsheet would run
    const download = await t.app.inject({ method: 'GET', url: `${URL}/${body.id}/refused`, headers: { authorization: admin } });
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-type']).toContain('text/csv');
    const lines = download.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe(`${header};Строка;Столбец;Причина`);
    expect(lines.slice(1).map((line) => line.split(';').slice(-3, -1).join(':'))).toEqual(['3:time', '4:ticket_type', '5:depot_number']);
    expect(lines[2]).toContain(`;'=1+2;4;ticket_type;`);
    // the same file again: its good row is skipped, its bad ones refused again, nothing added twice
    const again = await upload(file, 'bad.csv');
    expect(again.json()).toMatchObject({ rows: 4, added: 0, skipped: 1, refused: 3 });
    expect(await count()).toBe(4);
    const [clean] = await t.db.query<{ id: number }>('select id from pass.import_run where refused = 0 order by id limit 1');
    const none = await t.app.inject({ method: 'GET', url: `${URL}/${clean.id}/refused`, headers: { authorization: admin } });
    expect(none.statusCode).toBe(404);
    expect(none.json().messages).toEqual(['not_found']);
  });

  it('refuses a broken file whole, naming a broken encoding and a wrong separator', async () => {
    // bytes neither UTF-8 nor Russian in Windows-1251, after a good row (a Windows-1251 file is read: tests/faults.input.test.ts)
    const broken = Buffer.concat([
      Buffer.from(`${header}\n${local} 10:00;501;994001;${route};101;TOKEN-30\n${local} 10:00;501;994001;`),
      Buffer.from([0x81, 0x83, 0x88, 0x98]),
      Buffer.from(';101;T\n'),
    ]);
    const encoding = await upload(broken);
    expect(encoding.statusCode).toBe(400);
    expect(encoding.json().messages).toEqual(['validation_import_encoding']);
    expect(await count()).toBe(4);
    const badHeader = await upload(
      Buffer.concat([Buffer.from([0x81, 0x83, 0x88, 0x98]), Buffer.from(';validator;ticket_type;card_token\n')]),
    );
    expect(badHeader.json().messages).toEqual(['validation_import_encoding']);
    const commas = await upload('time,validator,depot_number,route,ticket_type,card_token\n01.01.2026 10:00,501,994001,1,101,T\n');
    expect(commas.statusCode).toBe(400);
    expect(commas.json().messages).toEqual(['validation_import_separator']);
    const missing = await upload('time;validator;card_token\n');
    expect(missing.json().messages).toEqual(['validation_import_header']);
    expect(await count()).toBe(4);
  });
});
