import type { Queryable } from '../db/types';
import { fail } from '../http/errors';
import { operatorDate } from '../platform/operatorDay';
import type { ControllerTask, TaskBody, TaskStatus } from '../../shared/bc/tasks';

/**
 * Work orders in the database (bc.controller_task with its workers and routes): read whole, saved whole. Every
 * read goes through taskSelect so the desktop and the field app see the same shape.
 */

const TASK_SELECT = `
  select t.id, t.number, to_char(t.date, 'YYYY-MM-DD') as date, t.graphic_type_id, g.title as graphic_type,
         g.start as "graphicType_start", g."end" as "graphicType_end",
         t.department_id, d.td_name as department, t.control_region_id, r.cd_name as control_region, t.status, t.note,
         coalesce((select json_agg(json_build_object('id', w.driver_id, 'fio', concat_ws(' ', w.last_name, w.first_name, w.middle_name)) order by w.last_name, w.driver_id)
                   from bc.controller_task_worker tw join mgt.driver w on w.driver_id = tw.worker_id where tw.task_id = t.id), '[]') as workers,
         coalesce((select json_agg(json_build_object('route_id', rt.route_id, 'short_name', m.route_short_name, 'type', rt.type) order by rt.type, m.route_short_name)
                   from bc.controller_task_route rt join mgt.routes m on m.route_id = rt.route_id where rt.task_id = t.id), '[]') as routes
  from bc.controller_task t
  join cat.work_graphic_type g on g.id = t.graphic_type_id
  join cat.department d on d.td_id = t.department_id
  left join cat.control_region r on r.cd_id = t.control_region_id`;

export async function loadTasks(
  db: Queryable,
  where: string,
  params: unknown[],
  tail = 'order by t.date, t.id',
): Promise<ControllerTask[]> {
  return db.query<ControllerTask>(`${TASK_SELECT} where ${where} ${tail}`, params);
}

export async function loadTask(db: Queryable, id: number): Promise<ControllerTask> {
  const [task] = await loadTasks(db, 't.id = $1', [id]);
  if (!task) throw fail(404, 'not_found');
  return task;
}

/**
 * Orders whose day (and the late-report grace after it) has passed unclosed become not achieved. Run before
 * reading or changing orders: with the partial index on open orders it touches only those.
 */
export async function sweepNotAchieved(db: Queryable, nowMs: number, offsetMinutes: number, graceHours: number): Promise<void> {
  const cutoff = operatorDate(nowMs - graceHours * 3_600_000, offsetMinutes);
  await db.query(
    `update bc.controller_task set status = 'not_achieved', updated_at = now() where status in ('new', 'in_work') and date < $1::date`,
    [cutoff],
  );
}

/** The first day on which a report of `date` is no longer accepted has begun. */
export function pastDeadline(date: string, nowMs: number, offsetMinutes: number, graceHours: number): boolean {
  return date < operatorDate(nowMs - graceHours * 3_600_000, offsetMinutes);
}

/** Checks the links of an order body against its department; 400 with a catalogue code when one does not hold. */
async function checkBody(db: Queryable, body: TaskBody): Promise<void> {
  const [refs] = await db.query<{ graphic: boolean; department: boolean; region_td: number | null; region: boolean }>(
    `select exists (select 1 from cat.work_graphic_type where id = $1) as graphic,
            exists (select 1 from cat.department where td_id = $2) as department,
            exists (select 1 from cat.control_region where cd_id = $3) as region,
            (select td_id from cat.control_region where cd_id = $3) as region_td`,
    [body.graphic_type_id, body.department_id, body.control_region_id],
  );
  if (!refs.graphic) throw fail(400, 'bad_request', 'graphic_type_id');
  if (!refs.department) throw fail(400, 'bad_request', 'department_id');
  if (body.control_region_id !== null) {
    if (!refs.region) throw fail(400, 'bad_request', 'control_region_id');
    if (refs.region_td !== body.department_id) throw fail(400, 'bc_region_not_in_department');
  }
  const workers = [...new Set(body.worker_ids)];
  if (workers.length) {
    const [{ n }] = await db.query<{ n: number }>(
      'select count(*)::int as n from mgt.driver where driver_id = any($1::int[]) and td_id = $2',
      [workers, body.department_id],
    );
    if (n !== workers.length) throw fail(400, 'bc_worker_not_in_department');
  }
  const routes = [...new Set(body.routes.map((r) => r.route_id))];
  if (routes.length !== body.routes.length) throw fail(400, 'bad_request', 'routes');
  if (routes.length) {
    const [{ n }] = await db.query<{ n: number }>('select count(*)::int as n from mgt.routes where route_id = any($1::int[])', [routes]);
    if (n !== routes.length) throw fail(400, 'bad_request', 'routes');
  }
}

async function writeLinks(db: Queryable, id: number, body: TaskBody): Promise<void> {
  await db.query('delete from bc.controller_task_worker where task_id = $1', [id]);
  await db.query('delete from bc.controller_task_route where task_id = $1', [id]);
  await db.query('insert into bc.controller_task_worker (task_id, worker_id) select $1, unnest($2::int[]) on conflict do nothing', [
    id,
    [...new Set(body.worker_ids)],
  ]);
  await db.query('insert into bc.controller_task_route (task_id, route_id, type) select $1, unnest($2::int[]), unnest($3::smallint[])', [
    id,
    body.routes.map((r) => r.route_id),
    body.routes.map((r) => r.type),
  ]);
}

export async function createTask(db: Queryable, body: TaskBody, userId: number): Promise<number> {
  requireListed(await workerOf(db, userId), body);
  await checkBody(db, body);
  const [{ id }] = await db.query<{ id: number }>(
    `insert into bc.controller_task (number, date, graphic_type_id, department_id, control_region_id, note, created_by)
     values ($1, $2, $3, $4, $5, $6, $7) returning id`,
    [body.number, body.date, body.graphic_type_id, body.department_id, body.control_region_id, body.note ?? null, userId],
  );
  await writeLinks(db, id, body);
  return id;
}

export async function updateTask(db: Queryable, id: number, body: TaskBody, userId: number): Promise<void> {
  const [row] = await db.query<{ status: TaskStatus }>('select status from bc.controller_task where id = $1 for update', [id]);
  if (!row) throw fail(404, 'not_found');
  requireListed(await requireOwnOrder(db, userId, id), body);
  if (row.status === 'closed') throw fail(400, 'bc_task_closed');
  await checkBody(db, body);
  await db.query(
    `update bc.controller_task set number = $2, date = $3, graphic_type_id = $4, department_id = $5, control_region_id = $6, note = $7,
       status = case when status = 'not_achieved' and $3::date <> date then 'new' else status end, updated_at = now()
     where id = $1`,
    [id, body.number, body.date, body.graphic_type_id, body.department_id, body.control_region_id, body.note ?? null],
  );
  await writeLinks(db, id, body);
}

/** The worker a login works as (app.users.worker_id), or null for staff who are not controllers. */
export async function workerOf(db: Queryable, userId: number): Promise<number | null> {
  const [row] = await db.query<{ worker_id: number | null }>('select worker_id from app.users where id = $1', [userId]);
  return row?.worker_id ?? null;
}

async function isWorkerOf(db: Queryable, taskId: number, workerId: number): Promise<boolean> {
  const rows = await db.query('select 1 from bc.controller_task_worker where task_id = $1 and worker_id = $2', [taskId, workerId]);
  return rows.length > 0;
}

/**
 * A controller (a login linked to an employee) changes only the orders that list it; staff without an
 * employee change any. Returns the employee, or null for staff.
 */
export async function requireOwnOrder(db: Queryable, userId: number, taskId: number): Promise<number | null> {
  const workerId = await workerOf(db, userId);
  if (workerId !== null && !(await isWorkerOf(db, taskId, workerId))) throw fail(403, 'bc_task_not_yours');
  return workerId;
}

/** An order a controller creates or saves lists that controller: it cannot hand an order out of its own reach. */
function requireListed(workerId: number | null, body: TaskBody): void {
  if (workerId !== null && !body.worker_ids.includes(workerId)) throw fail(403, 'bc_task_not_yours');
}

/** The department of a controller's employee (its orders are of that department). */
export async function departmentOf(db: Queryable, workerId: number): Promise<number | null> {
  const [row] = await db.query<{ td_id: number | null }>('select td_id from mgt.driver where driver_id = $1', [workerId]);
  return row?.td_id ?? null;
}
