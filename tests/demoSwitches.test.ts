import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/server/config';
import { HANDBOOK_SECTIONS_OFF, MODULES, SECTIONS_OFF_BY_DEFAULT, isEnabled } from '../src/shared/modules';
import { ENGINES } from './helpers/engines';
import { startTestApp, type TestApp } from './helpers/testApp';
import { api } from './tableFixtures';

describe('module switches by install kind', () => {
  it('turns every module and section on with the demo data (the default of npm start)', () => {
    for (const config of [loadConfig({}), loadConfig({ DEMO_DATA: 'true' })]) {
      for (const module of MODULES) expect(isEnabled(config.switches, module), module).toBe(true);
      for (const section of SECTIONS_OFF_BY_DEFAULT) expect(isEnabled(config.switches, 'handbooks', section), section).toBe(true);
    }
  });

  it('keeps the spec defaults in a production install', () => {
    const { switches } = loadConfig({ DEMO_DATA: 'false' });
    for (const module of ['bc', 'vehicleWorkData', 'pdm']) expect(isEnabled(switches, module), module).toBe(false);
    for (const section of SECTIONS_OFF_BY_DEFAULT) expect(isEnabled(switches, 'video', section), section).toBe(false);
    expect(isEnabled(switches, 'handbooks', 'handbooks.agency')).toBe(true);
  });

  it('lets MODULES and SECTIONS override either', () => {
    const demo = loadConfig({ MODULES: '-pdm', SECTIONS: '-handbooks.camera' }).switches;
    expect(isEnabled(demo, 'pdm')).toBe(false);
    expect(isEnabled(demo, 'handbooks', 'handbooks.camera')).toBe(false);
    expect(isEnabled(demo, 'bc')).toBe(true);
    const production = loadConfig({ DEMO_DATA: 'false', MODULES: 'bc', SECTIONS: 'handbooks.validator' }).switches;
    expect(isEnabled(production, 'bc')).toBe(true);
    expect(isEnabled(production, 'handbooks', 'handbooks.validator')).toBe(true);
    expect(isEnabled(production, 'handbooks', 'handbooks.camera')).toBe(false);
  });
});

describe.each(ENGINES)('handbooks switched by install kind on %s', (engine) => {
  let demo: TestApp;
  let production: TestApp;
  let demoAdmin: ReturnType<typeof api>;
  let productionAdmin: ReturnType<typeof api>;
  beforeAll(async () => {
    // startTestApp's database holds the test-scale demo data either way; only the switches differ
    demo = await startTestApp(engine, { switches: loadConfig({}).switches });
    production = await startTestApp(engine, { switches: loadConfig({ DEMO_DATA: 'false' }).switches });
    demoAdmin = api(demo, await demo.login('admin', 'admin123'));
    productionAdmin = api(production, await production.login('admin', 'admin123'));
  });
  afterAll(async () => {
    await demo?.close();
    await production?.close();
  });

  it('serves every handbook the spec switches off, with demo rows, in demo mode; 404 in production', async () => {
    for (const type of HANDBOOK_SECTIONS_OFF) {
      const shown = await demoAdmin('/api/table/list', { config: { type } });
      expect(shown.status, type).toBe(200);
      expect(shown.body.count, type).toBeGreaterThan(0);
      const hidden = await productionAdmin('/api/table/list', { config: { type } });
      expect(hidden.status, type).toBe(404);
      expect(hidden.body).toEqual({ messages: ['not_found'] });
    }
  });
});
