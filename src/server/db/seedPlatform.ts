import type { Db } from './types';
import { PERMISSION_CODES } from '../../shared/permissionCodes';
import { CONSOLE_ROUTES } from '../../shared/routes';
import { FULL, HANDBOOKS_PREFIX, MAP_KEYS, type PermissionMap } from '../../shared/permissions';

export const ADMIN_ROLE_NAME = 'Администратор';

/** Every permission key of the console with all four bits: the administrator system role. */
export function fullPermissions(): PermissionMap {
  const keys = new Set<string>([...MAP_KEYS, HANDBOOKS_PREFIX]);
  for (const route of CONSOLE_ROUTES) if (route.path !== '/map') keys.add(route.key ?? route.path);
  return Object.fromEntries([...keys].map((key) => [key, FULL]));
}

/** What every installation has, demo data or not: the permission codes and the administrator role. */
export async function seedPlatform(db: Db): Promise<void> {
  await db.transaction(async (tx) => {
    for (const code of PERMISSION_CODES) {
      await tx.query(
        `insert into app.permission_code (id, meaning, grants) values ($1, $2, $3)
         on conflict (id) do update set meaning = excluded.meaning, grants = excluded.grants`,
        [code.id, code.meaning, JSON.stringify(code.grants)],
      );
    }
    await tx.query(
      `insert into app.role (name, description, is_system, permissions) values ($1, 'Полный доступ ко всем разделам', true, $2)
       on conflict (name) do update set permissions = excluded.permissions where app.role.is_system`,
      [ADMIN_ROLE_NAME, JSON.stringify(fullPermissions())],
    );
  });
}
