import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from './helpers/engines';
import { startTestApp, type TestApp } from './helpers/testApp';
import type { ArchiveMonitoring, VideoVehicle, VideoVehicleFilters, VideoVehicleList } from '../src/shared/video/api';

const VEHICLE_KEYS = ['cameras', 'depotNumber', 'dvrId', 'model', 'online', 'source', 'stateNumber', 'vehicleId'];

/** The video screens' lists: the vehicle search, one vehicle's cameras, the search's choices, the archive monitoring. */
describe.each(ENGINES)('video lists on %s', (engine) => {
  let t: TestApp;
  let admin: string;

  beforeAll(async () => {
    t = await startTestApp(engine);
    admin = await t.login('admin', 'admin123');
    await t.db.query(`update app.settings set value = jsonb_set(value, '{sections}', $1::jsonb) where id = 1`, [
      JSON.stringify({ 'video.archiveMonitoring': true }),
    ]);
    t.app.settings.invalidate();
  });
  afterAll(() => t.close());

  const get = (url: string) => t.app.inject({ method: 'GET', url, headers: { authorization: admin } });

  it('finds vehicles with their recorder, cameras and route of the day, a page at a time', async () => {
    const response = await get('/api/v1/video/vehicles?recordCount=3');
    expect(response.statusCode).toBe(200);
    const body = response.json<VideoVehicleList>();
    expect(body.count).toBeGreaterThan(3);
    expect(body.list).toHaveLength(3);
    for (const row of body.list) {
      expect(Object.keys(row).sort()).toEqual([...VEHICLE_KEYS, 'routeName'].sort());
      expect(row.cameras.length).toBeGreaterThan(0);
      expect(Object.keys(row.cameras[0]).sort()).toEqual(['index', 'title']);
    }
    const one = await get(`/api/v1/video/vehicles/${body.list[0].vehicleId}`);
    expect(one.statusCode).toBe(200);
    const vehicle = one.json<VideoVehicle>();
    expect(Object.keys(vehicle).sort()).toEqual(VEHICLE_KEYS.sort());
    expect(vehicle.cameras).toEqual(body.list[0].cameras);
    expect((await get('/api/v1/video/vehicles?recordCount=201')).statusCode).toBe(400);
  });

  it("gives the search's choices", async () => {
    const response = await get('/api/v1/video/vehicle-filters');
    expect(response.statusCode).toBe(200);
    const body = response.json<VideoVehicleFilters>();
    for (const options of [body.depots, body.routes, body.types]) {
      expect(options.length).toBeGreaterThan(0);
      expect(Object.keys(options[0]).sort()).toEqual(['id', 'name']);
    }
  });

  it('gives each camera its hours of the last days, the stopped recorders first', async () => {
    const response = await get('/api/v1/video/archive-monitoring?days=1&recordCount=5');
    expect(response.statusCode).toBe(200);
    const body = response.json<ArchiveMonitoring>();
    expect(body.hours).toBe(24);
    expect(Object.keys(body).sort()).toEqual(['count', 'hours', 'list', 'start', 'stopped']);
    expect(body.list.length).toBeGreaterThan(0);
    const first = body.list[0];
    expect(Object.keys(first).sort()).toEqual(
      ['cameras', 'depotNumber', 'dvrId', 'lastContact', 'source', 'stateNumber', 'stoppedAt', 'vehicleId'].sort(),
    );
    expect(first.cameras[0].hours).toMatch(/^[01?]{24}$/);
    const defaults = (await get('/api/v1/video/archive-monitoring')).json<ArchiveMonitoring>();
    expect(defaults.hours).toBe(72);
    const refused = await get('/api/v1/video/archive-monitoring?days=15');
    expect(refused.statusCode).toBe(400);
    expect(refused.json<{ messages: string[] }>().messages.length).toBeGreaterThan(0);
  });
});
