import { defineReport } from './types';

/** ADAS incident reports (SCREENS.md, "ADAS incident reports"; permission code 34). */

export const INCIDENT_STEPS = ['hour', 'day', 'week', 'month'] as const;
export type IncidentStep = (typeof INCIDENT_STEPS)[number];

/** /adas/incidents-dynamic: incidents over time, one row per period and type, a stacked bar per period. */
export const INCIDENTS_DYNAMIC = defineReport({
  path: '/adas/incidents-dynamic', module: 'adas', menu: { group: 'adas', label: 'menu.adas.incidentsDynamic' },
  title: 'Динамика инцидентов', file: 'incidents-dynamic', labels: 'reports.adas.columns',
  filters: [
    { kind: 'period', name: 'period', label: 'reports.filters.period', required: true, maxDays: 366, preset: 'last30Days' },
    { kind: 'choice', name: 'step', label: 'reports.adas.step', values: INCIDENT_STEPS, labels: 'reports.adas.steps', default: 'day' },
    { kind: 'depots', name: 'depot', label: 'reports.filters.depots' },
    { kind: 'routes', name: 'route', label: 'reports.filters.routes' },
    { kind: 'vehicles', name: 'vehicle', label: 'reports.filters.vehicles' },
    { kind: 'incidentTypes', name: 'type', label: 'reports.filters.incidentTypes' },
  ],
  columns: [
    { name: 'period', header: 'Период', type: 'period', sortable: true },
    { name: 'incident_type', header: 'Код инцидента', type: 'integer', sortable: true },
    { name: 'incident_name', header: 'Инцидент', type: 'text', sortable: true },
    { name: 'count', header: 'Количество', type: 'number', decimals: 0, sortable: true, total: true },
  ],
  defaultSort: { field: 'period', order: 'ASC' },
  charts: [{ kind: 'bar', title: 'reports.adas.chart', x: 'period', value: 'count', stackBy: 'incident_name' }],
  export: ['csv', 'xlsx'],
  pageSize: 100,
  totals: true,
  build: 'button',
});

export const ADAS_REPORTS = [INCIDENTS_DYNAMIC] as const;
