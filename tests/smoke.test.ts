import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from './helpers/engines';
import { startTestApp, type TestApp } from './helpers/testApp';

describe.each(ENGINES)('server on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(engine);
  });
  afterAll(() => t.close());

  it('answers health with its engine', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(response.json()).toMatchObject({ status: 'ok', engine });
  });
});
