import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from './helpers/engines';
import { startTestApp, type TestApp } from './helpers/testApp';
import { createUserWith, TEST_PASSWORD } from './helpers/users';
import { hashToken } from '../src/server/auth/sessions';
import { DEFAULT_MAP } from '../src/shared/constants';
import { READ } from '../src/shared/permissions';

describe.each(ENGINES)('authentication on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(engine, {
      loginThrottle: { accountFailures: 3, addressFailures: 1000, windowMinutes: 15, lockMinutes: 1 },
    });
  });
  afterAll(() => t.close());

  const login = (username: unknown, password: unknown, ip = '10.0.0.1') =>
    t.app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { username, password }, remoteAddress: ip });
  const current = (authorization?: string) =>
    t.app.inject({ method: 'GET', url: '/api/v1/auth/current/', headers: authorization ? { authorization } : {} });

  it('logs in and returns a fresh token and the whole current user', async () => {
    const first = await login('admin', 'admin123');
    expect(first.statusCode).toBe(200);
    const { token, user } = first.json();
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    for (const field of [
      'id',
      'username',
      'firstName',
      'lastName',
      'title',
      'isBlocked',
      'permissions',
      'roleSettings',
      'settings',
      'mapSettings',
      'vehicle_count',
      'users_count',
      'build',
      'transporttype',
      'cameratype',
      'table_visibility',
    ]) {
      expect(user, field).toHaveProperty(field);
    }
    expect(user.username).toBe('admin');
    expect(user.mapSettings).toEqual(DEFAULT_MAP);
    expect(user.transporttype.some((t: { code: string; title: string }) => t.code === '-' || t.title === '-')).toBe(false);
    expect(user.settings.modules.bc).toBe(false);
    const second = await login('admin', 'admin123');
    expect(second.json().token).not.toBe(token);
  });

  it('answers each login failure with its code and no session', async () => {
    expect((await login('', 'x')).json()).toEqual({ messages: ['login_and_password_required'] });
    expect((await login('admin', '')).json()).toEqual({ messages: ['login_and_password_required'] });
    const unknown = await login('nobody-here', 'whatever1');
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toEqual({ messages: ['login_not_found'] });
    expect((await login('operator', 'wrong-password1')).json()).toEqual({ messages: ['password_incorrect'] });
    expect((await login('blocked', 'blocked123')).json()).toEqual({ messages: ['user_blocked'] });
  });

  it('serves the current user only with a valid token', async () => {
    expect((await current()).statusCode).toBe(401);
    expect((await current('Bearer not-a-token')).json()).toEqual({ messages: ['unauthorized'] });
    const { token } = (await login('viewer', 'viewer123')).json();
    const response = await current(`Bearer ${token}`);
    expect(response.statusCode).toBe(200);
    expect(response.json().username).toBe('viewer');
  });

  it('revokes the token on logout', async () => {
    const { token } = (await login('operator', 'operator123')).json();
    const authorization = `Bearer ${token}`;
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/auth/logout', headers: { authorization } })).statusCode).toBe(204);
    expect((await current(authorization)).statusCode).toBe(401);
    // A logout without a session is tolerated.
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/auth/logout' })).statusCode).toBe(204);
  });

  it('stores sessions hashed, never the token itself', async () => {
    const { token } = (await login('controller', 'controller123')).json();
    const rows = await t.db.query<{ token_hash: string }>('select token_hash from app.session where token_hash = $1 or token_hash = $2', [
      token,
      hashToken(token),
    ]);
    expect(rows).toEqual([{ token_hash: hashToken(token) }]);
  });

  it('expires a session after inactivity and after its absolute lifetime', async () => {
    const idle = (await login('viewer', 'viewer123')).json().token;
    await t.db.query("update app.session set last_seen_at = now() - interval '2 hours' where token_hash = $1", [hashToken(idle)]);
    expect((await current(`Bearer ${idle}`)).statusCode).toBe(401);
    const old = (await login('viewer', 'viewer123')).json().token;
    await t.db.query("update app.session set expires_at = now() - interval '1 second' where token_hash = $1", [hashToken(old)]);
    expect((await current(`Bearer ${old}`)).statusCode).toBe(401);
  });

  it('ends every session of a user who is blocked', async () => {
    const userId = await createUserWith(t.db, 'to-block', { '/users': READ });
    const a = (await login('to-block', TEST_PASSWORD)).json().token;
    const b = (await login('to-block', TEST_PASSWORD)).json().token;
    await t.db.query('update app.users set is_blocked = true where id = $1', [userId]);
    expect((await current(`Bearer ${a}`)).statusCode).toBe(401);
    expect((await current(`Bearer ${b}`)).statusCode).toBe(401);
  });

  it('refuses an account for a while after repeated failures, then lets it in again', async () => {
    await createUserWith(t.db, 'target', {});
    for (let i = 0; i < 3; i++)
      expect((await login('target', 'wrong-one1', `10.1.0.${i}`)).json().messages).toEqual(['password_incorrect']);
    const refused = await login('target', TEST_PASSWORD, '10.1.0.99');
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({ messages: ['too_many_attempts'] });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // The lock is temporary: once it runs out the right password works and clears the count.
    await t.db.query("update app.login_failure set locked_until = now() - interval '1 second' where subject = 'user:target'");
    expect((await login('target', TEST_PASSWORD)).statusCode).toBe(200);
    expect(await t.db.query("select * from app.login_failure where subject = 'user:target'")).toEqual([]);
  });

  describe('with a low address limit', () => {
    let strict: TestApp;
    beforeAll(async () => {
      strict = await startTestApp(engine, {
        loginThrottle: { accountFailures: 100, addressFailures: 4, windowMinutes: 15, lockMinutes: 1 },
      });
    });
    afterAll(() => strict.close());
    const loginFrom = (ip: string, username: string, password: string) =>
      strict.app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { username, password }, remoteAddress: ip });

    it('refuses an address that fails across many accounts', async () => {
      for (let i = 0; i < 4; i++) await loginFrom('10.9.9.9', `ghost${i}`, 'x1x1x1');
      const refused = await loginFrom('10.9.9.9', 'admin', 'admin123');
      expect(refused.statusCode).toBe(429);
      const elsewhere = await loginFrom('10.9.9.10', 'admin', 'admin123');
      expect(elsewhere.statusCode).toBe(200);
    });

    it('locks an account from an address without locking the other accounts logging in from it', async () => {
      for (let i = 0; i < 6; i++) await loginFrom('10.8.8.8', 'operator', `wrong-one${i}`);
      expect((await loginFrom('10.8.8.8', 'operator', 'operator123')).statusCode).toBe(429);
      expect((await loginFrom('10.8.8.8', 'admin', 'admin123')).statusCode).toBe(200);
      expect((await loginFrom('10.8.8.8', 'viewer', 'viewer123')).statusCode).toBe(200);
      // The operator is refused only from that address.
      expect((await loginFrom('10.8.8.9', 'operator', 'operator123')).statusCode).toBe(200);
    });
  });

  it('tells browsers and proxies to keep no copy of an answer carrying a token', async () => {
    const response = await login('admin', 'admin123');
    expect(response.headers['cache-control']).toBe('no-store');
    const authorization = `Bearer ${response.json().token}`;
    expect((await login('admin', 'wrong-password1')).headers['cache-control']).toBe('no-store');
    expect((await current(authorization)).headers['cache-control']).toBe('no-store');
    const userId = await createUserWith(t.db, 'changes-password', {});
    const changed = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/users/${userId}`,
      headers: { authorization },
      payload: { username: 'changes-password', password: 'New-password-42' },
    });
    expect(changed.statusCode).toBe(200);
    expect(changed.headers['cache-control']).toBe('no-store');
  });

  it('saves the map position of the user', async () => {
    const authorization = await t.login('operator', 'operator123');
    const saved = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/coord',
      headers: { authorization },
      payload: { lat: 59.9386312, lon: 30.3141234, zoom: 13 },
    });
    expect(saved.json()).toEqual({ lat: 59.93863, lon: 30.31412, zoom: 13 });
    expect((await current(authorization)).json().mapSettings).toEqual({ lat: 59.93863, lon: 30.31412, zoom: 13 });
    const bad = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/coord',
      headers: { authorization },
      payload: { lat: 123, lon: 30, zoom: 13 },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().messages[0]).toBe('bad_request');
    expect((await current(authorization)).json().mapSettings.zoom).toBe(13);
  });

  it('hands a logged-in user changed permissions without a new login', async () => {
    const userId = await createUserWith(t.db, 'promoted', { '/users': READ });
    const authorization = `Bearer ${(await login('promoted', TEST_PASSWORD)).json().token}`;
    await t.db.query(
      'update app.role set permissions = \'{"/roles": 4}\' where id = (select role_id from app.user_role where user_id = $1)',
      [userId],
    );
    const refreshed = await t.app.inject({ method: 'POST', url: '/api/v1/auth/update-permissions', headers: { authorization } });
    expect(refreshed.json()).toEqual({ permissions: { '/roles': READ } });
  });
});
