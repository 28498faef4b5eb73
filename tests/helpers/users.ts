import { hashPassword } from '../../src/server/auth/passwords';
import type { Db } from '../../src/server/db/types';
import type { PermissionMap } from '../../src/shared/permissions';

let passwordHash: Promise<string> | undefined;
export const TEST_PASSWORD = 'secret123';

/** A user holding exactly `permissions` through a role of its own. */
export async function createUserWith(db: Db, username: string, permissions: PermissionMap, blocked = false): Promise<number> {
  passwordHash ??= hashPassword(TEST_PASSWORD);
  const [role] = await db.query<{ id: number }>('insert into app.role (name, permissions) values ($1, $2) returning id', [
    `role of ${username}`,
    JSON.stringify(permissions),
  ]);
  const [user] = await db.query<{ id: number }>(
    'insert into app.users (username, password_hash, is_blocked) values ($1, $2, $3) returning id',
    [username, await passwordHash, blocked],
  );
  await db.query('insert into app.user_role (user_id, role_id) values ($1, $2)', [user.id, role.id]);
  return user.id;
}
