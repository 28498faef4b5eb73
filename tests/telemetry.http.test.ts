import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSource } from '../src/server/telemetry/http/sourceKeys';
import { LatestPositions } from '../src/server/telemetry/latestPositions';
import { ENGINES } from './helpers/engines';
import { startTestApp, type TestApp } from './helpers/testApp';

const PATH = '/api/v1/telemetry/positions';
const secondsAgo = (s: number) => Math.floor(Date.now() / 1000 - s) * 1000;

describe.each(ENGINES)('HTTP telemetry ingestion on %s', (engine) => {
  let t: TestApp;
  let key: string;
  let restrictedKey: string;
  let vehicle: number;
  let other: number;

  beforeAll(async () => {
    t = await startTestApp(engine);
    [{ id: vehicle }] = await t.db.query<{ id: number }>(
      'insert into mgt.vehicles (depot_number, peer_address) values (990101, 8100001) returning id',
    );
    [{ id: other }] = await t.db.query<{ id: number }>(
      'insert into mgt.vehicles (depot_number, peer_address) values (990102, 8100002) returning id',
    );
    await t.app.telemetry.devices.refresh();
    ({ key } = await createSource(t.db, 'Диспетчерская система перевозчика', null));
    ({ key: restrictedKey } = await createSource(t.db, 'Только 8100002', ['8100002']));
  });
  afterAll(() => t.close());

  const post = (payload: unknown, headers: Record<string, string> = { 'x-telemetry-key': key }) =>
    t.app.inject({ method: 'POST', url: PATH, payload: payload as object, headers });
  const trackCount = async (id: number) => {
    await t.app.telemetry.track.writer.flush();
    return (await t.db.query<{ n: number }>('select count(*)::int as n from app.track where vehicle_id = $1', [id]))[0].n;
  };
  const good = (more: object = {}) => ({
    device: '8100001',
    time: new Date(secondsAgo(60)).toISOString(),
    lat: 59.95,
    lon: 30.31,
    speed: 20,
    course: 45,
    ...more,
  });

  it('refuses a missing, malformed, wrong or disabled key with 401 and stores nothing', async () => {
    const batch = { positions: [good()] };
    expect((await post(batch, {})).statusCode).toBe(401);
    expect((await post(batch, { 'x-telemetry-key': 'nonsense' })).statusCode).toBe(401);
    expect((await post(batch, { 'x-telemetry-key': `${key.slice(0, -1)}${key.endsWith('A') ? 'B' : 'A'}` })).statusCode).toBe(401);
    const { key: disabledKey, id } = await createSource(t.db, 'Отключённый', null);
    await t.db.query('update app.telemetry_source set enabled = false where id = $1', [id]);
    const refused = await post(batch, { 'x-telemetry-key': disabledKey });
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toEqual({ messages: ['unauthorized'] });
    expect(await trackCount(vehicle)).toBe(0);
  });

  it('refuses a batch with bad items as a whole, listing each problem by index and field', async () => {
    const response = await post({
      positions: [
        good(),
        good({ lat: 91 }),
        good({ device: '999999999' }),
        good({ time: new Date(Date.now() + 3_600_000).toISOString() }),
        good({ speed: undefined, course: 400 }),
        good({ lat: '59.9', time: 'yesterday' }),
        good({ lat: 0, lon: 0 }),
        good({ valid: 'yes' }),
      ],
    });
    expect(response.statusCode).toBe(400);
    const body = response.json();
    expect(body.messages[0]).toBe('bad_request');
    expect(body.messages[1]).toMatch(/nothing was stored/);
    expect(body.errors).toEqual([
      { index: 1, field: 'lat', message: 'lat must be between -90 and 90' },
      { index: 2, field: 'device', message: 'unknown device 999999999' },
      { index: 3, field: 'time', message: 'time is more than 300 s in the future' },
      { index: 4, field: 'speed', message: 'speed must be a number' },
      { index: 5, field: 'time', message: 'time must be an ISO 8601 date with time zone or epoch milliseconds' },
      { index: 5, field: 'lat', message: 'lat must be a number' },
      { index: 6, field: 'lat', message: 'position (0, 0) is not a fix' },
      { index: 7, field: 'valid', message: 'valid must be true or false' },
    ]);
    expect(await trackCount(vehicle)).toBe(0);
    expect(t.app.telemetry.latest.get(vehicle)).toBeUndefined();
  });

  it('refuses a malformed body, an oversized batch and a device the source may not report', async () => {
    expect((await post({ nothing: [] })).statusCode).toBe(400);
    expect((await post({ positions: Array.from({ length: 5001 }, () => good()) })).statusCode).toBe(400);
    const restricted = await post({ positions: [good()] }, { 'x-telemetry-key': restrictedKey });
    expect(restricted.statusCode).toBe(400);
    expect(restricted.json().errors).toEqual([{ index: 0, field: 'device', message: 'device 8100001 is not allowed for this source' }]);
    expect(await trackCount(vehicle)).toBe(0);
  });

  it('accepts a good batch into the latest state and the track, and counts resends as duplicates', async () => {
    const times = [secondsAgo(30), secondsAgo(20), secondsAgo(10)];
    const batch = {
      positions: [
        good({ time: new Date(times[0]).toISOString(), course: 90 }),
        good({ time: times[2], lat: 59.96, lon: 30.32, speed: 35.5, course: 359.7 }),
        good({ time: new Date(times[1]).toISOString(), history: true }),
        good({ device: '8100002', time: times[1], valid: false }),
      ],
    };
    const response = await post(batch);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ accepted: 4, duplicates: 0 });
    expect(t.app.telemetry.latest.get(vehicle)).toMatchObject({
      time: times[2],
      lat: 59.96,
      lon: 30.32,
      speed: 35.5,
      course: 0,
      valid: true,
    });
    expect(t.app.telemetry.latest.get(other)).toMatchObject({ time: times[1], valid: false });

    expect((await post(batch)).json()).toEqual({ accepted: 0, duplicates: 4 });
    expect(await trackCount(vehicle)).toBe(3);

    // After a restart the latest states come back from the track.
    const restored = new LatestPositions();
    await restored.load(t.db, Date.now() - 86_400_000);
    expect(restored.get(vehicle)).toMatchObject({ time: times[2], lat: 59.96, course: 0 });

    const admin = await t.login('admin', 'admin123');
    const period = await t.app.inject({
      method: 'POST',
      url: '/api/v1/map/vehicles/period',
      headers: { authorization: admin },
      payload: { vehicleId: vehicle, from: new Date(times[0]).toISOString(), to: new Date(times[1]).toISOString() },
    });
    expect(period.json()).toEqual({
      points: [
        { tm: new Date(times[0]).toISOString(), lat: 59.95, lon: 30.31, speed: 20, course: 90 },
        { tm: new Date(times[1]).toISOString(), lat: 59.95, lon: 30.31, speed: 20, course: 45 },
      ],
      truncated: false,
    });
  });

  it('checks the period request', async () => {
    const admin = await t.login('admin', 'admin123');
    const ask = (payload: object) =>
      t.app.inject({ method: 'POST', url: '/api/v1/map/vehicles/period', headers: { authorization: admin }, payload });
    const now = Date.now();
    expect(
      (await ask({ vehicleId: vehicle, from: new Date(now).toISOString(), to: new Date(now - 1000).toISOString() })).json().messages,
    ).toEqual(['bad_request', 'to is before from']);
    expect(
      (await ask({ vehicleId: vehicle, from: new Date(now - 40 * 86_400_000).toISOString(), to: new Date(now).toISOString() })).statusCode,
    ).toBe(400);
    expect((await ask({ vehicleId: vehicle, from: 'soon', to: new Date(now).toISOString() })).statusCode).toBe(400);
    expect(
      (await ask({ vehicleId: 2_000_000_000, from: new Date(now - 1000).toISOString(), to: new Date(now).toISOString() })).json().messages,
    ).toEqual(['no_vehicle_found']);
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/v1/map/vehicles/period', payload: { vehicleId: vehicle, from: '', to: '' } }))
        .statusCode,
    ).toBe(401);
  });
});
