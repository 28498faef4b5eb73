import { describe, expect, it } from 'vitest';
import {
  CREATE,
  DELETE,
  READ,
  UPDATE,
  PERMISSION_KEYS,
  canAccess,
  maskFor,
  mergePermissions,
  landingPath,
  visibleRoutes,
  firstReadableHandbook,
} from '../src/shared/permissions';
import { defaultSwitches, isEnabled, applySwitchList } from '../src/shared/modules';
import { CONSOLE_ROUTES } from '../src/shared/routes';
import { PERMISSION_CODES } from '../src/shared/permissionCodes';
import { SUPERUSER_ID } from '../src/shared/constants';

const user = (permissions: Record<string, number>) => ({ id: 42, permissions });

describe('permission masks', () => {
  it('reads the four bits as create, read, update, delete', () => {
    expect([CREATE, READ, UPDATE, DELETE]).toEqual([8, 4, 2, 1]);
    const subject = user({ '/users': READ | UPDATE });
    expect(canAccess(subject, '/users', 'read')).toBe(true);
    expect(canAccess(subject, '/users', 'update')).toBe(true);
    expect(canAccess(subject, '/users', 'create')).toBe(false);
    expect(canAccess(subject, '/users', 'delete')).toBe(false);
  });

  it('gives the map read right from current-data or previous-data', () => {
    expect(canAccess(user({ '/map/currentData': READ }), '/map')).toBe(true);
    expect(canAccess(user({ '/map/previousData': READ }), '/map')).toBe(true);
    expect(canAccess(user({ '/map/previousData': CREATE }), '/map')).toBe(false);
    expect(canAccess(user({}), '/map')).toBe(false);
  });

  it('takes handbook rights from any key under the handbooks table prefix', () => {
    const one = user({ '/handbooks/table/stops': READ });
    expect(canAccess(one, '/handbooks/table/stops')).toBe(true);
    expect(canAccess(one, '/handbooks/table/routes')).toBe(false);
    expect(canAccess(one, '/handbooks/table')).toBe(true);
    const all = user({ '/handbooks/table': READ | DELETE });
    expect(canAccess(all, '/handbooks/table/routes', 'delete')).toBe(true);
    expect(canAccess(all, '/handbooks/table/routes', 'update')).toBe(false);
  });

  it('uses the online-video right for live streams', () => {
    const subject = user({ '/video/online': READ });
    expect(canAccess(subject, '/video/online/live/123/1')).toBe(true);
    expect(canAccess(subject, '/video/archive')).toBe(false);
  });

  it('matches any other path by its registered route, then its first segment', () => {
    const subject = user({ '/users': READ, '/bc/result': READ });
    expect(canAccess(subject, '/users/edit/5')).toBe(true);
    expect(canAccess(subject, '/users/create')).toBe(true);
    expect(canAccess(subject, '/bc/result/17')).toBe(true);
    expect(canAccess(subject, '/roles')).toBe(false);
    expect(maskFor({ '/custom': READ }, '/custom/deep/path')).toBe(READ);
  });

  it('grants everything to the superuser and nothing to nobody', () => {
    expect(canAccess({ id: SUPERUSER_ID, permissions: {} }, '/roles', 'delete')).toBe(true);
    expect(canAccess(null, '/about')).toBe(false);
  });

  it('merges several roles bit by bit', () => {
    expect(mergePermissions([{ '/users': READ }, { '/users': UPDATE, '/roles': 0b11111 }])).toEqual({
      '/users': READ | UPDATE,
      '/roles': 0b1111,
    });
  });
});

describe('module and section switches', () => {
  const switches = defaultSwitches();
  it('has the spec defaults', () => {
    for (const off of ['bc', 'vehicleWorkData', 'pdm']) expect(isEnabled(switches, off)).toBe(false);
    for (const on of ['map', 'video', 'handbooks', 'journals', 'administration']) expect(isEnabled(switches, on)).toBe(true);
    for (const section of [
      'video.archiveMonitoring',
      'passengers.registry',
      'passengers.correspondence',
      'handbooks.district',
      'handbooks.mnt',
      'handbooks.graphictype',
    ]) {
      expect(isEnabled(switches, 'video', section)).toBe(false);
    }
    for (const section of ['handbooks.agency', 'handbooks.rasptimes', 'handbooks.dvrtype', 'journals.userActions'])
      expect(isEnabled(switches, 'handbooks', section)).toBe(true);
  });

  it('applies configured lists', () => {
    const custom = defaultSwitches();
    applySwitchList(custom.modules, ['bc', '-video']);
    expect(isEnabled(custom, 'bc')).toBe(true);
    expect(isEnabled(custom, 'video')).toBe(false);
  });

  it('hides routes of disabled modules and unbuilt routes from the menu', () => {
    const admin = { id: SUPERUSER_ID, permissions: {} };
    const visible = visibleRoutes(admin, switches);
    expect(visible.every((route) => route.built && isEnabled(switches, route.module, route.section))).toBe(true);
    expect(visible.some((route) => route.module === 'bc')).toBe(false);
  });

  it('lands on /not-found when nothing is readable', () => {
    expect(landingPath(user({}), switches)).toBe('/not-found');
  });

  it('picks the first readable enabled handbook', () => {
    expect(firstReadableHandbook(user({ '/handbooks/table/stops': READ, '/handbooks/table/district': READ }), switches)).toBe('stops');
    expect(firstReadableHandbook(user({ '/handbooks/table': READ }), switches)).toBe('agency');
  });
});

describe('route table and permission codes', () => {
  it('lists every console route of the spec once', () => {
    const paths = CONSOLE_ROUTES.map((route) => route.path);
    expect(new Set(paths).size).toBe(paths.length);
    for (const path of [
      '/map',
      '/video/online',
      '/passengers/daily-data',
      '/bc/calendar',
      '/import-data/tickets-validation',
      '/pdm/import-manager',
      '/adas/incidents-detailing',
      '/system/eis',
      '/journal/adas',
      '/roles',
    ]) {
      expect(paths).toContain(path);
    }
  });

  it('numbers the named codes 1 to 43 as the spec does, then the areas beyond it (44 to 47)', () => {
    const ids = PERMISSION_CODES.map((code) => code.id);
    expect(ids).toEqual([
      1, 3, 4, 5, 6, 7, 9, 10, 13, 15, 17, 19, 20, 21, 22, 23, 24, 25, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43,
      44, 45, 46, 47,
    ]);
    for (const code of PERMISSION_CODES) expect(Object.keys(code.grants).length).toBeGreaterThan(0);
  });

  it('knows every key the role editor and the named codes grant, and nothing else', async () => {
    const { MATRIX_KEYS } = await import('../src/client/roles/permissionMatrix');
    for (const key of MATRIX_KEYS) expect(PERMISSION_KEYS.has(key), key).toBe(true);
    for (const code of PERMISSION_CODES) for (const key of Object.keys(code.grants)) expect(PERMISSION_KEYS.has(key), key).toBe(true);
    for (const key of ['/userz', '/handbooks/table/nosuch', '/map', 'users']) expect(PERMISSION_KEYS.has(key), key).toBe(false);
  });

  it('gives each settings subsystem its own right', () => {
    const navigation = PERMISSION_CODES.find((code) => code.id === 17)!;
    const subject = user(navigation.grants);
    expect(canAccess(subject, '/system/navigation', 'update')).toBe(true);
    expect(canAccess(subject, '/system/video')).toBe(false);
  });
});
