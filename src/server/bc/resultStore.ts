import type { Queryable } from '../db/types';
import { fail } from '../http/errors';
import { SEIZED_CATEGORIES, soldOverReceived, type TaskResultBody, type VehicleCheck } from '../../shared/bc/report';
import { BC_API, type TaskResultResponse, type TaskStatus } from '../../shared/bc/tasks';
import { operatorDate } from '../platform/operatorDay';

/** The controller's report of one order: read as the field app loads it, saved whole. */

interface CheckRow {
  route_short_name: string;
  depot_number: number | null;
  table_number: number | null;
  sell_tickets: { ticket_id: number; count: number }[];
  take_sk: number;
  take_vesb: number;
  take_other_leg: number;
  take_other_not_leg: number;
  kickout: number;
  ovd_deliver: number;
  driver_raport: number;
}

const checkOf = (row: CheckRow): VehicleCheck => ({
  route_short_name: row.route_short_name,
  depot_number: row.depot_number,
  table_number: row.table_number,
  sell_tickets: row.sell_tickets,
  take_tickets: [
    { ticket_id: 'sk', count: row.take_sk },
    { ticket_id: 'vesb', count: row.take_vesb },
    { ticket_id: 'other_leg', count: row.take_other_leg },
    { ticket_id: 'other_not_leg', count: row.take_other_not_leg },
  ],
  kickout: row.kickout,
  OVDdeliver: row.ovd_deliver,
  driver_raport: row.driver_raport,
});

export async function loadResult(db: Queryable, taskId: number, offsetMinutes: number): Promise<TaskResultResponse> {
  const [task] = await db.query<{
    id: number;
    department_id: number;
    status: TaskStatus;
    check_tickets: Record<string, number>;
    date: string;
  }>(`select id, department_id, status, check_tickets, to_char(date, 'YYYY-MM-DD') as date from bc.controller_task where id = $1`, [
    taskId,
  ]);
  if (!task) throw fail(404, 'not_found');
  const [tickets, files, checks, routes] = await Promise.all([
    db.query<{ id: number; name: string }>(
      'select ticket_type_id as id, ticket_type_name as name from cat.ticket_type order by ticket_type_code, ticket_type_id',
    ),
    db.query<{ id: number; title: string }>('select id, title from bc.task_photo where task_id = $1 order by id', [taskId]),
    db.query<CheckRow>(
      `select route_short_name, depot_number, table_number, sell_tickets, take_sk, take_vesb, take_other_leg, take_other_not_leg,
              kickout, ovd_deliver, driver_raport from bc.check_vehicle where task_id = $1 order by position`,
      [taskId],
    ),
    db.query<{ route_id: number; short_name: string; type: 0 | 1 }>(
      `select rt.route_id, m.route_short_name as short_name, rt.type from bc.controller_task_route rt join mgt.routes m on m.route_id = rt.route_id
       where rt.task_id = $1 order by rt.type, m.route_short_name`,
      [taskId],
    ),
  ]);
  // the vehicles a controller may meet: those assigned to the order's routes on its day, else the routes' depots' fleet
  const vehicles = await db.query<{ id: number; depot_number: number; route_id: number | null }>(
    `with r as (select rt.route_id, m."Depot_id" as depot_id from bc.controller_task_route rt join mgt.routes m on m.route_id = rt.route_id where rt.task_id = $1),
          assigned as (select distinct on (vt.vehicle_id) vt.vehicle_id, rv.route_id
                       from mgt.vehicle_task vt join mgt.rasp_variant rv on rv.id = vt."RaspVariant_id"
                       where vt.date = $2::date and rv.route_id in (select route_id from r))
     select v.id, v.depot_number, a.route_id from mgt.vehicles v left join assigned a on a.vehicle_id = v.id
     where a.vehicle_id is not null or v.depot_id in (select depot_id from r)
     order by v.depot_number, v.id limit 2000`,
    [taskId, task.date ?? operatorDate(Date.now(), offsetMinutes)],
  );
  return {
    tickets,
    files: files.map((f) => ({ ...f, url: BC_API.photoFile(f.id) })),
    task: {
      id: task.id,
      department_id: task.department_id,
      status: task.status,
      check_tickets: task.check_tickets,
      check_vehicles: checks.map(checkOf),
    },
    vehicles,
    routes,
  };
}

/** Checks what a schema cannot: the seized categories' order, known ticket types, the sold-ticket cap. */
export async function checkResult(db: Queryable, body: TaskResultBody): Promise<void> {
  for (const check of body.check_vehicles) {
    if (check.take_tickets.length !== SEIZED_CATEGORIES.length || check.take_tickets.some((t, i) => t.ticket_id !== SEIZED_CATEGORIES[i])) {
      throw fail(400, 'bc_seized_order');
    }
    const seen = new Set<number>();
    for (const { ticket_id } of check.sell_tickets) {
      if (seen.has(ticket_id)) throw fail(400, 'bad_request', 'sell_tickets');
      seen.add(ticket_id);
    }
  }
  const ids = new Set<number>([
    ...Object.keys(body.check_tickets).map(Number),
    ...body.check_vehicles.flatMap((c) => c.sell_tickets.map((t) => t.ticket_id)),
  ]);
  if (ids.size) {
    const [{ n }] = await db.query<{ n: number }>('select count(*)::int as n from cat.ticket_type where ticket_type_id = any($1::int[])', [
      [...ids],
    ]);
    if (n !== ids.size) throw fail(400, 'bc_unknown_ticket');
  }
  const over = soldOverReceived(body);
  if (over.length) throw fail(400, 'bc_sold_over_received', ...over.map(String));
}

/** The totals an order keeps of its report: tickets checked, vehicles, put off, delivered to the police, driver reports, seized. */
export function reportTotals(body: TaskResultBody): [number, number, number, number, number, number] {
  const sum = (pick: (check: VehicleCheck) => number) => body.check_vehicles.reduce((total, check) => total + pick(check), 0);
  return [
    Object.values(body.check_tickets).reduce((total, n) => total + n, 0),
    body.check_vehicles.length,
    sum((c) => c.kickout),
    sum((c) => c.OVDdeliver),
    sum((c) => c.driver_raport),
    sum((c) => c.take_tickets.reduce((total, t) => total + t.count, 0)),
  ];
}

/** Replaces the report of an order (tickets checked and vehicle checks). */
export async function saveResult(db: Queryable, taskId: number, body: TaskResultBody): Promise<void> {
  await db.query(
    `update bc.controller_task set check_tickets = $2, tickets_checked = $3, vehicles_checked = $4, kickout_total = $5, ovd_total = $6,
       raport_total = $7, seized_total = $8, result_at = now(), updated_at = now(), status = case when status = 'new' then 'in_work' else status end
     where id = $1`,
    [taskId, JSON.stringify(body.check_tickets), ...reportTotals(body)],
  );
  await db.query('delete from bc.check_vehicle where task_id = $1', [taskId]);
  if (!body.check_vehicles.length) return;
  const c = body.check_vehicles;
  await db.query(
    `insert into bc.check_vehicle (task_id, position, route_short_name, route_id, depot_number, table_number, sell_tickets, sold_total,
       take_sk, take_vesb, take_other_leg, take_other_not_leg, kickout, ovd_deliver, driver_raport)
     select $1, x.position, x.route_short_name,
            (select rt.route_id from bc.controller_task_route rt join mgt.routes m on m.route_id = rt.route_id
              where rt.task_id = $1 and m.route_short_name = x.route_short_name limit 1),
            x.depot_number, x.table_number, x.sell_tickets::jsonb, x.sold_total, x.take_sk, x.take_vesb, x.take_other_leg, x.take_other_not_leg,
            x.kickout, x.ovd_deliver, x.driver_raport
     from unnest($2::int[], $3::text[], $4::int[], $5::int[], $6::text[], $7::int[], $8::int[], $9::int[], $10::int[], $11::int[], $12::int[], $13::int[], $14::int[])
       as x(position, route_short_name, depot_number, table_number, sell_tickets, sold_total, take_sk, take_vesb, take_other_leg, take_other_not_leg, kickout, ovd_deliver, driver_raport)`,
    [
      taskId,
      c.map((_, i) => i),
      c.map((v) => v.route_short_name),
      c.map((v) => v.depot_number),
      c.map((v) => v.table_number),
      c.map((v) => JSON.stringify(v.sell_tickets)),
      c.map((v) => v.sell_tickets.reduce((sum, t) => sum + t.count, 0)),
      ...SEIZED_CATEGORIES.map((_, k) => c.map((v) => v.take_tickets[k].count)),
      c.map((v) => v.kickout),
      c.map((v) => v.OVDdeliver),
      c.map((v) => v.driver_raport),
    ],
  );
}
