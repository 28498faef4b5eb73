import { defineReport, type ReportColumn, type ReportFilter } from './types';

/**
 * ADAS incident reports (SCREENS.md, "ADAS incident reports"; permission code 34). The field app's calls of
 * field-app.md section 7 (/api/v1/adas/*) take the same filters in a body and run the same SQL
 * (src/server/adas/incidentQueries.ts).
 */

/** Buckets of the dynamics; 'period' is the whole period as one (the false-alarm share per type over it). */
export const INCIDENT_STEPS = ['hour', 'day', 'week', 'month', 'period'] as const;
export type IncidentStep = (typeof INCIDENT_STEPS)[number];

/** Whether the reports count incidents reviewed as false alarms. */
export const FALSE_ALARM_CHOICES = ['include', 'exclude'] as const;

/** An incident's review (stored in adas.incident_event.review; null = not reviewed). */
export const INCIDENT_REVIEWS = ['confirmed', 'false_alarm'] as const;
export type IncidentReview = (typeof INCIDENT_REVIEWS)[number];
export const REVIEW_COMMENT_MAX = 1000;

/** The pie of the distribution keeps this many routes; the rest are one «other» slice. */
export const DISTRIBUTION_PIE_TOP = 10;

const period: ReportFilter = {
  kind: 'period',
  name: 'period',
  label: 'reports.filters.period',
  required: true,
  maxDays: 366,
  preset: 'last30Days',
};
const pickers: ReportFilter[] = [
  { kind: 'depots', name: 'depot', label: 'reports.filters.depots' },
  { kind: 'routes', name: 'route', label: 'reports.filters.routes' },
  { kind: 'vehicles', name: 'vehicle', label: 'reports.filters.vehicles' },
  { kind: 'incidentTypes', name: 'type', label: 'reports.filters.incidentTypes' },
];
const falseAlarms: ReportFilter = {
  kind: 'choice',
  name: 'falseAlarms',
  label: 'reports.adas.falseAlarms',
  values: FALSE_ALARM_CHOICES,
  labels: 'reports.adas.falseAlarmChoices',
  default: 'include',
};

const count: ReportColumn = { name: 'count', header: 'Количество', type: 'number', decimals: 0, sortable: true, total: true };
const falseAlarmColumns: ReportColumn[] = [
  { name: 'false_alarms', header: 'Ложные срабатывания', type: 'number', decimals: 0, sortable: true, total: true },
  { name: 'false_share', header: 'Доля ложных, %', type: 'number', decimals: 1, sortable: true },
];

const adas = {
  module: 'adas',
  labels: 'reports.adas.columns',
  export: ['csv', 'xlsx'],
  pageSize: 100,
  totals: true,
  build: 'button',
} as const;

/** /adas/incidents-dynamic: incidents over time, one row per period and type, a stacked bar per period. */
export const INCIDENTS_DYNAMIC = defineReport({
  ...adas,
  path: '/adas/incidents-dynamic',
  menu: { group: 'adas', label: 'menu.adas.incidentsDynamic' },
  title: 'Динамика инцидентов',
  file: 'incidents-dynamic',
  filters: [
    period,
    { kind: 'choice', name: 'step', label: 'reports.adas.step', values: INCIDENT_STEPS, labels: 'reports.adas.steps', default: 'day' },
    ...pickers,
    falseAlarms,
  ],
  columns: [
    { name: 'period', header: 'Период', type: 'period', sortable: true },
    { name: 'incident_type', header: 'Код инцидента', type: 'integer', sortable: true },
    { name: 'incident_name', header: 'Инцидент', type: 'text', sortable: true },
    count,
    ...falseAlarmColumns,
  ],
  defaultSort: { field: 'period', order: 'ASC' },
  charts: [{ kind: 'bar', title: 'reports.adas.chart', x: 'period', value: 'count', stackBy: 'incident_name' }],
});

/**
 * /adas/incidents-distribution: incidents per route, their share, the rates per 100 km driven and per 1,000
 * trips run (adas.route_work), and the change against the previous period of equal length.
 */
export const INCIDENTS_DISTRIBUTION = defineReport({
  ...adas,
  path: '/adas/incidents-distribution',
  menu: { group: 'adas', label: 'menu.adas.incidentsDistribution' },
  title: 'Распределение инцидентов по маршрутам',
  file: 'incidents-distribution',
  filters: [period, ...pickers, falseAlarms],
  columns: [
    { name: 'route_id', header: 'ID маршрута', type: 'integer', exportOnly: true },
    { name: 'route_name', header: 'Маршрут', type: 'text', sortable: true },
    count,
    { name: 'share', header: 'Доля, %', type: 'number', decimals: 1, sortable: true },
    { name: 'km', header: 'Пробег, км', type: 'number', decimals: 0, sortable: true, total: true },
    { name: 'trips', header: 'Рейсов', type: 'number', decimals: 0, sortable: true, total: true },
    { name: 'per_100km', header: 'На 100 км', type: 'number', decimals: 2, sortable: true },
    { name: 'per_1000_trips', header: 'На 1000 рейсов', type: 'number', decimals: 1, sortable: true },
    { name: 'previous', header: 'За прошлый период', type: 'number', decimals: 0, sortable: true, total: true },
    { name: 'change', header: 'Изменение, %', type: 'number', decimals: 1, sortable: true },
    ...falseAlarmColumns,
  ],
  defaultSort: { field: 'count', order: 'DESC' },
  charts: [{ kind: 'pie', title: 'reports.adas.distributionChart', x: 'route_name', value: 'count', top: DISTRIBUTION_PIE_TOP }],
});

/**
 * /adas/incidents-detailing: incidents per vehicle (grades, false alarms, rate per 100 km); a vehicle's row
 * opens its incidents (vehicle-incidents-detail-table), and an incident its place on a small map and review.
 */
export const INCIDENTS_DETAILING = defineReport({
  ...adas,
  path: '/adas/incidents-detailing',
  menu: { group: 'adas', label: 'menu.adas.incidentsDetailing' },
  title: 'Детализация инцидентов по ТС',
  file: 'incidents-detailing',
  filters: [period, ...pickers, falseAlarms],
  columns: [
    { name: 'vehicle_id', header: 'ID ТС', type: 'integer', exportOnly: true },
    { name: 'depot_number', header: 'Гаражный номер', type: 'integer', sortable: true },
    { name: 'state_number', header: 'Госномер', type: 'text', sortable: true },
    { name: 'depot_name', header: 'Предприятие', type: 'text', sortable: true },
    count,
    { name: 'high', header: 'Степень 3', type: 'number', decimals: 0, sortable: true, total: true },
    { name: 'km', header: 'Пробег, км', type: 'number', decimals: 0, sortable: true, total: true },
    { name: 'per_100km', header: 'На 100 км', type: 'number', decimals: 2, sortable: true },
    ...falseAlarmColumns,
  ],
  defaultSort: { field: 'count', order: 'DESC' },
  charts: [{ kind: 'bar', title: 'reports.adas.detailingChart', x: 'depot_number', value: 'count', top: 20 }],
  expand: 'adasVehicleIncidents',
});

export const ADAS_REPORTS = [INCIDENTS_DYNAMIC, INCIDENTS_DISTRIBUTION, INCIDENTS_DETAILING] as const;

/** The field app's calls (field-app.md section 7), under /api/v1/adas/. */
export const ADAS_API = '/api/v1/adas';

/** The filters body of every POST call of ADAS_API (the reports' filters, as lists). */
export interface AdasFiltersBody {
  from?: string;
  to?: string;
  vehicles?: number[];
  routes?: number[];
  depots?: number[];
  types?: number[];
  step?: IncidentStep;
  falseAlarms?: (typeof FALSE_ALARM_CHOICES)[number];
  skipCount?: number;
  recordCount?: number;
  top?: number;
}

/** One incident as vehicle-incidents-detail-table, GET incidents/:id and the review answer it. */
export interface AdasIncidentRow {
  id: number;
  tm: string;
  vehicle_id: number | null;
  depot_number: number | null;
  state_number: string | null;
  incident_type: number;
  incident_name: string;
  incident_color: string | null;
  grade: number;
  speed: number | null;
  lat: number | null;
  lon: number | null;
  route_id: number | null;
  route_name: string | null;
  trip_id: number | null;
  race_num: number | null;
  driver_id: number | null;
  driver_name: string | null;
  evidence: string[] | null;
  review: IncidentReview | null;
  review_comment: string | null;
  reviewed_by: string | null;
  reviewed_at: string | null;
  /** The vehicle has a recorder with cameras: the only case a video request can be made (the video requests' rule). */
  has_recorder: boolean;
  /** One incident's answers only: the line of its trip (WKT LINESTRING), for its card's map. */
  trip_line?: string | null;
}
