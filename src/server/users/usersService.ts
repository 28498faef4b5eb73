import type { FastifyRequest } from 'fastify';
import type { FastifyInstance } from 'fastify';
import { fail } from '../http/errors';
import { hashPassword } from '../auth/passwords';
import { Sessions } from '../auth/sessions';
import { isValidPassword, usernameProblem } from '../../shared/validation';
import { findUser, type UserRecord } from './userRecord';

export interface UserInput {
  username?: string;
  email?: string | null;
  password?: string;
  firstName?: string;
  lastName?: string;
  title?: string;
  isBlocked?: boolean;
  roles?: number[];
  workerId?: number | null;
}

/** The spec's account rules, in the order the user reads them (section 8 codes). */
function checkInput(input: UserInput, creating: boolean): void {
  const username = input.username?.trim() ?? '';
  if (creating || input.username !== undefined) {
    const problem = usernameProblem(username);
    if (problem) throw fail(400, problem);
  }
  if (creating && !input.email?.trim()) throw fail(400, 'email_required');
  if (input.email && !/^[^\s@]+@[^\s@]+$/.test(input.email.trim())) throw fail(400, 'bad_request', 'email');
  if (creating && !input.password) throw fail(400, 'password_required');
  if (input.password && !isValidPassword(input.password)) throw fail(400, 'bad_password');
}

/** Users: create, change (a blocked user's sessions end at once), delete; each write journaled. */
export class UsersService {
  constructor(private readonly app: FastifyInstance) {}

  async create(request: FastifyRequest, input: UserInput): Promise<UserRecord> {
    checkInput(input, true);
    const hash = await hashPassword(input.password!);
    return this.app.db.transaction(async (tx) => {
      await this.checkUnique(tx, input, 0);
      const [{ id }] = await tx.query<{ id: number }>(
        `insert into app.users (username, email, password_hash, first_name, last_name, title, is_blocked)
         values ($1, $2, $3, $4, $5, $6, $7) returning id`,
        [
          input.username!.trim(),
          input.email!.trim(),
          hash,
          input.firstName ?? '',
          input.lastName ?? '',
          input.title ?? '',
          input.isBlocked ?? false,
        ],
      );
      await this.setRoles(tx, id, input.roles ?? []);
      if (input.workerId !== undefined) await this.setWorker(tx, id, input.workerId);
      const created = (await findUser(tx, id))!;
      await this.app.journal.record(request, { action: 'create', object: 'user', objectId: id, after: created }, tx);
      return created;
    });
  }

  async update(request: FastifyRequest, id: number, input: UserInput): Promise<UserRecord> {
    checkInput(input, false);
    const hash = input.password ? await hashPassword(input.password) : undefined;
    const updated = await this.app.db.transaction(async (tx) => {
      const before = await findUser(tx, id);
      if (!before) throw fail(404, 'user_not_found');
      if (input.email !== undefined && before.email && (input.email ?? '').trim().toLowerCase() !== before.email.toLowerCase()) {
        throw fail(400, 'email_cant_be_changed');
      }
      await this.checkUnique(tx, input, id);
      await tx.query(
        `update app.users set
           username = coalesce($2, username), email = coalesce(email, $3), first_name = coalesce($4, first_name),
           last_name = coalesce($5, last_name), title = coalesce($6, title), is_blocked = coalesce($7, is_blocked),
           password_hash = coalesce($8, password_hash), updated_at = now()
         where id = $1`,
        [
          id,
          input.username?.trim() ?? null,
          input.email?.trim() || null,
          input.firstName ?? null,
          input.lastName ?? null,
          input.title ?? null,
          input.isBlocked ?? null,
          hash ?? null,
        ],
      );
      if (input.roles) await this.setRoles(tx, id, input.roles);
      if (input.workerId !== undefined) await this.setWorker(tx, id, input.workerId);
      // Blocking or a new password ends every session of the user at once.
      if (input.isBlocked === true || hash) await Sessions.revokeAllOf(tx, id);
      const after = (await findUser(tx, id))!;
      await this.app.journal.record(
        request,
        {
          action:
            input.isBlocked === true && !before.isBlocked ? 'block' : input.isBlocked === false && before.isBlocked ? 'unblock' : 'update',
          object: 'user',
          objectId: id,
          before,
          after,
        },
        tx,
      );
      return after;
    });
    this.app.sessions.forgetUser(id);
    return updated;
  }

  async remove(request: FastifyRequest, id: number): Promise<void> {
    await this.app.db.transaction(async (tx) => {
      const before = await findUser(tx, id);
      if (!before) throw fail(404, 'user_not_found');
      if (id === request.user?.id) throw fail(400, 'bad_request', 'cannot_delete_self');
      await tx.query('delete from app.users where id = $1', [id]);
      await this.app.journal.record(request, { action: 'delete', object: 'user', objectId: id, before }, tx);
    });
    this.app.sessions.forgetUser(id);
  }

  private async checkUnique(tx: Parameters<typeof findUser>[0], input: UserInput, id: number): Promise<void> {
    if (
      input.username &&
      (await tx.query('select 1 from app.users where lower(username) = lower($1) and id <> $2', [input.username.trim(), id])).length
    ) {
      throw fail(400, 'username_exists');
    }
    if (
      input.email &&
      (await tx.query('select 1 from app.users where lower(email) = lower($1) and id <> $2', [input.email.trim(), id])).length
    ) {
      throw fail(400, 'email_exists');
    }
  }

  /** One login per employee: the employee must exist and work as no other login. */
  private async setWorker(tx: Parameters<typeof findUser>[0], id: number, workerId: number | null): Promise<void> {
    if (workerId !== null) {
      if (!(await tx.query('select 1 from mgt.driver where driver_id = $1', [workerId])).length) throw fail(400, 'bad_request', 'workerId');
      if ((await tx.query('select 1 from app.users where worker_id = $1 and id <> $2', [workerId, id])).length)
        throw fail(400, 'worker_taken');
    }
    await tx.query('update app.users set worker_id = $2 where id = $1', [id, workerId]);
  }

  private async setRoles(tx: Parameters<typeof findUser>[0], id: number, roles: number[]): Promise<void> {
    await tx.query('delete from app.user_role where user_id = $1', [id]);
    if (roles.length) {
      const known = await tx.query<{ id: number }>('select id from app.role where id = any($1::int[])', [roles]);
      if (known.length !== new Set(roles).size) throw fail(400, 'bad_request', 'roles');
      await tx.query('insert into app.user_role (user_id, role_id) select $1, unnest($2::int[])', [id, [...new Set(roles)]]);
    }
  }
}
