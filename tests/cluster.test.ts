import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GEO_STREAM_PATH, serializeGeoSubscription, type GeoSubscription, type MapCluster } from '../src/shared/map';
import { READ } from '../src/shared/permissions';
import { COMMAND_STATUS } from '../src/shared/equipment/commandStatus';
import { defaultParameters } from '../src/shared/equipment/parameters';
import { loadConfig } from '../src/server/config';
import { SimulatedTerminals } from '../src/server/simulator/simulatedTerminals';
import type { Position } from '../src/server/telemetry/types';
import { openStream } from './helpers/geoStream';
import { clusterTestsRunnable, TEST_REDIS_URL } from './helpers/redis';
import { startTestCluster, type TestApp, type TestCluster } from './helpers/testApp';
import { createUserWith, TEST_PASSWORD } from './helpers/users';

const runnable = await clusterTestsRunnable('tests of several server processes (cluster.test.ts)');

/** Polls `read` until `done` holds of its value, for at most `withinMs`; the value last read. */
async function within<T>(withinMs: number, read: () => Promise<T>, done: (value: T) => boolean): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  for (;;) {
    const value = await read();
    const ms = performance.now() - started;
    if (done(value) || ms > withinMs) return { value, ms };
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

type Points = { time: string; items: MapCluster[] };

/**
 * Two server processes on one PostgreSQL, each with its own connections to the database and to Redis (the
 * bus), as behind a load balancer without sticky sessions: what one changes, the other applies at once rather
 * than after its caches' 3 s.
 */
describe.skipIf(!runnable)('two server processes on one database and the bus', () => {
  let cluster: TestCluster;
  let a: TestApp;
  let b: TestApp;
  let admin: string;
  let lastTime = 0;
  const position = (vehicleId: number, lat: number, lon: number): Position => ({
    vehicleId,
    time: (lastTime = Math.max(Date.now(), lastTime + 1)),
    lat,
    lon,
    speed: 20,
    course: 90,
    valid: true,
    history: false,
  });
  const call = (t: TestApp, method: 'GET' | 'PUT' | 'POST', url: string, authorization: string, payload?: object) =>
    t.app.inject({ method, url, payload, headers: { authorization, 'x-page-id': '/cluster/test' } });

  beforeAll(async () => {
    cluster = await startTestCluster(2, TEST_REDIS_URL, {
      switches: loadConfig({ DEMO_DATA: 'false', MODULES: 'vehicleWorkData' }).switches,
    });
    [a, b] = cluster.apps;
    admin = await a.login('admin', 'admin123');
  }, 60_000);
  afterAll(() => cluster?.close());

  it('enforces in one process a role changed in the other within a second', async () => {
    await createUserWith(a.db, 'cluster_video', { '/system/video': READ });
    const user = await b.login('cluster_video', TEST_PASSWORD);
    expect((await call(b, 'GET', '/api/v1/settings/video', user)).statusCode).toBe(200);
    const [role] = await a.db.query<{ id: number }>("select id from app.role where name = 'role of cluster_video'");
    expect((await call(a, 'PUT', `/api/v1/roles/${role.id}`, admin, { permissions: {} })).statusCode).toBe(200);
    const { value, ms } = await within(
      1000,
      async () => (await call(b, 'GET', '/api/v1/settings/video', user)).statusCode,
      (status) => status === 403,
    );
    expect(value).toBe(403);
    expect(ms).toBeLessThan(1000);
  });

  it('reads in one process a setting saved in the other at once', async () => {
    const radius = async () => (await call(b, 'GET', '/api/v1/auth/current/', admin)).json().settings.requestRadius as number;
    const before = await radius();
    const next = before === 750 ? 800 : 750;
    expect((await call(a, 'PUT', '/api/v1/settings/navigation', admin, { requestRadius: next })).statusCode).toBe(200);
    const { value, ms } = await within(1000, radius, (r) => r === next);
    expect(value).toBe(next);
    expect(ms).toBeLessThan(1000);
  });

  it('refuses in one process a token logged out in the other at once', async () => {
    const session = await a.login('operator', 'operator123');
    expect((await call(b, 'GET', '/api/v1/auth/current/', session)).statusCode).toBe(200);
    expect((await call(a, 'GET', '/api/v1/auth/logout', session)).statusCode).toBeLessThan(300);
    const { value, ms } = await within(
      1000,
      async () => (await call(b, 'GET', '/api/v1/auth/current/', session)).statusCode,
      (status) => status === 401,
    );
    expect(value).toBe(401);
    expect(ms).toBeLessThan(1000);
  });

  it('rings the bell of a user on one process for a notification raised in the other', async () => {
    const count = async () => (await call(b, 'GET', '/api/v1/events/ring/count', admin)).json().count as number;
    const before = await count();
    await a.app.notifier.notify({ type: 'system', title: 'Плановые работы' });
    expect(await count()).toBe(before + 1);
  });

  it('moves a geo stream held by one process on a PUT that reaches the other, and shows positions either receives', async () => {
    await a.app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(a.app.server.address() as AddressInfo).port}`;
    const CITY: GeoSubscription = { bounds: [59.8, 30.1, 60.1, 30.6], zoom: 16, vehicles: [] };
    const ELSEWHERE: GeoSubscription = { bounds: [55.7, 37.5, 55.8, 37.7], zoom: 16, vehicles: [] };
    a.app.telemetry.pipeline.ingest([position(1, 59.93, 30.31)]);
    const stream = await openStream(`${base}${GEO_STREAM_PATH}?q=${encodeURIComponent(serializeGeoSubscription(CITY))}`, admin);
    const { streamId } = await stream.next<{ streamId: string }>('hello');
    expect((await stream.next<Points>('points')).items.map((i) => i.id)).toContain(1);

    // a position the other process received reaches this one's stream over the bus
    b.app.telemetry.pipeline.ingest([position(2, 59.95, 30.35)]);
    const shown = await stream.next<Points>('picture', (p) => p.items.some((i) => i.id === 2), 3000);
    expect(shown.items.find((i) => i.id === 2)).toMatchObject({ center: [59.95, 30.35] });

    const put = (id: string, subscription: GeoSubscription, authorization = admin) =>
      b.app.inject({
        method: 'PUT',
        url: `${GEO_STREAM_PATH}/${id}`,
        headers: { authorization },
        payload: { q: serializeGeoSubscription(subscription) },
      });
    const moved = await put(streamId, ELSEWHERE);
    expect(moved.statusCode).toBe(204);
    expect((await stream.next<Points>('points')).items).toEqual([]);

    await createUserWith(a.db, 'cluster_map', { '/map/currentData': 0b0100 });
    const other = await b.login('cluster_map', TEST_PASSWORD);
    expect((await put(streamId, CITY, other)).statusCode).toBe(403);
    // no process holds it: every other process says so, the answer needs no time-out
    const started = performance.now();
    expect((await put('00000000-0000-0000-0000-000000000000', CITY)).statusCode).toBe(404);
    expect(performance.now() - started).toBeLessThan(a.app.geo.config.moveTimeoutMs);
    await stream.close();
  });

  it('configures a terminal connected to one process from the rollout dispatcher running in the other', async () => {
    expect(a.app.leases.heldNames()).toContain('equipment.rollouts');
    expect(b.app.leases.heldNames()).not.toContain('equipment.rollouts');
    const [vehicle] = await a.db.query<{ id: number }>(
      'select v.id from mgt.vehicles v where exists (select 1 from mgt.dev_mnt m where m.vehicle_id = v.id) order by v.id limit 1',
    );
    const terminals = new SimulatedTerminals(b.app.telemetry.commands, () => undefined, { delayMs: [0, 0] });
    terminals.connect(vehicle.id);
    await within(
      2000,
      async () => a.app.telemetry.fleetLinks.online(vehicle.id),
      (online) => online,
    );
    const created = async (url: string, payload: object) => {
      const response = await call(a, 'POST', url, admin, payload);
      expect(response.statusCode, response.body).toBe(201);
      return response.json().id as number;
    };
    const configurationId = await created('/api/v1/mnt/configurations', { name: 'Кластер', parameters: defaultParameters() });
    const groupId = await created('/api/v1/mnt/groups', { name: 'Кластер', kind: 'static', vehicles: [vehicle.id] });
    const rollout = await created('/api/v1/mnt/rollouts', { groupId, configurationId, firstShare: 100, errorThreshold: 50 });
    const status = async () =>
      (await a.db.query<{ status: number }>('select status from mnt.command where rollout_id = $1', [rollout]))[0].status;
    const { value } = await within(5000, status, (s) => s === COMMAND_STATUS.performed);
    expect(value).toBe(COMMAND_STATUS.performed);
    expect(terminals.stats.commands).toBeGreaterThan(0);
    terminals.stop();
  });
});
