import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from './helpers/engines';
import { startTestApp, type TestApp } from './helpers/testApp';
import { createUserWith, TEST_PASSWORD } from './helpers/users';
import { CREATE, DELETE, READ, UPDATE } from '../src/shared/permissions';
import { newVehicleCheck, type TaskResultBody } from '../src/shared/bc/report';
import type { ControllerTask, TaskBody } from '../src/shared/bc/tasks';
import { addDays, operatorDate } from '../src/server/platform/operatorDay';
import { loadConfig } from '../src/server/config';
import { tinyJpeg } from './fixtures/images';

/** Every right of the ticket-control screens: only the order's own list of controllers limits a controller. */
const ALL_BC_RIGHTS = {
  '/bc/controllertask': CREATE | READ | UPDATE | DELETE,
  '/bc/calendar': CREATE | READ | UPDATE | DELETE,
  '/bc/departmentcontroll': READ,
  '/bc/result': READ,
};

const jpeg = tinyJpeg();
const boundary = '----bc-ownership-boundary';
const photoUpload = {
  payload: Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="p.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`),
    jpeg,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]),
  headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
};

/**
 * A controller (a login linked to an employee) changes only the work orders that list it: every ticket-control
 * write refuses a controller of another department with 403 and leaves the data as it was.
 */
describe.each(ENGINES)('ticket-control orders belong to their controllers on %s', (engine) => {
  let t: TestApp;
  let admin: string;
  let owner: string;
  let stranger: string;
  let ownerWorker: number;
  let ownerUser: number;
  let order: ControllerTask;
  let body: TaskBody;
  const today = operatorDate(Date.now(), 180);

  /** A login with every bc right, linked to a department employee (`where` picks the department) no login has yet. */
  async function controllerOf(
    username: string,
    where: string,
    value: number,
  ): Promise<{ authorization: string; worker: number; userId: number }> {
    const [row] = await t.db.query<{ driver_id: number }>(
      `select driver_id from mgt.driver d where td_id is not null and depot_id is null and end_date is null and ${where}
         and not exists (select 1 from app.users u where u.worker_id = d.driver_id) order by driver_id limit 1`,
      [value],
    );
    const userId = await createUserWith(t.db, username, ALL_BC_RIGHTS);
    await t.db.query('update app.users set worker_id = $2 where id = $1', [userId, row.driver_id]);
    return { authorization: await t.login(username, TEST_PASSWORD), worker: row.driver_id, userId };
  }

  beforeAll(async () => {
    t = await startTestApp(engine, { switches: loadConfig({ DEMO_DATA: 'false', MODULES: 'bc' }).switches });
    admin = await t.login('admin', 'admin123');
    const [{ td_id: department }] = await t.db.query<{ td_id: number }>(
      'select r.td_id from cat.control_region r join mgt.driver d on d.td_id = r.td_id where d.depot_id is null order by r.td_id limit 1',
    );
    ({ authorization: owner, worker: ownerWorker, userId: ownerUser } = await controllerOf('order-owner', 'td_id = $1', department));
    ({ authorization: stranger } = await controllerOf('other-department', 'td_id <> $1', department));
    const options = (await call('GET', '/api/v1/bc/options', admin)).json();
    const region = options.regions.find((r: { td_id: number }) => r.td_id === department);
    body = {
      number: 'OWN-1',
      date: today,
      graphic_type_id: options.graphicTypes[0].id,
      department_id: department,
      control_region_id: region.id,
      worker_ids: [ownerWorker],
      routes: [{ route_id: options.routes[0].route_id, type: 0 }],
    };
    const created = await call('POST', '/api/v1/bc/tasks', admin, body);
    expect(created.statusCode, created.body).toBe(201);
    order = created.json();
  });
  afterAll(() => t.close());

  function call(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, authorization: string, payload?: unknown) {
    return t.app.inject({ method, url, headers: { authorization }, payload: payload as never });
  }

  const report = (): TaskResultBody => {
    const check = newVehicleCheck([]);
    check.route_short_name = order.routes[0].short_name;
    return { check_tickets: {}, check_vehicles: [check] };
  };

  /** Every write of the ticket-control API on the order (or its department's day). */
  const writes = (orderId: number, department: number): [string, (authorization: string) => ReturnType<typeof call>][] => [
    ['create', (a) => call('POST', '/api/v1/bc/tasks', a, { ...body, number: 'NEW-1' })],
    ['edit', (a) => call('PUT', `/api/v1/bc/tasks/${orderId}`, a, { ...body, number: 'EDITED' })],
    ['copy', (a) => call('POST', '/api/v1/bc/tasks/copy', a, { from: today, to: [addDays(today, 1)], department_id: department })],
    ['report', (a) => call('PUT', `/api/v1/pass/controllertask/result/${orderId}`, a, report())],
    ['status', (a) => call('PUT', `/api/v1/pass/controllertask/status?ids=${orderId}`, a, { status: 'in_work' })],
    [
      'photo',
      (a) =>
        t.app.inject({
          method: 'POST',
          url: `/api/v1/pass/controllertask/photo?controller_task_id=${orderId}&title=p.jpg`,
          headers: { authorization: a, ...photoUpload.headers },
          payload: photoUpload.payload,
        }),
    ],
    ['delete', (a) => call('DELETE', `/api/v1/bc/tasks/${orderId}`, a)],
  ];

  /** A fingerprint of every row of every ticket-control table. */
  async function bcData(): Promise<Record<string, string>> {
    const tables = await t.db.query<{ name: string }>(
      `select table_name as name from information_schema.tables where table_schema = 'bc' and table_type = 'BASE TABLE' order by 1`,
    );
    const data: Record<string, string> = {};
    for (const { name } of tables) {
      const [{ rows }] = await t.db.query<{ rows: string }>(
        `select coalesce(md5(string_agg(x::text, '|' order by x::text)), '') as rows from bc.${name} x`,
      );
      data[name] = rows;
    }
    return data;
  }

  it('refuses every write by a controller of another department with 403 and changes nothing', async () => {
    const before = await bcData();
    for (const [name, write] of writes(order.id, order.department_id)) {
      const response = await write(stranger);
      expect(response.statusCode, `${name}: ${response.body}`).toBe(403);
      expect(response.json().messages, name).toEqual(['bc_task_not_yours']);
    }
    expect(await bcData()).toEqual(before);
  });

  it('refuses a controller an order it leaves itself off', async () => {
    const before = await bcData();
    const others = { ...body, worker_ids: [] };
    expect((await call('POST', '/api/v1/bc/tasks', owner, others)).statusCode).toBe(403);
    expect((await call('PUT', `/api/v1/bc/tasks/${order.id}`, owner, others)).statusCode).toBe(403);
    expect(await bcData()).toEqual(before);
  });

  it('lets the controller on the order make every write, copying only its own orders', async () => {
    const [{ own }] = await t.db.query<{ own: number }>(
      `select count(*)::int as own from bc.controller_task t join bc.controller_task_worker w on w.task_id = t.id
        where t.date = $1::date and t.department_id = $2 and w.worker_id = $3`,
      [today, order.department_id, ownerWorker],
    );
    // another order of the same day and department, without this controller: not its to copy
    expect((await call('POST', '/api/v1/bc/tasks', admin, { ...body, number: 'NOT-MINE', worker_ids: [] })).statusCode).toBe(201);
    const expected: Record<string, number> = { create: 201, edit: 200, copy: 200, report: 200, status: 200, photo: 201, delete: 204 };
    for (const [name, write] of writes(order.id, order.department_id)) {
      const response = await write(owner);
      expect(response.statusCode, `${name}: ${response.body}`).toBe(expected[name]);
      // its orders of the day: those before, and the one it has just created
      if (name === 'copy') expect(response.json()).toEqual({ created: own + 1 });
    }
    const copies = await t.db.query<{ listed: boolean }>(
      `select exists (select 1 from bc.controller_task_worker w where w.task_id = t.id and w.worker_id = $3) as listed
         from bc.controller_task t where t.date = $1::date and t.department_id = $2 and t.created_by = $4`,
      [addDays(today, 1), order.department_id, ownerWorker, ownerUser],
    );
    expect(copies.length).toBe(own + 1);
    expect(copies.every((c) => c.listed)).toBe(true);
  });

  it('lets an administrator make every write on any order', async () => {
    const created = await call('POST', '/api/v1/bc/tasks', admin, { ...body, number: 'ADMIN-1' });
    expect(created.statusCode).toBe(201);
    const id = created.json().id;
    const expected: Record<string, number> = { create: 201, edit: 200, copy: 200, report: 200, status: 200, photo: 201, delete: 204 };
    for (const [name, write] of writes(id, order.department_id)) {
      const response = await write(admin);
      expect(response.statusCode, `${name}: ${response.body}`).toBe(expected[name]);
    }
  });
});
