import type { Switches } from '../../shared/modules';

export type JournalId = 'useractions' | 'eventsts' | 'eventspo' | 'video' | 'adas';

/** One column of a journal: its SQL expression (from the whitelist only), its CSV header and cell format. */
export interface JournalColumn {
  name: string;
  sql: string;
  header: string;
  format?: 'time';
}

/**
 * A journal screen of spec section 2 (/journal/*): table, columns, sort whitelist, filters, and the permission
 * key and section switch that guard it. The list and export routes of every journal are built from this.
 */
export interface JournalDefinition {
  id: JournalId;
  /** Console route key: the permission path and the route's section in CONSOLE_ROUTES. */
  routeKey: string;
  section: string;
  /** Russian name for the API summaries and the export's file name. */
  title: string;
  from: string;
  /** The time column the period filter and default sort use. */
  time: string;
  columns: JournalColumn[];
  sortable: Record<string, string>;
  defaultSort: string;
  /** Filter columns: user and vehicle ids, and the event type (text values or integer codes). */
  userColumn?: string;
  vehicleColumn?: string;
  type: { sql: string; kind: 'text' | 'int'; values?: readonly string[] };
  /** A condition some switches add (pass errors show in eventsts only while their switch is on). */
  switchedWhere?: (switches: Switches) => string | undefined;
}

// Ids are bigserial; a JSON number holds them exactly far beyond any journal's size, unlike pg's int8-as-text.
const id: JournalColumn = { name: 'id', sql: 'j.id::float8', header: '№' };
const at = (sql = 'j.at', name = 'at'): JournalColumn => ({ name, sql, header: 'Дата и время', format: 'time' });
const vehicle = 'left join mgt.vehicles v on v.id = j.vehicle_id';
const vehicleColumns: JournalColumn[] = [
  { name: 'vehicle_id', sql: 'j.vehicle_id', header: 'ID ТС' },
  { name: 'depot_number', sql: 'coalesce(j.depot_number, v.depot_number)', header: 'Гаражный номер' },
  { name: 'state_number', sql: 'v.state_number', header: 'Госномер' },
];
const vehicleSort = { depot_number: 'coalesce(j.depot_number, v.depot_number)', vehicle_id: 'j.vehicle_id' };

export const VEHICLE_EVENT_KINDS = ['connect', 'disconnect', 'pass_error'] as const;

export const JOURNALS: readonly JournalDefinition[] = [
  {
    id: 'useractions', routeKey: '/journal/useractions', section: 'journals.userActions', title: 'Журнал действий пользователей',
    from: 'app.user_action j', time: 'j.at',
    columns: [
      id, at(),
      { name: 'user_id', sql: 'j.user_id', header: 'ID пользователя' },
      { name: 'username', sql: 'j.username', header: 'Пользователь' },
      { name: 'page_id', sql: 'j.page_id', header: 'Страница' },
      { name: 'action', sql: 'j.action', header: 'Действие' },
      { name: 'object', sql: 'j.object', header: 'Объект' },
      { name: 'object_id', sql: 'j.object_id', header: 'ID объекта' },
      { name: 'before', sql: 'j.before', header: 'До изменения' },
      { name: 'after', sql: 'j.after', header: 'После изменения' },
      { name: 'request', sql: 'j.request', header: 'Запрос' },
      { name: 'ip', sql: 'j.ip', header: 'IP-адрес' },
    ],
    sortable: { id: 'j.id', at: 'j.at', username: 'lower(j.username)', action: 'j.action', object: 'j.object', page_id: 'j.page_id' },
    defaultSort: 'at',
    userColumn: 'j.user_id',
    type: { sql: 'j.action', kind: 'text' },
  },
  {
    id: 'eventsts', routeKey: '/journal/eventsts', section: 'journals.vehicleConnectEvents', title: 'События ТС',
    from: `app.vehicle_event j ${vehicle}`, time: 'j.at',
    columns: [id, at(), ...vehicleColumns, { name: 'kind', sql: 'j.kind', header: 'Событие' }, { name: 'details', sql: 'j.details', header: 'Подробности' }],
    sortable: { id: 'j.id', at: 'j.at', kind: 'j.kind', ...vehicleSort },
    defaultSort: 'at',
    vehicleColumn: 'j.vehicle_id',
    type: { sql: 'j.kind', kind: 'text', values: VEHICLE_EVENT_KINDS },
    switchedWhere: (switches) => (switches.sections['journals.passErrors'] === false ? "j.kind <> 'pass_error'" : undefined),
  },
  {
    id: 'eventspo', routeKey: '/journal/eventspo', section: 'journals.softwareEvents', title: 'События ПО',
    from: `app.software_event j ${vehicle}`, time: 'j.at',
    columns: [
      id, at(), ...vehicleColumns,
      { name: 'kind', sql: 'j.kind', header: 'Событие' },
      { name: 'severity', sql: 'j.severity', header: 'Важность' },
      { name: 'message', sql: 'j.message', header: 'Сообщение' },
      { name: 'details', sql: 'j.details', header: 'Подробности' },
    ],
    sortable: { id: 'j.id', at: 'j.at', kind: 'j.kind', severity: 'j.severity', ...vehicleSort },
    defaultSort: 'at',
    vehicleColumn: 'j.vehicle_id',
    type: { sql: 'j.kind', kind: 'text' },
  },
  {
    id: 'video', routeKey: '/journal/video', section: 'journals.videoEvents', title: 'События видео',
    from: `app.video_event j ${vehicle}`, time: 'j.at',
    columns: [
      id, at(), ...vehicleColumns,
      { name: 'kind', sql: 'j.kind', header: 'Событие' },
      { name: 'camera', sql: 'j.camera', header: 'Камера' },
      { name: 'request_id', sql: 'j.request_id', header: 'Запрос видео' },
      { name: 'message', sql: 'j.message', header: 'Сообщение' },
      { name: 'details', sql: 'j.details', header: 'Подробности' },
    ],
    sortable: { id: 'j.id', at: 'j.at', kind: 'j.kind', camera: 'j.camera', ...vehicleSort },
    defaultSort: 'at',
    vehicleColumn: 'j.vehicle_id',
    type: { sql: 'j.kind', kind: 'text' },
  },
  {
    id: 'adas', routeKey: '/journal/adas', section: 'journals.adas', title: 'События ИСПВ',
    from: `adas.incident_event j ${vehicle}`, time: 'j.tm',
    columns: [
      id, at('j.tm', 'tm'), ...vehicleColumns,
      { name: 'incident_type', sql: 'j.incident_type', header: 'Код инцидента' },
      // incident_type is not declared unique in the handbook: a subquery cannot multiply rows as a join could.
      { name: 'incident_name', sql: '(select t.incident_name from adas.incident_type t where t.incident_type = j.incident_type order by t.id limit 1)', header: 'Инцидент' },
      { name: 'grade', sql: 'j.grade', header: 'Степень' },
      { name: 'speed', sql: 'j.speed', header: 'Скорость, км/ч' },
      { name: 'lat', sql: 'j.lat', header: 'Широта' },
      { name: 'lon', sql: 'j.lon', header: 'Долгота' },
      { name: 'route_id', sql: 'j.route_id', header: 'ID маршрута' },
      { name: 'route_name', sql: '(select r.route_short_name from mgt.routes r where r.route_id = j.route_id)', header: 'Маршрут' },
    ],
    sortable: { id: 'j.id', tm: 'j.tm', incident_type: 'j.incident_type', grade: 'j.grade', speed: 'j.speed', ...vehicleSort },
    defaultSort: 'tm',
    vehicleColumn: 'j.vehicle_id',
    type: { sql: 'j.incident_type', kind: 'int' },
  },
];
