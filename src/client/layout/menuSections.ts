import type { AccessSubject } from '../../shared/permissions';
import { HANDBOOKS_PREFIX, firstReadableHandbook, visibleRoutes } from '../../shared/permissions';
import { CONSOLE_ROUTES, MENU_GROUPS, type ConsoleRoute, type MenuGroup } from '../../shared/routes';
import type { Switches } from '../../shared/modules';

/** One link of the side menu. */
export interface MenuEntry {
  /** The route's path (CONSOLE_ROUTES.path). */
  path: string;
  /** Where the link goes (for the handbooks: the first handbook the user may read). */
  to: string;
  /** i18n key of the label. */
  label: string;
}

/** A menu group: shown as one plain link when its group has a single route, otherwise as a folding group. */
export interface MenuSection {
  group: MenuGroup;
  label: string;
  flat: boolean;
  entries: MenuEntry[];
}

const ABOUT: MenuEntry = { path: '/about', to: '/about', label: 'menu.about' };

/** Groups with one listed route in the whole table (map, handbooks for now) are plain links. */
function isSingleRouteGroup(group: MenuGroup): boolean {
  return CONSOLE_ROUTES.filter((route) => route.group === group && !route.hidden).length <= 1;
}

function entriesOf(route: ConsoleRoute, subject: AccessSubject | null | undefined, switches: Switches): MenuEntry[] {
  if (route.path !== HANDBOOKS_PREFIX) return [{ path: route.path, to: route.path, label: route.label }];
  const handbook = firstReadableHandbook(subject, switches);
  return handbook ? [{ path: route.path, to: `${HANDBOOKS_PREFIX}/${handbook}`, label: route.label }] : [];
}

/**
 * The side menu of spec section 2: the routes the subject sees (built, switched on, permitted, not
 * hidden) in the order of MENU_GROUPS; a group only when it has a link; /about always last.
 */
export function menuSections(subject: AccessSubject | null | undefined, switches: Switches): MenuSection[] {
  const routes = visibleRoutes(subject, switches).filter((route) => !route.hidden);
  const sections: MenuSection[] = [];
  for (const group of MENU_GROUPS) {
    if (group === 'about') continue;
    const entries = routes.filter((route) => route.group === group).flatMap((route) => entriesOf(route, subject, switches));
    if (entries.length > 0) sections.push({ group, label: `menu.groups.${group}`, flat: isSingleRouteGroup(group), entries });
  }
  sections.push({ group: 'about', label: 'menu.groups.about', flat: true, entries: [ABOUT] });
  return sections;
}
