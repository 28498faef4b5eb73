/** The console menu's groups, in menu order: the routes (routes.ts) and the report declarations place themselves in one. */
export type MenuGroup =
  | 'map'
  | 'video'
  | 'passengers'
  | 'bc'
  | 'importData'
  | 'mntConfiguration'
  | 'monitoring'
  | 'pdm'
  | 'adas'
  | 'dispatch'
  | 'system'
  | 'handbooks'
  | 'journals'
  | 'administration'
  | 'about';

export const MENU_GROUPS: MenuGroup[] = [
  'map',
  'video',
  'passengers',
  'bc',
  'importData',
  'mntConfiguration',
  'monitoring',
  'pdm',
  'adas',
  'dispatch',
  'system',
  'handbooks',
  'journals',
  'administration',
  'about',
];
