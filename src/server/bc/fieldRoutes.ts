import type { FastifyInstance, FastifyRequest } from 'fastify';
import { canAccess } from '../../shared/permissions';
import {
  transitionAllowed,
  type ControllerTask,
  type DepartmentMap,
  type RegionDetails,
  type SettableStatus,
  type TaskStatus,
} from '../../shared/bc/tasks';
import type { TaskResultBody } from '../../shared/bc/report';
import type { Queryable } from '../db/types';
import { fail } from '../http/errors';
import { checkedImageType } from '../http/imageCheck';
import { operatorDate } from '../platform/operatorDay';
import { checkResult, loadResult, saveResult } from './resultStore';
import { idList, idParams, idempotencyHeaders, messages, resultBody, statusBody } from './schemas';
import { loadTasks, pastDeadline, requireOwnOrder, workerOf } from './taskStore';
import type { BcContext } from './bcContext';

/**
 * The ticket-control calls of field-app spec section 7, at the spec's paths with the spec's bodies. Where the
 * spec shows no method we chose: POST for the department map (its filter travels in the body), PUT for the
 * status and the result (both replace a state, so a repeat is harmless), POST for the photo (multipart).
 */

const READ_TASKS = { access: { path: '/bc/controllertask', action: 'read' }, module: 'bc' } as const;
const WRITE_TASKS = { access: { path: '/bc/controllertask', action: 'update' }, module: 'bc' } as const;
const READ_MAP = { access: { path: '/bc/departmentcontroll', action: 'read' }, module: 'bc' } as const;

const tags = ['bc'];

/** The task's state and whether the user may change it (the worker must be on it; staff without a worker may). */
async function taskForWrite(
  db: Queryable,
  userId: number,
  taskId: number,
): Promise<{ status: TaskStatus; date: string; workerId: number | null }> {
  const [task] = await db.query<{ status: TaskStatus; date: string }>(
    `select status, to_char(date, 'YYYY-MM-DD') as date from bc.controller_task where id = $1 for update`,
    [taskId],
  );
  if (!task) throw fail(404, 'not_found');
  return { ...task, workerId: await requireOwnOrder(db, userId, taskId) };
}

interface Submission<T> {
  key: string | undefined;
  taskId: number;
  userId: number;
  kind: string;
  work: () => Promise<T>;
}

/**
 * Runs a submission once per idempotency key, inside the caller's transaction: the key is claimed first (a
 * concurrent retry waits on it), and a retry gets the stored first answer without running again.
 */
async function once<T>(tx: Queryable, { key, taskId, userId, kind, work }: Submission<T>): Promise<T> {
  if (!key) return work();
  const claimed = await tx.query(
    `insert into bc.submission (key, task_id, user_id, kind, response) values ($1, $2, $3, $4, 'null') on conflict (key) do nothing returning key`,
    [key, taskId, userId, kind],
  );
  if (!claimed.length) {
    const [first] = await tx.query<{ task_id: number; user_id: number | null; kind: string; response: T }>(
      'select task_id, user_id, kind, response from bc.submission where key = $1',
      [key],
    );
    if (first.task_id !== taskId || first.kind !== kind || first.user_id !== userId) throw fail(400, 'bc_idempotency_key_reused');
    return first.response;
  }
  const response = await work();
  await tx.query('update bc.submission set response = $2 where key = $1', [key, JSON.stringify(response)]);
  return response;
}

const keyOf = (request: FastifyRequest): string | undefined => {
  const value = request.headers['idempotency-key'];
  return typeof value === 'string' ? value : undefined;
};

export function registerFieldRoutes(app: FastifyInstance, bc: BcContext): void {
  app.post<{ Body: { department_ids: number[] | null } }>(
    '/api/v1/pass/departmentcontroll/map',
    {
      config: { ...READ_MAP, journal: false },
      schema: {
        tags,
        summary:
          'Текущий процесс контроля: районы контроля, отделы, сегодняшние задания и положения контролёров (метод POST: фильтр в теле)',
        body: {
          type: 'object',
          additionalProperties: false,
          required: ['department_ids'],
          properties: {
            department_ids: { type: ['array', 'null'], maxItems: 1000, items: { type: 'integer', minimum: 1, maximum: 2_147_483_647 } },
          },
        },
        response: { 400: messages },
      },
    },
    async (request): Promise<DepartmentMap> => {
      const ids = request.body.department_ids;
      const settings = (await app.settings.get()).bc;
      const today = bc.today();
      await bc.sweep();
      const [regions, departments, tasks, controllers] = await Promise.all([
        app.db.query<DepartmentMap['regions'][number]>(
          `select r.cd_id, r.cd_name, st_asgeojson(r.geom)::json as geojson, coalesce(d.td_color, '#000000') as td_color, r.td_id,
                array[round(st_y(p.pt)::numeric, 6)::float8, round(st_x(p.pt)::numeric, 6)::float8] as centre,
                coalesce((select json_agg(json_build_object('route_id', x.route_id) order by x.route_id) from (
                  select distinct rt.route_id from bc.controller_task t join bc.controller_task_route rt on rt.task_id = t.id
                  where t.control_region_id = r.cd_id and t.date = $2::date) x), '[]') as routes
         from cat.control_region r left join cat.department d on d.td_id = r.td_id
         cross join lateral (select st_pointonsurface(r.geom) as pt) p
         where $1::int[] is null or r.td_id = any($1::int[]) order by r.cd_id`,
          [ids, today],
        ),
        app.db.query<DepartmentMap['departments'][number]>(
          `select td_id, td_name, td_adress, td_color, td_lat as lat, td_lon as lon from cat.department
         where $1::int[] is null or td_id = any($1::int[]) order by td_id`,
          [ids],
        ),
        loadTasks(app.db, `t.date = $1::date and ($2::int[] is null or t.department_id = any($2::int[]))`, [today, ids]),
        app.db.query<DepartmentMap['controllers'][number]>(
          `select p.user_id, u.worker_id, concat_ws(' ', w.last_name, w.first_name, w.middle_name) as fio, p.lat, p.lon, p.at,
                (select t.id from bc.controller_task t join bc.controller_task_worker tw on tw.task_id = t.id
                  where tw.worker_id = u.worker_id and t.date = $2::date order by (t.status = 'in_work') desc, t.id limit 1) as task_id
         from bc.user_position p join app.users u on u.id = p.user_id join mgt.driver w on w.driver_id = u.worker_id
         where p.at > now() - make_interval(mins => $3::int) and ($1::int[] is null or w.td_id = any($1::int[]))
         order by fio`,
          [ids, today, settings.positionMaxAgeMinutes],
        ),
      ]);
      return {
        regions,
        departments,
        tasks: tasks.map(({ id, number, status, department_id, control_region_id, workers }) => ({
          id,
          number,
          status,
          department_id,
          control_region_id,
          workers,
        })),
        controllers,
      };
    },
  );

  app.get<{ Params: { id: number } }>(
    '/api/v1/pass/departmentcontroll/:id',
    {
      config: READ_MAP,
      schema: {
        tags,
        summary: 'Район контроля: отдел, закрытые сегодня задания, контролёры отдела и занятые в заданиях района сегодня',
        params: idParams,
        response: { 404: messages },
      },
    },
    async (request): Promise<RegionDetails> => {
      const [region] = await app.db.query<RegionDetails>(
        `select r.cd_id, r.cd_name, r.td_id, d.td_name, d.td_adress,
              (select count(*)::int from bc.controller_task t where t.control_region_id = r.cd_id and t.date = $2::date and t.status = 'closed') as closed_count,
              (select count(*)::int from mgt.driver w where w.td_id = r.td_id and (w.end_date is null or w.end_date >= $2::date)) as workers_total,
              (select count(distinct tw.worker_id)::int from bc.controller_task t join bc.controller_task_worker tw on tw.task_id = t.id
                where t.control_region_id = r.cd_id and t.date = $2::date) as workers_on_task
       from cat.control_region r left join cat.department d on d.td_id = r.td_id where r.cd_id = $1`,
        [request.params.id, bc.today()],
      );
      if (!region) throw fail(404, 'not_found');
      return region;
    },
  );

  app.get(
    '/api/v1/pass/controllertask/worker',
    {
      config: READ_TASKS,
      schema: {
        tags,
        summary: 'Задание текущего контролёра на сегодня (открытое прежде закрытого); null, когда его нет',
        response: { 400: messages },
      },
    },
    async (request): Promise<ControllerTask | null> => {
      const workerId = await workerOf(app.db, request.user!.id);
      if (workerId === null) return null;
      await bc.sweep();
      const [task] = await loadTasks(
        app.db,
        't.date = $1::date and exists (select 1 from bc.controller_task_worker tw where tw.task_id = t.id and tw.worker_id = $2)',
        [bc.today(), workerId],
        `order by case t.status when 'in_work' then 0 when 'new' then 1 else 2 end, t.id limit 1`,
      );
      return task ?? null;
    },
  );

  app.get<{ Params: { id: number } }>(
    '/api/v1/pass/controllertask/result/:id',
    {
      config: { access: 'session', module: 'bc' },
      schema: {
        tags,
        summary:
          'Отчёт по заданию: типы билетов, фотографии, задание с результатами, ТС и маршруты задания. Право: чтение /bc/controllertask (своё задание) или /bc/result',
        params: idParams,
        response: { 403: messages, 404: messages },
      },
    },
    async (request) => {
      const user = request.user!;
      const taskId = request.params.id;
      if (!canAccess(user, '/bc/result')) {
        if (!canAccess(user, '/bc/controllertask')) throw fail(403, 'forbidden');
        await requireOwnOrder(app.db, user.id, taskId);
      }
      await bc.sweep();
      return loadResult(app.db, taskId, bc.offsetMinutes);
    },
  );

  app.put<{ Params: { id: number }; Body: TaskResultBody }>(
    '/api/v1/pass/controllertask/result/:id',
    {
      config: WRITE_TASKS,
      schema: {
        tags,
        summary:
          'Сохранить отчёт по заданию (метод PUT: отчёт заменяется целиком). Сумма проданных по ТС не больше полученных; повтор с тем же Idempotency-Key принимается один раз',
        params: idParams,
        body: resultBody,
        headers: idempotencyHeaders,
        response: { 400: messages, 403: messages, 404: messages },
      },
    },
    async (request) => {
      const taskId = request.params.id;
      const userId = request.user!.id;
      await bc.sweep();
      const graceHours = (await app.settings.get()).bc.lateReportHours;
      return app.db.transaction((tx) =>
        once(tx, {
          key: keyOf(request),
          taskId,
          userId,
          kind: 'result',
          work: async () => {
            const task = await taskForWrite(tx, userId, taskId);
            if (task.status === 'closed') throw fail(400, 'bc_task_closed');
            if (task.status === 'not_achieved' || pastDeadline(task.date, Date.now(), bc.offsetMinutes, graceHours))
              throw fail(400, 'bc_task_not_achieved');
            await checkResult(tx, request.body);
            await saveResult(tx, taskId, request.body);
            const [{ status }] = await tx.query<{ status: TaskStatus }>('select status from bc.controller_task where id = $1', [taskId]);
            return { id: taskId, status, check_tickets: request.body.check_tickets, check_vehicles: request.body.check_vehicles };
          },
        }),
      );
    },
  );

  app.put<{ Querystring: { ids: string }; Body: { status: SettableStatus } }>(
    '/api/v1/pass/controllertask/status',
    {
      config: WRITE_TASKS,
      schema: {
        tags,
        summary:
          'Сменить статус заданий ids (метод PUT): new → in_work → closed; closed завершает отчёт. Повтор с тем же Idempotency-Key принимается один раз',
        querystring: { type: 'object', additionalProperties: false, required: ['ids'], properties: { ids: idList } },
        body: statusBody,
        headers: idempotencyHeaders,
        response: { 400: messages, 403: messages, 404: messages },
      },
    },
    async (request) => {
      const ids = [...new Set(request.query.ids.split(',').map(Number))];
      if (ids.some((id) => id < 1 || id > 2_147_483_647)) throw fail(400, 'bad_request', 'ids');
      const userId = request.user!.id;
      const target = request.body.status;
      await bc.sweep();
      const graceHours = (await app.settings.get()).bc.lateReportHours;
      return app.db.transaction((tx) =>
        once(tx, {
          key: keyOf(request),
          taskId: ids[0],
          userId,
          kind: `status:${ids.join(',')}:${target}`,
          work: async () => {
            const list: { id: number; status: TaskStatus }[] = [];
            for (const id of ids) {
              const task = await taskForWrite(tx, userId, id);
              if (task.status === target) {
                list.push({ id, status: task.status });
                continue;
              }
              if (task.status === 'not_achieved' || (target !== 'new' && pastDeadline(task.date, Date.now(), bc.offsetMinutes, graceHours)))
                throw fail(400, 'bc_task_not_achieved');
              if (!transitionAllowed(task.status, target, task.workerId === null)) throw fail(400, 'bc_status_transition');
              await tx.query(
                `update bc.controller_task set status = $2, updated_at = now(), closed_at = case when $2 = 'closed' then now() else null end where id = $1`,
                [id, target],
              );
              list.push({ id, status: target });
            }
            return { list };
          },
        }),
      );
    },
  );

  app.post<{ Querystring: { controller_task_id: number; title: string } }>(
    '/api/v1/pass/controllertask/photo',
    {
      config: WRITE_TASKS,
      schema: {
        tags,
        summary:
          'Загрузить фотографию к отчёту (multipart, одно поле-файл; JPEG, PNG, WebP или GIF, не больше настройки /system/bc). Повтор того же имени файла по заданию отдаёт уже сохранённую',
        querystring: {
          type: 'object',
          additionalProperties: false,
          required: ['controller_task_id', 'title'],
          properties: {
            controller_task_id: { type: 'integer', minimum: 1, maximum: 2_147_483_647 },
            title: { type: 'string', minLength: 1, maxLength: 100, pattern: '^[A-Za-z0-9_.-]+$' },
          },
        },
        response: { 400: messages, 403: messages, 404: messages, 413: messages },
      },
    },
    async (request, reply) => {
      const { controller_task_id: taskId, title } = request.query;
      const userId = request.user!.id;
      const maxBytes = (await app.settings.get()).bc.photoMaxMb * 1024 * 1024;
      const content = await uploadedPhoto(request, maxBytes);
      const mime = checkedImageType(content);
      if (!mime) throw fail(400, 'bc_photo_not_image');
      const photo = await app.db.transaction(async (tx) => {
        const task = await taskForWrite(tx, userId, taskId);
        const [existing] = await tx.query<{ id: number; title: string }>(
          'select id, title from bc.task_photo where task_id = $1 and title = $2',
          [taskId, title],
        );
        if (existing) return { ...existing, created: false };
        if (task.status === 'closed') throw fail(400, 'bc_task_closed');
        if (task.status === 'not_achieved') throw fail(400, 'bc_task_not_achieved');
        const id = await bc.photos.insert(tx, { taskId, title, mime, content, userId });
        return { id, title, created: true };
      });
      return reply
        .status(photo.created ? 201 : 200)
        .send({ id: photo.id, title: photo.title, url: `/api/v1/pass/controllertask/photo/${photo.id}` });
    },
  );

  app.get<{ Params: { id: number } }>(
    '/api/v1/pass/controllertask/photo/:id',
    {
      config: { access: 'session', module: 'bc' },
      schema: {
        tags,
        summary: 'Фотография отчёта (право: чтение /bc/result или /bc/controllertask своего задания)',
        params: idParams,
        response: { 403: messages, 404: messages },
      },
    },
    async (request, reply) => {
      const user = request.user!;
      const photo = await bc.photos.read(app.db, request.params.id);
      if (!photo) throw fail(404, 'not_found');
      if (!canAccess(user, '/bc/result')) {
        if (!canAccess(user, '/bc/controllertask')) throw fail(403, 'forbidden');
        await requireOwnOrder(app.db, user.id, photo.taskId);
      }
      return reply.type(photo.mime).header('cache-control', 'private, max-age=86400').send(photo.content);
    },
  );
}

/**
 * The one file of a multipart photo upload. Whatever the parser refuses (no or another boundary, a body cut
 * short by a dropped mobile link, garbage) is the client's malformed upload, answered 400 so the phone sends
 * it again; nothing was read far enough to be stored.
 */
async function uploadedPhoto(request: FastifyRequest, maxBytes: number): Promise<Buffer> {
  if (!request.isMultipart()) throw fail(400, 'bc_photo_required');
  let file;
  try {
    file = await request.file({ limits: { fileSize: maxBytes, files: 1, fields: 5 } });
    if (file) return await file.toBuffer();
  } catch (error) {
    if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw fail(413, 'bc_photo_too_large');
    request.log.info({ err: error }, 'malformed multipart upload refused');
    throw fail(400, 'upload_malformed');
  }
  throw fail(400, 'bc_photo_required');
}

/** Today's date of the operator. */
export const todayOf = (offsetMinutes: number): string => operatorDate(Date.now(), offsetMinutes);
