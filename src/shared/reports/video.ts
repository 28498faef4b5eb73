import { ACTIVE_STATUSES, VIDEO_STATUS_CODES } from '../video/statuses';
import { defineReport, type ReportColumn, type ReportFilter } from './types';

/**
 * The video lists of SCREENS.md "Video" as reports: all archive requests (/video/requests), the user's own
 * (/video/myrequests) and the performed ones to play (/video/archive). Each row has its actions (play,
 * cancel, retry, delete: src/client/video/VideoRequestActions.tsx), and the list refreshes by itself while
 * a request on it is still moving. Deleted requests are left out unless the status filter asks for them.
 * Sortable are the columns an index keeps in order (number, creation, user, period start): with 100,000
 * requests a sort by the vehicle's number took 320 ms a page; the vehicle filter picks a vehicle instead.
 */

const STATUS_VALUES = VIDEO_STATUS_CODES.map(String);

const column = {
  id: { name: 'id', header: '№', type: 'integer', sortable: true },
  created: { name: 'created_at', header: 'Создан', type: 'datetime', sortable: true },
  user: { name: 'username', header: 'Пользователь', type: 'text', sortable: true },
  depot: { name: 'depot_number', header: 'Гаражный номер', type: 'integer' },
  plate: { name: 'state_number', header: 'Госномер', type: 'text' },
  cameras: { name: 'cameras', header: 'Камеры', type: 'text' },
  from: { name: 'period_from', header: 'Начало записи', type: 'datetime', sortable: true },
  to: { name: 'period_to', header: 'Конец записи', type: 'datetime' },
  status: { name: 'status', header: 'Статус', type: 'enum', labels: 'video.statuses', cell: 'videoStatus' },
  progress: { name: 'progress', header: 'Загружено, %', type: 'number', decimals: 0, exportOnly: true },
  reason: { name: 'reason', header: 'Причина', type: 'text', exportOnly: true },
  size: { name: 'size_mb', header: 'Размер, МБ', type: 'number', decimals: 1 },
  userId: { name: 'user_id', header: 'ID пользователя', type: 'integer', exportOnly: true },
  vehicleId: { name: 'vehicle_id', header: 'ID ТС', type: 'integer', exportOnly: true },
} satisfies Record<string, ReportColumn>;

const period: ReportFilter = { kind: 'period', name: 'period', label: 'video.filters.created', withTime: true };
const vehicles: ReportFilter = { kind: 'vehicles', name: 'vehicle', label: 'reports.filters.vehicles' };
const status: ReportFilter = {
  kind: 'enum',
  name: 'status',
  label: 'video.filters.status',
  values: STATUS_VALUES,
  labels: 'video.statuses',
};

const list = {
  module: 'video',
  labels: 'video.columns',
  export: ['csv', 'xlsx'],
  pageSize: 30,
  build: 'auto',
  defaultSort: { field: 'created_at', order: 'DESC' },
  rowActions: 'videoRequest',
  refresh: { everyMs: 2000, field: 'status', values: ACTIVE_STATUSES.map(String) },
} as const;

export const VIDEO_REQUESTS = defineReport({
  ...list,
  path: '/video/requests',
  menu: { group: 'video', label: 'menu.video.requests' },
  title: 'Запросы видеоархива',
  file: 'video-requests',
  filters: [period, vehicles, { kind: 'users', name: 'user', label: 'video.filters.user' }, status],
  columns: [
    column.id,
    column.created,
    column.user,
    column.depot,
    column.plate,
    column.cameras,
    column.from,
    column.to,
    column.status,
    column.progress,
    column.reason,
    column.size,
    column.userId,
    column.vehicleId,
  ],
});

export const VIDEO_MY_REQUESTS = defineReport({
  ...list,
  path: '/video/myrequests',
  menu: { group: 'video', label: 'menu.video.myrequests' },
  title: 'Мои запросы видео',
  file: 'video-myrequests',
  filters: [period, vehicles, status],
  columns: [
    column.id,
    column.created,
    column.depot,
    column.plate,
    column.cameras,
    column.from,
    column.to,
    column.status,
    column.progress,
    column.reason,
    column.size,
    column.vehicleId,
  ],
});

export const VIDEO_ARCHIVE = defineReport({
  ...list,
  path: '/video/archive',
  menu: { group: 'video', label: 'menu.video.archive' },
  title: 'Видеоархив',
  file: 'video-archive',
  filters: [period, vehicles, { kind: 'users', name: 'user', label: 'video.filters.user' }],
  columns: [
    column.id,
    column.created,
    column.user,
    column.depot,
    column.plate,
    column.cameras,
    column.from,
    column.to,
    column.status,
    column.size,
    column.userId,
    column.vehicleId,
  ],
});

export const VIDEO_REPORTS = [VIDEO_REQUESTS, VIDEO_ARCHIVE, VIDEO_MY_REQUESTS] as const;
