import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from './helpers/engines';
import { startTestApp, type TestApp } from './helpers/testApp';
import { createUserWith, TEST_PASSWORD } from './helpers/users';
import { CREATE, READ, UPDATE } from '../src/shared/permissions';
import { SEIZED_CATEGORIES, newVehicleCheck, type TaskResultBody } from '../src/shared/bc/report';
import type { ControllerTask, DepartmentMap, TaskResultResponse } from '../src/shared/bc/tasks';
import { operatorDate, addDays } from '../src/server/platform/operatorDay';
import { loadConfig } from '../src/server/config';
import { jpegOfSize } from './fixtures/images';

/** A real JPEG of that many bytes: what the server recognises as an image. */
const jpeg = (bytes = 2048) => jpegOfSize(bytes);

function multipart(file: Buffer, name = 'photo.jpg', type = 'image/jpeg') {
  const boundary = '----bc-test-boundary';
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: ${type}\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return { payload: Buffer.concat([head, file, tail]), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** Ticket control through the API: the field app's calls of field-app spec section 7 and the desktop's orders. */
describe.each(ENGINES)('ticket control on %s', (engine) => {
  let t: TestApp;
  let admin: string;
  let controller: string;
  let other: string;
  let task: ControllerTask;
  let tickets: number[];
  const today = operatorDate(Date.now(), 180);

  beforeAll(async () => {
    t = await startTestApp(engine, { switches: loadConfig({ DEMO_DATA: 'false', MODULES: 'bc' }).switches });
    admin = await t.login('admin', 'admin123');
    controller = await t.login('controller', 'controller123');
    // another controller of the same department, with a login of its own
    const bcRights = { '/bc/controllertask': READ | CREATE | UPDATE, '/bc/departmentcontroll': READ, '/bc/result': READ };
    const userId = await createUserWith(t.db, 'controller2', bcRights);
    const [worker] = await t.db.query<{ driver_id: number }>(
      `select driver_id from mgt.driver where td_id is not null and depot_id is null and driver_id <> (select worker_id from app.users where username = 'controller') order by driver_id limit 1`,
    );
    await t.db.query('update app.users set worker_id = $2 where id = $1', [userId, worker.driver_id]);
    other = await t.login('controller2', TEST_PASSWORD);
    tickets = (await t.db.query<{ id: number }>('select ticket_type_id as id from cat.ticket_type order by ticket_type_id limit 3')).map(
      (r) => r.id,
    );
  });
  afterAll(() => t.close());

  const call = (
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    authorization: string,
    payload?: unknown,
    headers: Record<string, string> = {},
  ) => t.app.inject({ method, url, headers: { authorization, ...headers }, payload: payload as never });

  /** A fresh order for today in the demo controller's department, with the demo controller on it. */
  async function newOrder(date = today): Promise<ControllerTask> {
    const options = (await call('GET', '/api/v1/bc/options', admin)).json();
    const [{ worker_id }] = await t.db.query<{ worker_id: number }>(`select worker_id from app.users where username = 'controller'`);
    const worker = options.workers.find((w: { id: number }) => w.id === worker_id);
    const region = options.regions.find((r: { td_id: number }) => r.td_id === worker.td_id);
    const response = await call('POST', '/api/v1/bc/tasks', admin, {
      number: `T-${Math.random().toString(36).slice(2, 8)}`,
      date,
      graphic_type_id: options.graphicTypes[0].id,
      department_id: worker.td_id,
      control_region_id: region.id,
      worker_ids: [worker_id],
      routes: [
        { route_id: options.routes[0].route_id, type: 0 },
        { route_id: options.routes[1].route_id, type: 1 },
      ],
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json();
  }

  const result = (received: Record<string, number>, sold: number[][]): TaskResultBody => ({
    check_tickets: received,
    check_vehicles: sold.map((counts, i) => {
      const check = newVehicleCheck(tickets);
      check.route_short_name = task.routes[0].short_name;
      check.depot_number = 100 + i;
      check.table_number = 5000 + i;
      check.sell_tickets = counts.map((count, k) => ({ ticket_id: tickets[k], count }));
      check.kickout = 2;
      check.OVDdeliver = 1;
      check.take_tickets[0].count = 1;
      return check;
    }),
  });

  it("the demo controller has today's order from GET controllertask/worker, with the spec's work-order fields", async () => {
    const response = await call('GET', '/api/v1/pass/controllertask/worker', controller);
    expect(response.statusCode, response.body).toBe(200);
    task = response.json();
    expect(task.date).toBe(today);
    expect(task.status).toBe('new');
    for (const field of ['id', 'date', 'graphicType_start', 'graphicType_end', 'department_id', 'workers', 'routes'])
      expect(task).toHaveProperty(field);
    expect(task.workers[0]).toHaveProperty('fio');
    expect(task.routes[0]).toHaveProperty('short_name');
    expect([0, 1]).toContain(task.routes[0].type);
    // staff without a worker link have no order
    expect((await call('GET', '/api/v1/pass/controllertask/worker', admin)).json()).toBeNull();
  });

  it('the demo has 60 days of orders with reports, photos with the driver reports', async () => {
    const [days] = await t.db.query<{ first: string; closed: number }>(
      `select to_char(min(date), 'YYYY-MM-DD') as first, count(*) filter (where status = 'closed')::int as closed from bc.controller_task`,
    );
    expect(days.first).toBe(addDays(today, -59));
    expect(days.closed).toBeGreaterThan(50);
    const [photo] = await t.db.query<{ id: number }>('select id from bc.task_photo order by id limit 1');
    const image = await call('GET', `/api/v1/pass/controllertask/photo/${photo.id}`, admin);
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/jpeg');
  });

  it('reads the result with tickets, files, task, vehicles and routes', async () => {
    const response = await call('GET', `/api/v1/pass/controllertask/result/${task.id}`, controller);
    expect(response.statusCode, response.body).toBe(200);
    const body: TaskResultResponse = response.json();
    expect(Object.keys(body).sort()).toEqual(['files', 'routes', 'task', 'tickets', 'vehicles']);
    expect(body.tickets[0]).toEqual({ id: expect.any(Number), name: expect.any(String) });
    expect(body.task).toMatchObject({ id: task.id, department_id: task.department_id, check_tickets: {}, check_vehicles: [] });
    expect(body.vehicles.length).toBeGreaterThan(0);
  });

  it("the department map with department_ids (or null) and a control region's details", async () => {
    const all = await call('POST', '/api/v1/pass/departmentcontroll/map', controller, { department_ids: null });
    expect(all.statusCode, all.body).toBe(200);
    const map: DepartmentMap = all.json();
    expect(map.regions.length).toBeGreaterThan(0);
    const region = map.regions[0];
    for (const field of ['geojson', 'td_color', 'td_id', 'centre', 'routes']) expect(region).toHaveProperty(field);
    expect(map.tasks.some((x) => x.id === task.id)).toBe(true);
    // the demo controller's position, loaded with the demo data
    expect(map.controllers.some((c) => task.workers.some((w) => w.id === c.worker_id))).toBe(true);
    const one = (
      await call('POST', '/api/v1/pass/departmentcontroll/map', controller, { department_ids: [task.department_id] })
    ).json() as DepartmentMap;
    expect(one.regions.every((r) => r.td_id === task.department_id)).toBe(true);
    const details = await call('GET', `/api/v1/pass/departmentcontroll/${task.control_region_id}`, controller);
    expect(details.statusCode).toBe(200);
    expect(details.json()).toMatchObject({
      cd_id: task.control_region_id,
      td_id: task.department_id,
      closed_count: expect.any(Number),
      workers_total: expect.any(Number),
      workers_on_task: expect.any(Number),
    });
    expect((await call('POST', '/api/v1/pass/departmentcontroll/map', controller, { department_ids: 'all' })).statusCode).toBe(400);
  });

  it('refuses a sold-ticket sum over the tickets received, and changes nothing', async () => {
    const over = result({ [tickets[0]]: 5 }, [[3], [3]]);
    const response = await call('PUT', `/api/v1/pass/controllertask/result/${task.id}`, controller, over);
    expect(response.statusCode).toBe(400);
    expect(response.json().messages).toEqual(['bc_sold_over_received', String(tickets[0])]);
    const [{ n }] = await t.db.query<{ n: number }>('select count(*)::int as n from bc.check_vehicle where task_id = $1', [task.id]);
    expect(n).toBe(0);
    // sold without any received is over too
    expect((await call('PUT', `/api/v1/pass/controllertask/result/${task.id}`, controller, result({}, [[1]]))).json().messages[0]).toBe(
      'bc_sold_over_received',
    );
  });

  it('refuses seized categories out of their fixed order, unknown tickets, and non-integer counts', async () => {
    const body = result({ [tickets[0]]: 5 }, [[1]]);
    body.check_vehicles[0].take_tickets = [...body.check_vehicles[0].take_tickets].reverse();
    expect((await call('PUT', `/api/v1/pass/controllertask/result/${task.id}`, controller, body)).json().messages).toEqual([
      'bc_seized_order',
    ]);
    expect(
      (await call('PUT', `/api/v1/pass/controllertask/result/${task.id}`, controller, result({ 999999: 1 }, []))).json().messages,
    ).toEqual(['bc_unknown_ticket']);
    const negative = result({ [tickets[0]]: 5 }, [[1]]);
    negative.check_vehicles[0].kickout = -1;
    expect((await call('PUT', `/api/v1/pass/controllertask/result/${task.id}`, controller, negative)).statusCode).toBe(400);
  });

  it('a worker who does not own the task is refused for result, status and photo', async () => {
    const body = result({ [tickets[0]]: 5 }, [[1]]);
    const put = await call('PUT', `/api/v1/pass/controllertask/result/${task.id}`, other, body);
    expect(put.statusCode).toBe(403);
    expect(put.json().messages).toEqual(['bc_task_not_yours']);
    expect((await call('PUT', `/api/v1/pass/controllertask/status?ids=${task.id}`, other, { status: 'closed' })).json().messages).toEqual([
      'bc_task_not_yours',
    ]);
    const upload = multipart(jpeg());
    const photo = await t.app.inject({
      method: 'POST',
      url: `/api/v1/pass/controllertask/photo?controller_task_id=${task.id}&title=1.jpg`,
      headers: { authorization: other, ...upload.headers },
      payload: upload.payload,
    });
    expect(photo.statusCode).toBe(403);
  });

  it('uploads a photo as multipart, once per file name; refuses a too large photo and a file that is not an image', async () => {
    const title = `${Date.now()}.jpg`;
    const send = (file: Buffer, name = title) => {
      const upload = multipart(file);
      return t.app.inject({
        method: 'POST',
        url: `/api/v1/pass/controllertask/photo?controller_task_id=${task.id}&title=${name}`,
        headers: { authorization: controller, ...upload.headers },
        payload: upload.payload,
      });
    };
    const first = await send(jpeg());
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json()).toMatchObject({ id: expect.any(Number), title });
    const again = await send(jpeg());
    expect(again.statusCode).toBe(200);
    expect(again.json().id).toBe(first.json().id);
    const image = await call('GET', first.json().url, admin);
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/jpeg');
    expect(image.rawPayload.length).toBe(2048);

    const text = await send(Buffer.from('not an image at all'), 'x.jpg');
    expect(text.statusCode).toBe(400);
    expect(text.json().messages).toEqual(['bc_photo_not_image']);
    // the /system/bc limit takes effect at once
    expect((await call('PUT', '/api/v1/settings/bc', admin, { bc: { photoMaxMb: 1 } })).statusCode).toBe(200);
    const large = await send(jpeg(1024 * 1024 + 10), 'big.jpg');
    expect(large.statusCode).toBe(413);
    expect(large.json().messages).toEqual(['bc_photo_too_large']);
    expect((await call('PUT', '/api/v1/settings/bc', admin, { bc: { photoMaxMb: 10 } })).statusCode).toBe(200);
    const none = await t.app.inject({
      method: 'POST',
      url: `/api/v1/pass/controllertask/photo?controller_task_id=${task.id}&title=n.jpg`,
      headers: { authorization: controller },
      payload: {},
    });
    expect(none.statusCode).toBe(400);
    const [{ n }] = await t.db.query<{ n: number }>('select count(*)::int as n from bc.task_photo where task_id = $1', [task.id]);
    expect(n).toBe(1);
  });

  it('saves a result (new → in work), a retried submission is stored once, and a stale retry does not overwrite', async () => {
    const body = result({ [tickets[0]]: 5, [tickets[1]]: 2 }, [
      [3, 1],
      [2, 1],
    ]);
    const key = 'report-key-0001';
    const first = await call('PUT', `/api/v1/pass/controllertask/result/${task.id}`, controller, body, { 'idempotency-key': key });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().status).toBe('in_work');
    const newer = result({ [tickets[0]]: 6 }, [[6]]);
    expect(
      (await call('PUT', `/api/v1/pass/controllertask/result/${task.id}`, controller, newer, { 'idempotency-key': 'report-key-0002' }))
        .statusCode,
    ).toBe(200);
    // the first submission retried (its answer lost on the way): the first answer again, the newer report kept
    const retry = await call('PUT', `/api/v1/pass/controllertask/result/${task.id}`, controller, body, { 'idempotency-key': key });
    expect(retry.statusCode).toBe(200);
    expect(retry.json()).toEqual(first.json());
    const loaded: TaskResultResponse = (await call('GET', `/api/v1/pass/controllertask/result/${task.id}`, controller)).json();
    expect(loaded.task.check_tickets).toEqual({ [tickets[0]]: 6 });
    expect(loaded.task.check_vehicles).toHaveLength(1);
    expect(loaded.task.check_vehicles[0].take_tickets.map((x) => x.ticket_id)).toEqual([...SEIZED_CATEGORIES]);
    const [{ n }] = await t.db.query<{ n: number }>('select count(*)::int as n from bc.submission where key = $1', [key]);
    expect(n).toBe(1);
    // a key reused for another order is refused
    const other = await newOrder();
    expect(
      (await call('PUT', `/api/v1/pass/controllertask/result/${other.id}`, controller, result({}, []), { 'idempotency-key': key })).json()
        .messages,
    ).toEqual(['bc_idempotency_key_reused']);
    // the final report
    expect((await call('PUT', `/api/v1/pass/controllertask/result/${task.id}`, controller, body)).statusCode).toBe(200);
  });

  it('status: in work → closed (retried once), then the report cannot change; illegal transitions refused', async () => {
    const close = () =>
      call(
        'PUT',
        `/api/v1/pass/controllertask/status?ids=${task.id}`,
        controller,
        { status: 'closed' },
        { 'idempotency-key': 'close-key-0001' },
      );
    const first = await close();
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toEqual({ list: [{ id: task.id, status: 'closed' }] });
    expect((await close()).json()).toEqual(first.json());
    expect(
      (await call('PUT', `/api/v1/pass/controllertask/status?ids=${task.id}`, controller, { status: 'in_work' })).json().messages,
    ).toEqual(['bc_status_transition']);
    expect((await call('PUT', `/api/v1/pass/controllertask/result/${task.id}`, controller, result({}, []))).json().messages).toEqual([
      'bc_task_closed',
    ]);
    expect((await call('PUT', `/api/v1/pass/controllertask/status?ids=${task.id}`, controller, { status: 'done' })).statusCode).toBe(400);
    expect((await call('GET', `/api/v1/bc/tasks/${task.id}`, admin)).json().status).toBe('closed');
  });

  it('an order whose day passed unclosed is not achieved; the late-report grace of /system/bc takes effect', async () => {
    const yesterday = await newOrder(addDays(today, -1));
    const lastWeek = await newOrder(addDays(today, -7));
    // with 72 hours of grace yesterday's order still takes its report
    expect((await call('PUT', '/api/v1/settings/bc', admin, { bc: { lateReportHours: 72 } })).statusCode).toBe(200);
    expect(
      (await call('PUT', `/api/v1/pass/controllertask/status?ids=${yesterday.id}`, controller, { status: 'in_work' })).statusCode,
    ).toBe(200);
    expect((await call('GET', `/api/v1/bc/tasks/${lastWeek.id}`, admin)).json().status).toBe('not_achieved');
    const late = await call('PUT', `/api/v1/pass/controllertask/status?ids=${lastWeek.id}`, controller, { status: 'closed' });
    expect(late.json().messages).toEqual(['bc_task_not_achieved']);
    // without grace yesterday's is not achieved too
    expect((await call('PUT', '/api/v1/settings/bc', admin, { bc: { lateReportHours: 0 } })).statusCode).toBe(200);
    expect((await call('GET', `/api/v1/bc/tasks/${yesterday.id}`, admin)).json().status).toBe('not_achieved');
    expect((await call('PUT', `/api/v1/pass/controllertask/result/${yesterday.id}`, controller, result({}, []))).json().messages).toEqual([
      'bc_task_not_achieved',
    ]);
    expect((await call('PUT', '/api/v1/settings/bc', admin, { bc: { lateReportHours: 12 } })).statusCode).toBe(200);
  });

  it('the desktop lists, edits, copies and deletes orders; refuses workers or regions of another department', async () => {
    const created = await newOrder(addDays(today, 3));
    const list = (
      await call(
        'GET',
        `/api/v1/bc/tasks?from=${addDays(today, 3)}&to=${addDays(today, 3)}&department=${created.department_id}&status=new`,
        admin,
      )
    ).json();
    expect(list.list.map((x: ControllerTask) => x.id)).toContain(created.id);
    const options = (await call('GET', '/api/v1/bc/options', admin)).json();
    const stranger = options.workers.find((w: { td_id: number }) => w.td_id !== created.department_id);
    const body = {
      number: created.number,
      date: created.date,
      graphic_type_id: created.graphic_type_id,
      department_id: created.department_id,
      control_region_id: created.control_region_id,
      worker_ids: [stranger.id],
      routes: created.routes.map((r) => ({ route_id: r.route_id, type: r.type })),
    };
    expect((await call('PUT', `/api/v1/bc/tasks/${created.id}`, admin, body)).json().messages).toEqual(['bc_worker_not_in_department']);
    const foreignRegion = options.regions.find((r: { td_id: number }) => r.td_id !== created.department_id);
    expect(
      (await call('PUT', `/api/v1/bc/tasks/${created.id}`, admin, { ...body, worker_ids: [], control_region_id: foreignRegion.id })).json()
        .messages,
    ).toEqual(['bc_region_not_in_department']);
    const edited = await call('PUT', `/api/v1/bc/tasks/${created.id}`, admin, {
      ...body,
      worker_ids: created.workers.map((w) => w.id),
      number: 'EDITED',
    });
    expect(edited.json().number).toBe('EDITED');

    const copy = await call('POST', '/api/v1/bc/tasks/copy', admin, {
      from: addDays(today, 3),
      to: [addDays(today, 4), addDays(today, 5)],
      department_id: created.department_id,
    });
    expect(copy.json()).toEqual({ created: 2 });
    const copied = (
      await call('GET', `/api/v1/bc/tasks?from=${addDays(today, 4)}&to=${addDays(today, 5)}&department=${created.department_id}`, admin)
    ).json();
    expect(copied.count).toBe(2);
    expect(copied.list[0].workers).toEqual(edited.json().workers);
    expect(copied.list[0].routes).toEqual(edited.json().routes);

    const rotation = await call('GET', `/api/v1/bc/rotation?department_id=${created.department_id}&date=${today}`, admin);
    expect(rotation.statusCode, rotation.body).toBe(200);
    expect(rotation.json().main.length).toBeGreaterThan(0);

    expect((await call('DELETE', `/api/v1/bc/tasks/${created.id}`, controller)).statusCode).toBe(403);
    expect((await call('DELETE', `/api/v1/bc/tasks/${created.id}`, admin)).statusCode).toBe(204);
  });

  it("the field app's position (auth/coord with accuracy) reaches the department map; without zoom or accuracy refused", async () => {
    expect((await call('POST', '/api/v1/auth/coord', other, { lat: 59.9, lon: 30.3, accuracy: 12 })).statusCode).toBe(200);
    expect((await call('POST', '/api/v1/auth/coord', other, { lat: 59.9, lon: 30.3 })).statusCode).toBe(400);
    const [{ n }] = await t.db.query<{ n: number }>(
      'select count(*)::int as n from bc.user_position p join app.users u on u.id = p.user_id where u.username = $1',
      ['controller2'],
    );
    expect(n).toBe(1);
  });

  it('the reports: results per controller, route rate, summary by group; a link to the order', async () => {
    const period = `from=${addDays(today, -60)}T00:00:00%2B03:00&to=${today}T23:59:59%2B03:00`;
    const results = await call('GET', `/api/v1/reports/bc/resultuser?${period}`, admin);
    expect(results.statusCode, results.body).toBe(200);
    expect(results.json().count).toBeGreaterThan(10);
    const rate = await call('GET', `/api/v1/reports/bc/routerate?${period}`, admin);
    expect(rate.statusCode, rate.body).toBe(200);
    const row = rate.json().list[0];
    expect(row.rate).toBeCloseTo((100 * row.violations) / Math.max(row.passengers, 1), 0);
    for (const group of ['department', 'controller', 'route', 'day']) {
      const summary = await call('GET', `/api/v1/reports/bc/reports?${period}&group=${group}`, admin);
      expect(summary.statusCode, summary.body).toBe(200);
      expect(summary.json().totals.orders).toBeGreaterThan(0);
    }
    const xlsx = await call('GET', `/api/v1/reports/bc/reports/export?${period}&format=xlsx`, admin);
    expect(xlsx.statusCode).toBe(200);
  });

  it('an administrator links a login to its employee through the users API, one login per employee', async () => {
    const [{ id, worker_id }] = await t.db.query<{ id: number; worker_id: number }>(
      `select id, worker_id from app.users where username = 'controller2'`,
    );
    const [{ worker_id: taken }] = await t.db.query<{ worker_id: number }>(`select worker_id from app.users where username = 'controller'`);
    const refused = await call('PUT', `/api/v1/users/${id}`, admin, { workerId: taken });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().messages).toEqual(['worker_taken']);
    expect((await call('PUT', `/api/v1/users/${id}`, admin, { workerId: 999_999 })).statusCode).toBe(400);
    expect((await call('PUT', `/api/v1/users/${id}`, admin, { workerId: null })).json().workerId).toBeNull();
    expect((await call('GET', '/api/v1/pass/controllertask/worker', other)).json()).toBeNull();
    expect((await call('PUT', `/api/v1/users/${id}`, admin, { workerId: worker_id })).json().workerId).toBe(worker_id);
  });

  it('a results viewer (code 30) reads orders and their reports, but changes none', async () => {
    await createUserWith(t.db, 'resultsviewer', { '/bc/result': READ, '/bc/resultuser': READ });
    const viewer = await t.login('resultsviewer', TEST_PASSWORD);
    expect((await call('GET', `/api/v1/bc/tasks/${task.id}`, viewer)).statusCode).toBe(200);
    expect((await call('GET', `/api/v1/pass/controllertask/result/${task.id}`, viewer)).statusCode).toBe(200);
    expect((await call('GET', '/api/v1/bc/tasks', viewer)).statusCode).toBe(200);
    expect((await call('PUT', `/api/v1/pass/controllertask/status?ids=${task.id}`, viewer, { status: 'closed' })).statusCode).toBe(403);
    await createUserWith(t.db, 'nobc', { '/map/currentData': READ });
    const outsider = await t.login('nobc', TEST_PASSWORD);
    expect((await call('GET', `/api/v1/bc/tasks/${task.id}`, outsider)).statusCode).toBe(403);
    expect((await call('GET', '/api/v1/bc/options', outsider)).statusCode).toBe(403);
    expect((await call('GET', `/api/v1/pass/controllertask/result/${task.id}`, outsider)).statusCode).toBe(403);
  });

  it('every ticket-control route is gone (404) while the bc module is off', async () => {
    await call('PUT', '/api/v1/settings/modules', admin, { modules: { bc: false } });
    try {
      expect((await call('GET', '/api/v1/pass/controllertask/worker', controller)).statusCode).toBe(404);
    } finally {
      await call('PUT', '/api/v1/settings/modules', admin, { modules: { bc: true } });
    }
  });
});

describe('report photos beside the embedded database', () => {
  it('are files under DATA_DIR/bc-photos with the row holding no bytes; served as uploaded; gone with their order', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'bc-photos-'));
    const t = await startTestApp('pglite', { dataDir, switches: loadConfig({ DEMO_DATA: 'false', MODULES: 'bc' }).switches });
    try {
      const controller = await t.login('controller', 'controller123');
      const admin = await t.login('admin', 'admin123');
      const task = (
        await t.app.inject({ method: 'GET', url: '/api/v1/pass/controllertask/worker', headers: { authorization: controller } })
      ).json() as ControllerTask;
      const content = jpeg(4096);
      const upload = multipart(content);
      const sent = await t.app.inject({
        method: 'POST',
        url: `/api/v1/pass/controllertask/photo?controller_task_id=${task.id}&title=1.jpg`,
        headers: { authorization: controller, ...upload.headers },
        payload: upload.payload,
      });
      expect(sent.statusCode, sent.body).toBe(201);
      const { id } = sent.json() as { id: number };
      expect(readFileSync(join(dataDir, 'bc-photos', String(task.id), String(id)))).toEqual(content);
      const [row] = await t.db.query<{ data: unknown; size: number }>('select data, size from bc.task_photo where id = $1', [id]);
      expect(row).toEqual({ data: null, size: 4096 });
      const served = await t.app.inject({
        method: 'GET',
        url: `/api/v1/pass/controllertask/photo/${id}`,
        headers: { authorization: admin },
      });
      expect(served.rawPayload).toEqual(content);
      expect(
        (await t.app.inject({ method: 'DELETE', url: `/api/v1/bc/tasks/${task.id}`, headers: { authorization: admin } })).statusCode,
      ).toBe(204);
      expect(existsSync(join(dataDir, 'bc-photos', String(task.id)))).toBe(false);
    } finally {
      await t.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
