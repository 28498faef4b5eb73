import { Readable } from 'node:stream';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { isErrorCode } from '../src/shared/errors';
import { ENGINES } from './helpers/engines';
import { startTestApp, type TestApp } from './helpers/testApp';
import { tableChecksums } from './helpers/checksums';

/**
 * Issue 10, bad input: each request a hostile or careless client sent is refused with a 400 carrying a
 * catalogue code, and the database is left exactly as it was.
 */
describe.each(ENGINES)('bad input is refused and changes nothing on %s', (engine) => {
  let t: TestApp;
  let admin: string;
  let before: Record<string, string>;
  beforeAll(async () => {
    t = await startTestApp(engine);
    admin = await t.login('admin', 'admin123');
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    before = await tableChecksums(t.db);
  });

  type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
  const send = (method: Method, url: string, payload?: unknown, headers: Record<string, string> = {}) =>
    t.app.inject({ method, url, payload: payload as string, headers: { authorization: admin, ...headers } });

  /** A 400 whose first message is the given catalogue code (or any catalogue code), and no write. */
  async function expectRefused(response: Awaited<ReturnType<typeof send>>, code?: string) {
    expect(response.statusCode, response.body.slice(0, 300)).toBe(400);
    const { messages } = response.json() as { messages: string[] };
    expect(isErrorCode(messages[0]), messages[0]).toBe(true);
    if (code) expect(messages[0]).toBe(code);
    expect(await tableChecksums(t.db)).toEqual(before);
  }

  const someStop = async () =>
    (
      await t.db.query<{ stop_id: number; stop_lat: number; stop_lon: number }>(
        'select stop_id, stop_lat, stop_lon from mgt.stops where stop_lat is not null order by stop_id limit 1',
      )
    )[0];

  describe('bounded text filters, searches and strings', () => {
    const long = 'A'.repeat(102_400);
    it('refuses a 100 KB text filter on schedule times', async () => {
      await expectRefused(
        await send('POST', '/api/table/list', { config: { type: 'rasptimes' }, filters: { smena: long }, perPage: 1 }),
        'too_long',
      );
    });
    it('refuses a 100 KB free search, on list, export and the field app query', async () => {
      await expectRefused(await send('POST', '/api/table/list', { config: { type: 'stops' }, filters: { q: long } }), 'too_long');
      await expectRefused(await send('POST', '/api/table/export', { config: { type: 'stops' }, filters: { q: long } }), 'too_long');
      await expectRefused(
        await send('POST', '/api/v1/handbooks/query', { schema: 'mgt', table: 'rasp_time', filters: { smena: long } }),
        'too_long',
      );
    });
    it('refuses an over-long string field and a text longer than a field allows', async () => {
      await expectRefused(await send('POST', '/api/table/options', { config: { type: 'stops' }, field: 'x', q: long }), 'too_long');
      await expectRefused(
        await send('POST', '/api/table/element/save', { config: { type: 'stops' }, row: { stop_name: long } }),
        'validation_failed',
      );
    });
  });

  describe('imports lose no data', () => {
    it('refuses a row with fewer cells than the header, naming its line, and keeps the coordinates', async () => {
      const stop = await someStop();
      const response = await send('POST', '/api/table/import', {
        config: { type: 'stops' },
        csv: `stop_id;stop_name;note;stop_lat;stop_lon;do_not_update\n${stop.stop_id};a\n`,
      });
      await expectRefused(response, 'import_failed');
      expect(response.json().errors).toEqual([{ row: 2, column: '', message: 'Не хватает значений в строке: 2 из 6' }]);
      expect(await someStop()).toEqual(stop);
    });
    it('refuses an unterminated quote with its line', async () => {
      const stop = await someStop();
      const csv = `stop_id;stop_name;note;stop_lat;stop_lon;do_not_update\n${stop.stop_id};"a;b;1;2;false\n`;
      const response = await send('POST', '/api/table/import', { config: { type: 'stops' }, csv });
      await expectRefused(response, 'import_failed');
      expect(response.json().errors).toEqual([{ row: 2, column: '', message: 'Незакрытая кавычка' }]);
    });
    it('echoes only a short excerpt of a 10 MB header cell', async () => {
      const csv = `${'x'.repeat(10 * 1024 * 1024)};stop_name\n1;a\n`;
      const response = await send('POST', '/api/table/import?type=stops', Readable.from([csv]), { 'content-type': 'text/csv' });
      await expectRefused(response, 'import_failed');
      expect(response.body.length).toBeLessThan(2000);
    });
  });

  describe('no 500 for bad input', () => {
    it.each(['/api/table/import', '/api/table/import/appoint-vehicles-to-route'])(
      'refuses %s with no body or a text/plain body',
      async (url) => {
        await expectRefused(await send('POST', url));
        await expectRefused(await send('POST', `${url}?type=stops`, 'stop_name\nx\n', { 'content-type': 'text/plain' }));
        await expectRefused(await send('POST', `${url}?type=stops`, '', { 'content-type': 'text/csv' }));
      },
    );

    it('refuses ids beyond 32 bits in paths and bodies', async () => {
      const big = 2147483648;
      await expectRefused(await send('GET', `/api/v1/users/${big}`));
      await expectRefused(await send('PUT', `/api/v1/roles/${big}`, { name: 'x' }));
      await expectRefused(await send('GET', `/api/table/tripstops?trip_id=${big}`));
      await expectRefused(await send('POST', '/api/table/tripstops', { trip_id: big, stops: [] }));
      const [trip] = await t.db.query<{ trip_id: number }>('select id as trip_id from mgt.trip limit 1');
      await expectRefused(
        await send('POST', '/api/table/tripstops', { trip_id: trip.trip_id, stops: [{ stop_id: big, stop_sequence: 1 }] }),
      );
      await expectRefused(await send('POST', '/api/widget/addcamersvehicle', { veh_list: [big] }));
      await expectRefused(
        await send('POST', '/api/v1/events/ring/viewed', '{"upTo":92233720368547758070}', { 'content-type': 'application/json' }),
      );
      await expectRefused(await send('POST', '/api/table/list/delete', { config: { type: 'stops' }, ids: [big] }));
    });

    it('refuses filter values the column cannot hold, on list, query, export and options', async () => {
      await expectRefused(await send('POST', '/api/table/list', { config: { type: 'stops' }, filters: { stop_id: 2147483648 } }));
      await expectRefused(await send('POST', '/api/table/list', { config: { type: 'vehicles' }, filters: { update_date: 'abc' } }));
      await expectRefused(
        await send('POST', '/api/v1/handbooks/query', { schema: 'mgt', table: 'stops', filters: { stop_id: 2147483648 } }),
      );
      await expectRefused(
        await send('POST', '/api/v1/handbooks/query', { schema: 'mgt', table: 'vehicles', filters: { update_date: 'abc' } }),
      );
      await expectRefused(
        await send('POST', '/api/table/options', { config: { type: 'rasptimes' }, field: 'stop_id', values: [2147483648] }),
      );
      await expectRefused(await send('POST', '/api/table/options', { config: { type: 'rasptimes' }, field: 'stop_id', values: ['abc'] }));
    });

    it('answers a free search on a handbook without text columns (found by the fuzzer)', async () => {
      const response = await send('POST', '/api/table/list', { config: { type: 'routestop' }, filters: { q: 'abc' } });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json().count).toBe(0);
    });

    it('answers an export with a bad filter with a 400 before streaming', async () => {
      const response = await send('POST', '/api/table/export', { config: { type: 'vehicles' }, filters: { update_date: 'abc' } });
      await expectRefused(response);
      expect(response.headers['content-type']).toMatch(/json/);
    });

    it('refuses NUL characters in text on save and import', async () => {
      await expectRefused(
        await send('POST', '/api/table/element/save', {
          config: { type: 'stops' },
          row: { stop_name: 'a\u0000b', stop_lat: 59.9, stop_lon: 30.3 },
        }),
        'invalid_characters',
      );
      await expectRefused(
        await send('POST', '/api/table/import', { config: { type: 'stops' }, csv: 'stop_name;stop_lat;stop_lon\na\u0000b;59.9;30.3\n' }),
        'invalid_characters',
      );
      const streamed = await send('POST', '/api/table/import?type=stops', 'stop_name;stop_lat;stop_lon\na\u0000b;59.9;30.3\n', {
        'content-type': 'text/csv',
      });
      await expectRefused(streamed, 'import_failed');
      expect(streamed.json().errors).toEqual([{ row: 2, column: 'stop_name', message: 'Текст содержит недопустимые символы' }]);
      await expectRefused(await send('POST', '/api/v1/roles', { name: 'nul\u0000role' }), 'invalid_characters');
      await expectRefused(await send('GET', '/api/v1/users/columns?table=a%00b'), 'invalid_characters');
    });
  });

  describe('no silent coercion', () => {
    it.each([
      ['navigation', { messageFrequency: true }],
      ['navigation', { messageFrequency: '15' }],
      ['bc', { kkv: { enabled: 'false' } }],
    ])('refuses %s %j instead of coercing it', async (subsystem, body) => {
      await expectRefused(await send('PUT', `/api/v1/settings/${subsystem}`, body));
    });

    it('still reads numbers and booleans from query strings', async () => {
      const response = await send('GET', '/api/v1/users?skipCount=1&recordCount=2');
      expect(response.statusCode).toBe(200);
      expect(response.json().list).toHaveLength(2);
    });

    it('refuses a role update with unknown permission keys', async () => {
      const [role] = await t.db.query<{ id: number }>('select id from app.role where not is_system order by id limit 1');
      await expectRefused(await send('PUT', `/api/v1/roles/${role.id}`, { permissions: { '/no/such/screen': 15 } }), 'unknown_permission');
      await expectRefused(await send('PUT', `/api/v1/roles/${role.id}`, { permissions: { nonsense: 15 } }), 'unknown_permission');
      await expectRefused(await send('POST', '/api/v1/roles', { name: 'typo role', permissions: { '/userz': 15 } }), 'unknown_permission');
    });

    it.each(['a b c', 'тест<script>', 'semi;colon', 'tab\there', 'x'.repeat(65)])('refuses the username %j', async (username) => {
      await expectRefused(
        await send('POST', '/api/v1/users/', { username, email: 'u@example.org', password: 'secret123', roles: [] }),
        'bad_username',
      );
    });
  });
});
