import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GEO_STREAM_PATH, serializeGeoSubscription, type GeoDelta, type GeoSubscription, type MapCluster } from '../src/shared/map';
import type { Position } from '../src/server/telemetry/types';
import { ENGINES } from './helpers/engines';
import { openStream } from './helpers/geoStream';
import { startTestApp, type TestApp } from './helpers/testApp';
import { createUserWith, TEST_PASSWORD } from './helpers/users';

type Points = { time: string; items: MapCluster[] };
const ids = (points: Points) => points.items.map((i) => i.id).sort((a, b) => a - b);

describe.each(ENGINES)('geo stream over HTTP on %s', (engine) => {
  let t: TestApp;
  let base: string;
  let authorization: string;
  // Millisecond fix times, each later than the last: a repeated (vehicle, time) would be dropped as a resend.
  let lastTime = 0;
  const position = (vehicleId: number, lat: number, lon: number, speed = 20): Position => ({
    vehicleId,
    time: (lastTime = Math.max(Date.now(), lastTime + 1)),
    lat,
    lon,
    speed,
    course: 45,
    valid: true,
    history: false,
  });
  const CITY: GeoSubscription = { bounds: [59.8, 30.1, 60.1, 30.6], zoom: 10, vehicles: [] };
  const STOP: GeoSubscription = { bounds: [59.92, 30.3, 59.94, 30.32], zoom: 16, vehicles: [] };
  const put = (streamId: string, q: string, auth = authorization) =>
    fetch(`${base}${GEO_STREAM_PATH}/${streamId}`, {
      method: 'PUT',
      headers: { authorization: auth, 'content-type': 'application/json' },
      body: JSON.stringify({ q }),
    });

  beforeAll(async () => {
    t = await startTestApp(engine);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    authorization = await t.login('admin', 'admin123');
    t.app.telemetry.pipeline.ingest([
      position(1, 59.93, 30.31, 10),
      position(2, 59.9301, 30.3101, 20),
      position(3, 59.9302, 30.3099, 30),
      position(4, 59.99, 30.45, 40),
    ]);
  });
  afterAll(() => t.close());

  it('streams clusters of the viewport, follows subscription changes and moves', async () => {
    const stream = await openStream(`${base}${GEO_STREAM_PATH}?q=${encodeURIComponent(serializeGeoSubscription(CITY))}`, authorization);
    expect(stream.response.status).toBe(200);
    expect(stream.response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const { streamId } = await stream.next<{ streamId: string }>('hello');
    expect(streamId).toMatch(/^[0-9a-f-]{36}$/);

    const city = await stream.next<Points>('points');
    expect(Date.parse(city.time)).toBeGreaterThan(0);
    expect(city.items.find((i) => i.type === 'group')).toMatchObject({ count: 3, averageSpeed: 20, on: true });
    const [vehicle] = await t.db.query<{ depot_number: number }>('select depot_number from mgt.vehicles where id = 4');
    expect(city.items.find((i) => i.type === 'vehicle')).toMatchObject({
      id: 4,
      depotNumber: vehicle.depot_number,
      averageSpeed: 40,
      course: 45,
    });

    const moved = await put(streamId, serializeGeoSubscription(STOP));
    expect(moved.status).toBe(204);
    const stop = await stream.next<Points>('points');
    expect(ids(stop)).toEqual([1, 2, 3]);
    expect(stop.items.every((i) => i.type === 'vehicle' && i.classRank !== null)).toBe(true);

    // a move comes as a delta of only what changed: [id, lat, lon, course, speed, on, age]
    t.app.telemetry.pipeline.ingest([position(2, 59.9305, 30.3105, 25)]);
    const delta = await stream.next<GeoDelta>('delta', (d) => d.vehicles.some(([id, lat]) => id === 2 && lat === 59.9305));
    expect(delta).toMatchObject({ groups: [], gone: [], vehicles: [[2, 59.9305, 30.3105, 45, 25, 1, expect.any(Number)]] });
    const after = await stream.next<Points>('picture');
    expect(ids(after)).toEqual([1, 2, 3]);
    expect(after.items.find((i) => i.id === 2)).toMatchObject({
      center: [59.9305, 30.3105],
      averageSpeed: 25,
      classRank: stop.items.find((i) => i.id === 2)!.classRank,
    });

    expect((await put(streamId, serializeGeoSubscription({ ...STOP, vehicles: [1] }))).status).toBe(204);
    expect(ids(await stream.next<Points>('points'))).toEqual([1]);

    expect((await put(streamId, 'not a subscription')).status).toBe(400);
    expect((await put('00000000-0000-0000-0000-000000000000', serializeGeoSubscription(STOP))).status).toBe(404);
    await createUserWith(t.db, 'otherviewer', { '/map/currentData': 0b0100 });
    const other = await t.login('otherviewer', TEST_PASSWORD);
    const refused = await put(streamId, serializeGeoSubscription(CITY), other);
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({ messages: ['forbidden'] });

    expect(t.app.geo.hub.size).toBe(1);
    await stream.close();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(t.app.geo.hub.size).toBe(0);
  });

  it('refuses a bad subscription, a missing session and a missing right', async () => {
    const bad = await t.app.inject({
      method: 'GET',
      url: `${GEO_STREAM_PATH}?q=${encodeURIComponent('1,2;x;')}`,
      headers: { authorization },
    });
    expect(bad.statusCode).toBe(400);
    expect((await t.app.inject({ method: 'GET', url: GEO_STREAM_PATH, headers: { authorization } })).statusCode).toBe(400);
    expect(
      (await t.app.inject({ method: 'GET', url: `${GEO_STREAM_PATH}?q=${encodeURIComponent(serializeGeoSubscription(CITY))}` })).statusCode,
    ).toBe(401);
    await createUserWith(t.db, 'nomapviewer', { '/map/previousData': 0b0100 });
    const noMap = await t.login('nomapviewer', TEST_PASSWORD);
    expect(
      (
        await t.app.inject({
          method: 'GET',
          url: `${GEO_STREAM_PATH}?q=${encodeURIComponent(serializeGeoSubscription(CITY))}`,
          headers: { authorization: noMap },
        })
      ).statusCode,
    ).toBe(403);
  });

  it('ends a stream whose session was logged out', async () => {
    const session = await t.login('admin', 'admin123');
    const stream = await openStream(`${base}${GEO_STREAM_PATH}?q=${encodeURIComponent(serializeGeoSubscription(CITY))}`, session);
    const { streamId } = await stream.next<{ streamId: string }>('hello');
    await t.app.geo.checkSessions();
    expect([...t.app.geo.hub.all()].map((s) => s.id)).toContain(streamId);
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/v1/auth/logout', headers: { authorization: session } })).statusCode,
    ).toBeLessThan(300);
    await t.app.geo.checkSessions();
    await stream.pump;
    expect(stream.ended).toBe(true);
    expect([...t.app.geo.hub.all()].map((s) => s.id)).not.toContain(streamId);
  });
});
