import { SERVICE_DAY_CHANGEOVER_MINUTES } from '../dispatch/api';
import { defineReport, type ReportColumn, type ReportFilter } from './types';

/**
 * The dispatcher's reports over the live timetable's stored passages and prediction samples (docs/dispatch.md
 * «Отчёты»; permission code 44). Their SQL is src/server/dispatch/dispatchReports.ts; the thresholds are the
 * navigation settings' (the engine's) at the time of the build.
 */

/** On-time performance grouped by route, by stop or by the hour of the scheduled departure. */
export const ON_TIME_GROUPS = ['route', 'stop', 'hour'] as const;

/**
 * Headway adherence levels of service (TCQSM, 3rd ed., fixed-route headway adherence): the coefficient of
 * variation of the headway deviations (actual less scheduled) over the mean scheduled headway, up to each bound
 * A, B, C, D, E; beyond the last, F.
 */
export const HEADWAY_LOS = [
  ['A', 0.21],
  ['B', 0.3],
  ['C', 0.39],
  ['D', 0.52],
  ['E', 0.74],
] as const;
export const HEADWAY_LOS_WORST = 'F';

/** Prediction horizons (minutes ahead when the prediction was made): [from, to), the last closed. */
export const PREDICTION_HORIZONS = [
  ['h00_05', 0, 5],
  ['h05_10', 5, 10],
  ['h10_20', 10, 20],
  ['h20_30', 20, 30],
] as const;
export const PREDICTION_METHODS = ['learned', 'baseline'] as const;

/**
 * The accepted error of a prediction t minutes ahead, seconds (error: actual arrival less predicted; a vehicle
 * coming earlier than said is the worse miss, so its side is narrower): −scale·ln(t+early) < error < scale·ln(t+late).
 */
export const ACCEPTED_ERROR = { scale: 60, early: 1.3, late: 1.5 } as const;

const period: ReportFilter = {
  kind: 'period',
  name: 'period',
  label: 'reports.filters.period',
  required: true,
  maxDays: 31,
  preset: 'today',
  dayChangeMinutes: SERVICE_DAY_CHANGEOVER_MINUTES,
};
const depots: ReportFilter = { kind: 'depots', name: 'depot', label: 'reports.filters.depots' };
const routes: ReportFilter = { kind: 'routes', name: 'route', label: 'reports.filters.routes' };

const count = (name: string, header: string): ReportColumn => ({ name, header, type: 'number', decimals: 0, sortable: true, total: true });
const percent = (name: string, header: string): ReportColumn => ({ name, header, type: 'number', decimals: 1, sortable: true });
const routeColumns: ReportColumn[] = [
  { name: 'route_id', header: 'ID маршрута', type: 'integer', exportOnly: true },
  { name: 'route_name', header: 'Маршрут', type: 'text', sortable: true },
];

const dispatch = {
  module: 'dispatch',
  labels: 'reports.dispatch.columns',
  export: ['csv', 'xlsx'],
  pageSize: 100,
  totals: true,
  build: 'button',
} as const;
const menu = (label: string) => ({ group: 'dispatch' as const, label: `menu.dispatch.${label}` });

/**
 * /reports/on-time: departures early, on time and late (the settings' earlySeconds and lateSeconds, as the engine
 * judges each passage: the departure, the arrival at the last stop) by route, stop or hour; the chart by hour.
 */
export const DISPATCH_ON_TIME = defineReport({
  ...dispatch,
  path: '/reports/on-time',
  menu: menu('onTime'),
  title: 'Соблюдение расписания',
  file: 'on-time-performance',
  filters: [
    period,
    {
      kind: 'choice',
      name: 'group',
      label: 'reports.dispatch.group',
      values: ON_TIME_GROUPS,
      labels: 'reports.dispatch.groups',
      default: 'route',
    },
    depots,
    routes,
  ],
  columns: [
    { name: 'key', header: 'Код', type: 'integer', exportOnly: true },
    { name: 'name', header: 'Маршрут, остановка или час', type: 'text', sortable: true },
    count('departures', 'Отправлений'),
    count('early', 'Раньше расписания'),
    count('on_time', 'Вовремя'),
    count('late', 'С опозданием'),
    percent('on_time_share', 'Вовремя, %'),
    percent('early_share', 'Раньше, %'),
    percent('late_share', 'С опозданием, %'),
    { name: 'median_deviation', header: 'Медиана отклонения, мин', type: 'number', decimals: 1, sortable: true },
  ],
  defaultSort: { field: 'name', order: 'ASC' },
  charts: [{ kind: 'line', title: 'reports.dispatch.onTimeChart', x: 'key', label: 'name', value: 'on_time_share' }],
});

/**
 * /reports/runs: the timetable's runs of each day against the stored passages, judged as «План и
 * факт» judges them (dispatch.run_status); runs still ahead or under way are pending, out of the shares.
 */
export const DISPATCH_RUN_COMPLETION = defineReport({
  ...dispatch,
  path: '/reports/runs',
  menu: menu('runCompletion'),
  title: 'Выполнение рейсов',
  file: 'run-completion',
  filters: [period, depots, routes],
  columns: [
    { name: 'day', header: 'Дата', type: 'date', sortable: true },
    ...routeColumns,
    count('planned', 'Рейсов по плану'),
    count('performed', 'Выполнено'),
    count('partial', 'Выполнено частично'),
    count('not_performed', 'Не выполнено'),
    count('not_watched', 'Нет данных'),
    count('pending', 'Ещё не завершены'),
    percent('performed_share', 'Выполнено, %'),
    percent('partial_share', 'Частично, %'),
    percent('not_performed_share', 'Не выполнено, %'),
  ],
  defaultSort: { field: 'day', order: 'ASC' },
  charts: [{ kind: 'line', title: 'reports.dispatch.completionChart', x: 'day', value: 'performed_share' }],
});

/**
 * /reports/headways: per route, direction and hour, the actual headways at the stops (between departures of
 * consecutive vehicles) against the timetable's, TCQSM's headway adherence (coefficient of variation and its
 * level of service), the share within ±50 % of the scheduled, bunching and gaps (the settings' thresholds).
 */
export const DISPATCH_HEADWAYS = defineReport({
  ...dispatch,
  path: '/reports/headways',
  menu: menu('headways'),
  title: 'Регулярность интервалов',
  file: 'headway-regularity',
  filters: [period, depots, routes],
  columns: [
    ...routeColumns,
    { name: 'direction', header: 'Направление', type: 'enum', labels: 'reports.dispatch.directions', sortable: true },
    { name: 'hour', header: 'Час', type: 'integer', sortable: true },
    count('headways', 'Интервалов'),
    { name: 'scheduled_headway', header: 'Плановый интервал, мин', type: 'number', decimals: 1, sortable: true },
    { name: 'actual_headway', header: 'Фактический интервал, мин', type: 'number', decimals: 1, sortable: true },
    { name: 'cv', header: 'Коэффициент вариации', type: 'number', decimals: 2, sortable: true },
    { name: 'los', header: 'Уровень обслуживания', type: 'text', sortable: true },
    percent('within_share', 'В пределах ±50 %, %'),
    count('bunching', 'Сгонов'),
    count('gaps', 'Разрывов'),
  ],
  defaultSort: { field: 'route_name', order: 'ASC' },
  charts: [{ kind: 'line', title: 'reports.dispatch.headwayChart', x: 'hour', value: 'within_share' }],
});

/**
 * /reports/predictions: the sampled arrival predictions against the arrivals that followed, per horizon: the
 * learned prediction beside the baseline (timetable plus the deviation of the moment).
 */
export const DISPATCH_PREDICTIONS = defineReport({
  ...dispatch,
  totals: false,
  path: '/reports/predictions',
  menu: menu('predictions'),
  title: 'Точность прогнозов',
  file: 'prediction-accuracy',
  filters: [period, depots, routes],
  columns: [
    { name: 'horizon', header: 'Горизонт прогноза', type: 'enum', labels: 'reports.dispatch.horizons', sortable: true },
    { name: 'method', header: 'Прогноз', type: 'enum', labels: 'reports.dispatch.methods', sortable: true },
    { name: 'samples', header: 'Прогнозов', type: 'number', decimals: 0, sortable: true },
    { name: 'median_error', header: 'Медиана абсолютной ошибки, с', type: 'number', decimals: 0, sortable: true },
    { name: 'mean_error', header: 'Средняя ошибка, с', type: 'number', decimals: 0, sortable: true },
    { name: 'inside', header: 'В допуске', type: 'number', decimals: 0, sortable: true },
    percent('inside_share', 'В допуске, %'),
  ],
  defaultSort: { field: 'horizon', order: 'ASC' },
  charts: [{ kind: 'line', title: 'reports.dispatch.predictionChart', x: 'horizon', value: 'inside_share', stackBy: 'method' }],
});

export const DISPATCH_REPORTS = [DISPATCH_ON_TIME, DISPATCH_RUN_COMPLETION, DISPATCH_HEADWAYS, DISPATCH_PREDICTIONS] as const;
