import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import { REPORTS } from '../shared/reports';

export type Screen = LazyExoticComponent<ComponentType>;

/**
 * The screens of the console by route path (CONSOLE_ROUTES.path), each lazy-loaded so that the login page
 * and the shell stay small. A screen is reachable once its route is marked `built` in src/shared/routes.ts
 * and it is registered here; it is mounted at `<path>/*`, so nested URLs (/handbooks/table/:handbookType,
 * /bc/result/:task, /video/online/live/...) reach it too. The route guard sends a user whose module or
 * section is off to /not-found and one without the permission to /access-denied. For example:
 *
 *   '/map': lazy(() => import('./map/MapScreen')),
  // every handbook: /handbooks/table/:handbookType, with /create and /:id under it
  '/handbooks/table': lazy(() => import('./handbooks/HandbookScreen')),
 */
const SystemSettingsScreen = lazy(() => import('./system/SystemSettingsScreen'));
const ReportScreen = lazy(() => import('./reports/ReportScreen'));
const VideoRequestsScreen = lazy(() => import('./video/VideoRequestsScreen'));

export const SCREENS: Readonly<Partial<Record<string, Screen>>> = {
  '/map': lazy(() => import('./map/MapScreen')),
  // every handbook: /handbooks/table/:handbookType, with /create and /:id under it
  '/handbooks/table': lazy(() => import('./handbooks/HandbookScreen')),
  // administration: /users/create and /users/edit/:id are nested routes of the users screen
  '/users': lazy(() => import('./users/UsersScreen')),
  '/roles': lazy(() => import('./roles/RolesScreen')),
  // system settings: one screen, the subsystem read from the address
  '/system/navigation': SystemSettingsScreen,
  '/system/video': SystemSettingsScreen,
  '/system/passengers': SystemSettingsScreen,
  '/system/journals': SystemSettingsScreen,
  '/system/bc': SystemSettingsScreen,
  '/system/eis': SystemSettingsScreen,
  // every declared report (src/shared/reports/, journals included): one screen, the report read from the address
  ...Object.fromEntries(REPORTS.map((report) => [report.path, ReportScreen])),
  // the validation import: its history is a declared report, the upload sits in its toolbar
  '/import-data/tickets-validation': lazy(() => import('./passengers/ValidationImportScreen')),
  '/import-data/gtfs': lazy(() => import('./gtfs/GtfsImportScreen')),
  // ticket control; /bc/resultuser is its declared report, with /bc/resultuser/{task} under it
  '/bc/calendar': lazy(() => import('./bc/CalendarScreen')),
  '/bc/controllertask': lazy(() => import('./bc/ControllerTaskScreen')),
  '/bc/departmentcontroll': lazy(() => import('./bc/DepartmentControlScreen')),
  '/bc/result': lazy(() => import('./bc/TaskResultScreen')),
  '/bc/resultuser': lazy(() => import('./bc/ResultUserScreen')),
  // video: the live grid (full size nested under it), the request lists with their create button, the request
  // form, the archive's player over its list, recorder monitoring
  '/video/online': lazy(() => import('./video/VideoOnlineScreen')),
  '/video/requests': VideoRequestsScreen,
  '/video/myrequests': VideoRequestsScreen,
  '/video/requests/create': lazy(() => import('./video/VideoRequestCreate')),
  '/video/archive': lazy(() => import('./video/VideoArchiveScreen')),
  '/video/vehicle-archive-monitoring': lazy(() => import('./video/ArchiveMonitoringScreen')),
  // remote configuration of terminals: configurations, groups, a group's rollouts (/mnt-configuration/configuration/{group_id})
  '/mnt-configuration/configurations': lazy(() => import('./equipment/ConfigurationsScreen')),
  '/mnt-configuration/vehicle-groups': lazy(() => import('./equipment/VehicleGroupsScreen')),
  '/mnt-configuration/configuration': lazy(() => import('./equipment/RolloutScreen')),
  // PDM: the tree editor and the import manager, and three declared reports with their special parts
  '/pdm/tree-editor': lazy(() => import('./pdm/TreeEditorScreen')),
  '/pdm/import-manager': lazy(() => import('./pdm/ImportManagerScreen')),
  '/pdm/heatmap': lazy(() => import('./pdm/HeatmapScreen')),
  '/pdm/charts': lazy(() => import('./pdm/ChartsScreen')),
  '/pdm/change-node-journal': lazy(() => import('./pdm/NodeJournalScreen')),
  // dispatch: the exceptions board, the line diagram, the plan and fact of exits
  '/dispatch/board': lazy(() => import('./dispatch/BoardScreen')),
  '/dispatch/lines': lazy(() => import('./dispatch/LinesScreen')),
  '/dispatch/exits': lazy(() => import('./dispatch/ExitsScreen')),
  '/dispatch/changes': lazy(() => import('./dispatch/ChangesScreen')),
  '/dispatch/alerts': lazy(() => import('./dispatch/AlertsScreen')),
  '/dispatch/messages': lazy(() => import('./dispatch/MessagesScreen')),
};
