import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from './helpers/engines';
import { startTestApp, type TestApp } from './helpers/testApp';
import { tableChecksums } from './helpers/checksums';
import { createUserWith, TEST_PASSWORD } from './helpers/users';
import { loadConfig } from '../src/server/config';
import { READ } from '../src/shared/permissions';
import { numericParams } from '../src/server/http/pathIds';
import { demoCoverage, demoStoppedAt, piecesSeconds } from '../src/server/video/demoArchive';

// A quick archive worker, as in video.requests.test.ts.
process.env.VIDEO_WORKER_TICK_MS = '100';
process.env.VIDEO_CONNECT_MS = '200';
process.env.VIDEO_DOWNLOAD_RATE = '20';

/** Encodes Russian text as Windows-1251 (what Excel in Russia saves as "CSV"). */
function cp1251(text: string): Buffer {
  const decoder = new TextDecoder('windows-1251');
  const byChar = new Map<string, number>();
  for (let byte = 0; byte < 256; byte++) byChar.set(decoder.decode(Uint8Array.of(byte)), byte);
  return Buffer.from([...text].map((char) => byChar.get(char) ?? 0x3f));
}

/** Faults of "Hardening, second round" (item 5) through the API: imports, groups, path ids, handbook types, video. */
describe.each(ENGINES)('API faults on %s', (engine) => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    // every module on (ticket control and PDM are off by default), and the work graphic types handbook
    const { switches } = loadConfig({ DEMO_DATA: 'false', MODULES: 'bc,pdm,vehicleWorkData', SECTIONS: 'handbooks.graphictype' });
    t = await startTestApp(engine, { switches });
    admin = await t.login('admin', 'admin123');
  }, 600_000);
  afterAll(() => t.close());

  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown, headers: Record<string, string> = {}) =>
    t.app.inject({ method, url, headers: { authorization: admin, ...headers }, payload: payload as never });
  const graphicTypes = async (code: number) =>
    t.db.query<{ title: string; short: string }>('select title, short from cat.work_graphic_type where code = $1', [code]);

  describe('CSV import encodings', () => {
    const csv = (code: number, title: string) => `code;title;short;start;end;work_hours\r\n${code};${title};У;06:00;14:30;8,5\r\n`;
    const stream = (body: Buffer | string, contentType = 'text/csv') =>
      call('POST', '/api/table/import?type=graphictype', body, { 'content-type': contentType });

    it('reads a Windows-1251 file, declared or not, as Russian text', async () => {
      const found = await stream(cp1251(csv(9701, 'Утренняя смена «Ё»')));
      expect(found.statusCode, found.body).toBe(200);
      expect(await graphicTypes(9701)).toEqual([{ title: 'Утренняя смена «Ё»', short: 'У' }]);
      const declared = await stream(cp1251(csv(9702, 'Ранняя')), 'text/csv; charset=windows-1251');
      expect(declared.statusCode, declared.body).toBe(200);
      expect(await graphicTypes(9702)).toEqual([{ title: 'Ранняя', short: 'У' }]);
      const utf8 = await stream(Buffer.from(csv(9703, 'Поздняя')), 'text/csv; charset=utf-8');
      expect(utf8.statusCode, utf8.body).toBe(200);
      expect(await graphicTypes(9703)).toEqual([{ title: 'Поздняя', short: 'У' }]);
    });

    it('refuses bytes that are neither UTF-8 nor Windows-1251 text, and U+FFFD, with the encoding message; nothing stored', async () => {
      const before = await tableChecksums(t.db);
      const cases: [string, Buffer | string, string?][] = [
        [
          'binary',
          Buffer.concat([
            Buffer.from('code;title;short;start;end;work_hours\n9711;'),
            Buffer.from([0x81, 0x83, 0x88, 0x98, 0x8d]),
            Buffer.from(';У;06:00;14:30;8\n'),
          ]),
        ],
        [
          'UTF-8 broken after valid lines',
          Buffer.concat([Buffer.from(csv(9712, 'Первая')), Buffer.from('9713;Вт'), Buffer.from([0xd0]), Buffer.from(';У;06:00;14:30;8\n')]),
        ],
        ['declared UTF-8, sent Windows-1251', cp1251(csv(9714, 'Ночная')), 'text/csv; charset=utf-8'],
        ['binary with NUL bytes', Buffer.from([0x63, 0x6f, 0x00, 0xff, 0xfe, 0x00, 0xc8, 0x0a])],
      ];
      for (const [name, body, type] of cases) {
        const response = await stream(body, type);
        expect(response.statusCode, `${name}: ${response.body}`).toBe(400);
        expect(response.json().messages[0], name).toBe('validation_import_encoding');
      }
      const json = await call('POST', '/api/table/import', { config: { type: 'graphictype' }, csv: csv(9715, 'Сло\uFFFDмано') });
      expect(json.statusCode).toBe(400);
      expect(json.json().messages[0]).toBe('validation_import_encoding');
      expect(await tableChecksums(t.db)).toEqual(before);
    });
  });

  describe('equipment groups', () => {
    it('a static group naming vehicles that do not exist is refused, naming them; nothing stored', async () => {
      const [vehicle] = await t.db.query<{ id: number }>('select id from mgt.vehicles order by id limit 1');
      const groups = async () => (await t.db.query<{ n: number }>('select count(*)::int as n from mnt.vehicle_group'))[0].n;
      const count = await groups();
      const created = await call('POST', '/api/v1/mnt/groups', {
        name: 'Несуществующие',
        kind: 'static',
        vehicles: [vehicle.id, 2147480001, 2147480002],
      });
      expect(created.statusCode, created.body).toBe(400);
      expect(created.json().messages).toEqual(['mnt_group_vehicles_unknown', 'vehicles: 2147480001, 2147480002']);
      expect(await groups()).toBe(count);

      const good = await call('POST', '/api/v1/mnt/groups', { name: 'Одна машина', kind: 'static', vehicles: [vehicle.id] });
      expect(good.statusCode, good.body).toBe(201);
      const id = good.json().id as number;
      const changed = await call('PUT', `/api/v1/mnt/groups/${id}`, { name: 'Одна машина', kind: 'static', vehicles: [2147480003] });
      expect(changed.statusCode).toBe(400);
      expect(changed.json().messages).toEqual(['mnt_group_vehicles_unknown', 'vehicles: 2147480003']);
      const members = await t.db.query<{ vehicle_id: number }>('select vehicle_id from mnt.vehicle_group_member where group_id = $1', [id]);
      expect(members).toEqual([{ vehicle_id: vehicle.id }]);
    });
  });

  describe('numeric ids in paths', () => {
    it('DELETE /api/v1/roles/0x10 is refused and role 16 stays; 1e3 is not 1000', async () => {
      const [role] = await t.db.query<{ id: number }>(
        `insert into app.role (id, name, permissions) values (16, 'Шестнадцатая', '{}') on conflict (id) do update set name = excluded.name returning id`,
      );
      for (const text of ['0x10', '0X10', '1.6e1', '16.0', '0b10000', '+16', ' 16', '0o20']) {
        const response = await call('DELETE', `/api/v1/roles/${encodeURIComponent(text)}`);
        expect(response.statusCode, text).toBe(400);
        expect(response.json().messages[0]).toBe('bad_request');
      }
      expect(await t.db.query('select id from app.role where id = $1', [role.id])).toHaveLength(1);
      expect((await call('GET', '/api/v1/roles/1e3')).statusCode).toBe(400);
      expect((await call('GET', '/api/v1/roles/16')).statusCode).toBe(200);
    });

    it('every route with a numeric path parameter reads only decimal digits, and nothing changes', async () => {
      const routes = t.app.routeAccess.filter((route) => numericParams(route.schema?.params).length > 0 && !/logout/.test(route.url));
      expect(routes.length).toBeGreaterThan(20);
      const before = await tableChecksums(t.db);
      const findings: string[] = [];
      for (const route of routes) {
        const numeric = numericParams(route.schema?.params);
        for (const text of ['0x10', '1e3']) {
          const url = route.url.replace(/:(\w+)/g, (_, name: string) => (numeric.includes(name) ? text : '1'));
          const response = await t.app.inject({
            method: route.method as 'GET',
            url,
            headers: { authorization: admin, 'content-type': 'application/json' },
            payload: route.method === 'GET' || route.method === 'DELETE' ? undefined : '{}',
          });
          if (response.statusCode !== 400) findings.push(`${route.method} ${url}: ${response.statusCode}`);
        }
      }
      expect(findings).toEqual([]);
      expect(await tableChecksums(t.db)).toEqual(before);
    });
  });

  describe('handbook bodies are typed', () => {
    const save = (row: Record<string, unknown>) => call('POST', '/api/table/element/save', { config: { type: 'graphictype' }, row });

    it('a string where a number is declared, or a number where text is, is a 400 naming the field; nothing stored', async () => {
      const good = { code: 9721, title: 'Типы', short: 'Т', start: '07:30', end: 900, work_hours: 8 };
      const cases: [Record<string, unknown>, string][] = [
        [{ ...good, code: '9721' }, 'code'],
        [{ ...good, work_hours: '8' }, 'work_hours'],
        [{ ...good, title: 123 }, 'title'],
        [{ ...good, short: true }, 'short'],
        [{ ...good, end: false }, 'end'],
      ];
      for (const [row, field] of cases) {
        const response = await save(row);
        expect(response.statusCode, field).toBe(400);
        expect(response.json().messages).toEqual(['validation_failed']);
        expect(Object.keys(response.json().errors)).toEqual([field]);
      }
      expect(await graphicTypes(9721)).toEqual([]);
      const saved = await save(good);
      expect(saved.statusCode, saved.body).toBe(200);
      expect(saved.json()).toMatchObject({ code: 9721, start: 450, end: 900 });
      // the key too: an update naming its row by "12" is refused
      const update = await save({ ...good, id: String(saved.json().id), title: 'Другое' });
      expect(update.statusCode).toBe(400);
      expect(Object.keys(update.json().errors)).toEqual(['id']);
      expect(await graphicTypes(9721)).toEqual([{ title: 'Типы', short: 'Т' }]);
    });

    it('a CSV import still converts its text cells', async () => {
      const response = await call('POST', '/api/table/import', {
        config: { type: 'graphictype' },
        csv: 'code;title;short;start;end;work_hours\n9722;12345;7;450;07:30;8\n',
      });
      expect(response.statusCode, response.body).toBe(200);
      expect(await graphicTypes(9722)).toEqual([{ title: '12345', short: '7' }]);
    });
  });

  describe('video archive', () => {
    let owner: string;
    let ownerId: number;
    let vehicles: { vehicleId: number; dvrId: number }[];
    const MIN = 60_000;

    beforeAll(async () => {
      ownerId = await createUserWith(t.db, 'archive_viewer', {
        '/video/requests': 8 | READ | 2,
        '/video/online': READ,
        '/video/archive': READ,
        '/video/myrequests': READ | 1,
      });
      owner = await t.login('archive_viewer', TEST_PASSWORD);
      const now = Date.now();
      const rows = await t.db.query<{ vehicle_id: number; id: number }>(
        `select d.vehicle_id, d.id from mgt.dvr d where exists (select 1 from mgt.dev_camera c where c.dvr_id = d.id and c.index = 1)
           and (select count(*) from mgt.dvr x where x.vehicle_id = d.vehicle_id) = 1 order by d.id`,
      );
      vehicles = rows
        .filter((r) => demoStoppedAt(r.id, now) === null && piecesSeconds(demoCoverage(r.id, 1, now - 60 * MIN, now, now, 72)) >= 3598)
        .map((r) => ({ vehicleId: r.vehicle_id, dvrId: r.id }));
      expect(vehicles.length).toBeGreaterThan(3);
    });

    const as = (
      authorization: string,
      method: 'GET' | 'POST' | 'PUT' | 'DELETE',
      url: string,
      payload?: unknown,
      headers: Record<string, string> = {},
    ) => t.app.inject({ method, url, headers: { authorization, ...headers }, payload: payload as never });
    /** A performed one-minute request of a vehicle, made online so the worker downloads it at once. */
    const performed = async (index: number): Promise<number> => {
      const { vehicleId } = vehicles[index];
      await t.app.telemetry.pipeline.ingest([
        { vehicleId, time: Date.now(), lat: 59.95, lon: 30.31, speed: 20, course: 90, valid: true, history: false },
      ]);
      const now = Date.now();
      const created = await as(owner, 'POST', '/api/v1/video/requests', {
        vehicleId,
        cameras: [1],
        from: new Date(now - 2 * MIN).toISOString(),
        to: new Date(now - MIN).toISOString(),
      });
      expect(created.statusCode, created.body).toBe(201);
      const id = created.json().id as number;
      for (const end = Date.now() + 30_000; Date.now() < end;) {
        const [row] = await t.db.query<{ status: number }>('select status from app.video_request where id = $1', [id]);
        if (row.status === 6) return id;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      throw new Error(`request ${id} not performed`);
    };

    it('the download has a length and serves byte ranges: 206 with Content-Range, 416 beyond the end', async () => {
      const id = await performed(0);
      const url = `/api/v1/video/requests/${id}/download/1`;
      const whole = await as(owner, 'GET', url);
      expect(whole.statusCode).toBe(200);
      expect(whole.headers['accept-ranges']).toBe('bytes');
      const size = whole.rawPayload.length;
      expect(Number(whole.headers['content-length'])).toBe(size);
      expect(size).toBeGreaterThan(100_000);

      const cut = 100_003;
      const rest = await as(owner, 'GET', url, undefined, { range: `bytes=${cut}-` });
      expect(rest.statusCode).toBe(206);
      expect(rest.headers['content-range']).toBe(`bytes ${cut}-${size - 1}/${size}`);
      expect(Number(rest.headers['content-length'])).toBe(size - cut);
      expect(Buffer.concat([whole.rawPayload.subarray(0, cut), rest.rawPayload]).equals(whole.rawPayload)).toBe(true);

      const middle = await as(owner, 'GET', url, undefined, { range: 'bytes=1000-1999' });
      expect(middle.statusCode).toBe(206);
      expect(middle.rawPayload.equals(whole.rawPayload.subarray(1000, 2000))).toBe(true);
      const tail = await as(owner, 'GET', url, undefined, { range: 'bytes=-500' });
      expect(tail.rawPayload.equals(whole.rawPayload.subarray(size - 500))).toBe(true);

      const beyond = await as(owner, 'GET', url, undefined, { range: `bytes=${size}-` });
      expect(beyond.statusCode).toBe(416);
      expect(beyond.headers['content-range']).toBe(`bytes */${size}`);
      expect(beyond.json().messages).toEqual(['range_not_satisfiable']);
    });

    it('a stream address stops playing once its request is deleted, its user blocked or logged out, or the right withdrawn', async () => {
      const playlistOf = async (id: number, authorization = owner) => {
        const play = await as(authorization, 'GET', `/api/v1/video/requests/${id}/play/1`);
        expect(play.statusCode, play.body).toBe(200);
        return play.json().playUrl as string;
      };
      const fetchPlaylist = (url: string) => t.app.inject({ method: 'GET', url });

      const deleted = await performed(1);
      const deletedUrl = await playlistOf(deleted);
      expect((await fetchPlaylist(deletedUrl)).statusCode).toBe(200);
      expect((await as(owner, 'DELETE', `/api/v1/video/requests/${deleted}`)).statusCode).toBe(200);
      expect((await fetchPlaylist(deletedUrl)).statusCode).toBe(404);

      const kept = await performed(2);
      const keptUrl = await playlistOf(kept);
      // the role loses the right to watch the archive
      const [{ role_id: roleId }] = await t.db.query<{ role_id: number }>('select role_id from app.user_role where user_id = $1', [
        ownerId,
      ]);
      const withdrawn = await call('PUT', `/api/v1/roles/${roleId}`, {
        name: 'role of archive_viewer',
        permissions: { '/video/requests': READ, '/video/online': READ, '/video/archive': 0, '/video/myrequests': READ },
      });
      expect(withdrawn.statusCode, withdrawn.body).toBe(200);
      expect((await fetchPlaylist(keptUrl)).statusCode).toBe(403);
      await call('PUT', `/api/v1/roles/${roleId}`, {
        name: 'role of archive_viewer',
        permissions: { '/video/requests': 8 | READ | 2, '/video/online': READ, '/video/archive': READ, '/video/myrequests': READ | 1 },
      });
      expect((await fetchPlaylist(keptUrl)).statusCode).toBe(200);

      // logging out ends the session the address was issued to
      expect((await as(owner, 'GET', '/api/v1/auth/logout')).statusCode).toBeLessThan(300);
      expect((await fetchPlaylist(keptUrl)).statusCode).toBe(401);

      // blocking the user ends every address of theirs
      owner = await t.login('archive_viewer', TEST_PASSWORD);
      const again = await playlistOf(kept);
      expect((await fetchPlaylist(again)).statusCode).toBe(200);
      expect((await call('PUT', `/api/v1/users/${ownerId}`, { isBlocked: true })).statusCode).toBe(200);
      expect((await fetchPlaylist(again)).statusCode).toBe(401);
      // segments stay cheap: no session check
      expect((await t.app.inject({ method: 'GET', url: again.replace('index.m3u8', 'seg/1') })).statusCode).toBe(200);
    });
  });
});
