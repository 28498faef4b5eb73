import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from './helpers/engines';
import { cleanFeed, largeFeed, writeFeedZip } from './helpers/gtfsFeeds';
import { startTestApp, type TestApp } from './helpers/testApp';

const IMPORTS = '/api/v1/gtfs/imports';

/** Import a GTFS feed through the API into the demo handbooks: a new network, a changed feed, refusals, rights. */
describe.each(ENGINES)('GTFS import on %s', (engine) => {
  let t: TestApp;
  let admin: string;

  beforeAll(async () => {
    t = await startTestApp(engine);
    admin = await t.login('admin', 'admin123');
  });
  afterAll(() => t.close());

  const upload = async (files: Record<string, string> | Buffer, auth = admin) =>
    t.app.inject({
      method: 'POST',
      url: `${IMPORTS}?file=feed.zip`,
      payload: Buffer.isBuffer(files) ? files : readFileSync(await writeFeedZip(files)),
      headers: { authorization: auth, 'content-type': 'application/zip' },
    });
  const finished = async (id: number) => {
    for (let i = 0; i < 600; i++) {
      const run = (await t.app.inject({ method: 'GET', url: `${IMPORTS}/${id}`, headers: { authorization: admin } })).json();
      if (run.status !== 'running') return run;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error('the import did not end');
  };
  const importOf = async (files: Record<string, string>) => {
    const response = await upload(files);
    expect(response.statusCode, response.body).toBe(202);
    return finished(response.json().id);
  };
  const handbookCounts = async () =>
    (
      await t.db.query<Record<string, number>>(
        `select (select count(*)::int from mgt.routes) routes, (select count(*)::int from mgt.stops) stops,
            (select count(*)::int from mgt.rasp_variant) variants, (select count(*)::int from mgt.rasp_time) times,
            (select count(*)::int from mgt.trip) trips, (select count(*)::int from mgt.holidays) holidays`,
      )
    )[0];

  it('writes a feed into the handbooks: route, stops, patterns, timetable with exits and races', async () => {
    const files = cleanFeed();
    files['calendar_dates.txt'] = 'service_id,date,exception_type\nwd,20260504,2\n';
    const run = await importOf(files);
    expect(run.status, JSON.stringify(run.report)).toBe('done');
    expect(run.report.written).toMatchObject({ routes: 1, stops: 4, patterns: 2, runs: 2, scheduleTimes: 8 });
    expect(run.report.files).toContainEqual({ file: 'stop_times.txt', read: 8, written: 8, skipped: 0 });
    const [route] = await t.db.query<{ route_id: number; route_type: string; route_short_name: string }>(
      `select r.route_id, r.route_type, r.route_short_name from mgt.routes r join gtfs.external_key k on k.local_id = r.route_id and k.kind = 'route' where k.gtfs_id = 'r1'`,
    );
    expect(route).toMatchObject({ route_type: 'А', route_short_name: '7' });
    const times = await t.db.query<{
      graph: number;
      racenum: number;
      racetype: string;
      order: number;
      stop_name: string;
      time: number;
      dow: number | null;
    }>(
      `select t.graph, t.racenum, t.racetype, t."order", s.stop_name, t.time, v.dow from mgt.rasp_time t join mgt.rasp_variant v on v.id = t."RaspVariant_id"
        join mgt.stops s on s.stop_id = t.stop_id where v.route_id = $1 order by t.racenum, t."order"`,
      [route.route_id],
    );
    expect(times.map((x) => [x.graph, x.racenum, x.racetype, x.order, x.stop_name, x.time])).toEqual([
      [1, 1, 'A', 1, 'Площадь', 420],
      [1, 1, 'A', 2, 'Рынок', 425],
      [1, 1, 'A', 3, 'Парк', 428],
      [1, 1, 'A', 4, 'Вокзал', 432],
      [1, 2, 'B', 1, 'Вокзал', 440],
      [1, 2, 'B', 2, 'Парк', 444],
      [1, 2, 'B', 3, 'Рынок', 448],
      [1, 2, 'B', 4, 'Площадь', 452],
    ]);
    expect(new Set(times.map((x) => x.dow))).toEqual(new Set([null]));
    // No weekend service: an empty timetable for Saturday and Sunday; the Monday 4 May without service runs as a Sunday.
    const variants = await t.db.query<{ dow: number | null; n: number }>(
      `select v.dow, count(t.*)::int n from mgt.rasp_variant v left join mgt.rasp_time t on t."RaspVariant_id" = v.id where v.route_id = $1 group by v.id, v.dow order by v.dow nulls first, v.id`,
      [route.route_id],
    );
    expect(variants).toEqual([
      { dow: null, n: 8 },
      { dow: 0, n: 0 },
      { dow: 6, n: 0 },
    ]);
    expect(await t.db.query('select date::text, dow from mgt.holidays where route_id = $1', [route.route_id])).toEqual([
      { date: '2026-05-04', dow: 0 },
    ]);
    const trajectory = await t.db.query<{ n: number }>(
      `select st_npoints(trajectory)::int n from mgt.trip where id in (select local_id from gtfs.external_key where kind = 'pattern')`,
    );
    expect(trajectory.map((x) => x.n)).toEqual([4, 4]);
  });

  it('updates in place on a newer feed: records keep their ids, a vehicle task that still fits stays, a gone route is closed', async () => {
    const before = await t.db.query<{ kind: string; gtfs_id: string; local_id: number }>(
      `select kind, gtfs_id, local_id from gtfs.external_key where kind in ('route', 'stop') order by 1, 2`,
    );
    const [variant] = await t.db.query<{ id: number }>(
      `select v.id from mgt.rasp_variant v join gtfs.external_key k on k.local_id = v.id and k.kind = 'variant' where v.dow is null`,
    );
    const [{ id: vehicle }] = await t.db.query<{ id: number }>('select id from mgt.vehicles order by id limit 1');
    const [{ driver_id: driver }] = await t.db.query<{ driver_id: number }>('select driver_id from mgt.driver order by driver_id limit 1');
    await t.db.query(
      `insert into mgt.vehicle_task (date, "RaspVariant_id", graph, smena, vehicle_id, driver_id) values ('2026-12-01', $1, 1, '1', $2, $3)`,
      [variant.id, vehicle, driver],
    );

    const files = cleanFeed();
    files['stops.txt'] = files['stops.txt'].replace('Рынок', 'Рынок (новый)');
    files['routes.txt'] += 'r2,A,8,Парк — Вокзал,0\n';
    files['trips.txt'] += 'r2,wd,t3,0,b2\n';
    files['stop_times.txt'] += 't3,08:00:00,08:00:00,s3,1\nt3,08:06:00,08:06:00,s4,2\n';
    expect((await importOf(files)).status).toBe('done');
    const after = await t.db.query<{ kind: string; gtfs_id: string; local_id: number }>(
      `select kind, gtfs_id, local_id from gtfs.external_key where kind in ('route', 'stop') and gtfs_id <> 'r2' order by 1, 2`,
    );
    expect(after).toEqual(before);
    expect((await t.db.query('select stop_name from mgt.stops where stop_name = $1', ['Рынок (новый)'])).length).toBe(1);
    expect(
      (await t.db.query(`select 1 from mgt.vehicle_task where "RaspVariant_id" = $1 and date = '2026-12-01'`, [variant.id])).length,
    ).toBe(1);
    const [tram] = await t.db.query<{ route_type: string }>(
      `select route_type from mgt.routes r join gtfs.external_key k on k.local_id = r.route_id and k.kind = 'route' and k.gtfs_id = 'r2'`,
    );
    expect(tram.route_type).toBe('Тм');

    // r2 disappears again: end-dated, not deleted.
    expect((await importOf(cleanFeed())).status).toBe('done');
    const [closed] = await t.db.query<{ enddate: string | null }>(
      `select enddate::text from mgt.routes r join gtfs.external_key k on k.local_id = r.route_id and k.kind = 'route' and k.gtfs_id = 'r2'`,
    );
    expect(closed.enddate).not.toBeNull();
  });

  it('refuses a feed with an error and changes nothing, with the notice in its report', async () => {
    const before = await handbookCounts();
    const files = cleanFeed();
    files['stop_times.txt'] = files['stop_times.txt'].replace('t1,07:08:00,07:08:00', 't1,07:02:00,07:02:00');
    const run = await importOf(files);
    expect(run.status).toBe('refused');
    expect(run.report.notices).toContainEqual(
      expect.objectContaining({ code: 'stop_time_with_arrival_before_previous_departure_time', file: 'stop_times.txt', line: 4 }),
    );
    expect(await handbookCounts()).toEqual(before);
  });

  it('refuses what is not a zip, and a body that is not a file, changing nothing', async () => {
    const before = await handbookCounts();
    const notZip = await upload(Buffer.from('route_id,route_type\n'));
    expect(notZip.statusCode).toBe(202);
    const run = await finished(notZip.json().id);
    expect(run.status).toBe('refused');
    expect(run.report.notices[0].code).toBe('invalid_zip_file');
    const json = await t.app.inject({ method: 'POST', url: `${IMPORTS}?file=x.zip`, payload: { a: 1 }, headers: { authorization: admin } });
    expect(json.statusCode).toBe(415);
    expect(json.json().messages).toEqual(['gtfs_import_not_zip']);
    expect(await handbookCounts()).toEqual(before);
  });

  it('cancels a running import: it ends «cancelled» with an empty report, every handbook as it was; a second cancel is refused', async () => {
    const before = await handbookCounts();
    const started = await upload(largeFeed());
    expect(started.statusCode, started.body).toBe(202);
    const { id } = started.json();
    const cancel = await t.app.inject({ method: 'POST', url: `${IMPORTS}/${id}/cancel`, headers: { authorization: admin } });
    expect(cancel.statusCode, cancel.body).toBe(200);
    const run = await finished(id);
    expect(run).toMatchObject({ status: 'cancelled', stage: 'end', report: { files: [], notices: [], totals: {} } });
    expect(await handbookCounts()).toEqual(before);
    const again = await t.app.inject({ method: 'POST', url: `${IMPORTS}/${id}/cancel`, headers: { authorization: admin } });
    expect(again.statusCode).toBe(409);
    const viewer = await t.login('viewer', 'viewer123');
    expect((await t.app.inject({ method: 'POST', url: `${IMPORTS}/${id}/cancel`, headers: { authorization: viewer } })).statusCode).toBe(
      403,
    );
  });

  it('needs the external-system settings right (code 6) to import, and to read the history', async () => {
    const viewer = await t.login('viewer', 'viewer123');
    expect((await upload(cleanFeed(), viewer)).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: IMPORTS, headers: { authorization: viewer } })).statusCode).toBe(403);
    const history = (await t.app.inject({ method: 'GET', url: IMPORTS, headers: { authorization: admin } })).json();
    expect(history.list.length).toBeGreaterThanOrEqual(4);
    expect(history.list[0]).toMatchObject({ username: 'admin', file: 'feed.zip', stage: 'end' });
  });
});
