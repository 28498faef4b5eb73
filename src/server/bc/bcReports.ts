import { BC_REPORTS, type BcGroup } from '../../shared/reports/bc';
import type { ReportFilterValues } from '../../shared/reports/filters';
import { bindReports } from '../reports/reportSource';

/**
 * Ticket-control reports' SQL (declarations: src/shared/reports/bc.ts). A period selects orders by their date
 * (the operator's day, as the order has it). Passengers checked are counted per order (the report's tickets
 * checked); per route they are shared equally among the order's vehicle checks, since the report does not
 * record them per vehicle.
 */

/**
 * Conditions on orders `t` shared by the three reports. Grouped by controller or route, an order counts once
 * for each of its controllers or routes (an order lists a worker and a route once).
 */
function orderConditions(filters: ReportFilterValues, params: unknown[]): string[] {
  const conditions: string[] = [];
  const add = (condition: (p: string) => string, value: unknown) => conditions.push(condition(`$${params.push(value)}`));
  if (filters.from) add((p) => `t.date >= (${p}::timestamptz at time zone 'UTC' + make_interval(mins => $1::int))::date`, filters.from);
  if (filters.to) add((p) => `t.date <= (${p}::timestamptz at time zone 'UTC' + make_interval(mins => $1::int))::date`, filters.to);
  if (filters.department) add((p) => `t.department_id = any(${p}::int[])`, filters.department);
  if (filters.controller)
    add(
      (p) => `exists (select 1 from bc.controller_task_worker w where w.task_id = t.id and w.worker_id = any(${p}::int[]))`,
      filters.controller,
    );
  return conditions;
}

const where = (conditions: string[]) => (conditions.length ? `where ${conditions.join(' and ')}` : '');

const GROUP_SQL: Record<BcGroup, { key: string; name: string; from: string }> = {
  department: { key: 'd.td_id', name: 'd.td_name', from: 'join cat.department d on d.td_id = t.department_id' },
  controller: {
    key: 'w.driver_id',
    name: `concat_ws(' ', w.last_name, w.first_name, w.middle_name)`,
    from: 'join bc.controller_task_worker tw on tw.task_id = t.id join mgt.driver w on w.driver_id = tw.worker_id',
  },
  route: {
    key: 'm.route_id',
    name: 'm.route_short_name',
    from: 'join bc.controller_task_route tr on tr.task_id = t.id join mgt.routes m on m.route_id = tr.route_id',
  },
  day: { key: 't.date', name: `to_char(t.date, 'DD.MM.YYYY')`, from: '' },
};

export const BC_SOURCES = bindReports(BC_REPORTS, {
  '/bc/resultuser': {
    shape: 'summary',
    select(filters, { offsetMinutes }) {
      const params: unknown[] = [offsetMinutes];
      const conditions = orderConditions(filters, params);
      return {
        text: `select concat_ws(' ', w.last_name, w.first_name, w.middle_name) as controller, to_char(t.date, 'YYYY-MM-DD') as date,
                 t.id as task_id, t.number, d.td_name as department, t.status, t.tickets_checked, t.vehicles_checked as vehicles,
                 t.kickout_total + t.ovd_total as violations, t.seized_total as seized,
                 (select count(*)::int from bc.task_photo p where p.task_id = t.id) as photos
               from bc.controller_task t
               join bc.controller_task_worker tw on tw.task_id = t.id join mgt.driver w on w.driver_id = tw.worker_id
               join cat.department d on d.td_id = t.department_id
               ${where([...conditions, ...(filters.controller ? [`w.driver_id = any($${params.push(filters.controller)}::int[])`] : [])])}`,
        params,
      };
    },
  },
  '/bc/routerate': {
    shape: 'summary',
    select(filters, { offsetMinutes }) {
      const params: unknown[] = [offsetMinutes];
      const conditions = orderConditions(filters, params);
      return {
        // one pass over the period's vehicle checks; an order's passengers are shared equally among its checks
        text: `select m.route_short_name as route, r.orders, r.vehicles, round(r.passengers)::int as passengers, r.violations,
                      round((100 * r.violations / greatest(r.passengers, 1))::numeric, 1)::float8 as rate
               from (select c.route_id, count(distinct c.task_id)::int as orders, count(*)::int as vehicles,
                            sum(t.tickets_checked::float8 / greatest(t.vehicles_checked, 1)) as passengers, sum(c.kickout + c.ovd_deliver)::int as violations
                     from bc.controller_task t join bc.check_vehicle c on c.task_id = t.id
                     ${where([...conditions, `t.status = 'closed'`, 'c.route_id is not null', ...(filters.route ? [`c.route_id = any($${params.push(filters.route)}::int[])`] : [])])}
                     group by c.route_id) r
               join mgt.routes m on m.route_id = r.route_id`,
        params,
      };
    },
  },
  '/bc/reports': {
    shape: 'summary',
    select(filters, { offsetMinutes }) {
      const params: unknown[] = [offsetMinutes];
      const conditions = orderConditions(filters, params);
      if (filters.route)
        conditions.push(
          `exists (select 1 from bc.controller_task_route x where x.task_id = t.id and x.route_id = any($${params.push(filters.route)}::int[]))`,
        );
      const group = GROUP_SQL[(filters.group as BcGroup | undefined) ?? 'department'];
      return {
        // the orders keep their report's totals: no vehicle check is read
        text: `select ${group.name} as name, count(*)::int as orders,
                 count(*) filter (where t.status = 'closed')::int as closed,
                 count(*) filter (where t.status = 'not_achieved')::int as not_achieved,
                 sum(t.vehicles_checked)::int as vehicles, sum(t.kickout_total)::int as kickout, sum(t.ovd_total)::int as ovd_deliver,
                 sum(t.raport_total)::int as driver_raport, sum(t.seized_total)::int as seized
               from bc.controller_task t ${group.from}
               ${where(conditions)}
               group by ${group.key}, ${group.name}`,
        params,
      };
    },
  },
});
