import type { FastifyInstance } from 'fastify';
import { USER_SORT_FIELDS, type UserSortField } from '../../shared/users/api';
import { fail } from '../http/errors';
import { BLANK_USER, USER_COLUMNS, findUser, type UserRecord } from './userRecord';
import { UsersService, type UserInput } from './usersService';
import type { ListResponse } from '../../shared/api';
import { INT4_MAX } from '../../shared/handbooks/validation';
import { PATH_ID } from '../http/pathIds';

const access = (action: 'read' | 'create' | 'update' | 'delete') => ({
  access: { path: '/users', action },
  module: 'administration' as const,
});
/** Id 0 names the blank template. */
const idParam = { type: 'object', required: ['id'], properties: { id: { ...PATH_ID, minimum: 0 } } } as const;
const userBody = {
  type: 'object',
  additionalProperties: false,
  properties: {
    id: { type: 'integer', minimum: 0, maximum: INT4_MAX },
    username: {
      type: 'string',
      maxLength: 100,
      description: 'Логин: от 3 до 64 символов — буквы, цифры и знаки «.», «_», «-», «@» (иначе 400 bad_username)',
    },
    email: { type: ['string', 'null'], maxLength: 200 },
    password: { type: 'string', maxLength: 200 },
    firstName: { type: 'string', maxLength: 100 },
    lastName: { type: 'string', maxLength: 100 },
    title: { type: 'string', maxLength: 200 },
    isBlocked: { type: 'boolean' },
    roles: { type: 'array', items: { type: 'integer', minimum: 1, maximum: INT4_MAX }, maxItems: 100 },
    workerId: {
      type: ['integer', 'null'],
      minimum: 1,
      maximum: INT4_MAX,
      description: 'Сотрудник (справочник «Сотрудники»), как которого работает логин: контролёр получает через него свои задания',
    },
    createdAt: { type: 'string', maxLength: 40 },
  },
} as const;
const SORTABLE: Record<UserSortField, string> = {
  id: 'u.id',
  username: 'lower(u.username)',
  email: 'lower(u.email)',
  firstName: 'u.first_name',
  lastName: 'u.last_name',
  title: 'u.title',
  isBlocked: 'u.is_blocked',
  createdAt: 'u.created_at',
};

/** Users of spec section 7: list with filter, sort and paging; the blank template; create, edit, delete; info. */
export default async function usersRoutes(app: FastifyInstance): Promise<void> {
  const users = new UsersService(app);

  app.get<{
    Querystring: { filter?: string; sortField?: UserSortField; sortOrder?: 'ASC' | 'DESC'; skipCount?: number; recordCount?: number };
  }>(
    '/api/v1/users',
    {
      config: access('read'),
      schema: {
        tags: ['users'],
        summary: 'Список пользователей: filter — поиск по логину, имени, почте; sortField/sortOrder; skipCount/recordCount — страница',
        querystring: {
          type: 'object',
          properties: {
            filter: { type: 'string', maxLength: 200 },
            sortField: { type: 'string', enum: USER_SORT_FIELDS },
            sortOrder: { type: 'string', enum: ['ASC', 'DESC'] },
            skipCount: { type: 'integer', minimum: 0, maximum: INT4_MAX, default: 0 },
            recordCount: { type: 'integer', minimum: 1, maximum: 1000, default: 30 },
          },
        },
      },
    },
    async (request): Promise<ListResponse<UserRecord>> => {
      const { filter, sortField = 'id', sortOrder = 'ASC', skipCount = 0, recordCount = 30 } = request.query;
      const pattern = filter?.trim() ? `%${filter.trim().replace(/[\\%_]/g, '\\$&')}%` : null;
      const where = `($1::text is null or u.username ilike $1 or u.email ilike $1 or u.first_name ilike $1 or u.last_name ilike $1 or u.title ilike $1)`;
      const list = await app.db.query<UserRecord>(
        `select ${USER_COLUMNS} from app.users u where ${where} order by ${SORTABLE[sortField]} ${sortOrder}, u.id limit $2 offset $3`,
        [pattern, recordCount, skipCount],
      );
      const [{ count }] = await app.db.query<{ count: number }>(`select count(*)::int as count from app.users u where ${where}`, [pattern]);
      return { list, count };
    },
  );

  app.get(
    '/api/v1/users/info',
    {
      config: access('read'),
      schema: { tags: ['users'], summary: 'Сводка по пользователям: всего, заблокировано, с активной сессией' },
    },
    async () => {
      const [info] = await app.db.query<{ total: number; blocked: number; online: number }>(
        `select count(*)::int as total, count(*) filter (where is_blocked)::int as blocked,
              (select count(distinct user_id)::int from app.session where expires_at > now()) as online
         from app.users`,
      );
      return info;
    },
  );

  app.get<{ Params: { id: number } }>(
    '/api/v1/users/:id',
    {
      config: access('read'),
      schema: { tags: ['users'], summary: 'Пользователь; id 0 — пустой шаблон для создания', params: idParam },
    },
    async (request) => {
      if (request.params.id === 0) return BLANK_USER;
      const user = await findUser(app.db, request.params.id);
      if (!user) throw fail(404, 'user_not_found');
      return user;
    },
  );

  app.post<{ Body: UserInput }>(
    '/api/v1/users/',
    {
      config: access('create'),
      schema: { tags: ['users'], summary: 'Создать пользователя; ответ — созданная запись', body: userBody },
    },
    async (request) => users.create(request, request.body),
  );

  app.put<{ Params: { id: number }; Body: UserInput }>(
    '/api/v1/users/:id',
    {
      config: access('update'),
      schema: {
        tags: ['users'],
        summary: 'Изменить пользователя (isBlocked: true — блокировка, завершает все его сессии); ответ — запись',
        params: idParam,
        body: userBody,
      },
    },
    async (request) => users.update(request, request.params.id, request.body),
  );

  app.delete<{ Params: { id: number } }>(
    '/api/v1/users/:id',
    {
      config: access('delete'),
      schema: { tags: ['users'], summary: 'Удалить пользователя (его сессии завершаются)', params: idParam },
    },
    async (request, reply) => {
      await users.remove(request, request.params.id);
      return reply.status(204).send();
    },
  );
}
