import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from './helpers/engines';
import { startTestApp, type TestApp } from './helpers/testApp';
import { createUserWith, TEST_PASSWORD } from './helpers/users';
import { READ, UPDATE } from '../src/shared/permissions';
import { PERMISSION_CODES } from '../src/shared/permissionCodes';
import { SUBSYSTEMS } from '../src/server/settings/subsystems';

/** A valid change per subsystem, and where it shows in the current user's settings (undefined: server-only). */
const CHANGES: Record<string, { body: object; shows?: (settings: Record<string, unknown>) => unknown; expected?: unknown }> = {
  navigation: { body: { requestRadius: 750 }, shows: (s) => s.requestRadius, expected: 750 },
  video: {
    body: { video: { archiveDays: 7 } },
    shows: (s) => s.video,
    expected: expect.objectContaining({ maxRequestMinutes: 30, archiveDays: 7 }),
  },
  passengers: { body: { report_formats: ['pdf'] }, shows: (s) => s.report_formats, expected: ['pdf'] },
  journals: { body: { journals: { retentionDays: 90 } }, shows: (s) => s.journals, expected: { retentionDays: 90 } },
  bc: { body: { kkv: { enabled: true } }, shows: (s) => s.kkv, expected: { enabled: true } },
  eis: { body: { eis: { enabled: true, sourceUrl: 'https://eis.example.org/export', schedule: ['02:30', '14:30'] } } },
};

describe.each(ENGINES)('system settings on %s', (engine) => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await startTestApp(engine);
    admin = await t.login('admin', 'admin123');
  });
  afterAll(() => t.close());

  const api = (method: 'GET' | 'PUT', url: string, payload?: object, authorization = admin) =>
    t.app.inject({ method, url, payload, headers: { authorization, 'x-page-id': '/system/test' } });
  const stored = async () => (await t.db.query<{ value: unknown }>('select value from app.settings where id = 1'))[0].value;
  const journalRows = async () => (await t.db.query<{ n: number }>('select count(*)::int as n from app.user_action'))[0].n;
  const current = async (authorization = admin) => (await api('GET', '/api/v1/auth/current/', undefined, authorization)).json();

  it('lets each subsystem be read and changed only with its own right', async () => {
    for (const subsystem of SUBSYSTEMS) {
      const name = `settings_${subsystem.id}`;
      await createUserWith(t.db, name, { [subsystem.path]: READ | UPDATE });
      const authorization = await t.login(name, TEST_PASSWORD);
      expect((await api('GET', `/api/v1/settings/${subsystem.id}`, undefined, authorization)).statusCode, subsystem.id).toBe(200);
      const saved = await api('PUT', `/api/v1/settings/${subsystem.id}`, CHANGES[subsystem.id].body, authorization);
      expect(saved.statusCode, `${subsystem.id}: ${saved.body}`).toBe(200);
      expect(saved.json()).toMatchObject(CHANGES[subsystem.id].body);
      for (const other of SUBSYSTEMS.filter((s) => s.id !== subsystem.id)) {
        expect(
          (await api('GET', `/api/v1/settings/${other.id}`, undefined, authorization)).statusCode,
          `${subsystem.id} reads ${other.id}`,
        ).toBe(403);
        expect((await api('PUT', `/api/v1/settings/${other.id}`, {}, authorization)).statusCode, `${subsystem.id} writes ${other.id}`).toBe(
          403,
        );
      }
      expect((await api('GET', '/api/v1/settings/modules', undefined, authorization)).statusCode).toBe(403);
    }
  });

  it('refuses a save with read alone', async () => {
    await createUserWith(t.db, 'video_reader', { '/system/video': READ });
    const authorization = await t.login('video_reader', TEST_PASSWORD);
    expect((await api('GET', '/api/v1/settings/video', undefined, authorization)).statusCode).toBe(200);
    expect((await api('PUT', '/api/v1/settings/video', { video: { archiveDays: 3 } }, authorization)).statusCode).toBe(403);
  });

  it('guards EIS import settings with the handbook-settings right (code 6), not with handbook viewing', async () => {
    const code = (id: number) => PERMISSION_CODES.find((c) => c.id === id)!.grants;
    await createUserWith(t.db, 'eis_admin', code(6));
    await createUserWith(t.db, 'handbook_viewer', code(13));
    expect((await api('GET', '/api/v1/settings/eis', undefined, await t.login('eis_admin', TEST_PASSWORD))).statusCode).toBe(200);
    expect((await api('GET', '/api/v1/settings/eis', undefined, await t.login('handbook_viewer', TEST_PASSWORD))).statusCode).toBe(403);
  });

  it('applies every change at once, without a restart, keeping the untouched fields', async () => {
    const settings = (await current()).settings;
    for (const [id, change] of Object.entries(CHANGES)) {
      if (change.shows) expect(change.shows(settings), id).toEqual(change.expected);
    }
    expect(settings.maxCenterDeviation).toBe(100);
    // The EIS source may carry credentials: it is not sent to every user.
    expect(settings).not.toHaveProperty('eis');
    expect((await api('GET', '/api/v1/settings/eis')).json()).toEqual(CHANGES.eis.body);
  });

  it('journals a save with the subsystem before and after', async () => {
    await api('PUT', '/api/v1/settings/navigation', { maxCenterDeviation: 250, messageFrequency: 15 });
    const rows = await t.db.query<{ action: string; page_id: string; before: Record<string, number>; after: Record<string, number> }>(
      "select action, page_id, before, after from app.user_action where object = 'settings.navigation' order by id desc limit 1",
    );
    expect(rows[0]).toMatchObject({ action: 'update', page_id: '/system/test' });
    expect(rows[0].before).toMatchObject({ maxCenterDeviation: 100, messageFrequency: 30, requestRadius: 750 });
    expect(rows[0].after).toMatchObject({ maxCenterDeviation: 250, messageFrequency: 15, requestRadius: 750 });
  });

  it('masks a password in the EIS address in the journal', async () => {
    await api('PUT', '/api/v1/settings/eis', { eis: { sourceUrl: 'https://loader:s3cret@eis.example.org/export' } });
    const [row] = await t.db.query<{ after: { eis: { sourceUrl: string } } }>(
      "select after from app.user_action where object = 'settings.eis' order by id desc limit 1",
    );
    expect(row.after.eis.sourceUrl).toBe('https://loader:***@eis.example.org/export');
  });

  it.each([
    ['navigation', { maxCenterDeviation: -1 }, 'maxCenterDeviation'],
    ['navigation', { requestRadius: 'far' }, 'requestRadius'],
    ['navigation', { egtsEquipmentDataMaxAge: 1e9 }, 'egtsEquipmentDataMaxAge'],
    ['navigation', { video: { archiveDays: 3 } }, 'video'],
    ['video', { video: { archiveDays: 0 } }, 'video.archiveDays'],
    ['video', { video: { quality: 'hd' } }, 'video.quality'],
    ['video', { video: { mediaServerUrl: 'ftp://{ip}/live' } }, 'video.mediaServerUrl'],
    ['passengers', { report_formats: ['docx'] }, 'report_formats.0'],
    ['passengers', { report_formats: [] }, 'report_formats'],
    ['journals', { journals: { retentionDays: 0 } }, 'journals.retentionDays'],
    ['journals', { sections: { 'handbooks.agency': false } }, 'sections.handbooks.agency'],
    ['bc', { modules: { pdm: true } }, 'modules.pdm'],
    ['eis', { eis: { schedule: ['07:00', '25:00'] } }, 'eis.schedule.1'],
    ['eis', { eis: { sourceUrl: 'ftp://eis.example.org/' } }, 'eis.sourceUrl'],
    ['eis', { eis: { sourceUrl: '' } }, 'eis.sourceUrl'],
    ['modules', { modules: { nosuch: false } }, 'modules.nosuch'],
    ['modules', { sections: { 'journals.nosuch': false } }, 'sections.journals.nosuch'],
  ])('refuses %s %o naming %s, and changes nothing', async (subsystem, body, field) => {
    const [before, rows] = [await stored(), await journalRows()];
    const response = await api('PUT', `/api/v1/settings/${subsystem}`, body);
    expect(response.statusCode).toBe(400);
    const { messages } = response.json();
    expect(messages[0]).toBe('bad_request');
    expect(messages[1].split(' ')[0]).toBe(field);
    expect(await stored()).toEqual(before);
    expect(await journalRows()).toBe(rows);
  });

  it('switches a module off and on: its routes answer 404 meanwhile, and the switch route stays', async () => {
    const off = await api('PUT', '/api/v1/settings/modules', { modules: { system: false, administration: false } });
    expect(off.statusCode).toBe(200);
    expect(off.json().modules).toMatchObject({ system: false, administration: false, map: true, bc: false });
    expect((await api('GET', '/api/v1/settings/navigation')).statusCode).toBe(404);
    expect((await api('GET', '/api/v1/roles')).statusCode).toBe(404);
    expect((await current()).settings.modules).toMatchObject({ system: false, administration: false });
    expect((await api('PUT', '/api/v1/settings/modules', { modules: { system: true, administration: true } })).statusCode).toBe(200);
    expect((await api('GET', '/api/v1/settings/navigation')).statusCode).toBe(200);
    expect((await api('GET', '/api/v1/roles')).statusCode).toBe(200);
  });

  it('turns the ticket-control module on from its settings page', async () => {
    const saved = await api('PUT', '/api/v1/settings/bc', { modules: { bc: true } });
    expect(saved.json()).toEqual({
      kkv: { enabled: true },
      bc: { photoMaxMb: 10, coordIntervalSeconds: 30, positionMaxAgeMinutes: 30, lateReportHours: 12, rateRedAt: 8 },
      modules: { bc: true },
    });
    expect((await current()).settings.modules.bc).toBe(true);
  });

  it('lists every known switch, with the defaults of the spec', async () => {
    const { modules, sections } = (await api('GET', '/api/v1/settings/modules')).json();
    expect(modules).toMatchObject({ bc: true, pdm: false, vehicleWorkData: false, journals: true });
    expect(sections).toMatchObject({
      'passengers.registry': false,
      'handbooks.agency': true,
      'handbooks.mnt': false,
      'journals.passErrors': true,
      'system.bc': true,
    });
  });

  it('gives the modules route to the roles right', async () => {
    await createUserWith(t.db, 'roles_editor', { '/roles': READ | UPDATE });
    const authorization = await t.login('roles_editor', TEST_PASSWORD);
    expect((await api('PUT', '/api/v1/settings/modules', { sections: { 'passengers.registry': true } }, authorization)).statusCode).toBe(
      200,
    );
    expect((await current(authorization)).settings.sections['passengers.registry']).toBe(true);
    expect((await api('GET', '/api/v1/settings/navigation', undefined, authorization)).statusCode).toBe(403);
  });
});
