import type { Db } from '../db/types';
import type { SystemSettings } from '../settings/settingsService';
import { DEFAULT_MAP } from '../../shared/constants';
import { isSuperuser, mergePermissions, type PermissionMap } from '../../shared/permissions';
import { transportTypeColor } from '../../shared/transportTypes';
import type { CurrentUser } from '../../shared/api';
import { BUILD } from '../build';

/** The current user without the system settings (those have their own cache). */
export type CurrentUserProfile = Omit<CurrentUser, 'settings'>;

/** The current user with every field of spec section 3 (User). */
export async function loadCurrentUser(db: Db, userId: number, settings: SystemSettings): Promise<CurrentUser | null> {
  const profile = await loadProfile(db, userId);
  return profile ? { ...profile, settings } : null;
}

export async function loadProfile(db: Db, userId: number): Promise<CurrentUserProfile | undefined> {
  const [user] = await db.query<{
    id: number;
    username: string;
    email: string | null;
    first_name: string;
    last_name: string;
    title: string;
    is_blocked: boolean;
    map_settings: CurrentUser['mapSettings'] | null;
    roles: { id: number; name: string; permissions: PermissionMap; settings: Record<string, unknown> }[] | null;
  }>(
    `select u.id, u.username, u.email, u.first_name, u.last_name, u.title, u.is_blocked, u.map_settings,
            (select json_agg(json_build_object('id', r.id, 'name', r.name, 'permissions', r.permissions, 'settings', r.settings) order by r.id)
               from app.user_role ur join app.role r on r.id = ur.role_id where ur.user_id = u.id) as roles
       from app.users u where u.id = $1`,
    [userId],
  );
  if (!user) return undefined;
  const [counts] = await db.query<{ vehicle_count: number; users_count: number }>(
    'select (select count(*)::int from mgt.vehicles) as vehicle_count, (select count(*)::int from app.users) as users_count',
  );
  const transportTypes = await db.query<{ code: string; title: string }>('select note as code, title from mgt.transport_type order by id');
  const cameraTypes = await db.query<{ index: number; title: string }>('select index, title from mgt.dev_camera_type order by index');
  const columns = await db.query<{ table_name: string; fields: string[] }>(
    'select table_name, fields from app.user_columns where user_id = $1 order by table_name',
    [userId],
  );
  const roles = user.roles ?? [];
  return {
    id: user.id,
    username: user.username,
    email: user.email,
    firstName: user.first_name,
    lastName: user.last_name,
    title: user.title,
    isBlocked: user.is_blocked,
    isSuperuser: isSuperuser(user),
    roles: roles.map(({ id, name }) => ({ id, name })),
    permissions: mergePermissions(roles.map((role) => role.permissions)),
    roleSettings: Object.assign({}, ...roles.map((role) => role.settings)),
    mapSettings: user.map_settings ?? { ...DEFAULT_MAP },
    vehicle_count: counts.vehicle_count,
    users_count: counts.users_count,
    build: BUILD,
    transporttype: transportTypes
      .filter((t) => t.code !== '-' && t.title !== '-')
      .map((t) => ({ code: t.code, title: t.title, color: transportTypeColor(t.code) })),
    cameratype: cameraTypes,
    table_visibility: columns,
  };
}
