import { describe, expect, it } from 'vitest';
import { HANDBOOK_SECTIONS_OFF, HANDBOOK_SECTIONS_ON } from '../../src/shared/modules';
import { PERMISSION_CODES } from '../../src/shared/permissionCodes';
import { CREATE, DELETE, FULL, HANDBOOKS_PREFIX, MAP_KEYS, READ, UPDATE } from '../../src/shared/permissions';
import { CONSOLE_ROUTES, MENU_GROUPS } from '../../src/shared/routes';
import {
  MATRIX_GROUPS,
  MATRIX_KEYS,
  applyCode,
  bitsOf,
  cleanPermissions,
  codeState,
  columnState,
  grantedCount,
  hasBit,
  otherGroup,
  setBits,
} from '../../src/client/roles/permissionMatrix';

const code = (id: number) => PERMISSION_CODES.find((c) => c.id === id)!;

describe('permission matrix rows', () => {
  it('lists every route key, built or not, once; the map by its two data keys; every handbook type', () => {
    const expected = new Set<string>([...MAP_KEYS, HANDBOOKS_PREFIX]);
    for (const route of CONSOLE_ROUTES) if (route.path !== '/map') expected.add(route.key ?? route.path);
    for (const type of [...HANDBOOK_SECTIONS_ON, ...HANDBOOK_SECTIONS_OFF]) expected.add(`${HANDBOOKS_PREFIX}/${type}`);
    expect(new Set(MATRIX_KEYS)).toEqual(expected);
    const all = MATRIX_GROUPS.flatMap((group) => group.rows.map((row) => row.key));
    expect(all.length).toBe(new Set(all).size);
    expect(MATRIX_KEYS.has('/map')).toBe(false);
    expect(MATRIX_KEYS.has('/users/create')).toBe(false);
    expect(MATRIX_KEYS.has('/bc/result')).toBe(true);
  });

  it('groups rows as the menu does, in menu order, with menu labels', () => {
    expect(MATRIX_GROUPS.map((group) => group.group)).toEqual(MENU_GROUPS.filter((group) => group !== 'about'));
    const administration = MATRIX_GROUPS.find((group) => group.group === 'administration')!;
    expect(administration.label).toBe('menu.groups.administration');
    expect(administration.rows).toEqual([
      { key: '/users', label: 'menu.administration.users' },
      { key: '/roles', label: 'menu.administration.roles' },
    ]);
    const handbooks = MATRIX_GROUPS.find((group) => group.group === 'handbooks')!;
    expect(handbooks.rows[0]).toEqual({ key: HANDBOOKS_PREFIX, label: 'roles.matrix.allHandbooks' });
    expect(handbooks.rows[1]).toEqual({ key: '/handbooks/table/agency', label: 'access.sections.handbooks.agency', nested: true });
    expect(MATRIX_GROUPS[0].rows.map((row) => row.key)).toEqual([...MAP_KEYS]);
  });

  it('keys a role holds outside the table are listed in their own group', () => {
    expect(otherGroup({ '/users': READ })).toBeUndefined();
    expect(otherGroup({ '/legacy/screen': READ, '/users': READ })?.rows).toEqual([{ key: '/legacy/screen', label: '/legacy/screen' }]);
  });
});

describe('matrix ⇄ permission map', () => {
  it('sets and clears bits without touching the others, dropping empty keys', () => {
    let map = setBits({}, ['/users'], READ, true);
    expect(map).toEqual({ '/users': READ });
    map = setBits(map, ['/users'], UPDATE, true);
    expect(map).toEqual({ '/users': READ | UPDATE });
    expect(hasBit(map, '/users', UPDATE)).toBe(true);
    map = setBits(map, ['/users'], READ | UPDATE, false);
    expect(map).toEqual({});
    expect(bitsOf(map, '/users')).toBe(0);
  });

  it('a column of a group: all, some or none of its keys hold the bit', () => {
    const keys = ['/users', '/roles'];
    expect(columnState({}, keys, READ)).toBe('none');
    expect(columnState({ '/users': READ }, keys, READ)).toBe('some');
    const all = setBits({ '/users': DELETE }, keys, READ, true);
    expect(all).toEqual({ '/users': READ | DELETE, '/roles': READ });
    expect(columnState(all, keys, READ)).toBe('all');
    expect(grantedCount(all, [...keys, '/journal/adas'])).toBe(2);
  });

  it('drops masks outside the four bits and empty entries', () => {
    expect(cleanPermissions({ '/a': 0, '/b': 0b10100, '/c': FULL })).toEqual({ '/b': READ, '/c': FULL });
  });
});

describe('named codes', () => {
  it('a code is checked when all its bits are present, half when some are', () => {
    const administration = code(1); // /users and /roles, read
    expect(codeState({}, administration)).toBe('none');
    expect(codeState({ '/users': READ }, administration)).toBe('some');
    expect(codeState({ '/users': FULL, '/roles': READ }, administration)).toBe('all');
    const handbookEdit = code(10); // /handbooks/table create and update
    expect(codeState({ [HANDBOOKS_PREFIX]: CREATE }, handbookEdit)).toBe('some');
    expect(codeState({ [HANDBOOKS_PREFIX]: CREATE | UPDATE | READ }, handbookEdit)).toBe('all');
  });

  it("ticking grants the code's bits on top of the map; unticking clears only those bits", () => {
    const start = { '/users': DELETE, '/journal/adas': READ };
    const on = applyCode(start, code(20), true);
    expect(on).toEqual({ '/users': DELETE | CREATE | UPDATE, '/roles': CREATE | UPDATE, '/journal/adas': READ });
    expect(codeState(on, code(20))).toBe('all');
    expect(applyCode(on, code(20), false)).toEqual(start);
  });

  it('codes sharing a bit: clearing one clears the shared bit (its partner shows unchecked too)', () => {
    const both = applyCode(applyCode({}, code(1), true), code(22), true);
    expect(both).toEqual({ '/users': READ, '/roles': READ });
    const cleared = applyCode(both, code(22), false);
    expect(cleared).toEqual({});
    expect(codeState(cleared, code(1))).toBe('none');
  });

  it('every code grants only keys the matrix shows', () => {
    for (const c of PERMISSION_CODES) for (const key of Object.keys(c.grants)) expect(MATRIX_KEYS.has(key), `${c.id} ${key}`).toBe(true);
  });
});
