import { NODE_STATES, SENSOR_TYPES } from '../pdm/model';
import { defineReport, type ReportColumn, type ReportFilter } from './types';

/**
 * PDM reports (SCREENS.md "On-board equipment", codes 35–43). Each screen's special part (the heat layer and
 * grid, the gap-aware chart, the state timeline) is a component the console plugs into the declared page
 * (src/client/pdm/); the tree editor and the import manager are screens of their own.
 */

/** Steps of the charts and the heat grid; 'auto' picks raw readings up to 3 hours, minutes up to 2 days, hours up to 31, then days. */
export const CHART_STEPS = ['auto', 'minute', 'hour', 'day'] as const;
export type ChartStep = (typeof CHART_STEPS)[number];
export const HEAT_METRICS = ['value', 'fault_rate'] as const;
export const SERVICE_SHOW = ['all', 'open', 'due'] as const;
export const DUE_STATES = ['overdue', 'soon', 'ok', 'none'] as const;
/** Repairs due within this many days count as 'soon'. */
export const DUE_SOON_DAYS = 14;

const pickers: ReportFilter[] = [
  { kind: 'depots', name: 'depot', label: 'reports.filters.depots' },
  { kind: 'vehicles', name: 'vehicle', label: 'reports.filters.vehicles' },
];
const sensors: ReportFilter = {
  kind: 'enum',
  name: 'sensor',
  label: 'pdm.filters.sensor',
  values: SENSOR_TYPES,
  labels: 'pdm.sensorTypes',
};
const states: ReportFilter = { kind: 'enum', name: 'state', label: 'pdm.filters.state', values: NODE_STATES, labels: 'pdm.states' };

const vehicleColumns: ReportColumn[] = [
  { name: 'vehicle_id', header: 'ID ТС', type: 'integer', exportOnly: true },
  { name: 'depot_number', header: 'Гаражный номер', type: 'integer', sortable: true },
  { name: 'state_number', header: 'Госномер', type: 'text', sortable: true },
];
const nodePath: ReportColumn = { name: 'node_path', header: 'Узел', type: 'text', sortable: true };
const hours = (name: string, header: string): ReportColumn => ({ name, header, type: 'number', decimals: 2, sortable: true, total: true });

const pdm = { module: 'pdm', labels: 'pdm.columns', export: ['csv', 'xlsx'], pageSize: 100, build: 'button' } as const;

/** /pdm/vehicle-diagnostic-report (35): each vehicle's units and sensors, their states and last values. */
export const PDM_VEHICLE_DIAGNOSTIC = defineReport({
  ...pdm,
  path: '/pdm/vehicle-diagnostic-report',
  menu: { group: 'pdm', label: 'menu.pdm.vehicleDiagnosticReport' },
  title: 'Диагностика датчиков ТС',
  file: 'vehicle-sensor-diagnostic',
  filters: [...pickers, states, sensors],
  columns: [
    ...vehicleColumns,
    { name: 'tree_name', header: 'Дерево', type: 'text', sortable: true },
    nodePath,
    { name: 'kind', header: 'Тип узла', type: 'enum', labels: 'pdm.kinds', sortable: true },
    { name: 'channel', header: 'Канал', type: 'text' },
    { name: 'state', header: 'Состояние', type: 'enum', labels: 'pdm.states', sortable: true },
    { name: 'since', header: 'С момента', type: 'datetime', sortable: true },
    { name: 'value', header: 'Последнее значение', type: 'number', decimals: 2 },
    { name: 'unit', header: 'Ед. изм.', type: 'text' },
    { name: 'tm', header: 'Время показания', type: 'datetime', sortable: true },
    { name: 'normal', header: 'Норма', type: 'text' },
  ],
  defaultSort: { field: 'depot_number', order: 'ASC' },
});

/** /pdm/change-node-journal (39): every node state change, with a state timeline per node of the chosen vehicles. */
export const PDM_NODE_JOURNAL = defineReport({
  ...pdm,
  path: '/pdm/change-node-journal',
  menu: { group: 'pdm', label: 'menu.pdm.changeNodeJournal' },
  title: 'Журнал изменения состояния узлов',
  file: 'node-state-journal',
  filters: [
    { kind: 'period', name: 'period', label: 'reports.filters.period', required: true, maxDays: 93, preset: 'last7Days', withTime: true },
    ...pickers,
    states,
    sensors,
  ],
  columns: [
    { name: 'id', header: 'ID', type: 'integer', exportOnly: true },
    { name: 'tm', header: 'Время', type: 'datetime', sortable: true },
    ...vehicleColumns,
    nodePath,
    { name: 'prev_state', header: 'Было', type: 'enum', labels: 'pdm.states' },
    { name: 'state', header: 'Стало', type: 'enum', labels: 'pdm.states', sortable: true },
    { name: 'value', header: 'Значение', type: 'number', decimals: 2 },
    { name: 'unit', header: 'Ед. изм.', type: 'text' },
    { name: 'till', header: 'До', type: 'datetime' },
    { name: 'minutes', header: 'Длительность, мин', type: 'number', decimals: 0 },
  ],
  defaultSort: { field: 'tm', order: 'DESC' },
});

/** /pdm/service (38, 41): faults open now, time in fault over the period, repairs due. */
export const PDM_SERVICE = defineReport({
  ...pdm,
  path: '/pdm/service',
  menu: { group: 'pdm', label: 'menu.pdm.service' },
  title: 'Сервисный отчёт',
  file: 'pdm-service',
  totals: true,
  filters: [
    { kind: 'period', name: 'period', label: 'reports.filters.period', required: true, maxDays: 366, preset: 'last30Days' },
    ...pickers,
    { kind: 'choice', name: 'show', label: 'pdm.filters.show', values: SERVICE_SHOW, labels: 'pdm.show', default: 'all' },
  ],
  columns: [
    ...vehicleColumns,
    nodePath,
    { name: 'state', header: 'Состояние', type: 'enum', labels: 'pdm.states', sortable: true },
    { name: 'fault_since', header: 'Неисправен с', type: 'datetime', sortable: true },
    hours('fault_hours', 'В неисправности за период, ч'),
    { name: 'faults', header: 'Неисправностей за период', type: 'number', decimals: 0, sortable: true, total: true },
    { name: 'last_service', header: 'Последнее обслуживание', type: 'datetime', sortable: true },
    { name: 'last_work', header: 'Работа', type: 'enum', labels: 'pdm.works' },
    { name: 'next_due', header: 'Следующее обслуживание', type: 'date', sortable: true },
    { name: 'due', header: 'Срок', type: 'enum', labels: 'pdm.due', sortable: true },
  ],
  defaultSort: { field: 'fault_hours', order: 'DESC' },
  charts: [{ kind: 'bar', title: 'pdm.charts.faultHours', x: 'depot_number', value: 'fault_hours', top: 20 }],
});

/** /pdm/equipment-status-report (43): every sensor of every vehicle over a period, hours in each state. */
export const PDM_EQUIPMENT_STATUS = defineReport({
  ...pdm,
  path: '/pdm/equipment-status-report',
  menu: { group: 'pdm', label: 'menu.pdm.equipmentStatusReport' },
  title: 'Состояние бортового оборудования за период',
  file: 'equipment-status',
  totals: true,
  filters: [
    { kind: 'period', name: 'period', label: 'reports.filters.period', required: true, maxDays: 93, preset: 'last7Days' },
    ...pickers,
    sensors,
  ],
  columns: [
    ...vehicleColumns,
    nodePath,
    hours('normal_h', 'Норма, ч'),
    hours('warning_h', 'Предупреждение, ч'),
    hours('fault_h', 'Неисправность, ч'),
    hours('no_data_h', 'Нет данных, ч'),
    { name: 'normal_share', header: 'Доля нормы, %', type: 'number', decimals: 1, sortable: true },
  ],
  defaultSort: { field: 'normal_share', order: 'ASC' },
});

/** /pdm/heatmap (37): a sensor type's values or fault rate per vehicle and hour (or day); the map and grid above. */
export const PDM_HEATMAP = defineReport({
  ...pdm,
  path: '/pdm/heatmap',
  menu: { group: 'pdm', label: 'menu.pdm.heatmap' },
  title: 'Тепловая карта',
  file: 'pdm-heatmap',
  filters: [
    { kind: 'period', name: 'period', label: 'reports.filters.period', required: true, maxDays: 31, preset: 'last7Days' },
    {
      kind: 'choice',
      name: 'sensorType',
      label: 'pdm.filters.sensorType',
      values: SENSOR_TYPES,
      labels: 'pdm.sensorTypes',
      default: 'fuel_level',
    },
    { kind: 'choice', name: 'metric', label: 'pdm.filters.metric', values: HEAT_METRICS, labels: 'pdm.metrics', default: 'value' },
    { kind: 'choice', name: 'step', label: 'pdm.filters.step', values: ['hour', 'day'], labels: 'pdm.steps', default: 'hour' },
    ...pickers,
  ],
  columns: [
    ...vehicleColumns,
    { name: 'period', header: 'Период', type: 'period', sortable: true },
    { name: 'value', header: 'Среднее значение', type: 'number', decimals: 2, sortable: true },
    { name: 'fault_share', header: 'Доля неисправных показаний, %', type: 'number', decimals: 1, sortable: true },
    { name: 'readings', header: 'Показаний', type: 'number', decimals: 0, sortable: true },
  ],
  defaultSort: { field: 'period', order: 'ASC' },
});

/** /pdm/charts (40): sensors of several vehicles over a period; the gap-aware chart above, its numbers below. */
export const PDM_CHARTS = defineReport({
  ...pdm,
  path: '/pdm/charts',
  menu: { group: 'pdm', label: 'menu.pdm.charts' },
  title: 'Графики датчиков',
  file: 'pdm-charts',
  filters: [
    { kind: 'period', name: 'period', label: 'reports.filters.period', required: true, maxDays: 93, preset: 'today', withTime: true },
    { kind: 'vehicles', name: 'vehicle', label: 'reports.filters.vehicles' },
    sensors,
    { kind: 'text', name: 'node', label: 'pdm.filters.node', maxLength: 2000 },
    { kind: 'choice', name: 'step', label: 'pdm.filters.step', values: CHART_STEPS, labels: 'pdm.steps', default: 'auto' },
  ],
  columns: [
    { name: 'period', header: 'Время', type: 'period', sortable: true },
    { name: 'series', header: 'Ряд', type: 'text', sortable: true },
    { name: 'vehicle_id', header: 'ID ТС', type: 'integer', exportOnly: true },
    { name: 'node_id', header: 'ID узла', type: 'integer', exportOnly: true },
    { name: 'unit', header: 'Ед. изм.', type: 'text' },
    { name: 'avg', header: 'Среднее', type: 'number', decimals: 2, sortable: true },
    { name: 'min', header: 'Мин', type: 'number', decimals: 2, sortable: true },
    { name: 'max', header: 'Макс', type: 'number', decimals: 2, sortable: true },
    { name: 'readings', header: 'Показаний', type: 'number', decimals: 0, sortable: true },
  ],
  defaultSort: { field: 'period', order: 'ASC' },
});

export const PDM_REPORTS = [PDM_HEATMAP, PDM_VEHICLE_DIAGNOSTIC, PDM_NODE_JOURNAL, PDM_CHARTS, PDM_SERVICE, PDM_EQUIPMENT_STATUS] as const;
