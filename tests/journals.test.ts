import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from './helpers/engines';
import { startTestApp, type TestApp } from './helpers/testApp';
import { createUserWith, TEST_PASSWORD } from './helpers/users';
import { READ } from '../src/shared/permissions';
import { sweepUserActions } from '../src/server/journals/retention';
import { journalable } from '../src/server/journals/redact';

interface ActionRow {
  user_id: number | null;
  username: string | null;
  page_id: string | null;
  action: string;
  object: string | null;
  object_id: string | null;
  before: unknown;
  after: unknown;
  request: unknown;
}

describe.each(ENGINES)('journals on %s', (engine) => {
  let t: TestApp;
  let admin: string;
  let adminId: number;
  let vehicles: { id: number; depot_number: number }[];
  beforeAll(async () => {
    t = await startTestApp(engine);
    admin = await t.login('admin', 'admin123');
    adminId = (await t.db.query<{ id: number }>("select id from app.users where username = 'admin'"))[0].id;
    vehicles = await t.db.query<{ id: number; depot_number: number }>('select id, depot_number from mgt.vehicles order by id limit 2');
  });
  afterAll(() => t.close());

  const api = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object, authorization = admin, page = '/test/page') =>
    t.app.inject({ method, url, payload, headers: { authorization, 'x-page-id': page } });
  const lastId = async () => Number((await t.db.query<{ id: string | null }>('select max(id) as id from app.user_action'))[0].id ?? 0);
  const rowsAfter = (id: number) => t.db.query<ActionRow>('select * from app.user_action where id > $1 order by id', [id]);

  describe('user actions', () => {
    it('records a route that journals itself exactly once, with its before and after', async () => {
      const mark = await lastId();
      const created = await api(
        'POST',
        '/api/v1/roles',
        { name: 'Диспетчер смены', permissions: { '/map/currentData': READ } },
        admin,
        '/roles',
      );
      expect(created.statusCode).toBe(200);
      const rows = await rowsAfter(mark);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({
        user_id: adminId,
        username: 'admin',
        page_id: '/roles',
        action: 'create',
        object: 'role',
        object_id: String(created.json().id),
        before: null,
      });
      expect(rows[0].after).toMatchObject({ name: 'Диспетчер смены' });

      const mark2 = await lastId();
      await api('PUT', `/api/v1/roles/${created.json().id}`, { description: 'Смена А' }, admin, '/roles');
      const [update] = await rowsAfter(mark2);
      expect(update).toMatchObject({ action: 'update', before: { description: null }, after: { description: 'Смена А' } });
    });

    it('records any other write once through the generic hook, with the request', async () => {
      const mark = await lastId();
      expect((await api('POST', '/api/v1/auth/coord', { lat: 59.9, lon: 30.3, zoom: 12 }, admin, '/map')).statusCode).toBe(200);
      const rows = await rowsAfter(mark);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({
        user_id: adminId,
        page_id: '/map',
        action: 'POST /api/v1/auth/coord',
        object: '/api/v1/auth/coord',
        request: { params: {}, body: { lat: 59.9, lon: 30.3, zoom: 12 } },
      });
    });

    it('records nothing for a refused write', async () => {
      const mark = await lastId();
      expect((await api('POST', '/api/v1/auth/coord', { lat: 100, lon: 30, zoom: 1 })).statusCode).toBe(400);
      expect((await api('POST', '/api/v1/roles', { name: '' })).statusCode).toBe(400);
      expect(await rowsAfter(mark)).toHaveLength(0);
    });

    it('keeps passwords, tokens and imported files out of the journal', () => {
      expect(
        journalable({
          params: { id: '3' },
          body: { username: 'ivanov', password: 'x', newPassword: 'y', refresh_token: 'z', csv: 'a;b', nested: [{ Password: 1 }] },
        }),
      ).toEqual({
        params: { id: '3' },
        body: { username: 'ivanov', password: '***', newPassword: '***', refresh_token: '***', csv: '***', nested: [{ Password: '***' }] },
      });
      const bulky = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`field${i}`, 'x'.repeat(1500)]));
      expect(journalable({ body: bulky })).toMatchObject({ truncated: true });
    });

    it('records logins and logouts', async () => {
      const id = await createUserWith(t.db, 'journal_login', {});
      const mark = await lastId();
      const authorization = await t.login('journal_login', TEST_PASSWORD);
      await t.app.inject({ method: 'GET', url: '/api/v1/auth/logout', headers: { authorization } });
      expect((await rowsAfter(mark)).map((row) => [row.user_id, row.action, row.object])).toEqual([
        [id, 'login', 'session'],
        [id, 'logout', 'session'],
      ]);
    });

    it('cannot be changed or deleted through the API', async () => {
      for (const method of ['PUT', 'DELETE', 'POST'] as const) {
        expect((await api(method, '/api/v1/journals/useractions', {})).statusCode, method).toBe(404);
        expect((await api(method, '/api/v1/journals/useractions/1', {})).statusCode, method).toBe(404);
      }
    });

    describe('list and export', () => {
      let userA: number;
      let userB: number;
      beforeAll(async () => {
        userA = await createUserWith(t.db, 'journal_a', {});
        userB = await createUserWith(t.db, 'journal_b', {});
        const rows: [number, string, string, string][] = [
          [userA, '2020-03-01T08:00:00Z', 'create', 'role'],
          [userA, '2020-03-02T08:00:00Z', 'update', '=HYPERLINK("http://evil.example")'],
          [userB, '2020-03-03T08:00:00Z', 'create', '@SUM(A1)'],
          [userB, '2020-03-04T08:00:00Z', 'delete', '+1;-1'],
          [userA, '2020-04-01T08:00:00Z', 'create', 'user'],
        ];
        for (const [user, at, action, object] of rows) {
          await t.db.query(
            "insert into app.user_action (user_id, username, at, action, object, page_id) values ($1, (select username from app.users where id = $1), $2, $3, $4, '-page')",
            [user, at, action, object],
          );
        }
      });
      const march = 'from=2020-03-01T00:00:00Z&to=2020-03-31T23:59:59Z';

      it('filters by period, user and type, sorts and pages', async () => {
        const all = (await api('GET', `/api/v1/journals/useractions?${march}`)).json();
        expect(all.count).toBe(4);
        expect(all.list.map((r: ActionRow) => r.object)).toEqual(['+1;-1', '@SUM(A1)', '=HYPERLINK("http://evil.example")', 'role']);
        const byUser = (await api('GET', `/api/v1/journals/useractions?${march}&user=${userA}`)).json();
        expect(byUser.count).toBe(2);
        expect(byUser.list.every((r: ActionRow) => r.username === 'journal_a')).toBe(true);
        const byType = (
          await api('GET', `/api/v1/journals/useractions?from=2020-01-01T00:00:00Z&to=2020-12-31T00:00:00Z&type=create`)
        ).json();
        expect(byType.count).toBe(3);
        const both = (
          await api(
            'GET',
            `/api/v1/journals/useractions?from=2020-01-01T00:00:00Z&to=2020-12-31T00:00:00Z&type=create,delete&user=${userB}`,
          )
        ).json();
        expect(both.list.map((r: ActionRow) => r.action)).toEqual(['delete', 'create']);
        const page = (
          await api('GET', `/api/v1/journals/useractions?${march}&sortField=at&sortOrder=ASC&skipCount=1&recordCount=2`)
        ).json();
        expect(page).toMatchObject({ count: 4 });
        expect(page.list.map((r: ActionRow) => r.action)).toEqual(['update', 'create']);
        expect(page.list[0]).toHaveProperty('at');
      });

      it('refuses bad filters', async () => {
        for (const query of ['from=yesterday', 'sortField=password', 'user=abc', 'recordCount=0', 'recordCount=5000', 'nosuch=1']) {
          const response = await api('GET', `/api/v1/journals/useractions?${query}`);
          expect(response.statusCode, query).toBe(400);
          expect(response.json().messages[0]).toBe('bad_request');
        }
      });

      it('exports the same rows as CSV: BOM, semicolons, formulas neutralised, times at the client offset', async () => {
        const response = await t.app.inject({
          method: 'GET',
          url: `/api/v1/journals/useractions/export?${march}&sortOrder=ASC`,
          headers: { authorization: admin, 'x-timezone-offset': '180' },
        });
        expect(response.statusCode).toBe(200);
        expect(response.headers['content-type']).toContain('text/csv');
        expect(response.headers['content-disposition']).toMatch(/^attachment; filename="useractions-\d{4}-\d{2}-\d{2}\.csv"$/);
        expect([...response.rawPayload.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
        const lines = response.body.slice(1).split('\r\n').filter(Boolean);
        expect(lines).toHaveLength(5);
        expect(lines[0].split(';')).toEqual([
          '№',
          'Дата и время',
          'ID пользователя',
          'Пользователь',
          'Страница',
          'Действие',
          'Объект',
          'ID объекта',
          'До изменения',
          'После изменения',
          'Запрос',
          'IP-адрес',
        ]);
        expect(lines[1]).toContain(';01.03.2020 11:00:00;');
        expect(lines[1]).toContain(";'-page;");
        expect(lines[2]).toContain(`;"'=HYPERLINK(""http://evil.example"")";`);
        expect(lines[3]).toContain(";'@SUM(A1);");
        expect(lines[4]).toContain(`;"'+1;-1";`);
      });
    });

    it('sweeps rows older than the retention period', async () => {
      await t.db.query(
        "insert into app.user_action (at, action) values (now() - interval '400 days', 'old'), (now() - interval '10 days', 'recent')",
      );
      expect(await sweepUserActions(t.db, 365)).toBeGreaterThanOrEqual(1);
      const left = await t.db.query<{ action: string }>("select action from app.user_action where action in ('old', 'recent')");
      expect(left.map((r) => r.action)).toEqual(['recent']);
    });
  });

  describe('event journals', () => {
    beforeAll(async () => {
      const [a, b] = vehicles;
      await t.app.eventsWriter.vehicleEvents([
        { vehicleId: a.id, kind: 'connect', at: '2021-05-01T06:00:00Z' },
        { vehicleId: a.id, kind: 'disconnect', at: '2021-05-01T07:00:00Z', details: { reason: 'timeout' } },
        { vehicleId: b.id, kind: 'pass_error', at: '2021-05-01T08:00:00Z', details: { card: '=cmd' } },
      ]);
      await t.app.eventsWriter.softwareEvents([
        { vehicleId: a.id, kind: 'firmware_update', severity: 'warning', message: 'Обновление ПО 2.1', at: '2021-05-02T00:00:00Z' },
      ]);
      await t.app.eventsWriter.videoEvents([
        { vehicleId: b.id, kind: 'camera_offline', camera: 2, message: 'Камера 2 недоступна', at: '2021-05-03T00:00:00Z' },
      ]);
      await t.app.eventsWriter.adasIncidents([
        { vehicleId: a.id, incidentType: 7, speed: 42.5, lat: 59.95, lon: 30.3, grade: 1, at: '2021-05-04T00:00:00Z' },
        { vehicleId: b.id, incidentType: 8, speed: 61, lat: 59.96, lon: 30.31, grade: 2, at: '2021-05-04T01:00:00Z' },
      ]);
    });
    const period = 'from=2021-05-01T00:00:00Z&to=2021-05-31T00:00:00Z';

    it('lists vehicle connections and pass errors with the vehicle filled in, filtered by vehicle and type', async () => {
      const [a, b] = vehicles;
      const all = (await api('GET', `/api/v1/journals/eventsts?${period}`)).json();
      expect(all.count).toBe(3);
      expect(all.list[0]).toMatchObject({ kind: 'pass_error', vehicle_id: b.id, depot_number: b.depot_number, details: { card: '=cmd' } });
      const ofA = (await api('GET', `/api/v1/journals/eventsts?${period}&vehicle=${a.id}&sortField=at&sortOrder=ASC`)).json();
      expect(ofA.list.map((r: { kind: string }) => r.kind)).toEqual(['connect', 'disconnect']);
      expect((await api('GET', `/api/v1/journals/eventsts?${period}&type=disconnect`)).json().count).toBe(1);
      expect((await api('GET', `/api/v1/journals/eventsts?type=reboot`)).statusCode).toBe(400);
    });

    it('hides pass errors while their switch is off', async () => {
      expect((await api('PUT', '/api/v1/settings/journals', { sections: { 'journals.passErrors': false } })).statusCode).toBe(200);
      const list = (await api('GET', `/api/v1/journals/eventsts?${period}`)).json();
      expect(list.list.map((r: { kind: string }) => r.kind)).toEqual(['disconnect', 'connect']);
      await api('PUT', '/api/v1/settings/journals', { sections: { 'journals.passErrors': true } });
      expect((await api('GET', `/api/v1/journals/eventsts?${period}`)).json().count).toBe(3);
    });

    it('lists software, video and ADAS events', async () => {
      expect((await api('GET', `/api/v1/journals/eventspo?${period}`)).json().list).toMatchObject([
        { kind: 'firmware_update', severity: 'warning', message: 'Обновление ПО 2.1' },
      ]);
      expect((await api('GET', `/api/v1/journals/video?${period}&type=camera_offline`)).json().list).toMatchObject([
        { camera: 2, vehicle_id: vehicles[1].id },
      ]);
      const adas = (await api('GET', `/api/v1/journals/adas?${period}&sortField=speed&sortOrder=DESC`)).json();
      expect(adas.count).toBe(2);
      expect(adas.list.map((r: { speed: number }) => r.speed)).toEqual([61, 42.5]);
      expect(adas.list[1]).toMatchObject({ incident_type: 7, depot_number: vehicles[0].depot_number, lat: 59.95, lon: 30.3, grade: 1 });
      expect(adas.list[1]).toHaveProperty('tm');
      expect((await api('GET', `/api/v1/journals/adas?${period}&type=8`)).json().count).toBe(1);
      const csv = await api('GET', `/api/v1/journals/eventsts/export?${period}`);
      // details as labelled fields (an unknown field by its key), never raw JSON
      expect(csv.body).toContain('Причина: timeout');
      expect(csv.body).toContain('card: =cmd');
      expect(csv.body).toContain('Ошибка прохода');
      expect(csv.body).not.toContain('pass_error');
    });

    it("names each event kind and severity in Russian and labels the details, in the table's data and in the export", async () => {
      const june = 'from=2021-06-01T00:00:00Z&to=2021-06-30T00:00:00Z';
      await t.app.eventsWriter.softwareEvents([
        {
          vehicleId: vehicles[0].id,
          kind: 'mnt_command_performed',
          severity: 'warning',
          message: 'Конфигурация применена',
          at: '2021-06-02T00:00:00Z',
          details: { commandId: 12, attempts: 2, retryAt: '2021-06-02T00:05:00Z' },
        },
      ]);
      expect((await api('GET', `/api/v1/journals/eventspo?${june}`)).json().list).toMatchObject([
        { kind: 'mnt_command_performed', severity: 'warning' },
      ]);
      const csv = (await api('GET', `/api/v1/journals/eventspo/export?${june}`)).body;
      expect(csv).toContain(';Конфигурация применена;Предупреждение;');
      expect(csv).toMatch(/Команда: 12; Попыток: 2; Повтор: 02\.06\.2021 \d{2}:05/);
      expect(csv).not.toMatch(/mnt_command_performed|warning|commandId/);
    });

    it('answers 404 for a journal switched off, and again 200 when on', async () => {
      await api('PUT', '/api/v1/settings/journals', { sections: { 'journals.softwareEvents': false, 'journals.userActions': false } });
      expect((await api('GET', '/api/v1/journals/eventspo')).statusCode).toBe(404);
      expect((await api('GET', '/api/v1/journals/eventspo/export')).statusCode).toBe(404);
      expect((await api('GET', '/api/v1/journals/useractions')).statusCode).toBe(404);
      expect((await api('GET', '/api/v1/journals/video')).statusCode).toBe(200);
      await api('PUT', '/api/v1/settings/journals', { sections: { 'journals.softwareEvents': true, 'journals.userActions': true } });
      expect((await api('GET', '/api/v1/journals/eventspo')).statusCode).toBe(200);
    });

    it('guards each journal by its own route key', async () => {
      await createUserWith(t.db, 'journal_video', { '/journal/video': READ });
      const authorization = await t.login('journal_video', TEST_PASSWORD);
      expect((await api('GET', '/api/v1/journals/video', undefined, authorization)).statusCode).toBe(200);
      for (const other of ['useractions', 'eventsts', 'eventspo', 'adas']) {
        expect((await api('GET', `/api/v1/journals/${other}`, undefined, authorization)).statusCode, other).toBe(403);
      }
    });
  });
});
