import { CREATE, DELETE, MAP_KEYS, READ, UPDATE, HANDBOOKS_PREFIX, type PermissionMap } from './permissions';
import { DISPATCH_REPORTS } from './reports/dispatch';

/**
 * The named permission codes of spec section 6 (ids 1 to 43; the spec's gaps are kept), and those of the areas
 * beyond it (44 to 47: the live timetable and service control, SCREENS.md «Dispatch»). Each code is a
 * readable name for a set of mask bits on route keys: ticking a code in the role editor grants those bits.
 * The server enforces only the masks, so a code can never grant more than its bits say.
 */
export interface PermissionCode {
  id: number;
  meaning: string;
  grants: PermissionMap;
}

const CU = CREATE | UPDATE;
const all = (keys: readonly string[], bits: number): PermissionMap => Object.fromEntries(keys.map((k) => [k, bits]));
const VIDEO_VIEW = ['/video/online', '/video/requests', '/video/archive', '/video/myrequests'];
const PASSENGERS = [
  '/passengers/analysis',
  '/passengers/registry',
  '/passengers/passage',
  '/passengers/stops',
  '/passengers/pay',
  '/passengers/correspondence',
  '/passengers/passturn/table',
  '/passengers/turnstops/table',
  '/passengers/betweenstops/table',
  '/passengers/rolling-stock',
  '/passengers/dist-rolling-stock',
  '/reports/traffic',
  '/passengers/daily-data',
];
const JOURNALS = ['/journal/useractions', '/journal/eventsts', '/journal/eventspo', '/journal/video', '/journal/adas'];
const DISPATCH_VIEW = [
  '/dispatch/board',
  '/dispatch/lines',
  '/dispatch/exits',
  '/dispatch/changes',
  '/dispatch/alerts',
  '/dispatch/messages',
  ...DISPATCH_REPORTS.map((report) => report.path),
];
const BC = ['/bc/calendar', '/bc/controllertask', '/bc/routerate', '/bc/departmentcontroll', '/bc/reports'];

export const PERMISSION_CODES: PermissionCode[] = [
  { id: 1, meaning: 'Администрирование', grants: all(['/users', '/roles'], READ) },
  { id: 3, meaning: 'Доступ к подсистеме журналирования', grants: all(JOURNALS, READ) },
  { id: 4, meaning: 'Доступ к подсистеме пассажиропотока', grants: all(PASSENGERS, READ) },
  { id: 5, meaning: 'Настройки пассажиропотока', grants: { '/system/passengers': READ | UPDATE } },
  { id: 6, meaning: 'Настройки справочников', grants: { '/system/eis': READ | UPDATE } },
  { id: 7, meaning: 'Настройки видео', grants: { '/system/video': READ | UPDATE } },
  { id: 9, meaning: 'Просмотр данных карты', grants: all(MAP_KEYS, READ) },
  { id: 10, meaning: 'Добавление/редактирование данных справочников', grants: { [HANDBOOKS_PREFIX]: CU } },
  { id: 13, meaning: 'Просмотр справочников', grants: { [HANDBOOKS_PREFIX]: READ } },
  { id: 15, meaning: 'Удаление данных справочников', grants: { [HANDBOOKS_PREFIX]: DELETE } },
  { id: 17, meaning: 'Настройки навигации', grants: { '/system/navigation': READ | UPDATE } },
  { id: 19, meaning: 'Настройки журналов', grants: { '/system/journals': READ | UPDATE } },
  { id: 20, meaning: 'Добавление/редактирование пользователей и ролей', grants: all(['/users', '/roles'], CU) },
  { id: 21, meaning: 'Удаление пользователей и ролей', grants: all(['/users', '/roles'], DELETE) },
  { id: 22, meaning: 'Просмотр пользователей и ролей', grants: all(['/users', '/roles'], READ) },
  { id: 23, meaning: 'Добавление/редактирование видео', grants: all(['/video/requests', '/video/online'], CU) },
  { id: 24, meaning: 'Удаление запросов в видеоархиве', grants: { '/video/archive': DELETE } },
  { id: 25, meaning: 'Просмотр видео', grants: all([...VIDEO_VIEW, '/video/vehicle-archive-monitoring'], READ) },
  { id: 27, meaning: 'Удаление запросов в «Мои запросы»', grants: { '/video/myrequests': DELETE } },
  { id: 28, meaning: 'Просмотр мониторинга бортового оборудования', grants: all(['/vehicle-work-data', '/vehicle-diagnostic'], READ) },
  { id: 29, meaning: 'Настройки контроля оплаты', grants: { '/system/bc': READ | UPDATE } },
  { id: 30, meaning: 'Результаты ПБК', grants: all(['/bc/resultuser', '/bc/result'], READ) },
  { id: 31, meaning: 'ПБК', grants: all(BC, READ | CU) },
  {
    id: 32,
    meaning: 'Конфигурации МНТ',
    grants: all(['/mnt-configuration/configurations', '/mnt-configuration/vehicle-groups'], READ | CU | DELETE),
  },
  { id: 33, meaning: 'Импорт данных валидации билетов', grants: { '/import-data/tickets-validation': READ | CREATE } },
  {
    id: 34,
    meaning: 'Доступ к отчётам ИСПВ',
    grants: all(['/adas/incidents-dynamic', '/adas/incidents-distribution', '/adas/incidents-detailing'], READ),
  },
  { id: 35, meaning: 'Просмотр данных ПДМ', grants: { '/pdm/vehicle-diagnostic-report': READ } },
  { id: 36, meaning: 'Добавление/редактирование уникальных деревьев регистраторов', grants: { '/pdm/tree-editor': READ | CU } },
  { id: 37, meaning: 'Тепловая карта', grants: { '/pdm/heatmap': READ } },
  { id: 38, meaning: 'Мониторинг состояния бортового оборудования', grants: { '/pdm/service': READ } },
  { id: 39, meaning: 'Журнал изменения состояния узлов', grants: { '/pdm/change-node-journal': READ } },
  { id: 40, meaning: 'Графические отчёты', grants: { '/pdm/charts': READ } },
  { id: 41, meaning: 'Сервисные отчёты', grants: { '/pdm/service': READ } },
  { id: 42, meaning: 'Доступ к менеджеру импорта отчётов', grants: { '/pdm/import-manager': READ | CREATE } },
  { id: 43, meaning: 'Отчёт о состоянии бортового оборудования за период', grants: { '/pdm/equipment-status-report': READ } },
  { id: 44, meaning: 'Просмотр диспетчерских данных', grants: all(DISPATCH_VIEW, READ) },
  { id: 45, meaning: 'Квитирование исключений', grants: { '/dispatch/board': UPDATE } },
  { id: 46, meaning: 'Изменения движения и оповещения', grants: all(['/dispatch/changes', '/dispatch/alerts'], CU) },
  { id: 47, meaning: 'Сообщения водителям', grants: { '/dispatch/messages': CU } },
];
