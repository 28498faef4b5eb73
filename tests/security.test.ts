import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from './helpers/engines';
import { startTestApp, type TestApp } from './helpers/testApp';
import { loadConfig } from '../src/server/config';
import { createUserWith, TEST_PASSWORD } from './helpers/users';
import { ACTION_BITS } from '../src/shared/permissions';
import { isEnabled } from '../src/shared/modules';
import { actionsOf } from '../src/server/http/access';

describe.each(ENGINES)('HTTP hardening and the permission matrix on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    // every module on: the routes of modules off by default (ticket control) are in the matrix too
    t = await startTestApp(engine, { bodyLimitBytes: 4096, switches: loadConfig({ DEMO_DATA: 'true', LOG_LEVEL: 'silent' }).switches });
  });
  afterAll(() => t.close());

  it('sends security headers', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(response.headers['content-security-policy']).toContain("default-src 'self'");
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(response.headers['content-security-policy']).not.toContain('upgrade-insecure-requests');
    expect(response.headers['referrer-policy']).toBe('no-referrer');
  });

  it('refuses an oversized body with a catalogue code', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      payload: { username: 'a'.repeat(10_000), password: 'x' },
    });
    expect(response.statusCode).toBe(413);
    expect(response.json()).toEqual({ messages: ['payload_too_large'] });
  });

  it('answers malformed JSON without a stack trace or internals', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"username": ',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ messages: ['bad_request'] });
    expect(response.body).not.toMatch(/at .*\.ts|stack|SELECT|Unexpected/i);
  });

  it('answers an unknown API path with not_found', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/v1/nothing-here' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ messages: ['not_found'] });
  });

  it('serves the OpenAPI document of every route', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    const paths = Object.keys(response.json().paths);
    for (const route of t.app.routeAccess) {
      const openApiPath = route.url.replace(/:(\w+)/g, '{$1}');
      expect(paths, route.url).toContain(openApiPath);
    }
  });

  it('refuses every protected route without a session', async () => {
    for (const route of t.app.routeAccess.filter((r) => r.access !== 'public')) {
      const response = await t.app.inject({ method: route.method as 'GET', url: route.url.replace(/:\w+/g, '1') });
      expect(response.statusCode, `${route.method} ${route.url}`).toBe(401);
    }
  });

  /**
   * A permission path may name what the request names (`/handbooks/table/:type`): the test names the stops
   * handbook the ways handbook routes read it (config.type, ?type=, the generic query's schema and table).
   */
  /** A logged-in user holding exactly these permissions; one per distinct set (each login hashes a password). */
  const sessions = new Map<string, Promise<string>>();
  const sessionWith = (permissions: Record<string, number>): Promise<string> => {
    const key = JSON.stringify(permissions);
    if (!sessions.has(key)) {
      const username = `holder${sessions.size}`;
      sessions.set(
        key,
        createUserWith(t.db, username, permissions).then(() => t.login(username, TEST_PASSWORD)),
      );
    }
    return sessions.get(key)!;
  };
  const NAMED = { key: 'stops', query: '?type=stops', body: { config: { type: 'stops' }, schema: 'mgt', table: 'stops' } };

  it('allows each permission-checked route with exactly its right and refuses it without', async () => {
    const checked = t.app.routeAccess.filter((r) => typeof r.access === 'object');
    expect(checked.length).toBeGreaterThan(5);
    expect(checked.map((route) => route.url)).toEqual(
      expect.arrayContaining([
        '/api/table/list',
        '/api/table/element/save',
        '/api/table/import',
        '/api/v1/handbooks/query',
        '/api/table/tripstops',
        '/api/widget/addcamersvehicle',
      ]),
    );
    for (const route of checked) {
      if (typeof route.access !== 'object') continue;
      if ('anyOf' in route.access) {
        // Any one alternative whose section is on is enough; every right of every alternative but the one needed is not.
        const switches = await t.app.settings.switches();
        const alternatives = route.access.anyOf.filter((p) => isEnabled(switches, route.module!, p.section));
        expect(alternatives.length, `${route.url}: no alternative switched on in the test`).toBeGreaterThan(0);
        const call = async (authorization: string) =>
          t.app.inject({ method: route.method as 'GET', url: route.url.replace(/:\w+/g, '1'), headers: { authorization }, payload: {} });
        const none = await sessionWith(
          Object.fromEntries(alternatives.map((p) => [p.path, 0b1111 & ~actionsOf(p).reduce((a, action) => a | ACTION_BITS[action], 0)])),
        );
        expect((await call(none)).statusCode, `${route.method} ${route.url} with none of its alternatives`).toBe(403);
        for (const alternative of alternatives) {
          const holder = await sessionWith({
            [alternative.path]: actionsOf(alternative).reduce((a, action) => a | ACTION_BITS[action], 0),
          });
          expect([401, 403], `${route.method} ${route.url} with ${alternative.path}`).not.toContain((await call(holder)).statusCode);
        }
        continue;
      }
      const named = route.access.path.includes(':');
      const path = route.access.path.replace(/:\w+/, NAMED.key);
      const actions = actionsOf(route.access);
      const bits = actions.map((action) => ACTION_BITS[action]);
      const all = bits.reduce((a, b) => a | b, 0);
      // Holding one of them is enough for an any-of permission; otherwise each one is needed.
      const lacking = route.access.any ? [0b1111 & ~all] : bits.map((bit) => 0b1111 & ~bit);
      const holder = await sessionWith({ [path]: route.access.any ? bits[0] : all });
      const lackers = await Promise.all(lacking.map((mask) => sessionWith({ [path]: mask })));
      const call = async (authorization: string) => {
        const url = route.url.replace(/:\w+/g, '1') + (named ? NAMED.query : '');
        return t.app.inject({
          method: route.method as 'GET',
          url,
          headers: { authorization },
          payload: route.method === 'GET' ? undefined : named ? NAMED.body : {},
        });
      };
      for (const lacker of lackers) {
        expect((await call(lacker)).statusCode, `${route.method} ${route.url} without ${actions.join('/')} on ${path}`).toBe(403);
      }
      expect([401, 403], `${route.method} ${route.url} with ${actions.join('/')} on ${path}`).not.toContain(
        (await call(holder)).statusCode,
      );
    }
  }, 240_000);
});
