import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HANDBOOKS } from '../schemas/index';
import { defaultVisibleFields } from '../src/shared/handbooks/fields';
import { hashPassword } from '../src/server/auth/passwords';
import { ENGINES } from './helpers/engines';
import { startTestApp, type TestApp } from './helpers/testApp';
import { api, preparedExample } from './tableFixtures';

describe.each(ENGINES)('handbook access on %s', (engine) => {
  let t: TestApp;
  let admin: ReturnType<typeof api>;
  let viewer: ReturnType<typeof api>;
  let operator: ReturnType<typeof api>;
  let nobody: ReturnType<typeof api>;

  beforeAll(async () => {
    t = await startTestApp(engine);
    admin = api(t, await t.login('admin', 'admin123'));
    viewer = api(t, await t.login('viewer', 'viewer123'));
    operator = api(t, await t.login('operator', 'operator123'));
    // A user with no role: no handbook rights at all.
    await t.db.query(`insert into app.users (username, password_hash) values ('norights', $1)`, [await hashPassword('norights1')]);
    nobody = api(t, await t.login('norights', 'norights1'));
  });
  afterAll(() => t.close());

  const setSections = async (sections: Record<string, boolean>) => {
    await t.db.query(`update app.settings set value = jsonb_set(value, '{sections}', $1::jsonb) where id = 1`, [JSON.stringify(sections)]);
    t.app.settings.invalidate();
  };

  it('documents every handbook route in the OpenAPI document, in Russian', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json() as {
      paths: Record<string, Record<string, { summary?: string }>>;
    };
    const paths = [
      '/api/table/list',
      '/api/table/element/save',
      '/api/table/list/delete',
      '/api/table/list/deleteRA',
      '/api/table/tripstops',
      '/api/table/import',
      '/api/table/import/appoint-vehicles-to-route',
      '/api/table/export',
      '/api/table/options',
      '/api/widget/addcamersvehicle',
      '/api/v1/handbooks/query',
      '/api/v1/users/columns',
    ];
    for (const path of paths) {
      const operations = Object.values(doc.paths[path] ?? {});
      expect(operations.length, path).toBeGreaterThan(0);
      for (const operation of operations) expect(operation.summary, path).toMatch(/[а-яё]/i);
    }
  });

  it('needs a session', async () => {
    const response = await t.app.inject({ method: 'POST', url: '/api/table/list', payload: { config: { type: 'stops' } } });
    expect(response.statusCode).toBe(401);
  });

  it('answers 404 for a switched-off handbook on every route, as for an unknown one', async () => {
    for (const type of ['district', 'nope']) {
      expect((await admin('/api/table/list', { config: { type } })).status).toBe(404);
      expect((await admin('/api/table/element/save', { config: { type }, row: { district_name: 'x' } })).status).toBe(404);
      expect((await admin('/api/table/list/delete', { config: { type }, ids: [1] })).status).toBe(404);
      expect((await admin('/api/table/list/deleteRA', { config: { type }, row: { district_id: 1 } })).status).toBe(404);
      expect((await admin('/api/table/import', { config: { type }, csv: 'district_code\nA\n' })).status).toBe(404);
      expect((await admin('/api/table/export', { config: { type } })).status).toBe(404);
    }
    const query = await admin('/api/v1/handbooks/query', { schema: 'cat', table: 'district' });
    expect(query.status).toBe(404);
    expect(query.body).toEqual({ messages: ['not_found'] });
  });

  it('serves a handbook once its section is switched on', async () => {
    await setSections({ 'handbooks.district': true });
    try {
      const row = await preparedExample(t.db, HANDBOOKS.district);
      const saved = await admin('/api/table/element/save', { config: { type: 'district' }, row });
      expect(saved.status, JSON.stringify(saved.body)).toBe(200);
      expect(saved.body.geom).toMatch(/^POLYGON\(\(30\.28 59\.92/);
      const list = await admin('/api/table/list', { config: { type: 'district' } });
      expect(list.status).toBe(200);
      expect(list.body.count).toBeGreaterThan(0);
    } finally {
      await setSections({});
    }
    expect((await admin('/api/table/list', { config: { type: 'district' } })).status).toBe(404);
  });

  it('lets the viewer read but not write', async () => {
    expect((await viewer('/api/table/list', { config: { type: 'stops' } })).status).toBe(200);
    expect((await viewer('/api/table/export', { config: { type: 'stops' } })).status).toBe(200);
    const row = await preparedExample(t.db, HANDBOOKS.stops);
    const save = await viewer('/api/table/element/save', { config: { type: 'stops' }, row });
    expect(save.status).toBe(403);
    expect(save.body).toEqual({ messages: ['forbidden'] });
    expect((await viewer('/api/table/list/delete', { config: { type: 'stops' }, ids: [1] })).status).toBe(403);
    expect((await viewer('/api/table/import', { config: { type: 'stops' }, csv: 'stop_name\nА\n' })).status).toBe(403);
    expect((await viewer('/api/table/tripstops', { trip_id: 1, stops: [] })).status).toBe(403);
    expect((await viewer('/api/widget/addcamersvehicle', { veh_list: [1] })).status).toBe(403);
    expect((await viewer('/api/v1/handbooks/query', { schema: 'mgt', table: 'stops', limit: 1 })).status).toBe(200);
  });

  it('lets the operator create, edit and delete', async () => {
    const row = await preparedExample(t.db, HANDBOOKS.stops);
    const saved = await operator('/api/table/element/save', { config: { type: 'stops' }, row });
    expect(saved.status).toBe(200);
    expect((await operator('/api/table/element/save', { config: { type: 'stops' }, row: { ...saved.body, note: 'n' } })).status).toBe(200);
    expect((await operator('/api/table/list/delete', { config: { type: 'stops' }, ids: [saved.body.stop_id] })).body).toEqual({
      deleted: 1,
    });
  });

  it('refuses a user without handbook rights even reading', async () => {
    expect((await nobody('/api/table/list', { config: { type: 'stops' } })).status).toBe(403);
    expect((await nobody('/api/v1/handbooks/query', { schema: 'mgt', table: 'stops' })).status).toBe(403);
  });

  describe('the field app generic query', () => {
    it('reads whitelisted columns with sort, paging and filters', async () => {
      const response = await admin('/api/v1/handbooks/query', {
        schema: 'mgt',
        table: 'routes',
        fields: ['route_id', 'route_short_name', 'Depot_id'],
        sort: { field: 'route_short_name', order: 'ASC' },
        limit: 3,
        offset: 0,
      });
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      const list = response.body.list as Record<string, unknown>[];
      expect(response.body.count).toBeGreaterThan(0);
      expect(list.length).toBeLessThanOrEqual(3);
      for (const row of list) expect(Object.keys(row).sort()).toEqual(['Depot_id', 'Depot_id__display', 'route_id', 'route_short_name']);
    });

    it('gives distinct values for filter checklists', async () => {
      const response = await admin('/api/v1/handbooks/query', { schema: 'mgt', table: 'routes', fields: ['route_type'], distinct: true });
      expect(response.status).toBe(200);
      const values = (response.body.list as { route_type: string }[]).map((row) => row.route_type);
      expect(new Set(values).size).toBe(values.length);
      expect(response.body.count).toBe(values.length);
    });

    it.each([
      [{ schema: 'app', table: 'users' }],
      [{ schema: 'mgt', table: 'pg_user' }],
      [{ schema: 'pg_catalog', table: 'pg_authid' }],
      [{ schema: 'mgt', table: 'stops', fields: ['password_hash'] }],
      [{ schema: 'mgt', table: 'stops', fields: ['stop_name" from app.users --'] }],
      [{ schema: 'mgt', table: 'stops', sort: { field: 'stop_name; drop table mgt.stops', order: 'ASC' } }],
      [{ schema: 'mgt', table: 'stops', filters: { 'stop_name = stop_name or true': 'x' } }],
      [{ schema: 'mgt', table: 'stops', fields: ['stop_id'], distinct: true, sort: { field: 'stop_name', order: 'ASC' } }],
    ])('refuses names outside the whitelist: %j', async (body) => {
      const response = await admin('/api/v1/handbooks/query', body);
      expect(response.status).toBe(400);
      expect((response.body.messages as string[])[0]).toBe('bad_request');
    });
  });

  describe('column visibility', () => {
    it('defaults to the non-hidden fields and keeps a choice per user', async () => {
      const initial = await viewer('/api/v1/users/columns?table=dvr');
      expect(initial.body).toEqual({ fields: defaultVisibleFields(HANDBOOKS.dvr) });
      expect(initial.body.fields).not.toContain('password');
      const saved = await viewer('/api/v1/users/columns', { table: 'dvr', columns: ['vehicle_id', 'ip'] });
      expect(saved.body).toEqual({ fields: ['vehicle_id', 'ip'] });
      expect((await viewer('/api/v1/users/columns?table=dvr')).body).toEqual({ fields: ['vehicle_id', 'ip'] });
      expect((await admin('/api/v1/users/columns?table=dvr')).body).toEqual({ fields: defaultVisibleFields(HANDBOOKS.dvr) });
      const [row] = await t.db.query<{ fields: string[] }>(
        `select fields from app.user_columns c join app.users u on u.id = c.user_id where u.username = 'viewer' and c.table_name = 'dvr'`,
      );
      expect(row.fields).toEqual(['vehicle_id', 'ip']);
    });

    it('ignores turning off the last visible column', async () => {
      await viewer('/api/v1/users/columns', { table: 'stops', columns: ['stop_name'] });
      const emptied = await viewer('/api/v1/users/columns', { table: 'stops', columns: [] });
      expect(emptied.status).toBe(200);
      expect(emptied.body).toEqual({ fields: ['stop_name'] });
      expect((await viewer('/api/v1/users/columns?table=stops')).body).toEqual({ fields: ['stop_name'] });
    });

    it('refuses columns a handbook does not have', async () => {
      expect((await viewer('/api/v1/users/columns', { table: 'stops', columns: ['nope'] })).status).toBe(400);
    });
  });
});
