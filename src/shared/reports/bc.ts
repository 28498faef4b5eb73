import { defineReport, type ReportColumn, type ReportFilter } from './types';

/** Ticket-control reports (SCREENS.md, "Ticket control"; permission codes 30 and 31). */

export const BC_GROUPS = ['department', 'controller', 'route', 'day'] as const;
export type BcGroup = (typeof BC_GROUPS)[number];

const period: ReportFilter = {
  kind: 'period',
  name: 'period',
  label: 'reports.filters.period',
  required: true,
  maxDays: 366,
  preset: 'last30Days',
};
const departments: ReportFilter = { kind: 'departments', name: 'department', label: 'reports.filters.departments' };
const controllers: ReportFilter = { kind: 'controllers', name: 'controller', label: 'reports.filters.controllers' };
const routes: ReportFilter = { kind: 'routes', name: 'route', label: 'reports.filters.routes' };

const count = (name: string, header: string): ReportColumn => ({ name, header, type: 'number', decimals: 0, sortable: true, total: true });

/** /bc/resultuser: each controller's orders of the period with their results; an order opens /bc/resultuser/{task}. */
export const BC_RESULT_USER = defineReport({
  path: '/bc/resultuser',
  module: 'bc',
  menu: { group: 'bc', label: 'menu.bc.resultuser' },
  title: 'Результаты контролёров',
  file: 'bc-results',
  labels: 'reports.bc.columns',
  filters: [period, departments, controllers],
  columns: [
    { name: 'controller', header: 'Контролёр', type: 'text', sortable: true },
    { name: 'date', header: 'Дата', type: 'date', sortable: true },
    { name: 'task_id', header: 'ID задания', type: 'integer', exportOnly: true },
    { name: 'number', header: 'Номер задания', type: 'text', sortable: true, cell: 'taskLink' },
    { name: 'department', header: 'Территориальный отдел', type: 'text', sortable: true },
    { name: 'status', header: 'Статус', type: 'enum', labels: 'bc.status', sortable: true },
    count('tickets_checked', 'Проверено билетов'),
    count('vehicles', 'Проверено ТС'),
    count('violations', 'Нарушений'),
    count('seized', 'Изъято билетов'),
    count('photos', 'Фотографий'),
  ],
  defaultSort: { field: 'date', order: 'DESC' },
  export: ['csv', 'xlsx'],
  pageSize: 100,
  totals: true,
  build: 'button',
});

/** /bc/routerate: per route, checks and violations per 100 passengers checked, coloured green → orange → yellow → red. */
export const BC_ROUTE_RATE = defineReport({
  path: '/bc/routerate',
  module: 'bc',
  menu: { group: 'bc', label: 'menu.bc.routerate' },
  title: 'Рейтинг маршрутов',
  file: 'bc-route-rate',
  labels: 'reports.bc.columns',
  filters: [period, departments, routes],
  columns: [
    { name: 'route', header: 'Маршрут', type: 'text', sortable: true },
    count('orders', 'Заданий'),
    count('vehicles', 'Проверено ТС'),
    count('passengers', 'Проверено пассажиров'),
    count('violations', 'Нарушений'),
    { name: 'rate', header: 'Нарушений на 100 проверенных', type: 'number', decimals: 1, sortable: true, cell: 'rate' },
  ],
  defaultSort: { field: 'rate', order: 'DESC' },
  charts: [{ kind: 'bar', title: 'reports.bc.rateChart', x: 'route', value: 'rate' }],
  export: ['csv', 'xlsx'],
  pageSize: 100,
  totals: true,
  build: 'button',
});

/** /bc/reports: orders, checks, violations and seized tickets by department, controller, route or day. */
export const BC_SUMMARY = defineReport({
  path: '/bc/reports',
  module: 'bc',
  menu: { group: 'bc', label: 'menu.bc.reports' },
  title: 'Отчёты контроля оплаты',
  file: 'bc-reports',
  labels: 'reports.bc.columns',
  filters: [
    period,
    { kind: 'choice', name: 'group', label: 'reports.bc.group', values: BC_GROUPS, labels: 'reports.bc.groups', default: 'department' },
    departments,
    controllers,
    routes,
  ],
  columns: [
    { name: 'name', header: 'Группа', type: 'text', sortable: true },
    count('orders', 'Заданий'),
    count('closed', 'Выполнено'),
    count('not_achieved', 'Не выполнено'),
    count('vehicles', 'Проверено ТС'),
    count('kickout', 'Высажено без билета'),
    count('ovd_deliver', 'Доставлено в полицию'),
    count('driver_raport', 'Рапортов на водителя'),
    count('seized', 'Изъято билетов'),
  ],
  defaultSort: { field: 'name', order: 'ASC' },
  charts: [{ kind: 'bar', title: 'reports.bc.summaryChart', x: 'name', value: 'vehicles' }],
  export: ['csv', 'xlsx'],
  pageSize: 100,
  totals: true,
  build: 'button',
});

export const BC_REPORTS = [BC_RESULT_USER, BC_ROUTE_RATE, BC_SUMMARY] as const;
