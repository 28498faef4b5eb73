import { SUPERUSER_ID } from './constants';
import { CONSOLE_ROUTES, ALWAYS_AVAILABLE, type ConsoleRoute } from './routes';
import { HANDBOOK_SECTIONS_OFF, HANDBOOK_SECTIONS_ON, isEnabled, type Switches } from './modules';
import { cleanPath } from './paths';

/**
 * Permission masks of spec section 6: a map from route or section key to 4 bits read as
 * create, read, update, delete. This one module decides access for the server and both front ends.
 */
export const CREATE = 0b1000;
export const READ = 0b0100;
export const UPDATE = 0b0010;
export const DELETE = 0b0001;
export const FULL = CREATE | READ | UPDATE | DELETE;

export type Action = 'create' | 'read' | 'update' | 'delete';
export const ACTION_BITS: Record<Action, number> = { create: CREATE, read: READ, update: UPDATE, delete: DELETE };

export type PermissionMap = Record<string, number>;

export interface AccessSubject {
  id: number;
  permissions: PermissionMap;
}

export const MAP_KEYS = ['/map/currentData', '/map/previousData'] as const;
export const HANDBOOKS_PREFIX = '/handbooks/table';
export const LIVE_VIDEO_PREFIX = '/video/online';

const ROUTE_KEYS = new Set(CONSOLE_ROUTES.map((route) => route.key ?? route.path));

/**
 * Every key a role may hold, the rows of the role editor's matrix: each route's key, the map's two data
 * keys instead of /map, and the handbooks prefix with each handbook type under it. The server refuses a
 * role granting bits on any other key (a typo would silently grant nothing).
 */
export const PERMISSION_KEYS: ReadonlySet<string> = new Set(
  [...ROUTE_KEYS].flatMap((key) => {
    if (key === '/map') return [...MAP_KEYS];
    if (key === HANDBOOKS_PREFIX)
      return [key, ...[...HANDBOOK_SECTIONS_ON, ...HANDBOOK_SECTIONS_OFF].map((type) => `${HANDBOOKS_PREFIX}/${type}`)];
    return [key];
  }),
);

/**
 * The mask a subject holds for a path, by the key rules of section 6: the map reads its current-data or
 * previous-data entries; a handbook reads its own key and the handbooks table prefix (and the handbook
 * screen as a whole any key under that prefix); live video uses the online-video right; any other path the
 * longest registered route key that prefixes it, falling back to its first path segment.
 */
export function maskFor(permissions: PermissionMap, rawPath: string): number {
  const path = cleanPath(rawPath);
  const get = (key: string) => permissions[key] ?? 0;
  if (path === '/map') return MAP_KEYS.reduce((mask, key) => mask | get(key), 0);
  if (path === HANDBOOKS_PREFIX || path === '/handbooks') {
    return Object.entries(permissions)
      .filter(([key]) => key === HANDBOOKS_PREFIX || key.startsWith(`${HANDBOOKS_PREFIX}/`))
      .reduce((mask, [, bits]) => mask | bits, 0);
  }
  if (path.startsWith(`${HANDBOOKS_PREFIX}/`)) {
    const type = path.slice(HANDBOOKS_PREFIX.length + 1).split('/')[0];
    return get(HANDBOOKS_PREFIX) | get(`${HANDBOOKS_PREFIX}/${type}`);
  }
  if (path.startsWith(`${LIVE_VIDEO_PREFIX}/`)) return get(LIVE_VIDEO_PREFIX);
  if (permissions[path] !== undefined || ROUTE_KEYS.has(path)) return get(path);
  const segments = path.split('/').filter(Boolean);
  for (let n = segments.length - 1; n >= 1; n--) {
    const prefix = `/${segments.slice(0, n).join('/')}`;
    if (ROUTE_KEYS.has(prefix) || permissions[prefix] !== undefined) return get(prefix);
  }
  return 0;
}

export function isSuperuser(subject: Pick<AccessSubject, 'id'>): boolean {
  return subject.id === SUPERUSER_ID;
}

/** react-admin's canAccess, and the server's check: may this subject do `action` on `path`? */
export function canAccess(subject: AccessSubject | null | undefined, path: string, action: Action = 'read'): boolean {
  if (!subject) return false;
  if (isSuperuser(subject)) return true;
  return (maskFor(subject.permissions, path) & ACTION_BITS[action]) !== 0;
}

/** Merges the masks of several roles: a bit held by any role is held. */
export function mergePermissions(maps: PermissionMap[]): PermissionMap {
  const merged: PermissionMap = {};
  for (const map of maps) for (const [key, bits] of Object.entries(map)) merged[key] = (merged[key] ?? 0) | (bits & FULL);
  return merged;
}

export function isAlwaysAvailable(path: string): boolean {
  const clean = cleanPath(path);
  return (ALWAYS_AVAILABLE as readonly string[]).includes(clean);
}

/** Routes a subject sees in the menu: built, module and section on, permission held. */
export function visibleRoutes(subject: AccessSubject | null | undefined, switches: Switches): ConsoleRoute[] {
  return CONSOLE_ROUTES.filter(
    (route) => route.built && isEnabled(switches, route.module, route.section) && canAccess(subject, route.key ?? route.path),
  );
}

/** The first handbook type, in menu order, that is switched on and readable. */
export function firstReadableHandbook(subject: AccessSubject | null | undefined, switches: Switches): string | undefined {
  return [...HANDBOOK_SECTIONS_ON, ...HANDBOOK_SECTIONS_OFF].find(
    (type) => isEnabled(switches, 'handbooks', `handbooks.${type}`) && canAccess(subject, `${HANDBOOKS_PREFIX}/${type}`),
  );
}

/** Landing after login: the first readable route in menu order (for handbooks the first readable handbook), else /not-found. */
export function landingPath(subject: AccessSubject | null | undefined, switches: Switches): string {
  for (const route of visibleRoutes(subject, switches)) {
    if (route.hidden) continue;
    if (route.path !== HANDBOOKS_PREFIX) return route.path;
    const handbook = firstReadableHandbook(subject, switches);
    if (handbook) return `${HANDBOOKS_PREFIX}/${handbook}`;
  }
  return '/not-found';
}
