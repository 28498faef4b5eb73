import { describe, expect, it, vi } from 'vitest';
import { CREATE, READ, UPDATE } from '../../src/shared/permissions';
import { defaultSwitches } from '../../src/shared/modules';
import { mayAccess, routeForPath, routeVerdict } from '../../src/shared/routeAccess';

// Every route built except /roles, to see both cases.
vi.mock('../../src/shared/routes', async (original) => {
  const actual = await original<typeof import('../../src/shared/routes')>();
  return { ...actual, CONSOLE_ROUTES: actual.CONSOLE_ROUTES.map((route) => ({ ...route, built: route.path !== '/roles' })) };
});

const viewer = { id: 4, permissions: { '/users': READ, '/handbooks/table/stops': READ, '/video/online': READ } };
const switches = defaultSwitches();

describe('route guard decisions', () => {
  it('finds the route of a nested URL', () => {
    expect(routeForPath('/handbooks/table/stops')?.path).toBe('/handbooks/table');
    expect(routeForPath('/users/create')?.path).toBe('/users/create');
    expect(routeForPath('/bc/result/12?x=1')?.path).toBe('/bc/result');
    expect(routeForPath('/nowhere')).toBeUndefined();
  });

  it('allows the always-available pages to anyone', () => {
    expect(routeVerdict(null, switches, '/about')).toBe('allowed');
    expect(routeVerdict(viewer, switches, '/access-denied')).toBe('allowed');
  });

  it('allows a permitted route and refuses an unpermitted one', () => {
    expect(routeVerdict(viewer, switches, '/users')).toBe('allowed');
    expect(routeVerdict(viewer, switches, '/users/create', 'create')).toBe('access-denied');
    expect(routeVerdict(viewer, switches, '/system/navigation')).toBe('access-denied');
    expect(routeVerdict(viewer, switches, '/video/online/live/17')).toBe('allowed');
  });

  it('reads a handbook URL on that handbook', () => {
    expect(routeVerdict(viewer, switches, '/handbooks/table/stops')).toBe('allowed');
    expect(routeVerdict(viewer, switches, '/handbooks/table/routes')).toBe('access-denied');
  });

  it('reads a keyed route on its key (/users/create on /users; /system/eis on its own handbook-settings key)', () => {
    expect(mayAccess({ id: 5, permissions: { '/users': READ | CREATE } }, switches, '/users/create', 'create')).toBe(true);
    expect(mayAccess({ id: 5, permissions: { '/system/eis': READ | UPDATE } }, switches, '/system/eis', 'update')).toBe(true);
    expect(mayAccess({ id: 5, permissions: { '/handbooks/table': READ | UPDATE } }, switches, '/system/eis')).toBe(false);
  });

  it('sends unknown, unbuilt and switched-off routes to not found', () => {
    expect(routeVerdict(viewer, switches, '/nowhere')).toBe('not-found');
    expect(routeVerdict({ id: 1, permissions: {} }, switches, '/roles')).toBe('not-found');
    expect(routeVerdict({ id: 1, permissions: {} }, switches, '/bc/calendar')).toBe('not-found');
    expect(routeVerdict({ id: 1, permissions: {} }, switches, '/handbooks/table/mnt')).toBe('not-found');
    expect(mayAccess({ id: 1, permissions: {} }, switches, '/pdm/heatmap')).toBe(false);
  });
});
