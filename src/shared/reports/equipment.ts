import { UNIT_KINDS, UNIT_STATES } from '../equipment/units';
import { defineReport } from './types';

/**
 * On-board equipment monitoring (code 28; SCREENS.md "On-board equipment"). /vehicle-work-data reads the
 * daily rollup mnt.vehicle_work_day (src/server/equipment/workDay.ts makes it from the track and the day's
 * schedule); /vehicle-diagnostic lists each unit of each vehicle with its state now.
 */
export const VEHICLE_WORK_DATA = defineReport({
  path: '/vehicle-work-data',
  module: 'vehicleWorkData',
  menu: { group: 'monitoring', label: 'menu.monitoring.vehicleWorkData' },
  title: 'Данные о работе ТС',
  file: 'vehicle-work-data',
  labels: 'equipment.workData.columns',
  filters: [
    { kind: 'period', name: 'period', label: 'reports.filters.period', required: true, maxDays: 92, preset: 'last7Days' },
    { kind: 'depots', name: 'depot', label: 'reports.filters.depots' },
    { kind: 'vehicles', name: 'vehicle', label: 'reports.filters.vehicles' },
  ],
  columns: [
    { name: 'row_key', header: 'Ключ', type: 'text', exportOnly: true },
    { name: 'day', header: 'Дата', type: 'date', sortable: true },
    { name: 'depot_number', header: 'Гаражный номер', type: 'integer', sortable: true },
    { name: 'state_number', header: 'Госномер', type: 'text' },
    { name: 'depot_name', header: 'Филиал', type: 'text', sortable: true },
    { name: 'first_at', header: 'Первые данные', type: 'datetime', sortable: true },
    { name: 'last_at', header: 'Последние данные', type: 'datetime', sortable: true },
    { name: 'online_h', header: 'На линии, ч', type: 'number', decimals: 1, sortable: true, total: true },
    { name: 'km', header: 'Пробег, км', type: 'number', decimals: 1, sortable: true, total: true },
    { name: 'moving_h', header: 'В движении, ч', type: 'number', decimals: 1, sortable: true, total: true },
    { name: 'standing_h', header: 'Стоянка, ч', type: 'number', decimals: 1, sortable: true, total: true },
    { name: 'trips_done', header: 'Рейсов выполнено', type: 'number', decimals: 0, sortable: true, total: true },
    { name: 'trips_planned', header: 'Рейсов по плану', type: 'number', decimals: 0, sortable: true, total: true },
    { name: 'trips_share', header: 'Выполнение плана, %', type: 'number', decimals: 0, sortable: true },
    { name: 'deviations', header: 'Отклонений от маршрута', type: 'number', decimals: 0, sortable: true, total: true },
    { name: 'vehicle_id', header: 'ID ТС', type: 'integer', exportOnly: true },
  ],
  defaultSort: { field: 'day', order: 'DESC' },
  export: ['csv', 'xlsx'],
  pageSize: 100,
  totals: true,
  build: 'button',
});

export const VEHICLE_DIAGNOSTIC = defineReport({
  path: '/vehicle-diagnostic',
  module: 'vehicleDiagnostic',
  menu: { group: 'monitoring', label: 'menu.monitoring.vehicleDiagnostic' },
  title: 'Диагностика бортового оборудования',
  file: 'vehicle-diagnostic',
  labels: 'equipment.diagnostic.columns',
  filters: [
    { kind: 'enum', name: 'state', label: 'equipment.diagnostic.state', values: UNIT_STATES, labels: 'equipment.unitStates' },
    { kind: 'enum', name: 'unit', label: 'equipment.diagnostic.unit', values: UNIT_KINDS, labels: 'equipment.unitKinds' },
    { kind: 'depots', name: 'depot', label: 'reports.filters.depots' },
    { kind: 'vehicles', name: 'vehicle', label: 'reports.filters.vehicles' },
  ],
  columns: [
    { name: 'unit_key', header: 'Ключ', type: 'text', exportOnly: true },
    { name: 'depot_number', header: 'Гаражный номер', type: 'integer', sortable: true },
    { name: 'state_number', header: 'Госномер', type: 'text' },
    { name: 'depot_name', header: 'Филиал', type: 'text', sortable: true },
    { name: 'unit_kind', header: 'Устройство', type: 'enum', labels: 'equipment.unitKinds', sortable: true },
    { name: 'unit_name', header: 'Наименование', type: 'text' },
    { name: 'state', header: 'Состояние', type: 'enum', labels: 'equipment.unitStates', sortable: true },
    { name: 'last_data_at', header: 'Последние данные', type: 'datetime', sortable: true },
    { name: 'data_age_min', header: 'Давность данных, мин', type: 'number', decimals: 0, sortable: true },
    { name: 'faults', header: 'Коды неисправностей', type: 'text' },
    { name: 'fault_since', header: 'Неисправность с', type: 'datetime', sortable: true },
    { name: 'vehicle_id', header: 'ID ТС', type: 'integer', exportOnly: true },
  ],
  defaultSort: { field: 'depot_number', order: 'ASC' },
  export: ['csv', 'xlsx'],
  pageSize: 100,
  build: 'auto',
});

export const EQUIPMENT_REPORTS = [VEHICLE_WORK_DATA, VEHICLE_DIAGNOSTIC] as const;
