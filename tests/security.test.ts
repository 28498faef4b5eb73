import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from './helpers/engines';
import { startTestApp, type TestApp } from './helpers/testApp';
import { createUserWith, TEST_PASSWORD } from './helpers/users';
import { ACTION_BITS } from '../src/shared/permissions';

describe.each(ENGINES)('HTTP hardening and the permission matrix on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(engine, { bodyLimitBytes: 4096 });
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
    const response = await t.app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { username: 'a'.repeat(10_000), password: 'x' } });
    expect(response.statusCode).toBe(413);
    expect(response.json()).toEqual({ messages: ['payload_too_large'] });
  });

  it('answers malformed JSON without a stack trace or internals', async () => {
    const response = await t.app.inject({ method: 'POST', url: '/api/v1/auth/login', headers: { 'content-type': 'application/json' }, payload: '{"username": ' });
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

  it('allows each permission-checked route with exactly its right and refuses it without', async () => {
    const checked = t.app.routeAccess.filter((r) => typeof r.access === 'object');
    expect(checked.length).toBeGreaterThan(5);
    for (const [i, route] of checked.entries()) {
      if (typeof route.access !== 'object') continue;
      const { path, action } = route.access;
      await createUserWith(t.db, `holder${i}`, { [path]: ACTION_BITS[action] });
      await createUserWith(t.db, `lacker${i}`, { [path]: 0b1111 & ~ACTION_BITS[action] });
      const call = async (username: string) => {
        const authorization = await t.login(username, TEST_PASSWORD);
        return t.app.inject({ method: route.method as 'GET', url: route.url.replace(/:\w+/g, '1'), headers: { authorization }, payload: route.method === 'GET' ? undefined : {} });
      };
      expect((await call(`lacker${i}`)).statusCode, `${route.method} ${route.url} without ${action}`).toBe(403);
      expect([401, 403], `${route.method} ${route.url} with ${action}`).not.toContain((await call(`holder${i}`)).statusCode);
    }
  });
});
