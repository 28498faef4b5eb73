import type { ModuleId } from './modules';
import type { MenuGroup } from './menuGroups';
import { REPORTS } from './reports';

export { MENU_GROUPS, type MenuGroup } from './menuGroups';

/**
 * Every console route of spec section 2, in menu order. The menu, the landing page, the client's route guard
 * and the server's permission keys all read this one table. `built` turns on as each area's issue lands:
 * a route that is not built is neither in the menu nor reachable.
 */
export interface ConsoleRoute {
  path: string;
  /** Permission key; defaults to path. */
  key?: string;
  module: ModuleId;
  section?: string;
  group: MenuGroup;
  /** i18n key of the menu label. */
  label: string;
  built: boolean;
  /** Reachable but not listed in the menu (e.g. /users/create). */
  hidden?: boolean;
}

const r = (path: string, module: ModuleId, group: MenuGroup, label: string, extra: Partial<ConsoleRoute> = {}): ConsoleRoute => ({
  path,
  module,
  group,
  label,
  built: false,
  ...extra,
});

/** The declared reports of a menu group (src/shared/reports/), built, in declaration order; `path` picks one. */
const reportRoutes = (group: MenuGroup, path?: string): ConsoleRoute[] =>
  REPORTS.filter((report) => report.menu.group === group && (!path || report.path === path)).map((report) => ({
    path: report.path,
    module: report.module,
    section: report.section,
    group,
    label: report.menu.label,
    built: true,
  }));

export const CONSOLE_ROUTES: ConsoleRoute[] = [
  r('/map', 'map', 'map', 'menu.map', { built: true }),
  r('/video/online', 'video', 'video', 'menu.video.online', { built: true }),
  ...reportRoutes('video', '/video/requests'),
  r('/video/requests/create', 'video', 'video', 'menu.video.requestCreate', { key: '/video/requests', hidden: true, built: true }),
  ...reportRoutes('video', '/video/archive'),
  ...reportRoutes('video', '/video/myrequests'),
  r('/video/vehicle-archive-monitoring', 'video', 'video', 'menu.video.archiveMonitoring', {
    section: 'video.archiveMonitoring',
    built: true,
  }),
  ...reportRoutes('passengers'),
  r('/bc/calendar', 'bc', 'bc', 'menu.bc.calendar', { built: true }),
  r('/bc/controllertask', 'bc', 'bc', 'menu.bc.controllertask', { built: true }),
  r('/bc/departmentcontroll', 'bc', 'bc', 'menu.bc.departmentcontroll', { built: true }),
  ...reportRoutes('bc'),
  r('/bc/result', 'bc', 'bc', 'menu.bc.result', { hidden: true, built: true }),
  ...reportRoutes('importData'),
  r('/import-data/gtfs', 'importData', 'importData', 'menu.importData.gtfs', { key: '/system/eis', built: true }),
  r('/mnt-configuration/configurations', 'mntConfiguration', 'mntConfiguration', 'menu.mntConfiguration.configurations', { built: true }),
  r('/mnt-configuration/configuration', 'mntConfiguration', 'mntConfiguration', 'menu.mntConfiguration.configuration', {
    key: '/mnt-configuration/configurations',
    hidden: true,
    built: true,
  }),
  r('/mnt-configuration/vehicle-groups', 'mntConfiguration', 'mntConfiguration', 'menu.mntConfiguration.vehicleGroups', { built: true }),
  ...reportRoutes('monitoring'),
  ...reportRoutes('pdm', '/pdm/heatmap'),
  r('/pdm/tree-editor', 'pdm', 'pdm', 'menu.pdm.treeEditor', { built: true }),
  ...reportRoutes('pdm', '/pdm/vehicle-diagnostic-report'),
  ...reportRoutes('pdm', '/pdm/change-node-journal'),
  ...reportRoutes('pdm', '/pdm/charts'),
  ...reportRoutes('pdm', '/pdm/service'),
  ...reportRoutes('pdm', '/pdm/equipment-status-report'),
  r('/pdm/import-manager', 'pdm', 'pdm', 'menu.pdm.importManager', { built: true }),
  ...reportRoutes('adas'),
  r('/dispatch/board', 'dispatch', 'dispatch', 'menu.dispatch.board', { built: true }),
  r('/dispatch/lines', 'dispatch', 'dispatch', 'menu.dispatch.lines', { built: true }),
  r('/dispatch/exits', 'dispatch', 'dispatch', 'menu.dispatch.exits', { built: true }),
  r('/dispatch/changes', 'dispatch', 'dispatch', 'menu.dispatch.changes', { built: true }),
  r('/dispatch/alerts', 'dispatch', 'dispatch', 'menu.dispatch.alerts', { built: true }),
  r('/dispatch/messages', 'dispatch', 'dispatch', 'menu.dispatch.messages', { built: true }),
  ...reportRoutes('dispatch'),
  r('/system/navigation', 'system', 'system', 'menu.system.navigation', { built: true }),
  r('/system/video', 'system', 'system', 'menu.system.video', { built: true }),
  r('/system/passengers', 'system', 'system', 'menu.system.passengers', { built: true }),
  r('/system/journals', 'system', 'system', 'menu.system.journals', { built: true }),
  r('/system/bc', 'system', 'system', 'menu.system.bc', { section: 'system.bc', built: true }),
  r('/system/eis', 'system', 'system', 'menu.system.eis', { built: true }),
  r('/handbooks/table', 'handbooks', 'handbooks', 'menu.handbooks', { built: true }),
  ...reportRoutes('journals'),
  r('/users', 'administration', 'administration', 'menu.administration.users', { built: true }),
  r('/users/create', 'administration', 'administration', 'menu.administration.userCreate', { key: '/users', hidden: true, built: true }),
  r('/users/edit', 'administration', 'administration', 'menu.administration.userEdit', { key: '/users', hidden: true, built: true }),
  r('/roles', 'administration', 'administration', 'menu.administration.roles', { built: true }),
];

/** Routes that need no permission (spec: /about is always available; service pages too). */
export const ALWAYS_AVAILABLE = ['/about', '/no-connection', '/server-error', '/access-denied', '/not-found'] as const;
