import type { FastifyInstance } from 'fastify';
import type { ListResponse } from '../../shared/api';
import { TASK_STATUSES, type BcOptions, type ControllerTask, type RotationSuggestion, type TaskBody } from '../../shared/bc/tasks';
import { fail } from '../http/errors';
import { canAccess } from '../../shared/permissions';
import type { FastifyRequest } from 'fastify';
import type { BcContext } from './bcContext';
import { idParams, isoDate, messages, taskBody, taskListQuery } from './schemas';
import { createTask, departmentOf, loadTask, loadTasks, requireOwnOrder, updateTask, workerOf } from './taskStore';

/** The desktop's work orders (/bc/controllertask, /bc/calendar): list, read, create, edit, delete, copy a day, rotation. */

const tags = ['bc'];
const ORDERS = '/bc/controllertask';
/** Screens that show an order or the form's lists: reading any one of them is enough (a results viewer opens an order's report). */
const ORDER_READERS = ['/bc/controllertask', '/bc/calendar', '/bc/departmentcontroll', '/bc/result', '/bc/resultuser'];
const READ_ANY = { access: 'session', module: 'bc' } as const;
function mayReadOrders(request: FastifyRequest): void {
  if (!ORDER_READERS.some((key) => canAccess(request.user, key))) throw fail(403, 'forbidden');
}

const SORT: Record<string, string> = { id: 't.id', number: 't.number', date: 't.date', department: 'd.td_name', status: 't.status' };

interface ListQuery {
  from?: string;
  to?: string;
  department?: string;
  status?: string;
  worker?: number;
  sortField?: string;
  sortOrder?: 'ASC' | 'DESC';
  skipCount?: number;
  recordCount?: number;
}

export function registerTaskRoutes(app: FastifyInstance, bc: BcContext): void {
  app.get<{ Querystring: ListQuery }>(
    '/api/v1/bc/tasks',
    {
      config: READ_ANY,
      schema: {
        tags,
        summary: `Задания контролёров: фильтры период, отделы, статусы, сотрудник; сортировка и страницы (право: чтение любого из ${ORDER_READERS.join(', ')})`,
        querystring: taskListQuery,
        response: { 400: messages, 403: messages },
      },
    },
    async (request): Promise<ListResponse<ControllerTask>> => {
      mayReadOrders(request);
      const q = request.query;
      await bc.sweep();
      const params: unknown[] = [];
      const where: string[] = ['true'];
      const add = (sql: (p: string) => string, value: unknown) => where.push(sql(`$${params.push(value)}`));
      if (q.from) add((p) => `t.date >= ${p}::date`, q.from);
      if (q.to) add((p) => `t.date <= ${p}::date`, q.to);
      if (q.department) add((p) => `t.department_id = any(${p}::int[])`, q.department.split(',').map(Number));
      if (q.status)
        add(
          (p) => `t.status = any(${p}::text[])`,
          q.status.split(',').filter((s) => (TASK_STATUSES as readonly string[]).includes(s)),
        );
      if (q.worker)
        add((p) => `exists (select 1 from bc.controller_task_worker tw where tw.task_id = t.id and tw.worker_id = ${p})`, q.worker);
      const order = `${SORT[q.sortField ?? 'date']} ${q.sortOrder === 'ASC' ? 'asc' : 'desc'}, t.id ${q.sortOrder === 'ASC' ? 'asc' : 'desc'}`;
      const limit = q.recordCount ?? 100;
      const offset = q.skipCount ?? 0;
      const [list, [{ count }]] = await Promise.all([
        loadTasks(app.db, where.join(' and '), params, `order by ${order} limit ${limit} offset ${offset}`),
        app.db.query<{ count: number }>(`select count(*)::int as count from bc.controller_task t where ${where.join(' and ')}`, params),
      ]);
      return { list, count };
    },
  );

  app.get<{ Params: { id: number } }>(
    '/api/v1/bc/tasks/:id',
    {
      config: READ_ANY,
      schema: {
        tags,
        summary: `Задание контролёров (право: чтение любого из ${ORDER_READERS.join(', ')})`,
        params: idParams,
        response: { 403: messages, 404: messages },
      },
    },
    async (request) => {
      mayReadOrders(request);
      await bc.sweep();
      return loadTask(app.db, request.params.id);
    },
  );

  app.post<{ Body: TaskBody }>(
    '/api/v1/bc/tasks',
    {
      config: { access: { path: ORDERS, action: 'create' }, module: 'bc' },
      schema: {
        tags,
        summary: 'Создать задание: сотрудники — из отдела задания, район — отдела задания; контролёр — только задание, где он в списке',
        body: taskBody,
        response: { 400: messages, 403: messages },
      },
    },
    async (request, reply) => {
      const id = await app.db.transaction((tx) => createTask(tx, request.body, request.user!.id));
      return reply.status(201).send(await loadTask(app.db, id));
    },
  );

  app.put<{ Params: { id: number }; Body: TaskBody }>(
    '/api/v1/bc/tasks/:id',
    {
      config: { access: { path: ORDERS, action: 'update' }, module: 'bc' },
      schema: {
        tags,
        summary: 'Изменить задание (закрытое не меняется; контролёр — только своё и остаётся в списке)',
        params: idParams,
        body: taskBody,
        response: { 400: messages, 403: messages, 404: messages },
      },
    },
    async (request) => {
      await app.db.transaction((tx) => updateTask(tx, request.params.id, request.body, request.user!.id));
      return loadTask(app.db, request.params.id);
    },
  );

  app.delete<{ Params: { id: number } }>(
    '/api/v1/bc/tasks/:id',
    {
      config: { access: { path: ORDERS, action: 'delete' }, module: 'bc' },
      schema: {
        tags,
        summary: 'Удалить задание с его отчётом (контролёр — только своё)',
        params: idParams,
        response: { 403: messages, 404: messages },
      },
    },
    async (request, reply) => {
      const id = request.params.id;
      await app.db.transaction(async (tx) => {
        const rows = await tx.query('select id from bc.controller_task where id = $1 for update', [id]);
        if (!rows.length) throw fail(404, 'not_found');
        await requireOwnOrder(tx, request.user!.id, id);
        await tx.query('delete from bc.controller_task where id = $1', [id]);
      });
      await bc.photos.dropTask(id);
      return reply.status(204).send();
    },
  );

  app.post<{ Body: { from: string; to: string[]; department_id: number } }>(
    '/api/v1/bc/tasks/copy',
    {
      config: { access: { path: '/bc/calendar', action: 'create' }, module: 'bc' },
      schema: {
        tags,
        summary:
          'Копировать задания дня отдела на другие дни (номер, часы, район, сотрудники и маршруты; статус «новое»). Контролёр — только свои задания своего отдела',
        body: {
          type: 'object',
          additionalProperties: false,
          required: ['from', 'to', 'department_id'],
          properties: {
            from: isoDate,
            to: { type: 'array', minItems: 1, maxItems: 62, uniqueItems: true, items: isoDate },
            department_id: { type: 'integer', minimum: 1, maximum: 2_147_483_647 },
          },
        },
        response: { 400: messages, 403: messages },
      },
    },
    async (request) => {
      const { from, to, department_id } = request.body;
      if (to.includes(from)) throw fail(400, 'bad_request', 'to');
      const created = await app.db.transaction(async (tx) => {
        const workerId = await workerOf(tx, request.user!.id);
        if (workerId !== null && (await departmentOf(tx, workerId)) !== department_id) throw fail(403, 'bc_task_not_yours');
        // A controller copies only the day's orders that list it; staff copy all of them.
        const rows = await tx.query<{ id: number }>(
          `insert into bc.controller_task (number, date, graphic_type_id, department_id, control_region_id, note, created_by, copied_from)
         select s.number, d.day, s.graphic_type_id, s.department_id, s.control_region_id, s.note, $4, s.id
         from bc.controller_task s cross join unnest($2::date[]) as d(day)
         where s.date = $1::date and s.department_id = $3
           and ($5::int is null or exists (select 1 from bc.controller_task_worker w where w.task_id = s.id and w.worker_id = $5))
         order by d.day, s.id
         returning id`,
          [from, to, department_id, request.user!.id, workerId],
        );
        await tx.query(
          `insert into bc.controller_task_worker (task_id, worker_id) select t.id, w.worker_id from bc.controller_task t join bc.controller_task_worker w on w.task_id = t.copied_from where t.id = any($1::int[])`,
          [rows.map((r) => r.id)],
        );
        await tx.query(
          `insert into bc.controller_task_route (task_id, route_id, type) select t.id, r.route_id, r.type from bc.controller_task t join bc.controller_task_route r on r.task_id = t.copied_from where t.id = any($1::int[])`,
          [rows.map((r) => r.id)],
        );
        return rows.length;
      });
      return { created };
    },
  );

  app.get<{ Querystring: { department_id: number; date: string; graphic_type_id?: number } }>(
    '/api/v1/bc/rotation',
    {
      config: { access: { path: '/bc/calendar', action: 'read' }, module: 'bc' },
      schema: {
        tags,
        summary:
          'Предложение маршрутов с чередованием: сначала реже всего проверявшиеся в те же часы за 28 дней до даты, затем давнее всего проверявшиеся',
        querystring: {
          type: 'object',
          additionalProperties: false,
          required: ['department_id', 'date'],
          properties: {
            department_id: { type: 'integer', minimum: 1, maximum: 2_147_483_647 },
            date: isoDate,
            graphic_type_id: { type: 'integer', minimum: 1, maximum: 2_147_483_647 },
          },
        },
        response: { 400: messages },
      },
    },
    async (request): Promise<{ main: RotationSuggestion[]; incidental: RotationSuggestion[] }> => {
      const { department_id, date, graphic_type_id } = request.query;
      // candidates: routes of the department's branch and routes its orders checked before
      const ranked = await app.db.query<RotationSuggestion>(
        `with candidates as (
         select m.route_id from mgt.routes m join cat.department d on d.depot_id = m."Depot_id" where d.td_id = $1
         union select rt.route_id from bc.controller_task t join bc.controller_task_route rt on rt.task_id = t.id
               where t.department_id = $1 and t.date >= $2::date - 90),
       recent as (
         select rt.route_id, count(*)::int as checks, count(*) filter (where t.graphic_type_id = $3)::int as same_hours, max(t.date) as last_checked
         from bc.controller_task t join bc.controller_task_route rt on rt.task_id = t.id
         where t.department_id = $1 and t.date between $2::date - 28 and $2::date - 1
         group by rt.route_id)
       select c.route_id, m.route_short_name as short_name, coalesce(r.same_hours, 0) as same_hours, coalesce(r.checks, 0) as checks,
              to_char(r.last_checked, 'YYYY-MM-DD') as last_checked
       from candidates c join mgt.routes m on m.route_id = c.route_id left join recent r on r.route_id = c.route_id
       order by coalesce(r.same_hours, 0), r.last_checked nulls first, coalesce(r.checks, 0), m.route_short_name
       limit 5`,
        [department_id, date, graphic_type_id ?? null],
      );
      return { main: ranked.slice(0, 3), incidental: ranked.slice(3) };
    },
  );

  app.get(
    '/api/v1/bc/options',
    {
      config: READ_ANY,
      schema: {
        tags,
        summary: `Справочные списки формы задания и фильтров: отделы, районы, типы графиков, контролёры (сотрудники отделов без филиала), маршруты (право: чтение любого из ${ORDER_READERS.join(', ')})`,
        response: { 403: messages },
      },
    },
    async (request): Promise<BcOptions> => {
      mayReadOrders(request);
      const [departments, regions, graphicTypes, workers, routes] = await Promise.all([
        app.db.query<BcOptions['departments'][number]>(
          'select td_id as id, td_name as name, td_color as color from cat.department order by td_name, td_id',
        ),
        app.db.query<BcOptions['regions'][number]>(
          'select cd_id as id, cd_name as name, td_id from cat.control_region order by cd_name, cd_id',
        ),
        app.db.query<BcOptions['graphicTypes'][number]>(
          'select id, title, short, start, "end" from cat.work_graphic_type where start is not null order by code, id',
        ),
        app.db.query<BcOptions['workers'][number]>(
          `select driver_id as id, concat_ws(' ', last_name, first_name, middle_name) as fio, td_id from mgt.driver
         where td_id is not null and depot_id is null and end_date is null order by last_name, first_name, driver_id`,
        ),
        app.db.query<BcOptions['routes'][number]>(
          'select route_id, route_short_name as short_name, route_long_name as long_name from mgt.routes order by route_short_name, route_id',
        ),
      ]);
      return { departments, regions, graphicTypes, workers, routes };
    },
  );
}
