import { readFileSync } from 'node:fs';
import type { Queryable } from '../types';
import { SEIZED_CATEGORIES, type VehicleCheck } from '../../../shared/bc/report';
import { addDays, operatorDate, operatorTzOffset } from '../../platform/operatorDay';
import type { DemoScale } from './generate';
import { Random } from './random';
import { reportTotals } from '../../bc/resultStore';

/** Days of ticket-control history the demo starts with (orders with results), today included. */
export const DEMO_BC_DAYS = 60;
const ORDERS_PER_DEPARTMENT_DAY: Record<DemoScale, number> = { city: 3, test: 1 };

interface Refs {
  departments: { td_id: number; depot_id: number | null }[];
  controllers: { driver_id: number; td_id: number }[];
  regions: { cd_id: number; td_id: number }[];
  routes: { route_id: number; short_name: string; depot_id: number | null }[];
  vehicles: { depot_number: number; depot_id: number | null }[];
  tickets: number[];
  graphics: number[];
}

async function readRefs(tx: Queryable): Promise<Refs> {
  const [departments, controllers, regions, routes, vehicles, tickets, graphics] = await Promise.all([
    tx.query<Refs['departments'][number]>('select td_id, depot_id from cat.department order by td_id'),
    tx.query<Refs['controllers'][number]>(
      'select driver_id, td_id from mgt.driver where td_id is not null and depot_id is null order by driver_id',
    ),
    tx.query<Refs['regions'][number]>('select cd_id, td_id from cat.control_region where td_id is not null order by cd_id'),
    tx.query<Refs['routes'][number]>(
      'select route_id, route_short_name as short_name, "Depot_id" as depot_id from mgt.routes order by route_id',
    ),
    tx.query<Refs['vehicles'][number]>('select depot_number, depot_id from mgt.vehicles order by id'),
    tx.query<{ id: number }>('select ticket_type_id as id from cat.ticket_type order by ticket_type_id'),
    tx.query<{ id: number }>('select id from cat.work_graphic_type where start is not null and work_hours > 0 order by code limit 5'),
  ]);
  return { departments, controllers, regions, routes, vehicles, tickets: tickets.map((t) => t.id), graphics: graphics.map((g) => g.id) };
}

/**
 * Ticket control for the demo: the demo login `controller` works as the first controller of the first
 * department; every department has orders on each of the last DEMO_BC_DAYS days (closed with a report, a
 * few not achieved; a photo with each driver report) and new ones today, the demo controller's among them; its position
 * near its region, so the department-control map shows it right after start.
 */
export async function insertDemoTicketControl(tx: Queryable, scale: DemoScale, today: Date): Promise<void> {
  const refs = await readRefs(tx);
  if (!refs.departments.length || !refs.controllers.length || !refs.routes.length || !refs.graphics.length) return;
  const random = new Random(`demo/${scale}/bc`);
  const todayDate = operatorDate(today.getTime(), operatorTzOffset());
  const demoWorker = refs.controllers.find((c) => c.td_id === refs.departments[0].td_id) ?? refs.controllers[0];
  await tx.query(`update app.users set worker_id = $1 where username = 'controller'`, [demoWorker.driver_id]);

  const tasks: { number: string; date: string; graphic: number; td: number; region: number | null; status: string }[] = [];
  const workers: [number, number][] = [];
  const routes: [number, number, number][] = [];
  const checks: { task: number; position: number; check: VehicleCheck; routeId: number | null }[] = [];
  const received: Record<string, number>[] = [];
  for (let day = DEMO_BC_DAYS - 1; day >= 0; day--) {
    const date = addDays(todayDate, -day);
    for (const department of refs.departments) {
      const staff = refs.controllers.filter((c) => c.td_id === department.td_id);
      const regions = refs.regions.filter((r) => r.td_id === department.td_id);
      const own = refs.routes.filter((r) => r.depot_id === department.depot_id);
      const pool = own.length >= 3 ? own : refs.routes;
      for (let k = 0; k < ORDERS_PER_DEPARTMENT_DAY[scale] && staff.length; k++) {
        const index = tasks.length;
        const status = day === 0 ? 'new' : random.chance(0.08) ? 'not_achieved' : 'closed';
        tasks.push({
          number: `${date.slice(8, 10)}${date.slice(5, 7)}-${department.td_id}-${k + 1}`,
          date,
          graphic: refs.graphics[(day + k) % refs.graphics.length],
          td: department.td_id,
          region: regions.length ? regions[(day + k) % regions.length].cd_id : null,
          status,
        });
        const team = random
          .shuffle(staff)
          .slice(0, Math.min(2, staff.length))
          .map((c) => c.driver_id);
        if (day === 0 && k === 0 && department.td_id === demoWorker.td_id && !team.includes(demoWorker.driver_id))
          team[0] = demoWorker.driver_id;
        for (const worker of new Set(team)) workers.push([index, worker]);
        const chosen = random.shuffle(pool).slice(0, 3);
        chosen.forEach((route, i) => routes.push([index, route.route_id, i < 2 ? 0 : 1]));
        const tickets: Record<string, number> = {};
        if (status === 'closed') {
          for (const id of random.shuffle(refs.tickets).slice(0, 4)) tickets[String(id)] = random.int(10, 60);
          const fleet = refs.vehicles.filter((v) => chosen.some((r) => r.depot_id === v.depot_id));
          const left = { ...tickets };
          const n = random.int(2, 5);
          for (let position = 0; position < n; position++) {
            const route = random.pick(chosen);
            const sell = Object.keys(left).map((id) => {
              const count = Math.min(left[id], random.int(0, 4));
              left[id] -= count;
              return { ticket_id: Number(id), count };
            });
            checks.push({
              task: index,
              position,
              routeId: route.route_id,
              check: {
                route_short_name: route.short_name,
                depot_number: fleet.length ? random.pick(fleet).depot_number : null,
                table_number: random.int(10001, 99999),
                sell_tickets: sell,
                take_tickets: SEIZED_CATEGORIES.map((ticket_id) => ({ ticket_id, count: random.chance(0.15) ? random.int(1, 2) : 0 })),
                kickout: random.chance(0.5) ? random.int(0, 3 + (route.route_id % 4)) : 0,
                OVDdeliver: random.chance(0.1) ? 1 : 0,
                driver_raport: random.chance(0.1) ? 1 : 0,
              },
            });
          }
        }
        received.push(tickets);
      }
    }
  }

  const ids = (
    await tx.query<{ id: number }>(
      `insert into bc.controller_task (number, date, graphic_type_id, department_id, control_region_id, status, check_tickets, tickets_checked, vehicles_checked,
       kickout_total, ovd_total, raport_total, seized_total, result_at, closed_at, created_at)
     select x.number, x.date, x.graphic, x.td, x.region, x.status, x.tickets::jsonb, x.totals[1], x.totals[2], x.totals[3], x.totals[4], x.totals[5], x.totals[6],
            case when x.status = 'closed' then x.date + time '16:30' end, case when x.status = 'closed' then x.date + time '17:00' end, x.date - 1 + time '15:00'
     from (select *, string_to_array(totals_text, ',')::int[] as totals
           from unnest($1::text[], $2::date[], $3::int[], $4::int[], $5::int[], $6::text[], $7::text[], $8::text[]) with ordinality as u(number, date, graphic, td, region, status, tickets, totals_text, n)) x
     order by x.n returning id`,
      [
        tasks.map((t) => t.number),
        tasks.map((t) => t.date),
        tasks.map((t) => t.graphic),
        tasks.map((t) => t.td),
        tasks.map((t) => t.region),
        tasks.map((t) => t.status),
        received.map((r) => JSON.stringify(r)),
        received.map((r, i) =>
          reportTotals({ check_tickets: r, check_vehicles: checks.filter((c) => c.task === i).map((c) => c.check) }).join(','),
        ),
      ],
    )
  ).map((row) => row.id);
  await tx.query('insert into bc.controller_task_worker (task_id, worker_id) select unnest($1::int[]), unnest($2::int[])', [
    workers.map(([i]) => ids[i]),
    workers.map(([, w]) => w),
  ]);
  await tx.query(
    'insert into bc.controller_task_route (task_id, route_id, type) select unnest($1::int[]), unnest($2::int[]), unnest($3::smallint[])',
    [routes.map(([i]) => ids[i]), routes.map(([, r]) => r), routes.map(([, , type]) => type)],
  );
  await tx.query(
    `insert into bc.check_vehicle (task_id, position, route_short_name, route_id, depot_number, table_number, sell_tickets, sold_total,
       take_sk, take_vesb, take_other_leg, take_other_not_leg, kickout, ovd_deliver, driver_raport)
     select * from unnest($1::int[], $2::int[], $3::text[], $4::int[], $5::int[], $6::int[], $7::jsonb[], $8::int[], $9::int[], $10::int[], $11::int[], $12::int[], $13::int[], $14::int[], $15::int[])`,
    [
      checks.map((c) => ids[c.task]),
      checks.map((c) => c.position),
      checks.map((c) => c.check.route_short_name),
      checks.map((c) => c.routeId),
      checks.map((c) => c.check.depot_number),
      checks.map((c) => c.check.table_number),
      checks.map((c) => JSON.stringify(c.check.sell_tickets)),
      checks.map((c) => c.check.sell_tickets.reduce((s, t) => s + t.count, 0)),
      ...SEIZED_CATEGORIES.map((_, k) => checks.map((c) => c.check.take_tickets[k].count)),
      checks.map((c) => c.check.kickout),
      checks.map((c) => c.check.OVDdeliver),
      checks.map((c) => c.check.driver_raport),
    ],
  );
  // a photo of the driver report with each report that made one (kept in the row: any engine reads it from there)
  const withReport = [...new Set(checks.filter((c) => c.check.driver_raport > 0).map((c) => ids[c.task]))];
  const photo = readFileSync(new URL('./assets/report-photo.jpg', import.meta.url));
  await tx.query(
    `insert into bc.task_photo (task_id, title, mime, size, data, created_at)
     select t.id, (extract(epoch from t.closed_at) * 1000)::bigint || '.jpg', 'image/jpeg', $2, $3, t.closed_at
     from bc.controller_task t where t.id = any($1::int[])`,
    [withReport, photo.length, photo],
  );
  // the demo controller's phone was last seen inside its region
  await tx.query(
    `insert into bc.user_position (user_id, lat, lon, accuracy)
     select u.id, st_y(st_pointonsurface(r.geom)), st_x(st_pointonsurface(r.geom)), 15 from app.users u, cat.control_region r
     where u.username = 'controller' and r.td_id = $1 order by r.cd_id limit 1 on conflict (user_id) do nothing`,
    [demoWorker.td_id],
  );
}
