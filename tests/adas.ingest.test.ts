import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSource } from '../src/server/telemetry/http/sourceKeys';
import { ENGINES } from './helpers/engines';
import { startTestApp, type TestApp } from './helpers/testApp';

const PATH = '/api/v1/telemetry/incidents';

/** Incidents in over HTTP: validation, all or nothing, duplicates, the schedule match and the bell. */
describe.each(ENGINES)('ADAS incident ingestion on %s', (engine) => {
  let t: TestApp;
  let key: string;
  let vehicle: number;
  let routeId: number;
  let tripId: number;
  let driverId: number;
  let otherDriver: number;
  const TYPE = 9101;
  // 10:00 operator time (+03:00) on the task's date: inside race 2 (09:50–10:30)
  const DAY = '2026-03-02';
  const at = (clock: string) => new Date(`${DAY}T${clock}:00+03:00`).toISOString();

  beforeAll(async () => {
    t = await startTestApp(engine);
    await t.db.query(
      `insert into adas.incident_type (incident_type, incident_name, incident_color) values ($1, 'Тестовый инцидент', '#ff0000')`,
      [TYPE],
    );
    [{ id: vehicle }] = await t.db.query<{ id: number }>(
      'insert into mgt.vehicles (depot_number, peer_address) values (991101, 8110001) returning id',
    );
    await t.app.telemetry.devices.refresh();
    ({ key } = await createSource(t.db, 'Блоки ИСПВ', null));
    const [{ id: marshType }] = await t.db.query<{ id: number }>('select id from mgt.marsh_type order by id limit 1');
    [{ route_id: routeId }] = await t.db.query<{ route_id: number }>(
      `insert into mgt.routes (route_long_name, route_type, "MarshType_id", route_short_name, route_desc) values ('Тестовый', '3', $1, 'Т1', '') returning route_id`,
      [marshType],
    );
    const [{ id: marshVariant }] = await t.db.query<{ id: number }>('insert into mgt.marsh_variants (route_id) values ($1) returning id', [
      routeId,
    ]);
    [{ id: tripId }] = await t.db.query<{ id: number }>(
      `insert into mgt.trip ("MarshVariant_id", race_type, trajectory) values ($1, 'B', st_geomfromtext('LINESTRING(30.3 59.9, 30.4 59.95)', 4326)) returning id`,
      [marshVariant],
    );
    const [{ id: variant }] = await t.db.query<{ id: number }>(
      `insert into mgt.rasp_variant (route_id, srv_id, startdate) values ($1, 1, '2026-01-01') returning id`,
      [routeId],
    );
    const [{ id: stop }] = await t.db.query<{ id: number }>('select stop_id as id from mgt.stops order by stop_id limit 1');
    // race 1 (A) 09:00–09:40, race 2 (B) 09:50–10:30
    for (const [racetype, racenum, order, time] of [
      ['A', 1, 1, 540],
      ['A', 1, 2, 580],
      ['B', 2, 1, 590],
      ['B', 2, 2, 630],
    ] as const) {
      await t.db.query(
        `insert into mgt.rasp_time ("RaspVariant_id", graph, smena, racetype, racenum, "order", stop_id, time) values ($1, 7, '1', $2, $3, $4, $5, $6)`,
        [variant, racetype, racenum, order, stop, time],
      );
    }
    [{ driver_id: driverId }] = await t.db.query<{ driver_id: number }>(
      `insert into mgt.driver (last_name, first_name, table_number) values ('Иванов', 'Пётр', 771101) returning driver_id`,
    );
    [{ driver_id: otherDriver }] = await t.db.query<{ driver_id: number }>(
      `insert into mgt.driver (last_name, first_name, table_number) values ('Петров', 'Иван', 771102) returning driver_id`,
    );
    await t.db.query(
      `insert into mgt.vehicle_task (date, "RaspVariant_id", graph, smena, vehicle_id, driver_id) values ($1, $2, 7, '1', $3, $4)`,
      [DAY, variant, vehicle, driverId],
    );
  });
  afterAll(() => t.close());

  const post = (incidents: unknown[], headers: Record<string, string> = { 'x-telemetry-key': key }) =>
    t.app.inject({ method: 'POST', url: PATH, payload: { incidents }, headers });
  const good = (more: object = {}) => ({
    depot_number: 991101,
    incident_type: TYPE,
    tm: at('10:00'),
    speed: 42.5,
    lat: 59.93,
    lon: 30.33,
    grade: 1,
    ...more,
  });
  const stored = async () =>
    (await t.db.query<{ n: number }>('select count(*)::int as n from adas.incident_event where vehicle_id = $1', [vehicle]))[0].n;

  it('refuses a missing or wrong key with 401 and stores nothing', async () => {
    expect((await post([good()], {})).statusCode).toBe(401);
    expect((await post([good()], { 'x-telemetry-key': 'nonsense' })).statusCode).toBe(401);
    expect(await stored()).toBe(0);
  });

  it('refuses a batch with bad items as a whole, each problem by index and field', async () => {
    const response = await post([
      good(),
      good({ depot_number: 999999 }),
      good({ incident_type: 99999 }),
      good({ tm: 'yesterday' }),
      good({ lat: 95 }),
      good({ grade: 4 }),
      good({ driver: 1 }),
      { incident_type: TYPE, tm: at('10:00'), speed: 1, lat: 59.9, lon: 30.3 },
      good({ depot_number: undefined, device: '12345' }),
    ]);
    expect(response.statusCode).toBe(400);
    const body = response.json();
    expect(body.messages[0]).toBe('bad_request');
    expect(body.messages[1]).toMatch(/nothing was stored/);
    expect(body.errors).toEqual([
      { index: 1, field: 'depot_number', message: 'unknown vehicle 999999' },
      { index: 2, field: 'incident_type', message: 'unknown incident type 99999' },
      { index: 3, field: 'tm', message: 'tm must be an ISO 8601 date with time zone or epoch milliseconds' },
      { index: 4, field: 'lat', message: 'lat must be between -90 and 90' },
      { index: 5, field: 'grade', message: 'grade must be 1, 2 or 3' },
      { index: 6, field: 'driver', message: 'unknown driver 1' },
      { index: 7, field: 'depot_number', message: 'the vehicle is required: depot_number or device' },
      { index: 8, field: 'device', message: 'unknown device 12345' },
    ]);
    expect(await stored()).toBe(0);
  });

  it('refuses a malformed body or an oversized batch', async () => {
    expect(
      (await t.app.inject({ method: 'POST', url: PATH, payload: { positions: [] }, headers: { 'x-telemetry-key': key } })).statusCode,
    ).toBe(400);
    expect((await post(Array.from({ length: 1001 }, () => good()))).statusCode).toBe(400);
    expect((await post([good({ evidence: ['a'.repeat(201)] })])).statusCode).toBe(400);
    expect(await stored()).toBe(0);
  });

  it('stores good incidents matched to the route, trip and driver of the schedule, and drops duplicates', async () => {
    const first = await post([
      good({ evidence: ['front-0001.jpg', 'clip-0001.mp4'] }),
      good({ tm: at('09:45'), incident_type: TYPE, device: '8110001', depot_number: undefined, driver: 771102 }),
      good(), // the same vehicle, type and time again inside the batch
    ]);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toEqual({ accepted: 2, duplicates: 1 });
    const again = await post([good(), good({ tm: at('10:05') })]);
    expect(again.json()).toEqual({ accepted: 1, duplicates: 1 });
    const rows = await t.db.query<{
      tm: Date;
      route_id: number;
      trip_id: number | null;
      race_num: number | null;
      driver_id: number;
      evidence: string[] | null;
      speed: number;
      depot_number: number;
    }>(
      'select tm, route_id, trip_id, race_num, driver_id, evidence, speed, depot_number from adas.incident_event where vehicle_id = $1 order by tm',
      [vehicle],
    );
    expect(rows.map((r) => [new Date(r.tm).toISOString(), r.route_id, r.trip_id, r.race_num, r.driver_id, r.depot_number])).toEqual([
      // between races: the task's route and driver, no trip; the driver named in the incident wins
      [at('09:45'), routeId, null, null, otherDriver, 991101],
      [at('10:00'), routeId, tripId, 2, driverId, 991101],
      [at('10:05'), routeId, tripId, 2, driverId, 991101],
    ]);
    expect(rows[1].evidence).toEqual(['front-0001.jpg', 'clip-0001.mp4']);
    expect(rows[1].speed).toBeCloseTo(42.5);
    // one incident's card: its trip's line for the small map
    const [{ id }] = await t.db.query<{ id: number }>(
      'select id::float8 as id from adas.incident_event where vehicle_id = $1 and tm = $2',
      [vehicle, at('10:00')],
    );
    const card = await t.app.inject({
      method: 'GET',
      url: `/api/v1/adas/incidents/${id}`,
      headers: { authorization: await t.login('admin', 'admin123') },
    });
    expect(card.json()).toMatchObject({
      id,
      trip_id: tripId,
      race_num: 2,
      route_name: 'Т1',
      driver_name: 'Иванов Пётр',
      trip_line: 'LINESTRING(30.3 59.9,30.4 59.95)',
    });
    // «Запросить видео ±1 мин» is offered only for a vehicle with a recorder that has cameras
    expect(card.json()).toMatchObject({ has_recorder: false });
    const [dvr] = await t.db.query<{ id: number }>('insert into mgt.dvr (vehicle_id) values ($1) returning id', [vehicle]);
    const cardNow = async () =>
      (
        await t.app.inject({
          method: 'GET',
          url: `/api/v1/adas/incidents/${id}`,
          headers: { authorization: await t.login('admin', 'admin123') },
        })
      ).json();
    expect(await cardNow()).toMatchObject({ has_recorder: false });
    await t.db.query('insert into mgt.dev_camera (index, dvr_id, camera_addr) values (1, $1, (select min(ip) from mgt.dev_camera_type))', [
      dvr.id,
    ]);
    expect(await cardNow()).toMatchObject({ has_recorder: true });
  });

  it('matches nothing on a day without a task, and rings the bell for a high grade', async () => {
    const before = (await t.db.query<{ n: number }>(`select count(*)::int as n from app.notification where type = 'adas_incident'`))[0].n;
    const recent = new Date(Date.now() - 60_000).toISOString();
    const response = await post([good({ tm: recent, grade: 3 })]);
    expect(response.json()).toEqual({ accepted: 1, duplicates: 0 });
    const [row] = await t.db.query<{ id: number; route_id: number | null }>(
      'select id::float8 as id, route_id from adas.incident_event where vehicle_id = $1 and grade = 3',
      [vehicle],
    );
    expect(row.route_id).toBeNull();
    const notes = await t.db.query<{ title: string; link: string }>(
      `select title, link from app.notification where type = 'adas_incident' order by id desc limit 1`,
    );
    expect((await t.db.query<{ n: number }>(`select count(*)::int as n from app.notification where type = 'adas_incident'`))[0].n).toBe(
      before + 1,
    );
    expect(notes[0].title).toBe('Инцидент ИСПВ (степень 3): Тестовый инцидент, ТС 991101');
    expect(notes[0].link).toBe(`/adas/incidents-detailing?event=${row.id}`);
    // resent: a duplicate, no second notification
    expect((await post([good({ tm: recent, grade: 3 })])).json()).toEqual({ accepted: 0, duplicates: 1 });
    expect((await t.db.query<{ n: number }>(`select count(*)::int as n from app.notification where type = 'adas_incident'`))[0].n).toBe(
      before + 1,
    );
  });
});
