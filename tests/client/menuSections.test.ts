import { describe, expect, it, vi } from 'vitest';
import { FULL, READ } from '../../src/shared/permissions';
import { defaultSwitches } from '../../src/shared/modules';
import { menuSections } from '../../src/client/layout/menuSections';

// Every route built, as it will be once all areas have landed.
vi.mock('../../src/shared/routes', async (original) => {
  const actual = await original<typeof import('../../src/shared/routes')>();
  return { ...actual, CONSOLE_ROUTES: actual.CONSOLE_ROUTES.map((route) => ({ ...route, built: true })) };
});

const user = (id: number, permissions: Record<string, number>) => ({ id, permissions });
const links = (sections: ReturnType<typeof menuSections>) => sections.flatMap((s) => s.entries.map((e) => e.to));

describe('side menu', () => {
  it('lists the permitted, switched-on, unhidden routes by group, /about last', () => {
    const sections = menuSections(
      user(7, { '/video/online': READ, '/video/requests': FULL, '/map/currentData': READ, '/users': READ }),
      defaultSwitches(),
    );
    expect(sections.map((s) => s.group)).toEqual(['map', 'video', 'administration', 'about']);
    expect(links(sections)).toEqual(['/map', '/video/online', '/video/requests', '/users', '/about']);
    expect(sections.find((s) => s.group === 'map')?.flat).toBe(true);
    expect(sections.find((s) => s.group === 'video')?.flat).toBe(false);
  });

  it('shows only /about to a user who may read nothing', () => {
    expect(links(menuSections(user(7, {}), defaultSwitches()))).toEqual(['/about']);
  });

  it('leaves out routes whose module or section is off', () => {
    const switches = defaultSwitches();
    switches.modules.video = false;
    const sections = menuSections(user(1, {}), switches);
    expect(sections.some((s) => s.group === 'video')).toBe(false);
    expect(links(sections)).not.toContain('/bc/calendar');
    expect(links(sections)).not.toContain('/passengers/registry');
    expect(links(sections)).toContain('/passengers/analysis');
  });

  it('links the handbooks to the first handbook the user may read', () => {
    const sections = menuSections(user(7, { '/handbooks/table/stops': READ }), defaultSwitches());
    expect(sections.find((s) => s.group === 'handbooks')?.entries).toEqual([
      { path: '/handbooks/table', to: '/handbooks/table/stops', label: 'menu.handbooks' },
    ]);
  });

  it('gives the superuser every group, the handbooks at their first handbook', () => {
    const sections = menuSections(user(1, {}), defaultSwitches());
    expect(sections.map((s) => s.group)).toEqual([
      'map',
      'video',
      'passengers',
      'importData',
      'mntConfiguration',
      'monitoring',
      'adas',
      'system',
      'handbooks',
      'journals',
      'administration',
      'about',
    ]);
    expect(links(sections)).toContain('/handbooks/table/agency');
    expect(links(sections)).not.toContain('/users/create');
  });
});
