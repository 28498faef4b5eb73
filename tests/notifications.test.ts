import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from './helpers/engines';
import { startTestApp, type TestApp } from './helpers/testApp';
import { createUserWith, TEST_PASSWORD } from './helpers/users';
import { READ } from '../src/shared/permissions';
import { hashToken } from '../src/server/auth/sessions';

interface Item {
  id: number;
  type: string;
  title: string;
  isNew: boolean;
  link: string | null;
}

describe.each(ENGINES)('notifications on %s', (engine) => {
  let t: TestApp;
  let anna: string;
  let boris: string;
  let annaId: number;
  let borisId: number;
  beforeAll(async () => {
    t = await startTestApp(engine);
    // Anna may see video and ADAS; Boris sees only what is for everyone and equipment faults.
    annaId = await createUserWith(t.db, 'anna', { '/video/myrequests': READ, '/adas/incidents-detailing': READ });
    borisId = await createUserWith(t.db, 'boris', { '/vehicle-diagnostic': READ });
    anna = await t.login('anna', TEST_PASSWORD);
    boris = await t.login('boris', TEST_PASSWORD);
  });
  afterAll(() => t.close());

  const get = (url: string, authorization: string) => t.app.inject({ method: 'GET', url, headers: { authorization } });
  const count = async (authorization: string) => (await get('/api/v1/events/ring/count', authorization)).json().count as number;
  const list = async (authorization: string, query = '') => (await get(`/api/v1/events/ring/list${query}`, authorization)).json();
  const viewed = (authorization: string, payload: object = {}) =>
    t.app.inject({ method: 'POST', url: '/api/v1/events/ring/viewed', payload, headers: { authorization } });

  it('starts empty: a new account does not inherit older notifications', async () => {
    await t.app.notifier.notify({ type: 'system', title: 'Старое сообщение' });
    await createUserWith(t.db, 'newcomer', {});
    const newcomer = await t.login('newcomer', TEST_PASSWORD);
    expect(await count(newcomer)).toBe(0);
    expect(await list(newcomer)).toMatchObject({ new_list: [] });
    await viewed(anna);
    await viewed(boris);
  });

  it('counts, lists and clears per user: one user viewing does not clear another', async () => {
    const first = await t.app.notifier.notify({
      type: 'system',
      severity: 'warning',
      title: 'Плановые работы в 22:00',
      body: 'Сервер будет недоступен 10 минут',
    });
    const second = await t.app.notifier.notify({ type: 'system', title: 'Работы завершены' });
    expect(await count(anna)).toBe(2);
    expect(await count(boris)).toBe(2);

    const page = await list(anna);
    expect(page.new_list).toEqual([second, first]);
    expect(page.list.slice(0, 2)).toMatchObject([
      { id: second, type: 'system', title: 'Работы завершены', isNew: true },
      { id: first, severity: 'warning', body: 'Сервер будет недоступен 10 минут', isNew: true },
    ]);
    expect(page.count).toBeGreaterThanOrEqual(3);

    const response = await viewed(anna);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ count: 0 });
    expect(await count(anna)).toBe(0);
    const after = await list(anna);
    expect(after.new_list).toEqual([]);
    expect(after.list.every((item: Item) => !item.isNew)).toBe(true);

    expect(await count(boris)).toBe(2);
    expect((await list(boris)).new_list).toEqual([second, first]);
  });

  it('marks as viewed only up to the id the console showed', async () => {
    await viewed(boris);
    const a = await t.app.notifier.notify({ type: 'system', title: 'Первое' });
    const b = await t.app.notifier.notify({ type: 'system', title: 'Второе' });
    expect((await viewed(boris, { upTo: a })).json()).toEqual({ count: 1 });
    expect((await list(boris)).new_list).toEqual([b]);
    // The watermark never moves back.
    expect((await viewed(boris, { upTo: 1 })).json()).toEqual({ count: 1 });
    await viewed(boris);
  });

  it('shows each kind only to users allowed to see its screen, and a personal one only to its user', async () => {
    await viewed(anna);
    await viewed(boris);
    const fault = await t.app.notifier.equipmentFault({
      vehicleId: 5,
      depotNumber: 1205,
      equipment: 'Видеорегистратор',
      detail: 'Нет сигнала с камеры 2',
    });
    const video = await t.app.notifier.videoReady({ requestId: 77, userId: annaId, depotNumber: 1205 });
    expect((await list(anna)).new_list).toEqual([video]);
    expect((await list(boris)).new_list).toEqual([fault]);
    const [item] = (await list(anna, '?type=video_ready')).list;
    expect(item).toMatchObject({ id: video, title: 'Видео по запросу № 77 готово', link: '/video/myrequests?request=77' });
    expect((await list(boris)).list[0]).toMatchObject({
      title: 'Неисправность оборудования: Видеорегистратор, ТС 1205',
      link: '/vehicle-diagnostic?vehicle=5',
    });
    expect((await list(anna, '?type=equipment_fault')).list).toEqual([]);
    expect(borisId).toBeGreaterThan(0);
  });

  it('rings for a high-grade ADAS incident appended through the events writer', async () => {
    await viewed(anna);
    await viewed(boris);
    const [vehicle] = await t.db.query<{ id: number; depot_number: number }>(
      'select id, depot_number from mgt.vehicles order by id limit 1',
    );
    await t.app.eventsWriter.adasIncidents([
      { vehicleId: vehicle.id, incidentType: 3, grade: 1 },
      { vehicleId: vehicle.id, incidentType: 4, grade: 3, speed: 70 },
    ]);
    const page = await list(anna, '?type=adas_incident');
    expect(page.new_list).toHaveLength(1);
    expect(page.list[0].title).toMatch(new RegExp(`^Инцидент ИСПВ \\(степень 3\\): .+, ТС ${vehicle.depot_number}$`));
    expect(page.list[0].link).toMatch(/^\/adas\/incidents-detailing\?event=\d+$/);
    expect(await count(boris)).toBe(0);
  });

  it('hides a kind while its module is off', async () => {
    await t.app.notifier.videoReady({ requestId: 78, userId: annaId });
    expect(await count(anna)).toBeGreaterThan(0);
    await t.db.query(`update app.settings set value = value || '{"modules": {"video": false, "adas": false}}'::jsonb`);
    t.app.settings.invalidate();
    expect(await count(anna)).toBe(0);
    await t.db.query(`update app.settings set value = value - 'modules'`);
    t.app.settings.invalidate();
  });

  it('keeps links inside the console', async () => {
    const id = await t.app.notifier.notify({ type: 'system', title: 'Ссылка', link: 'https://evil.example/' });
    const other = await t.app.notifier.notify({ type: 'system', title: 'Ссылка', link: '//evil.example/' });
    const rows = await t.db.query<{ link: string | null }>('select link from app.notification where id = any($1::bigint[])', [[id, other]]);
    expect(rows.map((r) => r.link)).toEqual([null, null]);
  });

  it('polls the count without keeping an idle session alive', async () => {
    // A session of its own, idle for ten minutes before this process first reads it.
    const session = await t.login('anna', TEST_PASSWORD);
    const tokenHash = hashToken(session.replace(/^Bearer /, ''));
    const lastSeen = async () =>
      (await t.db.query<{ at: string }>('select last_seen_at::text as at from app.session where token_hash = $1', [tokenHash]))[0].at;
    await t.db.query("update app.session set last_seen_at = now() - interval '10 minutes' where token_hash = $1", [tokenHash]);
    const idle = await lastSeen();
    await count(session);
    expect(await lastSeen()).toBe(idle);
    await list(session);
    expect(await lastSeen()).not.toBe(idle);
  });

  it('needs a session and refuses bad queries', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/events/ring/count' })).statusCode).toBe(401);
    expect((await get('/api/v1/events/ring/list?recordCount=0', anna)).statusCode).toBe(400);
    expect((await viewed(anna, { upTo: 'all' })).statusCode).toBe(400);
    // "Set all viewed" may come without a body.
    expect((await t.app.inject({ method: 'POST', url: '/api/v1/events/ring/viewed', headers: { authorization: anna } })).statusCode).toBe(
      200,
    );
  });
});
