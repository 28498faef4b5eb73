import GtfsRealtimeBindings from 'gtfs-realtime-bindings';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/server/config';
import type { AlertList, ServiceAlert } from '../src/shared/dispatch/alerts';
import { PERMISSION_CODES } from '../src/shared/permissionCodes';
import { CREATE, READ } from '../src/shared/permissions';
import { ENGINES } from './helpers/engines';
import { startTestApp, type TestApp } from './helpers/testApp';
import { createUserWith, TEST_PASSWORD } from './helpers/users';

const { transit_realtime: rt } = GtfsRealtimeBindings;
const grants = (...ids: number[]) => {
  const out: Record<string, number> = {};
  for (const id of ids)
    for (const [key, bits] of Object.entries(PERMISSION_CODES.find((c) => c.id === id)!.grants)) out[key] = (out[key] ?? 0) | bits;
  return out;
};

/**
 * Service alerts: a draft written, edited, published (then in the GTFS-Realtime Alerts feed under the static
 * export's ids), ended; bad input refused with a code and nothing written; the rights of codes 44 and 46.
 */
describe.each(ENGINES)('service alerts on %s', (engine) => {
  let t: TestApp;
  let routeId: number;
  let otherRoute: number;
  let stopId: number;
  let viewer: string;
  let author: string;
  let writer: string;
  let stranger: string;
  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, token: string | null, payload?: unknown) =>
    t.app.inject({
      method,
      url,
      headers: token ? { authorization: token } : {},
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  const count = async (sql: string) => (await t.db.query<{ n: number }>(sql)).at(0)!.n;
  const stored = () => count('select count(*)::int as n from dispatch.service_alert');
  const journaled = () => count(`select count(*)::int as n from app.user_action where object = 'dispatch.service_alert'`);
  const feed = async () => {
    const response = await call('GET', '/api/v1/gtfs-rt/alerts', null);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toContain('application/x-protobuf');
    return rt.FeedMessage.decode(response.rawPayload);
  };
  const draft = (extra: Record<string, unknown> = {}) => ({
    cause: 'CONSTRUCTION',
    effect: 'DETOUR',
    header: 'Объезд по ул. Садовой',
    description: 'Ремонт дороги, остановка перенесена',
    routeIds: [routeId],
    stopIds: [stopId],
    ...extra,
  });

  beforeAll(async () => {
    t = await startTestApp(engine, { switches: loadConfig({ DEMO_DATA: 'false', MODULES: 'dispatch' }).switches });
    const [{ id: marshType }] = await t.db.query<{ id: number }>(`insert into mgt.marsh_type (title) values ('Городской') returning id`);
    const route = async (name: string) =>
      (
        await t.db.query<{ route_id: number }>(
          `insert into mgt.routes (route_long_name, route_type, "MarshType_id", route_short_name, route_desc) values ($1, 'А', $2, $1, 'Тест') returning route_id`,
          [name, marshType],
        )
      )[0].route_id;
    routeId = await route('77к');
    otherRoute = await route('78');
    [{ stop_id: stopId }] = await t.db.query<{ stop_id: number }>(
      `insert into mgt.stops (stop_name, stop_lat, stop_lon) values ('Садовая улица', 55.75, 37.6) returning stop_id`,
    );
    // the route and the stop were imported from GTFS: the feeds name them by those ids
    await t.db.query(`insert into gtfs.external_key (kind, gtfs_id, local_id) values ('route', 'R-77K', $1), ('stop', 'S-SADOVAYA', $2)`, [
      routeId,
      stopId,
    ]);
    await createUserWith(t.db, 'alert-viewer', grants(44));
    await createUserWith(t.db, 'alert-writer', grants(44, 46));
    // writes drafts only: create without update on /dispatch/alerts
    await createUserWith(t.db, 'alert-author', { '/dispatch/alerts': READ | CREATE });
    await createUserWith(t.db, 'alert-stranger', grants(9));
    viewer = await t.login('alert-viewer', TEST_PASSWORD);
    writer = await t.login('alert-writer', TEST_PASSWORD);
    author = await t.login('alert-author', TEST_PASSWORD);
    stranger = await t.login('alert-stranger', TEST_PASSWORD);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('goes draft → published → ended, journaled, and the Alerts feed gives it only while published, with the export ids', async () => {
    const created = await call('POST', '/api/v1/dispatch/alerts', author, draft());
    expect(created.statusCode, created.body).toBe(200);
    const alert = created.json<ServiceAlert>();
    expect(alert).toMatchObject({
      state: 'draft',
      inFeed: false,
      cause: 'CONSTRUCTION',
      effect: 'DETOUR',
      header: 'Объезд по ул. Садовой',
      wholeNetwork: false,
      routes: [{ id: routeId, name: '77к' }],
      stops: [{ id: stopId, name: 'Садовая улица' }],
      author: 'alert-author',
      activeTo: null,
      publishedAt: null,
    });
    expect((await feed()).entity).toEqual([]);

    // the author edits the draft, and cannot publish it (code 46's update)
    const edited = await call(
      'PUT',
      `/api/v1/dispatch/alerts/${alert.id}`,
      author,
      draft({ routeIds: [routeId, otherRoute], effect: 'STOP_MOVED' }),
    );
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json<ServiceAlert>()).toMatchObject({ effect: 'STOP_MOVED', updatedBy: 'alert-author' });
    expect((await call('POST', `/api/v1/dispatch/alerts/${alert.id}/publish`, author)).statusCode).toBe(403);

    const published = await call('POST', `/api/v1/dispatch/alerts/${alert.id}/publish`, writer);
    expect(published.statusCode, published.body).toBe(200);
    expect(published.json<ServiceAlert>()).toMatchObject({ state: 'published', inFeed: true, publishedBy: 'alert-writer' });
    // a published alert is no longer edited nor deleted, nor published twice
    for (const [method, url, payload] of [
      ['PUT', `/api/v1/dispatch/alerts/${alert.id}`, draft()],
      ['DELETE', `/api/v1/dispatch/alerts/${alert.id}`, undefined],
      ['POST', `/api/v1/dispatch/alerts/${alert.id}/publish`, undefined],
    ] as const) {
      const refused = await call(method, url, writer, payload);
      expect(refused.statusCode, url).toBe(409);
      expect(refused.json().messages[0]).toBe('dispatch_alert_published');
    }

    // a draft and a published alert of a future period: neither is in the feed
    const future = (
      await call('POST', '/api/v1/dispatch/alerts', writer, draft({ activeFrom: new Date(Date.now() + 3_600_000).toISOString() }))
    ).json<ServiceAlert>();
    expect((await call('POST', `/api/v1/dispatch/alerts/${future.id}/publish`, writer)).statusCode).toBe(200);
    const network = (
      await call('POST', '/api/v1/dispatch/alerts', writer, {
        cause: 'WEATHER',
        effect: 'SIGNIFICANT_DELAYS',
        header: 'Снегопад',
        wholeNetwork: true,
        activeTo: new Date(Date.now() + 7_200_000).toISOString(),
      })
    ).json<ServiceAlert>();

    const decoded = await feed();
    expect(decoded.entity.map((e) => e.id)).toEqual([`alert-${alert.id}`]);
    const entity = decoded.entity[0].alert!;
    expect(entity.cause).toBe(rt.Alert.Cause.CONSTRUCTION);
    expect(entity.effect).toBe(rt.Alert.Effect.STOP_MOVED);
    expect(entity.informedEntity!.map((e) => e.routeId || e.stopId)).toEqual(['R-77K', String(otherRoute), 'S-SADOVAYA']);
    expect(entity.headerText!.translation).toEqual([expect.objectContaining({ text: 'Объезд по ул. Садовой', language: 'ru' })]);
    expect(entity.descriptionText!.translation![0].text).toBe('Ремонт дороги, остановка перенесена');
    expect(Number(entity.activePeriod![0].start)).toBe(Math.floor(Date.parse(published.json<ServiceAlert>().activeFrom) / 1000));

    // the whole network's alert published: each agency of the network is its informed entity
    expect((await call('POST', `/api/v1/dispatch/alerts/${network.id}/publish`, writer)).statusCode).toBe(200);
    const json = (await call('GET', '/api/v1/gtfs-rt/alerts?format=json', null)).json<{
      entity: { id: string; alert: { effect: string; informedEntity: { agencyId?: string }[] } }[];
    }>();
    expect(json.entity.map((e) => e.id)).toEqual([`alert-${alert.id}`, `alert-${network.id}`]);
    expect(json.entity[1].alert.effect).toBe('SIGNIFICANT_DELAYS');
    expect(json.entity[1].alert.informedEntity.every((e) => typeof e.agencyId === 'string')).toBe(true);

    const ended = await call('POST', `/api/v1/dispatch/alerts/${alert.id}/end`, writer);
    expect(ended.statusCode, ended.body).toBe(200);
    expect(ended.json<ServiceAlert>()).toMatchObject({ state: 'ended', inFeed: false, endedBy: 'alert-writer' });
    expect((await feed()).entity.map((e) => e.id)).toEqual([`alert-${network.id}`]);
    // an ended alert is not published again nor ended twice
    for (const url of [`/api/v1/dispatch/alerts/${alert.id}/publish`, `/api/v1/dispatch/alerts/${alert.id}/end`]) {
      const refused = await call('POST', url, writer);
      expect(refused.statusCode, url).toBe(409);
      expect(refused.json().messages[0]).toBe('dispatch_alert_ended');
    }

    // the lists by state; the default: the current ones
    const ids = async (query: string) =>
      (await call('GET', `/api/v1/dispatch/alerts${query}`, viewer)).json<AlertList>().list.map((a) => a.id);
    expect((await ids('')).sort()).toEqual([future.id, network.id].sort());
    expect(await ids('?state=ended')).toEqual([alert.id]);
    expect((await ids('?state=all')).sort()).toEqual([alert.id, future.id, network.id].sort());
    // the board's strip: published and in force now (not the future one, not the ended one)
    expect(await ids('?state=in_force')).toEqual([network.id]);

    const journal = await t.db.query<{ action: string; username: string }>(
      `select action, username from app.user_action where object = 'dispatch.service_alert' and object_id = $1 order by id`,
      [String(alert.id)],
    );
    expect(journal).toEqual([
      { action: 'create service alert', username: 'alert-author' },
      { action: 'edit service alert', username: 'alert-author' },
      { action: 'publish service alert', username: 'alert-writer' },
      { action: 'end service alert', username: 'alert-writer' },
    ]);
  });

  it('deletes a draft only, journaled', async () => {
    const alert = (await call('POST', '/api/v1/dispatch/alerts', author, draft())).json<ServiceAlert>();
    expect((await call('POST', `/api/v1/dispatch/alerts/${alert.id}/end`, writer)).json().messages[0]).toBe('dispatch_alert_draft');
    expect((await call('DELETE', `/api/v1/dispatch/alerts/${alert.id}`, viewer)).statusCode).toBe(403);
    expect((await call('DELETE', `/api/v1/dispatch/alerts/${alert.id}`, author)).statusCode).toBe(204);
    expect(await count(`select count(*)::int as n from dispatch.service_alert where id = ${alert.id}`)).toBe(0);
    const [row] = await t.db.query<{ action: string }>(
      `select action from app.user_action where object = 'dispatch.service_alert' and object_id = $1 order by id desc limit 1`,
      [String(alert.id)],
    );
    expect(row.action).toBe('delete service alert');
    expect((await call('DELETE', `/api/v1/dispatch/alerts/${alert.id}`, author)).statusCode).toBe(404);
  });

  it('refuses bad alerts with a message code and changes nothing; checks the rights of every call', async () => {
    const [rows, entries] = [await stored(), await journaled()];
    const now = Date.now();
    const refusals: [unknown, string][] = [
      [draft({ header: '   ' }), 'dispatch_alert_header'],
      [draft({ header: 'x'.repeat(201) }), 'too_long'],
      [draft({ description: 'x'.repeat(2001) }), 'too_long'],
      [draft({ cause: 'ALIENS' }), 'bad_request'],
      [draft({ effect: 'no_service' }), 'bad_request'],
      [draft({ activeFrom: 'завтра утром' }), 'dispatch_alert_bad_time'],
      [draft({ activeFrom: '2026-13-45T10:00:00Z' }), 'dispatch_alert_bad_time'],
      [draft({ activeFrom: new Date(now).toISOString(), activeTo: new Date(now - 60_000).toISOString() }), 'dispatch_alert_period'],
      [draft({ activeFrom: new Date(now).toISOString(), activeTo: new Date(now).toISOString() }), 'dispatch_alert_period'],
      [draft({ routeIds: [], stopIds: [] }), 'dispatch_alert_entities'],
      [draft({ wholeNetwork: true }), 'dispatch_alert_entities'],
      [draft({ routeIds: [routeId, 99_999_999] }), 'dispatch_alert_unknown_route'],
      [draft({ stopIds: [99_999_999] }), 'dispatch_alert_unknown_stop'],
      [draft({ routeIds: [1.5] }), 'bad_request'],
      [draft({ extra: 1 }), 'bad_request'],
    ];
    for (const [payload, code] of refusals) {
      const refused = await call('POST', '/api/v1/dispatch/alerts', writer, payload);
      expect(refused.statusCode, JSON.stringify(payload)).toBe(400);
      expect(refused.json().messages[0], JSON.stringify(payload)).toBe(code);
    }
    const kept = (await call('POST', '/api/v1/dispatch/alerts', writer, draft())).json<ServiceAlert>();
    const [afterCreate, journaledCreate] = [await stored(), await journaled()];
    expect(afterCreate).toBe(rows + 1);
    const badEdit = await call('PUT', `/api/v1/dispatch/alerts/${kept.id}`, writer, draft({ stopIds: [99_999_999] }));
    expect(badEdit.json().messages[0]).toBe('dispatch_alert_unknown_stop');
    for (const [method, url, status, code] of [
      ['POST', '/api/v1/dispatch/alerts/999999/publish', 404, 'dispatch_alert_not_found'],
      ['POST', '/api/v1/dispatch/alerts/999999/end', 404, 'dispatch_alert_not_found'],
      ['DELETE', '/api/v1/dispatch/alerts/999999', 404, 'dispatch_alert_not_found'],
      ['POST', '/api/v1/dispatch/alerts/abc/publish', 400, 'bad_request'],
      ['GET', '/api/v1/dispatch/alerts?state=old', 400, 'bad_request'],
    ] as const) {
      const refused = await call(method, url, writer);
      expect(refused.statusCode, url).toBe(status);
      expect(refused.json().messages[0], url).toBe(code);
    }
    // a draft whose period is over is not published
    await t.db.query(
      `update dispatch.service_alert set active_from = now() - interval '2 hours', active_to = now() - interval '1 hour' where id = $1`,
      [kept.id],
    );
    const late = await call('POST', `/api/v1/dispatch/alerts/${kept.id}/publish`, writer);
    expect(late.statusCode).toBe(409);
    expect(late.json().messages[0]).toBe('dispatch_alert_period_over');

    // code 44 reads and writes nothing; a stranger gets nothing
    expect((await call('POST', '/api/v1/dispatch/alerts', viewer, draft())).statusCode).toBe(403);
    expect((await call('PUT', `/api/v1/dispatch/alerts/${kept.id}`, viewer, draft())).statusCode).toBe(403);
    expect((await call('POST', `/api/v1/dispatch/alerts/${kept.id}/publish`, viewer)).statusCode).toBe(403);
    for (const url of ['/api/v1/dispatch/alerts', '/api/v1/dispatch/alerts/routes', '/api/v1/dispatch/alerts/stops?q=Сад'])
      expect((await call('GET', url, stranger)).statusCode, url).toBe(403);
    expect(await stored()).toBe(afterCreate);
    expect(await journaled()).toBe(journaledCreate);
    expect(journaledCreate).toBe(entries + 1);
  });

  it("offers the network's routes and finds stops by name or ids for the pickers", async () => {
    const routes = (await call('GET', '/api/v1/dispatch/alerts/routes', viewer)).json<{ list: { id: number; name: string }[] }>();
    expect(routes.list).toEqual(expect.arrayContaining([{ id: routeId, name: '77к' }]));
    const found = (await call('GET', `/api/v1/dispatch/alerts/stops?q=${encodeURIComponent('садовая')}`, viewer)).json<{
      list: { id: number }[];
    }>();
    expect(found.list.map((s) => s.id)).toContain(stopId);
    const byId = (await call('GET', `/api/v1/dispatch/alerts/stops?ids=${stopId}`, viewer)).json<{ list: { id: number }[] }>();
    expect(byId.list).toEqual([{ id: stopId, name: 'Садовая улица' }]);
    expect((await call('GET', '/api/v1/dispatch/alerts/stops?q=%25', viewer)).statusCode).toBe(200);
  });
});
