import { COORDINATE_DECIMALS } from '../constants';
import { defineReport, type ReportColumn, type ReportFilter } from './types';

/**
 * The thirteen passenger-flow screens (SCREENS.md "Passenger flow"; permission code 4) and the validation
 * import's history (code 33). Their SQL is src/server/passengers/passengerReports.ts, over the TIDES tables and
 * the rollups of migration 070. Screens with a special part name it in `part` (src/client/passengers/).
 */

export const PASSENGER_STEPS = ['day', 'hour'] as const;
export const DIRECTIONS = ['0', '1'] as const;
export const PAY_GROUPS = ['ticketType', 'ticketView', 'route', 'day'] as const;
export const TURNOVER_GROUPS = ['route', 'vehicle', 'day'] as const;
export const DAILY_GROUPS = ['route', 'vehicle'] as const;
export const OD_VIEWS = ['stops', 'districts', 'transfers'] as const;
export const PEAKS = ['all', 'morning', 'evening'] as const;
export const VISIT_FLAGS = ['imbalance', 'silent'] as const;
export const CLASS_VERDICTS = ['larger', 'smaller', 'fits'] as const;

const period = (maxDays = 93): ReportFilter => ({
  kind: 'period',
  name: 'period',
  label: 'reports.filters.period',
  required: true,
  maxDays,
  preset: 'last7Days',
});
const depots: ReportFilter = { kind: 'depots', name: 'depot', label: 'reports.filters.depots' };
const routes: ReportFilter = { kind: 'routes', name: 'route', label: 'reports.filters.routes' };
const vehicles: ReportFilter = { kind: 'vehicles', name: 'vehicle', label: 'reports.filters.vehicles' };
const stops: ReportFilter = { kind: 'stops', name: 'stop', label: 'reports.filters.stops' };
const ticketTypes: ReportFilter = { kind: 'ticketTypes', name: 'ticket', label: 'reports.filters.ticketTypes' };
const step: ReportFilter = {
  kind: 'choice',
  name: 'step',
  label: 'reports.passengers.step',
  values: PASSENGER_STEPS,
  labels: 'reports.passengers.steps',
  default: 'day',
};

const n = (name: string, header: string, extra: Partial<ReportColumn> = {}): ReportColumn => ({
  name,
  header,
  type: 'number',
  decimals: 0,
  sortable: true,
  total: true,
  ...extra,
});
const text = (name: string, header: string, extra: Partial<ReportColumn> = {}): ReportColumn => ({
  name,
  header,
  type: 'text',
  sortable: true,
  ...extra,
});
const percent = (name: string, header: string): ReportColumn => ({ name, header, type: 'number', decimals: 1, sortable: true });

const col = {
  period: { name: 'period', header: 'Период', type: 'period', sortable: true },
  day: { name: 'day', header: 'Дата', type: 'date', sortable: true },
  routeId: { name: 'route_id', header: 'ID маршрута', type: 'integer', exportOnly: true },
  route: text('route_name', 'Маршрут'),
  direction: { name: 'direction', header: 'Направление', type: 'enum', labels: 'reports.passengers.directions', sortable: true },
  passengers: n('passengers', 'Пассажиров'),
  boardings: n('boardings', 'Вошло'),
  alightings: n('alightings', 'Вышло'),
  validations: n('validations', 'Валидаций'),
  trips: n('trips', 'Рейсов'),
  pkm: n('pkm', 'Пассажирооборот, пасс.-км'),
} satisfies Record<string, ReportColumn>;

const passengers = {
  module: 'passengers',
  labels: 'reports.passengers.columns',
  export: ['csv', 'xlsx'],
  pageSize: 100,
  totals: true,
  build: 'button',
} as const;
const menu = (label: string) => ({ group: 'passengers' as const, label: `menu.passengers.${label}` });

/** /passengers/analysis: the period by day (table and chart) under the overview against the previous period. */
export const PASSENGER_ANALYSIS = defineReport({
  ...passengers,
  path: '/passengers/analysis',
  menu: menu('analysis'),
  title: 'Анализ пассажиропотока',
  file: 'passengers-analysis',
  filters: [period(), depots, routes],
  columns: [
    col.day,
    col.passengers,
    col.validations,
    col.trips,
    col.pkm,
    { name: 'load_avg', header: 'Средняя наполняемость, пасс.', type: 'number', decimals: 1, sortable: true },
    n('previous', 'Пассажиров в прошлом периоде'),
  ],
  defaultSort: { field: 'day', order: 'ASC' },
  charts: [{ kind: 'line', title: 'reports.passengers.byDayChart', x: 'day', value: 'passengers' }],
  part: 'passengerSummary',
});

/** /passengers/registry (section off by default): the raw stop visits with their data-quality flags. */
export const PASSENGER_REGISTRY = defineReport({
  ...passengers,
  section: 'passengers.registry',
  totals: false,
  path: '/passengers/registry',
  menu: menu('registry'),
  title: 'Реестр остановочных посещений',
  file: 'passengers-registry',
  filters: [
    period(31),
    routes,
    vehicles,
    stops,
    { kind: 'enum', name: 'flag', label: 'reports.passengers.flag', values: VISIT_FLAGS, labels: 'reports.passengers.flags' },
  ],
  columns: [
    { name: 'id', header: 'ID', type: 'integer', exportOnly: true },
    { name: 'arrival', header: 'Прибытие', type: 'datetime', sortable: true },
    { name: 'departure', header: 'Отправление', type: 'datetime' },
    col.route,
    col.direction,
    { name: 'depot_number', header: 'Гаражный номер', type: 'integer', sortable: true },
    text('stop_name', 'Остановка'),
    { name: 'stop_sequence', header: '№ остановки', type: 'integer' },
    { name: 'boardings', header: 'Вошло', type: 'number', decimals: 0, sortable: true },
    { name: 'alightings', header: 'Вышло', type: 'number', decimals: 0, sortable: true },
    { name: 'departure_load', header: 'Наполняемость при отправлении', type: 'number', decimals: 0, sortable: true },
    { name: 'flags', header: 'Качество данных', type: 'text' },
  ],
  defaultSort: { field: 'arrival', order: 'DESC' },
});

/** /passengers/passage: passengers per route and direction per day or hour. */
export const PASSENGER_PASSAGE = defineReport({
  ...passengers,
  path: '/passengers/passage',
  menu: menu('passage'),
  title: 'Пассажиропоток по маршрутам',
  file: 'passengers-passage',
  filters: [period(), step, depots, routes],
  columns: [col.period, col.routeId, col.route, col.direction, col.boardings, col.alightings, col.pkm],
  defaultSort: { field: 'period', order: 'ASC' },
  charts: [{ kind: 'bar', title: 'reports.passengers.passageChart', x: 'period', value: 'boardings' }],
});

/** /passengers/stops: boardings and alightings per stop, as circles on a map and a table. */
export const PASSENGER_STOPS = defineReport({
  ...passengers,
  path: '/passengers/stops',
  menu: menu('stops'),
  title: 'Пассажиропоток по остановкам',
  file: 'passengers-stops',
  filters: [period(), depots, routes, stops],
  columns: [
    { name: 'stop_id', header: 'ID остановки', type: 'integer', sortable: true },
    text('stop_name', 'Остановка'),
    { name: 'lat', header: 'Широта', type: 'number', decimals: COORDINATE_DECIMALS, exportOnly: true },
    { name: 'lon', header: 'Долгота', type: 'number', decimals: COORDINATE_DECIMALS, exportOnly: true },
    col.boardings,
    col.alightings,
    n('exchange', 'Пассажирообмен'),
    { name: 'routes', header: 'Маршрутов', type: 'number', decimals: 0, sortable: true },
  ],
  defaultSort: { field: 'exchange', order: 'DESC' },
  charts: [{ kind: 'bar', title: 'reports.passengers.stopsChart', x: 'stop_id', label: 'stop_name', value: 'exchange', top: 20 }],
  part: 'stopsMap',
});

/** /passengers/pay: validations by ticket type, ticket view, route or day; validations per passenger counted. */
export const PASSENGER_PAY = defineReport({
  ...passengers,
  path: '/passengers/pay',
  menu: menu('pay'),
  title: 'Оплата проезда',
  file: 'passengers-pay',
  filters: [
    period(),
    {
      kind: 'choice',
      name: 'group',
      label: 'reports.passengers.group',
      values: PAY_GROUPS,
      labels: 'reports.passengers.groups',
      default: 'ticketType',
    },
    depots,
    routes,
    ticketTypes,
  ],
  columns: [
    { name: 'key', header: 'Код', type: 'text', exportOnly: true },
    text('name', 'Группа', { sortable: true }),
    col.validations,
    percent('share', 'Доля, %'),
    n('passengers', 'Пассажиров по счётчикам'),
    { name: 'per_passenger', header: 'Валидаций на пассажира', type: 'number', decimals: 2, sortable: true },
    percent('evasion', 'Оценка безбилетного проезда, %'),
  ],
  defaultSort: { field: 'validations', order: 'DESC' },
  charts: [{ kind: 'pie', title: 'reports.passengers.payChart', x: 'name', value: 'validations', top: 10 }],
});

/** /passengers/correspondence (section off by default): the origin-destination matrix and the transfers. */
export const PASSENGER_CORRESPONDENCE = defineReport({
  ...passengers,
  section: 'passengers.correspondence',
  path: '/passengers/correspondence',
  menu: menu('correspondence'),
  title: 'Корреспонденция пассажиров',
  file: 'passengers-correspondence',
  filters: [
    period(),
    {
      kind: 'choice',
      name: 'view',
      label: 'reports.passengers.view',
      values: OD_VIEWS,
      labels: 'reports.passengers.views',
      default: 'stops',
    },
    routes,
  ],
  columns: [text('origin', 'Откуда'), text('destination', 'Куда'), n('journeys', 'Поездок'), percent('share', 'Доля, %')],
  defaultSort: { field: 'journeys', order: 'DESC' },
  part: 'odMatrix',
});

/** /passengers/passturn/table: passenger-km by route, vehicle or day. */
export const PASSENGER_TURNOVER = defineReport({
  ...passengers,
  path: '/passengers/passturn/table',
  menu: menu('passturn'),
  title: 'Пассажирооборот',
  file: 'passengers-turnover',
  filters: [
    period(),
    {
      kind: 'choice',
      name: 'group',
      label: 'reports.passengers.group',
      values: TURNOVER_GROUPS,
      labels: 'reports.passengers.groups',
      default: 'route',
    },
    depots,
    routes,
    vehicles,
  ],
  columns: [
    { name: 'key', header: 'Код', type: 'text', exportOnly: true },
    text('name', 'Группа'),
    col.pkm,
    col.passengers,
    n('km', 'Пробег с пассажирами, км'),
    col.trips,
    { name: 'avg_ride_km', header: 'Средняя дальность поездки, км', type: 'number', decimals: 2, sortable: true },
  ],
  defaultSort: { field: 'pkm', order: 'DESC' },
  charts: [{ kind: 'bar', title: 'reports.passengers.turnoverChart', x: 'name', value: 'pkm', top: 20 }],
});

/** /passengers/turnstops/table: passenger exchange per stop by route and hour. */
export const PASSENGER_EXCHANGE = defineReport({
  ...passengers,
  path: '/passengers/turnstops/table',
  menu: menu('turnstops'),
  title: 'Пассажирообмен остановок',
  file: 'passengers-exchange',
  filters: [period(), depots, routes, stops],
  columns: [
    text('stop_name', 'Остановка'),
    col.route,
    { name: 'hour', header: 'Час', type: 'integer', sortable: true },
    col.boardings,
    col.alightings,
    n('exchange', 'Пассажирообмен'),
  ],
  defaultSort: { field: 'exchange', order: 'DESC' },
  charts: [{ kind: 'bar', title: 'reports.passengers.exchangeChart', x: 'hour', value: 'exchange' }],
});

/** /passengers/betweenstops/table: the load profile of a route direction against seated and total capacity. */
export const PASSENGER_LOAD_PROFILE = defineReport({
  ...passengers,
  totals: false,
  path: '/passengers/betweenstops/table',
  menu: menu('betweenstops'),
  title: 'Наполняемость между остановками',
  file: 'passengers-load-profile',
  filters: [
    period(),
    routes,
    {
      kind: 'choice',
      name: 'direction',
      label: 'reports.passengers.direction',
      values: DIRECTIONS,
      labels: 'reports.passengers.directions',
      default: '0',
    },
    { kind: 'choice', name: 'peak', label: 'reports.passengers.peak', values: PEAKS, labels: 'reports.passengers.peaks', default: 'all' },
  ],
  columns: [
    { name: 'stop_sequence', header: '№', type: 'integer', sortable: true },
    text('stop_name', 'Остановка', { sortable: false }),
    text('next_stop_name', 'Следующая остановка', { sortable: false }),
    { name: 'boardings', header: 'Вошло в среднем', type: 'number', decimals: 1 },
    { name: 'alightings', header: 'Вышло в среднем', type: 'number', decimals: 1 },
    { name: 'load_avg', header: 'Наполняемость в среднем', type: 'number', decimals: 1, sortable: true },
    { name: 'load_max', header: 'Наибольшая наполняемость', type: 'number', decimals: 0, sortable: true },
    { name: 'seats', header: 'Мест для сидения', type: 'number', decimals: 0 },
    { name: 'capacity', header: 'Вместимость', type: 'number', decimals: 0 },
    percent('load_factor', 'Коэффициент наполнения, %'),
    { name: 'trips', header: 'Рейсов', type: 'number', decimals: 0 },
    { name: 'route_name', header: 'Маршрут', type: 'text', exportOnly: true },
  ],
  defaultSort: { field: 'stop_sequence', order: 'ASC' },
  part: 'loadProfile',
});

/** /passengers/rolling-stock: vehicles out on each route by hour against the plan, trips and vehicle-hours. */
export const PASSENGER_ROLLING_STOCK = defineReport({
  ...passengers,
  path: '/passengers/rolling-stock',
  menu: menu('rollingStock'),
  title: 'Выпуск подвижного состава',
  file: 'passengers-rolling-stock',
  filters: [period(31), depots, routes],
  columns: [
    col.routeId,
    col.route,
    { name: 'hour', header: 'Час', type: 'integer', sortable: true },
    { name: 'planned_vehicles', header: 'ТС по плану (в среднем за день)', type: 'number', decimals: 1, sortable: true, total: true },
    { name: 'vehicles', header: 'ТС на линии (в среднем за день)', type: 'number', decimals: 1, sortable: true, total: true },
    n('planned_trips', 'Рейсов по плану'),
    col.trips,
    { name: 'vehicle_hours', header: 'Машино-часы', type: 'number', decimals: 1, sortable: true, total: true },
  ],
  defaultSort: { field: 'route_name', order: 'ASC' },
  charts: [{ kind: 'bar', title: 'reports.passengers.rollingStockChart', x: 'hour', value: 'vehicles' }],
});

/** /passengers/dist-rolling-stock: vehicle classes on each route against the peak load. */
export const PASSENGER_CLASS_FIT = defineReport({
  ...passengers,
  totals: false,
  path: '/passengers/dist-rolling-stock',
  menu: menu('distRollingStock'),
  title: 'Распределение подвижного состава',
  file: 'passengers-class-fit',
  filters: [period(), depots, routes],
  columns: [
    col.routeId,
    col.route,
    text('class_code', 'Класс ТС'),
    { name: 'vehicles', header: 'ТС', type: 'number', decimals: 0, sortable: true },
    { name: 'peak_load', header: 'Наполняемость в час пик (95-й процентиль)', type: 'number', decimals: 0, sortable: true },
    { name: 'capacity', header: 'Вместимость', type: 'number', decimals: 0, sortable: true },
    percent('load_factor', 'Коэффициент наполнения в час пик, %'),
    text('recommended', 'Подходящий класс'),
    { name: 'verdict', header: 'Вывод', type: 'enum', labels: 'reports.passengers.verdicts', sortable: true },
  ],
  defaultSort: { field: 'load_factor', order: 'DESC' },
  charts: [{ kind: 'bar', title: 'reports.passengers.classChart', x: 'route_name', value: 'load_factor', top: 20 }],
});

/** /reports/traffic: trips performed against planned per route and day, regularity and run times. */
export const PASSENGER_TRAFFIC = defineReport({
  ...passengers,
  path: '/reports/traffic',
  menu: menu('traffic'),
  title: 'Отчёт о перевозках',
  file: 'traffic',
  filters: [period(), depots, routes],
  columns: [
    col.day,
    col.routeId,
    col.route,
    n('planned', 'Рейсов по плану'),
    n('performed', 'Рейсов выполнено'),
    percent('regularity', 'Регулярность, %'),
    { name: 'run_minutes', header: 'Среднее время рейса, мин', type: 'number', decimals: 1, sortable: true },
  ],
  defaultSort: { field: 'day', order: 'ASC' },
  charts: [{ kind: 'bar', title: 'reports.passengers.trafficChart', x: 'day', value: 'performed' }],
});

/** /passengers/daily-data: one row per day and route (or vehicle): passengers, validations, trips, completeness. */
export const PASSENGER_DAILY = defineReport({
  ...passengers,
  path: '/passengers/daily-data',
  menu: menu('dailyData'),
  title: 'Суточные данные',
  file: 'passengers-daily',
  filters: [
    period(),
    {
      kind: 'choice',
      name: 'group',
      label: 'reports.passengers.group',
      values: DAILY_GROUPS,
      labels: 'reports.passengers.groups',
      default: 'route',
    },
    depots,
    routes,
    vehicles,
  ],
  columns: [
    col.day,
    { name: 'key', header: 'Код', type: 'text', exportOnly: true },
    text('name', 'Маршрут или ТС'),
    col.passengers,
    col.validations,
    col.trips,
    n('counted_trips', 'Рейсов со счётом'),
    percent('completeness', 'Полнота данных, %'),
  ],
  defaultSort: { field: 'day', order: 'ASC' },
  charts: [{ kind: 'line', title: 'reports.passengers.dailyChart', x: 'day', value: 'passengers' }],
});

/** /import-data/tickets-validation: the import history (the upload sits in its toolbar). */
export const VALIDATION_IMPORTS = defineReport({
  module: 'importData',
  labels: 'reports.passengers.imports',
  export: ['csv', 'xlsx'],
  pageSize: 30,
  build: 'auto',
  path: '/import-data/tickets-validation',
  menu: { group: 'importData', label: 'menu.importData.ticketsValidation' },
  title: 'История импорта валидаций',
  file: 'validation-imports',
  filters: [{ kind: 'period', name: 'period', label: 'reports.filters.period' }],
  columns: [
    { name: 'id', header: '№', type: 'integer', sortable: true },
    { name: 'at', header: 'Когда', type: 'datetime', sortable: true },
    text('username', 'Кто'),
    text('file', 'Файл'),
    { name: 'rows', header: 'Строк', type: 'number', decimals: 0 },
    { name: 'added', header: 'Добавлено', type: 'number', decimals: 0 },
    { name: 'skipped', header: 'Пропущено (уже были)', type: 'number', decimals: 0 },
    { name: 'refused', header: 'Отклонено', type: 'number', decimals: 0 },
    { name: 'status', header: 'Итог', type: 'enum', labels: 'reports.passengers.importStatuses' },
    { name: 'message', header: 'Сообщение', type: 'text', exportOnly: true },
  ],
  defaultSort: { field: 'id', order: 'DESC' },
});

export const PASSENGER_REPORTS = [
  PASSENGER_ANALYSIS,
  PASSENGER_REGISTRY,
  PASSENGER_PASSAGE,
  PASSENGER_STOPS,
  PASSENGER_PAY,
  PASSENGER_CORRESPONDENCE,
  PASSENGER_TURNOVER,
  PASSENGER_EXCHANGE,
  PASSENGER_LOAD_PROFILE,
  PASSENGER_ROLLING_STOCK,
  PASSENGER_CLASS_FIT,
  PASSENGER_TRAFFIC,
  PASSENGER_DAILY,
  VALIDATION_IMPORTS,
] as const;
