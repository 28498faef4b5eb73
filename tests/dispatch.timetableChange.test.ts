import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/server/config';
import { DispatchService } from '../src/server/dispatch/dispatchService';
import { addDays, operatorDate, operatorMidnight } from '../src/server/platform/operatorDay';
import { ENGINES } from './helpers/engines';
import { appointSpareVehicle, cleanFeed, importFeed } from './helpers/gtfsFeeds';
import { startTestApp, type TestApp } from './helpers/testApp';

/**
 * The live timetable follows a changed timetable without a restart: a GTFS import, the day's vehicle tasks or a
 * handbook edit reach the days it holds within a minute (five after the last such change), and a vehicle on a
 * run the change leaves alone keeps it.
 */
describe.each(ENGINES)('the live timetable reads a changed timetable on %s', (engine) => {
  let t: TestApp;
  let admin: string;
  let tz: number;
  let today: string;
  let clock: number;
  let service: DispatchService;
  const at = (hh: number, mm: number, ss = 0) => operatorMidnight(today, tz) + ((hh * 60 + mm) * 60 + ss) * 1000;
  const routeRuns = (route: string) =>
    service.engine.schedules.find((d) => d.serviceDate === today)!.runs.filter((r) => r.routeId === +route);
  const localId = async (kind: string, gtfsId: string) =>
    (await t.db.query<{ id: number }>('select local_id as id from gtfs.external_key where kind = $1 and gtfs_id = $2', [kind, gtfsId]))[0]
      .id;
  /** Time passes and the service ticks: the check of the timetable is due after a minute. */
  const minuteLater = async (ms = 61_000) => {
    clock += ms;
    await service.settle();
  };
  /** After the days were read again for a change, the next change waits five minutes. */
  const GAP_MS = 5 * 60_000;

  /** The tests' small network running every day around today. */
  function feed(): Record<string, string> {
    const files = cleanFeed();
    const day = (offset: number) => addDays(today, offset).replaceAll('-', '');
    files['calendar.txt'] =
      `service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\nwd,1,1,1,1,1,1,1,${day(-30)},${day(300)}\n`;
    files['routes.txt'] = 'route_id,agency_id,route_short_name,route_long_name,route_type\nr1,A,Т77,Площадь — Вокзал,3\n';
    return files;
  }

  beforeAll(async () => {
    t = await startTestApp(engine, { switches: loadConfig({ DEMO_DATA: 'false', MODULES: 'dispatch' }).switches });
    admin = await t.login('admin', 'admin123');
    tz = t.app.map.config.tzOffsetMinutes;
    today = operatorDate(Date.now(), tz);
    clock = at(6, 0);
    service = new DispatchService({
      db: t.db,
      pipeline: t.app.telemetry.pipeline,
      settings: () => t.app.settings.document(),
      log: t.app.log,
      tzOffsetMinutes: tz,
      now: () => clock,
    });
    await service.start();
  });
  afterAll(async () => {
    await service.stop();
    await t.close();
  });

  it('holds the runs of an imported network within a minute of the import', async () => {
    const held = service.engine.schedules.find((d) => d.serviceDate === today)!.runs.length;
    const run = await importFeed(t.app, admin, feed());
    expect(run.status, JSON.stringify(run.report)).toBe('done');
    const route = String(await localId('route', 'r1'));
    // the check is made once a minute: not yet
    await service.settle();
    expect(routeRuns(route)).toHaveLength(0);

    await minuteLater();
    const runs = routeRuns(route);
    expect(runs.map((r) => [r.direction, r.start])).toEqual([
      [0, at(7, 0)],
      [1, at(7, 20)],
    ]);
    expect(service.engine.schedules.find((d) => d.serviceDate === today)!.runs.length).toBe(held + 2);
  });

  it("takes the day's vehicle task and keeps a vehicle on its run through a later change", async () => {
    const route = await localId('route', 'r1');
    const { vehicle: chosen, answer } = await appointSpareVehicle(t.app, admin, today, 'Т77');
    expect(answer.statusCode, answer.body).toBe(200);
    const day = () => service.engine.schedules.find((d) => d.serviceDate === today)!;
    expect(day().assignments.get(chosen.id)).toBeUndefined();
    // a minute after the import's reload: this change waits for the gap
    await minuteLater();
    expect(day().assignments.get(chosen.id)).toBeUndefined();
    await minuteLater(GAP_MS);
    expect(
      day()
        .assignments.get(chosen.id)
        ?.map((a) => day().blocks.get(a.blockKey)?.routeId),
    ).toContain(route);

    // on its first run, past the second stop
    clock = at(7, 5);
    const [s2] = await t.db.query<{ lat: number; lon: number }>(
      'select stop_lat as lat, stop_lon as lon from mgt.stops where stop_id = $1',
      [await localId('stop', 's2')],
    );
    service.engine.onFix(chosen.id, { time: at(7, 5), lat: s2.lat + 0.0004, lon: s2.lon + 0.0008, speed: 25, course: 60, valid: true });
    const before = service.engine.state(chosen.id)!;
    expect(before.run).toMatchObject({ routeId: route, direction: 0 });
    expect(before.matchedBy).toBe('task');
    const key = before.run!.key;

    // an edit elsewhere in the network (a vehicle added) makes the days be read again
    await t.db.query('insert into mgt.vehicles (depot_number, peer_address) values (770001, 8770001)');
    const heldDay = day();
    await minuteLater();
    expect(day()).not.toBe(heldDay);
    const after = service.engine.state(chosen.id)!;
    expect(after.run!.key).toBe(key);
    // the run of the new days, not the one read before
    expect(after.run).toBe(day().runByKey.get(key));
    expect(after.matchedBy).toBe('task');
    expect(after.point?.dist).toBe(before.point?.dist);

    // a change of nothing reads nothing again
    const same = day();
    await minuteLater();
    expect(day()).toBe(same);
  });

  it('reads a time moved in place in the timetable', async () => {
    const route = await localId('route', 'r1');
    const [back] = routeRuns(String(route)).filter((r) => r.direction === 1);
    expect(back.start).toBe(at(7, 20));
    // the way back leaves its first stop a minute later: no row added or removed, no id higher
    await t.db.query(`update mgt.rasp_time set time = time + 1 where "RaspVariant_id" = $1 and racenum = $2 and "order" = 1`, [
      back.variantId,
      back.raceNum,
    ]);
    await minuteLater(GAP_MS);
    const [moved] = routeRuns(String(route)).filter((r) => r.direction === 1);
    expect(moved.start).toBe(at(7, 21));
  });
});
