import { COORDINATE_DECIMALS } from '../constants';
import { defineReport, type ReportColumn, type ReportFilter } from './types';

/**
 * The journals of spec section 2 (/journal/*) as reports: shown at once (no build button), newest first,
 * exported as CSV (as before) or XLSX. Their API keeps its paths, /api/v1/journals/<id>.
 */

export const USER_ACTIONS = ['login', 'logout', 'create', 'update', 'delete', 'block', 'unblock'] as const;
export const VEHICLE_EVENT_KINDS = ['connect', 'disconnect', 'pass_error'] as const;

const id: ReportColumn = { name: 'id', header: '№', type: 'integer', sortable: true, exportOnly: true };
const at: ReportColumn = { name: 'at', header: 'Дата и время', type: 'datetime', sortable: true };
const vehicleColumns: ReportColumn[] = [
  { name: 'vehicle_id', header: 'ID ТС', type: 'integer', sortable: true },
  { name: 'depot_number', header: 'Гаражный номер', type: 'integer', sortable: true },
  { name: 'state_number', header: 'Госномер', type: 'text' },
];
const kind = (sortable = true): ReportColumn => ({ name: 'kind', header: 'Событие', type: 'enum', labels: 'journals.kinds', sortable });
const details: ReportColumn = { name: 'details', header: 'Подробности', type: 'json', labels: 'journals.details' };
const period: ReportFilter = { kind: 'period', name: 'period', label: 'journals.filters.period', withTime: true };
const vehicles: ReportFilter = { kind: 'vehicles', name: 'vehicle', label: 'journals.filters.vehicle' };
const typeText: ReportFilter = { kind: 'text', name: 'type', label: 'journals.filters.type', maxLength: 2000 };

const journal = {
  module: 'journals',
  labels: 'journals.columns',
  export: ['csv', 'xlsx'],
  pageSize: 30,
  build: 'auto',
  defaultSort: { field: 'at', order: 'DESC' },
} as const;

export const USER_ACTIONS_JOURNAL = defineReport({
  ...journal,
  path: '/journal/useractions',
  section: 'journals.userActions',
  menu: { group: 'journals', label: 'menu.journals.useractions' },
  title: 'Журнал действий пользователей',
  file: 'useractions',
  api: '/api/v1/journals/useractions',
  expand: 'userActionDiff',
  filters: [
    period,
    { kind: 'users', name: 'user', label: 'journals.filters.user' },
    { kind: 'enum', name: 'type', label: 'journals.filters.action', values: USER_ACTIONS, labels: 'journals.actions' },
  ],
  columns: [
    id,
    at,
    { name: 'user_id', header: 'ID пользователя', type: 'integer', exportOnly: true },
    { name: 'username', header: 'Пользователь', type: 'text', sortable: true },
    { name: 'page_id', header: 'Страница', type: 'text', sortable: true },
    { name: 'action', header: 'Действие', type: 'text', sortable: true, cell: 'action' },
    { name: 'object', header: 'Объект', type: 'text', sortable: true, cell: 'object' },
    { name: 'object_id', header: 'ID объекта', type: 'text', exportOnly: true },
    { name: 'before', header: 'До изменения', type: 'json', exportOnly: true },
    { name: 'after', header: 'После изменения', type: 'json', exportOnly: true },
    { name: 'request', header: 'Запрос', type: 'json', exportOnly: true },
    { name: 'ip', header: 'IP-адрес', type: 'text', exportOnly: true },
  ],
});

export const VEHICLE_EVENTS_JOURNAL = defineReport({
  ...journal,
  path: '/journal/eventsts',
  section: 'journals.vehicleConnectEvents',
  menu: { group: 'journals', label: 'menu.journals.eventsts' },
  title: 'События ТС',
  file: 'eventsts',
  api: '/api/v1/journals/eventsts',
  filters: [
    period,
    vehicles,
    { kind: 'enum', name: 'type', label: 'journals.filters.type', values: VEHICLE_EVENT_KINDS, labels: 'journals.kinds' },
  ],
  columns: [id, at, ...vehicleColumns, kind(), details],
});

export const SOFTWARE_EVENTS_JOURNAL = defineReport({
  ...journal,
  path: '/journal/eventspo',
  section: 'journals.softwareEvents',
  menu: { group: 'journals', label: 'menu.journals.eventspo' },
  title: 'События ПО',
  file: 'eventspo',
  api: '/api/v1/journals/eventspo',
  filters: [period, vehicles, typeText],
  columns: [
    id,
    at,
    ...vehicleColumns,
    kind(),
    { name: 'severity', header: 'Важность', type: 'enum', labels: 'journals.severities', sortable: true },
    { name: 'message', header: 'Сообщение', type: 'text' },
    details,
  ],
});

export const VIDEO_EVENTS_JOURNAL = defineReport({
  ...journal,
  path: '/journal/video',
  section: 'journals.videoEvents',
  menu: { group: 'journals', label: 'menu.journals.video' },
  title: 'События видео',
  file: 'video',
  api: '/api/v1/journals/video',
  filters: [period, vehicles, typeText],
  columns: [
    id,
    at,
    ...vehicleColumns,
    kind(),
    { name: 'camera', header: 'Камера', type: 'integer', sortable: true },
    { name: 'request_id', header: 'Запрос видео', type: 'integer' },
    { name: 'message', header: 'Сообщение', type: 'text' },
    { ...details, exportOnly: true },
  ],
});

export const ADAS_EVENTS_JOURNAL = defineReport({
  ...journal,
  path: '/journal/adas',
  section: 'journals.adas',
  menu: { group: 'journals', label: 'menu.journals.adas' },
  title: 'События ИСПВ',
  file: 'adas',
  api: '/api/v1/journals/adas',
  defaultSort: { field: 'tm', order: 'DESC' },
  filters: [period, vehicles, { kind: 'incidentTypes', name: 'type', label: 'journals.filters.incident' }],
  columns: [
    id,
    { ...at, name: 'tm', label: 'journals.columns.at' },
    ...vehicleColumns,
    { name: 'incident_type', header: 'Код инцидента', type: 'integer', sortable: true },
    { name: 'incident_name', header: 'Инцидент', type: 'text' },
    { name: 'grade', header: 'Степень', type: 'integer', sortable: true },
    { name: 'speed', header: 'Скорость, км/ч', type: 'number', sortable: true, decimals: 1 },
    { name: 'lat', header: 'Широта', type: 'number', decimals: COORDINATE_DECIMALS },
    { name: 'lon', header: 'Долгота', type: 'number', decimals: COORDINATE_DECIMALS },
    { name: 'route_id', header: 'ID маршрута', type: 'integer', exportOnly: true },
    { name: 'route_name', header: 'Маршрут', type: 'text' },
    { name: 'review', header: 'Разбор', type: 'enum', labels: 'reports.adas.reviews', sortable: true },
    { name: 'review_comment', header: 'Комментарий разбора', type: 'text' },
    { name: 'reviewed_by', header: 'Разобрал', type: 'text' },
    { name: 'reviewed_at', header: 'Время разбора', type: 'datetime', exportOnly: true },
  ],
});

export const JOURNAL_REPORTS = [
  USER_ACTIONS_JOURNAL,
  VEHICLE_EVENTS_JOURNAL,
  SOFTWARE_EVENTS_JOURNAL,
  VIDEO_EVENTS_JOURNAL,
  ADAS_EVENTS_JOURNAL,
] as const;
