import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/server/config';
import { operatorDate, operatorMidnight } from '../src/server/platform/operatorDay';
import { createSource } from '../src/server/telemetry/http/sourceKeys';
import type { OnlineVehicle } from '../src/shared/map';
import { eastOf, insertLineRoute, lineDrive } from './dispatch.tracks';
import { ENGINES } from './helpers/engines';
import { startTestApp, type TestApp } from './helpers/testApp';

const TZ = 180;
const point = eastOf(55.71, 37.52);

/**
 * A network loaded from a feed has exits and runs but no vehicle tasks: a vehicle driving one of today's runs is
 * still on that route on the map (its popup and the route filter), by the run the live timetable matched it to.
 */
describe.each(ENGINES)('the map names the route of a vehicle without a task by its matched run on %s', (engine) => {
  let t: TestApp;
  let admin: string;
  let untasked: number;
  let stray: number;

  beforeAll(async () => {
    t = await startTestApp(engine, { switches: loadConfig({ DEMO_DATA: 'false', MODULES: 'dispatch' }).switches });
    const now = Date.now();
    const serviceDate = operatorDate(now - 15 * 60_000, TZ);
    const midnight = operatorMidnight(serviceDate, TZ);
    const firstMinute = Math.floor((now - 10 * 60_000 - midnight) / 60_000);
    const { stopIds, variant } = await insertLineRoute(t.db, point, serviceDate, '61');
    for (const [i, stopId] of stopIds.entries())
      await t.db.query(
        `insert into mgt.rasp_time ("RaspVariant_id", graph, smena, racetype, racenum, "order", stop_id, time) values ($1, 1, '1', 'A', 1, $2, $3, $4)`,
        [variant, i + 1, stopId, firstMinute + 2 * i],
      );
    [{ id: untasked }] = await t.db.query<{ id: number }>(
      `insert into mgt.vehicles (depot_number, peer_address) values (610001, 8610001) returning id`,
    );
    [{ id: stray }] = await t.db.query<{ id: number }>(
      `insert into mgt.vehicles (depot_number, peer_address) values (610002, 8610002) returning id`,
    );
    await t.app.telemetry.devices.refresh();
    await t.app.dispatch.reload();
    const { key } = await createSource(t.db, 'Бортовые терминалы', null);
    const scheduledFirst = midnight + firstMinute * 60_000;
    const positions = [
      ...lineDrive(point, '8610001', scheduledFirst, 0, scheduledFirst + 4 * 120_000 + 60_000),
      { device: '8610002', time: new Date(now - 5_000).toISOString(), lat: 55.2, lon: 39.9, speed: 20, course: 0 },
    ];
    const posted = await t.app.inject({
      method: 'POST',
      url: '/api/v1/telemetry/positions',
      headers: { 'x-telemetry-key': key },
      payload: { positions },
    });
    expect(posted.statusCode).toBe(200);
    await t.app.dispatch.settle();
    await t.app.map.directory.refresh();
    admin = await t.login('admin', 'admin123');
  }, 240_000);
  afterAll(() => t?.close());

  it('gives the matched route in the vehicle popup and the directory, none to a vehicle matched to nothing', async () => {
    expect(t.app.dispatch.engine.state(untasked)?.matchedBy).toBe('fit');
    const response = await t.app.inject({
      method: 'GET',
      url: `/api/v1/map/online?q=${untasked},${stray}`,
      headers: { authorization: admin },
    });
    expect(response.statusCode, response.body).toBe(200);
    const [matched, unmatched] = response.json<OnlineVehicle[]>();
    expect(matched).toMatchObject({ id: untasked, route: '61' });
    expect(unmatched).toMatchObject({ id: stray, route: null, route_id: null });
    expect(t.app.map.directory.get(untasked)).toMatchObject({ routeShortName: '61' });
    expect(t.app.map.directory.get(stray)?.routeId).toBeNull();
  });
});
