import type { FastifyInstance, FastifyRequest } from 'fastify';
import { fail } from '../http/errors';
import type { Queryable } from '../db/types';
import { FULL, PERMISSION_KEYS, type PermissionMap } from '../../shared/permissions';
import { PERMISSION_CODES } from '../../shared/permissionCodes';
import type { ListResponse, RoleRecord } from '../../shared/api';
import { INT4_MAX } from '../../shared/handbooks/validation';
import { idParams } from '../http/pathIds';

interface RoleInput {
  name?: string;
  description?: string | null;
  permissions?: PermissionMap;
}

const access = (action: 'read' | 'create' | 'update' | 'delete') => ({
  access: { path: '/roles', action },
  module: 'administration' as const,
});
const roleBody = {
  type: 'object',
  properties: {
    id: { type: 'integer', minimum: 1, maximum: INT4_MAX },
    name: { type: 'string', minLength: 1, maxLength: 100 },
    description: { type: ['string', 'null'], maxLength: 500 },
    permissions: {
      type: 'object',
      maxProperties: 500,
      description:
        'Ключ права (путь экрана, /map/currentData, /handbooks/table/<тип>…) → биты создание 8, чтение 4, изменение 2, удаление 1. Неизвестный ключ с битами — 400 unknown_permission.',
      propertyNames: { maxLength: 200 },
      additionalProperties: { type: 'integer', minimum: 0, maximum: FULL },
    },
  },
} as const;
const ROLE_COLUMNS = `r.id, r.name, r.description, r.is_system as "isSystem", r.permissions,
  (select count(*)::int from app.user_role ur where ur.role_id = r.id) as "usersCount"`;

async function findRole(db: Queryable, id: number): Promise<RoleRecord | undefined> {
  const [role] = await db.query<RoleRecord>(`select ${ROLE_COLUMNS} from app.role r where r.id = $1`, [id]);
  return role;
}

/**
 * The masks stored for a role: bits on a key the permission model does not know are refused (400
 * unknown_permission) rather than dropped, so a typo never quietly empties a role; keys with no bits are
 * left out (the console clears a stale key that way).
 */
function cleanPermissions(permissions: PermissionMap): PermissionMap {
  const granted = Object.entries(permissions).filter(([, bits]) => bits > 0);
  if (granted.some(([key]) => !PERMISSION_KEYS.has(key))) throw fail(400, 'unknown_permission');
  return Object.fromEntries(granted);
}

/** Roles and their permission masks; system roles can be neither changed nor deleted. */
export default async function rolesRoutes(app: FastifyInstance): Promise<void> {
  app.get(
    '/api/v1/roles',
    {
      config: access('read'),
      schema: { tags: ['roles'], summary: 'Список ролей с масками прав и числом пользователей' },
    },
    async (): Promise<ListResponse<RoleRecord>> => {
      const list = await app.db.query<RoleRecord>(`select ${ROLE_COLUMNS} from app.role r order by r.is_system desc, r.name`);
      return { list, count: list.length };
    },
  );

  app.get(
    '/api/v1/roles/codes',
    {
      config: access('read'),
      schema: {
        tags: ['roles'],
        summary: 'Именованные коды прав (1–43 спецификации и 44– диспетчерской) с их значением и выдаваемыми масками',
      },
    },
    async () => ({ list: PERMISSION_CODES, count: PERMISSION_CODES.length }),
  );

  app.get<{ Params: { id: number } }>(
    '/api/v1/roles/:id',
    {
      config: access('read'),
      schema: { tags: ['roles'], summary: 'Роль', params: idParams },
    },
    async (request) => {
      const role = await findRole(app.db, request.params.id);
      if (!role) throw fail(404, 'not_found');
      return role;
    },
  );

  app.post<{ Body: RoleInput }>(
    '/api/v1/roles',
    {
      config: access('create'),
      schema: { tags: ['roles'], summary: 'Создать роль', body: { ...roleBody, required: ['name'] } },
    },
    async (request) =>
      app.db.transaction(async (tx) => {
        await checkNameFree(tx, request.body.name!, 0);
        const [{ id }] = await tx.query<{ id: number }>(
          'insert into app.role (name, description, permissions) values ($1, $2, $3) returning id',
          [request.body.name!.trim(), request.body.description ?? null, JSON.stringify(cleanPermissions(request.body.permissions ?? {}))],
        );
        const created = (await findRole(tx, id))!;
        await app.journal.record(request, { action: 'create', object: 'role', objectId: id, after: created }, tx);
        return created;
      }),
  );

  app.put<{ Params: { id: number }; Body: RoleInput }>(
    '/api/v1/roles/:id',
    {
      config: access('update'),
      schema: {
        tags: ['roles'],
        summary: 'Изменить роль; права действуют для вошедших пользователей сразу',
        params: idParams,
        body: roleBody,
      },
    },
    async (request) => {
      const updated = await app.db.transaction(async (tx) => {
        const before = await writableRole(tx, request.params.id, 'systemrole_cant_be_changed');
        if (request.body.name !== undefined) await checkNameFree(tx, request.body.name, before.id);
        await tx.query(
          `update app.role set name = coalesce($2, name), description = coalesce($3, description),
              permissions = coalesce($4, permissions), updated_at = now() where id = $1`,
          [
            before.id,
            request.body.name?.trim() ?? null,
            request.body.description ?? null,
            request.body.permissions ? JSON.stringify(cleanPermissions(request.body.permissions)) : null,
          ],
        );
        const after = (await findRole(tx, before.id))!;
        await app.journal.record(request, { action: 'update', object: 'role', objectId: before.id, before, after }, tx);
        return after;
      });
      app.sessions.forgetAll(); // the permissions of every session holding the role
      return updated;
    },
  );

  app.delete<{ Params: { id: number } }>(
    '/api/v1/roles/:id',
    {
      config: access('delete'),
      schema: { tags: ['roles'], summary: 'Удалить роль (её пользователи теряют её права)', params: idParams },
    },
    async (request: FastifyRequest<{ Params: { id: number } }>, reply) => {
      await app.db.transaction(async (tx) => {
        const before = await writableRole(tx, request.params.id, 'systemrole_cant_be_remov');
        await tx.query('delete from app.role where id = $1', [before.id]);
        await app.journal.record(request, { action: 'delete', object: 'role', objectId: before.id, before }, tx);
      });
      app.sessions.forgetAll();
      return reply.status(204).send();
    },
  );

  async function writableRole(tx: Queryable, id: number, systemCode: string): Promise<RoleRecord> {
    const role = await findRole(tx, id);
    if (!role) throw fail(404, 'not_found');
    if (role.isSystem) throw fail(400, systemCode);
    return role;
  }

  async function checkNameFree(tx: Queryable, name: string, id: number): Promise<void> {
    if (!name.trim()) throw fail(400, 'bad_request', 'name');
    if ((await tx.query('select 1 from app.role where lower(name) = lower($1) and id <> $2', [name.trim(), id])).length) {
      throw fail(400, 'role_name_exists');
    }
  }
}
