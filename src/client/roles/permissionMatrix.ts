import { HANDBOOK_SECTIONS_OFF, HANDBOOK_SECTIONS_ON } from '../../shared/modules';
import type { PermissionCode } from '../../shared/permissionCodes';
import { CREATE, DELETE, FULL, HANDBOOKS_PREFIX, MAP_KEYS, READ, UPDATE, type PermissionMap } from '../../shared/permissions';
import { CONSOLE_ROUTES, MENU_GROUPS, type MenuGroup } from '../../shared/routes';

/**
 * The role editor's permission matrix (spec section 6): one row per permission key, four bits per row
 * (create, read, update, delete), rows grouped as the menu groups them; and the named codes, each a set
 * of bits on keys, checked when all its bits are present. Pure functions over PermissionMap: the form
 * holds the map, the checkboxes read and change it.
 */
export interface MatrixRow {
  key: string;
  /** i18n key of the row's label. */
  label: string;
  /** A handbook type's row is drawn indented under the handbooks row. */
  nested?: boolean;
}

export interface MatrixGroup {
  group: MenuGroup | 'other';
  /** i18n key of the group's label. */
  label: string;
  rows: MatrixRow[];
}

/** How the matrix and the code list change the form's map: from the latest map, never a stale copy. */
export type PermissionsChange = (update: (permissions: PermissionMap) => PermissionMap) => void;

/** The bits in column order: create, read, update, delete. */
export const BITS = [CREATE, READ, UPDATE, DELETE] as const;
export const BIT_NAMES: Record<number, 'create' | 'read' | 'update' | 'delete'> = {
  [CREATE]: 'create',
  [READ]: 'read',
  [UPDATE]: 'update',
  [DELETE]: 'delete',
};

function rowsOfRoute(path: string, label: string): MatrixRow[] {
  if (path === '/map') {
    return MAP_KEYS.map((key) => ({ key, label: `roles.matrix.mapKeys.${key.slice('/map/'.length)}` }));
  }
  if (path === HANDBOOKS_PREFIX) {
    return [
      { key: HANDBOOKS_PREFIX, label: 'roles.matrix.allHandbooks' },
      ...[...HANDBOOK_SECTIONS_ON, ...HANDBOOK_SECTIONS_OFF].map((type) => ({
        key: `${HANDBOOKS_PREFIX}/${type}`,
        label: `access.sections.handbooks.${type}`,
        nested: true,
      })),
    ];
  }
  return [{ key: path, label }];
}

/**
 * Every permission key of the console, built or not (an administrator grants rights ahead of screens):
 * each route's key once (a hidden route with its own key, such as /bc/result, gets its own row; one that
 * borrows another's key, such as /users/create, does not), the map's two data keys instead of /map, and
 * the handbooks prefix followed by each handbook type.
 */
export function matrixGroups(): MatrixGroup[] {
  const seen = new Set<string>();
  const groups: MatrixGroup[] = [];
  for (const group of MENU_GROUPS) {
    const rows: MatrixRow[] = [];
    for (const route of CONSOLE_ROUTES.filter((r) => r.group === group)) {
      const key = route.key ?? route.path;
      if (seen.has(key)) continue;
      const owner = CONSOLE_ROUTES.find((r) => r.path === key) ?? route;
      for (const row of rowsOfRoute(key, owner.label)) {
        if (seen.has(row.key)) continue;
        seen.add(row.key);
        rows.push(row);
      }
    }
    if (rows.length > 0) groups.push({ group, label: `menu.groups.${group}`, rows });
  }
  return groups;
}

export const MATRIX_GROUPS: readonly MatrixGroup[] = matrixGroups();
export const MATRIX_KEYS: ReadonlySet<string> = new Set(MATRIX_GROUPS.flatMap((group) => group.rows.map((row) => row.key)));

/** Keys a stored role holds that the matrix does not list (kept as they are, shown in their own group). */
export function otherGroup(permissions: PermissionMap): MatrixGroup | undefined {
  const rows = Object.keys(permissions)
    .filter((key) => !MATRIX_KEYS.has(key))
    .sort()
    .map((key) => ({ key, label: key }));
  return rows.length ? { group: 'other', label: 'roles.matrix.otherKeys', rows } : undefined;
}

export function bitsOf(permissions: PermissionMap | undefined, key: string): number {
  return (permissions?.[key] ?? 0) & FULL;
}

export function hasBit(permissions: PermissionMap | undefined, key: string, bit: number): boolean {
  return (bitsOf(permissions, key) & bit) === bit;
}

/** A map without empty entries (the server drops them too). */
export function cleanPermissions(permissions: PermissionMap): PermissionMap {
  return Object.fromEntries(
    Object.entries(permissions)
      .filter(([, bits]) => (bits & FULL) > 0)
      .map(([key, bits]) => [key, bits & FULL]),
  );
}

/** Sets or clears bits on keys; a new map, without empty entries. */
export function setBits(permissions: PermissionMap, keys: readonly string[], bits: number, on: boolean): PermissionMap {
  const next: PermissionMap = { ...permissions };
  for (const key of keys) next[key] = on ? bitsOf(next, key) | bits : bitsOf(next, key) & ~bits;
  return cleanPermissions(next);
}

/** How many of the keys hold the bit: 'all', 'some' or 'none' (for a column's header checkbox). */
export function columnState(permissions: PermissionMap, keys: readonly string[], bit: number): 'all' | 'some' | 'none' {
  const held = keys.filter((key) => hasBit(permissions, key, bit)).length;
  return held === 0 ? 'none' : held === keys.length ? 'all' : 'some';
}

/** A code is checked when every bit it grants is present; 'some' when only part is. */
export function codeState(permissions: PermissionMap, code: Pick<PermissionCode, 'grants'>): 'all' | 'some' | 'none' {
  const grants = Object.entries(code.grants);
  let held = 0;
  let any = false;
  for (const [key, bits] of grants) {
    const have = bitsOf(permissions, key) & bits;
    if (have === bits) held++;
    if (have !== 0) any = true;
  }
  return grants.length > 0 && held === grants.length ? 'all' : any ? 'some' : 'none';
}

/** Ticking a code grants its bits; unticking clears them (a bit another code also grants goes too). */
export function applyCode(permissions: PermissionMap, code: Pick<PermissionCode, 'grants'>, on: boolean): PermissionMap {
  const next: PermissionMap = { ...permissions };
  for (const [key, bits] of Object.entries(code.grants)) next[key] = on ? bitsOf(next, key) | bits : bitsOf(next, key) & ~bits;
  return cleanPermissions(next);
}

/** How many keys hold at least one bit. */
export function grantedCount(permissions: PermissionMap, keys: readonly string[]): number {
  return keys.filter((key) => bitsOf(permissions, key) > 0).length;
}
