import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from './helpers/engines';
import { startTestApp, type TestApp } from './helpers/testApp';
import { createUserWith, TEST_PASSWORD } from './helpers/users';
import { READ } from '../src/shared/permissions';

describe.each(ENGINES)('users and roles on %s', (engine) => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await startTestApp(engine);
    admin = await t.login('admin', 'admin123');
  });
  afterAll(() => t.close());

  const api = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object, authorization = admin) =>
    t.app.inject({ method, url, payload, headers: { authorization } });
  const usersCount = async () => (await t.db.query<{ n: number }>('select count(*)::int as n from app.users'))[0].n;
  const newUser = {
    username: 'petrov',
    email: 'petrov@example.org',
    password: 'petrov2026',
    firstName: 'Пётр',
    lastName: 'Петров',
    title: 'Диспетчер',
    roles: [],
  };

  it('lists users with filter, sort and paging', async () => {
    const page = (await api('GET', '/api/v1/users?sortField=username&sortOrder=DESC&skipCount=1&recordCount=2')).json();
    expect(page.list).toHaveLength(2);
    expect(page.count).toBeGreaterThanOrEqual(5);
    const all = (await api('GET', '/api/v1/users?sortField=username&sortOrder=DESC&recordCount=100'))
      .json()
      .list.map((u: { username: string }) => u.username);
    expect(page.list.map((u: { username: string }) => u.username)).toEqual(all.slice(1, 3));
    const filtered = (await api('GET', '/api/v1/users?filter=контрол')).json();
    expect(filtered.list.map((u: { username: string }) => u.username)).toEqual(['controller']);
    expect(JSON.stringify(filtered)).not.toContain('password');
  });

  it('gives the blank template at id 0', async () => {
    expect((await api('GET', '/api/v1/users/0')).json()).toMatchObject({ id: 0, username: '', email: '', roles: [] });
  });

  it.each([
    [{ ...newUser, username: '' }, 'username_required'],
    [{ ...newUser, username: 'ab' }, 'username must be longer than or equal to 3 characters'],
    [{ ...newUser, email: '' }, 'email_required'],
    [{ ...newUser, password: '' }, 'password_required'],
    [{ ...newUser, password: 'abc12' }, 'bad_password'],
    [{ ...newUser, password: 'abcdefgh' }, 'bad_password'],
    [{ ...newUser, username: 'ADMIN' }, 'username_exists'],
    [{ ...newUser, email: 'operator@demo.local' }, 'email_exists'],
  ])('refuses %o with %s and changes nothing', async (body, code) => {
    const before = await usersCount();
    const response = await api('POST', '/api/v1/users/', body);
    expect(response.statusCode).toBe(400);
    expect(response.json().messages).toEqual([code]);
    expect(await usersCount()).toBe(before);
  });

  it('creates, edits, blocks, unblocks and deletes a user, journaling each write', async () => {
    const [viewerRole] = await t.db.query<{ id: number }>("select id from app.role where name = 'Наблюдатель'");
    const created = await api('POST', '/api/v1/users/', { ...newUser, roles: [viewerRole.id] });
    expect(created.statusCode).toBe(200);
    const id = created.json().id;
    expect(created.json()).toMatchObject({ username: 'petrov', roles: [viewerRole.id], isBlocked: false });
    expect(created.body).not.toContain('petrov2026');

    const session = await t.login('petrov', 'petrov2026');
    expect((await api('PUT', `/api/v1/users/${id}`, { title: 'Старший диспетчер' })).json().title).toBe('Старший диспетчер');
    expect((await api('PUT', `/api/v1/users/${id}`, { email: 'other@example.org' })).json().messages).toEqual(['email_cant_be_changed']);
    expect((await api('PUT', `/api/v1/users/${id}`, { username: 'operator' })).json().messages).toEqual(['username_exists']);

    expect((await api('PUT', `/api/v1/users/${id}`, { isBlocked: true })).json().isBlocked).toBe(true);
    expect((await api('GET', '/api/v1/auth/current/', undefined, session)).statusCode).toBe(401);
    const refused = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      payload: { username: 'petrov', password: 'petrov2026' },
    });
    expect(refused.json().messages).toEqual(['user_blocked']);
    await api('PUT', `/api/v1/users/${id}`, { isBlocked: false });
    await t.login('petrov', 'petrov2026');

    expect((await api('DELETE', `/api/v1/users/${id}`)).statusCode).toBe(204);
    expect((await api('GET', `/api/v1/users/${id}`)).json().messages).toEqual(['user_not_found']);
    expect((await api('PUT', `/api/v1/users/${id}`, { title: 'x' })).json().messages).toEqual(['user_not_found']);

    const journal = await t.db.query<{ action: string; before: unknown; after: unknown }>(
      "select action, before, after from app.user_action where object = 'user' and object_id = $1 order by id",
      [String(id)],
    );
    expect(journal.map((entry) => entry.action)).toEqual(['create', 'update', 'block', 'unblock', 'delete']);
    expect(journal[1].before).toMatchObject({ title: 'Диспетчер' });
    expect(journal[1].after).toMatchObject({ title: 'Старший диспетчер' });
  });

  it('answers users/info', async () => {
    const info = (await api('GET', '/api/v1/users/info')).json();
    expect(info.total).toBeGreaterThanOrEqual(5);
    expect(info.blocked).toBeGreaterThanOrEqual(1);
  });

  it('refuses to change or delete a system role', async () => {
    const [system] = await t.db.query<{ id: number }>('select id from app.role where is_system');
    expect((await api('PUT', `/api/v1/roles/${system.id}`, { name: 'x' })).json().messages).toEqual(['systemrole_cant_be_changed']);
    expect((await api('DELETE', `/api/v1/roles/${system.id}`)).json().messages).toEqual(['systemrole_cant_be_remov']);
    expect((await api('GET', `/api/v1/roles/${system.id}`)).json().isSystem).toBe(true);
  });

  it('creates a role whose change reaches its logged-in user at once', async () => {
    const role = (await api('POST', '/api/v1/roles', { name: 'Узкая роль', permissions: { '/users': READ } })).json();
    expect(role.permissions).toEqual({ '/users': READ });
    await api('POST', '/api/v1/users/', { ...newUser, username: 'narrow', email: 'narrow@example.org', roles: [role.id] });
    const narrow = await t.login('narrow', 'petrov2026');
    expect((await api('GET', '/api/v1/users', undefined, narrow)).statusCode).toBe(200);
    expect((await api('GET', '/api/v1/roles', undefined, narrow)).statusCode).toBe(403);

    await api('PUT', `/api/v1/roles/${role.id}`, { permissions: { '/roles': READ } });
    expect((await api('GET', '/api/v1/users', undefined, narrow)).statusCode).toBe(403);
    expect((await api('GET', '/api/v1/roles', undefined, narrow)).statusCode).toBe(200);
    expect((await api('POST', '/api/v1/auth/update-permissions', undefined, narrow)).json().permissions).toEqual({ '/roles': READ });

    expect((await api('POST', '/api/v1/roles', { name: 'узкая РОЛЬ' })).json().messages).toEqual(['role_name_exists']);
    expect((await api('DELETE', `/api/v1/roles/${role.id}`)).statusCode).toBe(204);
    expect((await api('GET', '/api/v1/roles', undefined, narrow)).statusCode).toBe(403);
  });

  it('lists the named permission codes', async () => {
    const codes = (await api('GET', '/api/v1/roles/codes')).json();
    // the spec's 35 named codes and the dispatcher's (SCREENS.md, from 44)
    expect(codes.count).toBeGreaterThanOrEqual(36);
    expect(codes.list[0]).toMatchObject({ id: 1, meaning: 'Администрирование' });
    expect(codes.list.filter((code: { id: number }) => code.id < 44)).toHaveLength(35);
    expect(codes.list).toContainEqual(expect.objectContaining({ id: 44 }));
  });

  it('hides administration when its module is off', async () => {
    const off = await startTestApp(engine, { switches: { modules: { administration: false }, sections: {} } });
    try {
      const authorization = await off.login('admin', 'admin123');
      const response = await off.app.inject({ method: 'GET', url: '/api/v1/users', headers: { authorization } });
      expect(response.statusCode).toBe(404);
    } finally {
      await off.close();
    }
  });

  it('lets a user with only read rights read but not write', async () => {
    await createUserWith(t.db, 'reader', { '/users': READ, '/roles': READ });
    const reader = await t.login('reader', TEST_PASSWORD);
    expect((await api('GET', '/api/v1/users', undefined, reader)).statusCode).toBe(200);
    expect((await api('POST', '/api/v1/users/', newUser, reader)).statusCode).toBe(403);
    expect((await api('POST', '/api/v1/roles', { name: 'x' }, reader)).statusCode).toBe(403);
  });
});
