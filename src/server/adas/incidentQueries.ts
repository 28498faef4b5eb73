import type { ReportFilterValues } from '../../shared/reports/filters';
import type { ReportContext, ReportSql } from '../reports/reportSource';
import { operatorTzOffset } from '../platform/operatorDay';

const DAY_MS = 86_400_000;

/**
 * The SQL of the ADAS reports, one builder per report: the console's report routes (incidentReports.ts) and the
 * field app's calls (/api/v1/adas/*, adasApiRoutes.ts) both run these, so their numbers cannot drift apart.
 * Filters arrive checked by the report's declaration (src/shared/reports/adas.ts).
 */

class Params {
  readonly list: unknown[] = [];
  add(value: unknown): string {
    return `$${this.list.push(value)}`;
  }
}

/** A name for an incident type: the handbook's first row of the code (codes are not declared unique). */
const typeName = (code: string) =>
  `coalesce((select t.incident_name from adas.incident_type t where t.incident_type = ${code} order by t.id limit 1), 'ISPV event ' || ${code})`;

const FALSE_ALARM = `e.review = 'false_alarm'`;

/** Whether an incident counts: every one, or those not reviewed as false alarms. */
const countable = (filters: ReportFilterValues) => (filters.falseAlarms === 'exclude' ? `e.review is distinct from 'false_alarm'` : 'true');

interface Period {
  from?: string;
  to?: string;
  before?: string;
}

/** The incidents' conditions: the period (or an explicit one), types, vehicles, routes, depots. */
function incidentConditions(
  filters: ReportFilterValues,
  p: Params,
  period: Period = { from: filters.from as string, to: filters.to as string },
): string[] {
  const conditions: string[] = [];
  if (period.from) conditions.push(`e.tm >= ${p.add(period.from)}::timestamptz`);
  if (period.to) conditions.push(`e.tm <= ${p.add(period.to)}::timestamptz`);
  if (period.before) conditions.push(`e.tm < ${p.add(period.before)}::timestamptz`);
  if (filters.type) conditions.push(`e.incident_type = any(${p.add(filters.type)}::int[])`);
  if (filters.vehicle) conditions.push(`e.vehicle_id = any(${p.add(filters.vehicle)}::int[])`);
  if (filters.route) conditions.push(`e.route_id = any(${p.add(filters.route)}::int[])`);
  if (filters.depot)
    conditions.push(`e.vehicle_id in (select v.id from mgt.vehicles v where v.depot_id = any(${p.add(filters.depot)}::int[]))`);
  return conditions;
}

const where = (conditions: string[]) => (conditions.length ? `where ${conditions.join(' and ')}` : '');

/** The work (adas.route_work) of the period's operator days under the same vehicle, route and depot filters. */
function workConditions(filters: ReportFilterValues, p: Params, offsetMinutes: number): string[] {
  const day = (iso: string) =>
    `(${p.add(iso)}::timestamptz at time zone 'UTC' + make_interval(mins => ${p.add(offsetMinutes)}::int))::date`;
  const conditions: string[] = [];
  if (filters.from) conditions.push(`w.day >= ${day(filters.from as string)}`);
  if (filters.to) conditions.push(`w.day <= ${day(filters.to as string)}`);
  if (filters.vehicle) conditions.push(`w.vehicle_id = any(${p.add(filters.vehicle)}::int[])`);
  if (filters.route) conditions.push(`w.route_id = any(${p.add(filters.route)}::int[])`);
  if (filters.depot)
    conditions.push(`w.vehicle_id in (select v.id from mgt.vehicles v where v.depot_id = any(${p.add(filters.depot)}::int[]))`);
  return conditions;
}

/** The counts every grouping shows: counted incidents, false alarms, and the false alarms' share of all. */
const counts = (filters: ReportFilterValues) => `count(*) filter (where ${countable(filters)})::int as count,
  count(*) filter (where ${FALSE_ALARM})::int as false_alarms, count(*)::int as all_count`;
const falseShare = (c: string) => `round(100.0 * ${c}.false_alarms / nullif(${c}.all_count, 0), 1)::float8 as false_share`;

/**
 * The operator days of a period that is whole days of the rollups' zone (adas.rollup_zone, the operator's
 * offset: the client is in it, `from` is a midnight and `to` the day's last second), or undefined.
 */
export function rollupDays(filters: ReportFilterValues, offsetMinutes: number): { from: string; to: string; days: number } | undefined {
  if (!filters.from || !filters.to || offsetMinutes !== operatorTzOffset()) return undefined;
  const from = Date.parse(filters.from as string) + offsetMinutes * 60_000;
  const to = Date.parse(filters.to as string) + offsetMinutes * 60_000;
  if (from % DAY_MS !== 0 || to % DAY_MS < DAY_MS - 1000) return undefined;
  const day = (local: number) => new Date(local).toISOString().slice(0, 10);
  return { from: day(from), to: day(to), days: Math.round((to - from) / DAY_MS) };
}

const addDays = (day: string, days: number) => new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);

/**
 * The per-vehicle-and-route rollup rows of whole operator days: the whole months inside them from
 * adas.vehicle_month, the days at the edges from adas.vehicle_day (a year is about twelve rows a vehicle).
 */
function vehicleRollup(filters: ReportFilterValues, p: Params, days: { from: string; to: string }): string {
  const conditions: string[] = [];
  if (filters.vehicle) conditions.push(`r.vehicle_id = any(${p.add(filters.vehicle)}::int[])`);
  if (filters.route) conditions.push(`r.route_id = any(${p.add(filters.route)}::int[])`);
  if (filters.depot)
    conditions.push(`r.vehicle_id in (select v.id from mgt.vehicles v where v.depot_id = any(${p.add(filters.depot)}::int[]))`);
  const and = conditions.map((c) => ` and ${c}`).join('');
  const firstMonth = days.from.endsWith('-01') ? days.from : addMonths(days.from.slice(0, 8) + '01', 1);
  const afterMonths = addMonths(days.to.slice(0, 8) + '01', 1);
  const lastMonth = addDays(afterMonths, -1) === days.to ? days.to.slice(0, 8) + '01' : addMonths(days.to.slice(0, 8) + '01', -1);
  const columns = 'r.vehicle_id, r.route_id, r.count, r.false_alarms, r.high, r.high_false, r.trips, r.km';
  if (firstMonth > lastMonth)
    return `select ${columns} from adas.vehicle_day r where r.day between ${p.add(days.from)}::date and ${p.add(days.to)}::date${and}`;
  return `select ${columns} from adas.vehicle_month r where r.month between ${p.add(firstMonth)}::date and ${p.add(lastMonth)}::date${and}
    union all
    select ${columns} from adas.vehicle_day r
     where (r.day between ${p.add(days.from)}::date and ${p.add(addDays(firstMonth, -1))}::date
        or r.day between ${p.add(addMonths(lastMonth, 1))}::date and ${p.add(days.to)}::date)${and}`;
}

const addMonths = (day: string, months: number) => {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCMonth(date.getUTCMonth() + months);
  return date.toISOString().slice(0, 10);
};

/** The rollups' counts summed, with false alarms left out of `count` when the filters say so. */
const rolledCounts = (
  filters: ReportFilterValues,
  d: string,
) => `sum(${filters.falseAlarms === 'exclude' ? `${d}.count - ${d}.false_alarms` : `${d}.count`})::int as count,
  sum(${d}.false_alarms)::int as false_alarms, sum(${d}.count)::int as all_count`;

/** The period of equal length just before the chosen one (periods include their last second). */
export function previousPeriod(from: string, to: string): { from: string; before: string } {
  const start = Date.parse(from);
  const length = Date.parse(to) - start + 1000;
  return { from: new Date(start - length).toISOString(), before: from };
}

/**
 * quantity-and-dynamics-incidents-report, /adas/incidents-dynamic: incidents per time bucket and type. Buckets
 * are the user's hours, days, weeks from Monday, months, or the whole period: the time is shifted by the client's offset before
 * truncating, and the bucket start leaves as wall-clock text. Counted per bucket first, so the bucket's text and
 * the type's name are made once per group, not per incident.
 */
export function dynamicsSql(filters: ReportFilterValues, { offsetMinutes }: Pick<ReportContext, 'offsetMinutes'>): ReportSql {
  const p = new Params();
  // the whole period is one bucket starting at its first moment, on the client's clock
  const whole =
    filters.step === 'period' && filters.from
      ? `${p.add(new Date(Date.parse(filters.from as string) + offsetMinutes * 60_000).toISOString().slice(0, 16))}::timestamp`
      : undefined;
  const step = whole ? '' : p.add(filters.step ?? 'day');
  const days = filters.step !== 'hour' && !filters.vehicle && !filters.depot ? rollupDays(filters, offsetMinutes) : undefined;
  let counted: string;
  if (days) {
    // whole operator days without a vehicle or depot filter: the daily rollup per route and type
    const conditions = [`d.day between ${p.add(days.from)}::date and ${p.add(days.to)}::date`];
    if (filters.type) conditions.push(`d.incident_type = any(${p.add(filters.type)}::int[])`);
    if (filters.route) conditions.push(`d.route_id = any(${p.add(filters.route)}::int[])`);
    counted = `select ${whole ?? `date_trunc(${step}, d.day::timestamp)`} as bucket, d.incident_type, ${rolledCounts(filters, 'd')}
      from adas.incident_day d ${where(conditions)} group by 1, 2 having sum(d.count) > 0`;
  } else {
    const bucket = whole ?? `date_trunc(${step}, e.tm at time zone 'UTC' + make_interval(mins => ${p.add(offsetMinutes)}::int))`;
    counted = `select ${bucket} as bucket, e.incident_type, ${counts(filters)}
      from adas.incident_event e ${where(incidentConditions(filters, p))} group by 1, 2`;
  }
  return {
    text: `select to_char(c.bucket, 'YYYY-MM-DD"T"HH24:MI') as period, c.incident_type, ${typeName('c.incident_type')} as incident_name,
        c.count, c.false_alarms, ${falseShare('c')}
      from (${counted}) c`,
    params: p.list,
  };
}

/**
 * incidents-route-distribution-report, /adas/incidents-distribution (and the pie): incidents per route (those
 * matched to none as one «no route» row), their share of the period's, the rates per 100 km and per 1,000 trips
 * of the route's work in the period, and the count of the previous period of equal length with the change.
 */
export function distributionSql(filters: ReportFilterValues, { offsetMinutes }: Pick<ReportContext, 'offsetMinutes'>): ReportSql {
  const p = new Params();
  const days = !filters.vehicle && !filters.depot ? rollupDays(filters, offsetMinutes) : undefined;
  let sources: string;
  if (days) {
    // whole operator days without a vehicle or depot filter: the daily rollups of incidents and of work per route
    const rolled = (from: string, to: string, alias: string) => {
      const conditions = [`${alias}.day between ${p.add(from)}::date and ${p.add(to)}::date`];
      if (filters.type && alias === 'd') conditions.push(`d.incident_type = any(${p.add(filters.type)}::int[])`);
      if (filters.route) conditions.push(`${alias}.route_id = any(${p.add(filters.route)}::int[])`);
      return where(conditions);
    };
    sources = `cur as (select d.route_id, ${rolledCounts(filters, 'd')} from adas.incident_day d ${rolled(days.from, days.to, 'd')} group by 1 having sum(d.count) > 0),
           prev as (select d.route_id, ${rolledCounts(filters, 'd')} from adas.incident_day d ${rolled(addDays(days.from, -days.days), addDays(days.from, -1), 'd')}
                     group by 1 having sum(d.count) > 0),
           work as (select w.route_id, sum(w.km)::float8 as km, sum(w.trips)::float8 as trips from adas.route_day w ${rolled(days.from, days.to, 'w')} group by 1)`;
  } else {
    const current = incidentConditions(filters, p);
    const previous =
      filters.from && filters.to ? incidentConditions(filters, p, previousPeriod(filters.from as string, filters.to as string)) : ['false'];
    const work = workConditions(filters, p, offsetMinutes);
    sources = `cur as (select coalesce(e.route_id, 0) as route_id, ${counts(filters)} from adas.incident_event e ${where(current)} group by 1),
           prev as (select coalesce(e.route_id, 0) as route_id, count(*) filter (where ${countable(filters)})::int as count
                      from adas.incident_event e ${where(previous)} group by 1),
           work as (select w.route_id, sum(w.km)::float8 as km, sum(w.trips)::float8 as trips from adas.route_work w ${where(work)} group by 1)`;
  }
  return {
    text: `with ${sources},
           x as (select route_id from cur union select route_id from prev)
      select nullif(x.route_id, 0) as route_id,
             case when x.route_id = 0 then 'Без маршрута' else coalesce(rt.route_short_name, x.route_id::text) end as route_name,
             coalesce(cur.count, 0) as count,
             round(100.0 * coalesce(cur.count, 0) / nullif(sum(coalesce(cur.count, 0)) over (), 0), 1)::float8 as share,
             round(work.km::numeric, 1)::float8 as km, work.trips,
             round(100.0 * coalesce(cur.count, 0) / nullif(work.km, 0)::numeric, 2)::float8 as per_100km,
             round(1000.0 * coalesce(cur.count, 0) / nullif(work.trips, 0)::numeric, 1)::float8 as per_1000_trips,
             coalesce(prev.count, 0) as previous,
             round(100.0 * (coalesce(cur.count, 0) - prev.count) / nullif(prev.count, 0), 1)::float8 as change,
             coalesce(cur.false_alarms, 0) as false_alarms, ${falseShare('cur')}
        from x
        left join cur on cur.route_id = x.route_id
        left join prev on prev.route_id = x.route_id
        left join work on work.route_id = x.route_id
        left join mgt.routes rt on rt.route_id = x.route_id`,
    params: p.list,
  };
}

/**
 * vehicle-list, /adas/incidents-detailing: incidents per vehicle with the high grades, false alarms and the
 * rate per 100 km of the vehicle's work in the period.
 */
export function detailingSql(filters: ReportFilterValues, { offsetMinutes }: Pick<ReportContext, 'offsetMinutes'>): ReportSql {
  const p = new Params();
  const days = !filters.type ? rollupDays(filters, offsetMinutes) : undefined;
  let sources: string;
  if (days) {
    // whole operator days without a type filter: the rollup per vehicle and route, its work beside its incidents
    const high = filters.falseAlarms === 'exclude' ? 'd.high - d.high_false' : 'd.high';
    sources = `c as (select d.vehicle_id, ${rolledCounts(filters, 'd')}, sum(${high})::int as high, sum(d.km)::float8 as km
                     from (${vehicleRollup(filters, p, days)}) d group by 1 having sum(d.count) > 0),
           work as (select c.vehicle_id, c.km from c)`;
  } else {
    const conditions = incidentConditions(filters, p);
    const work = workConditions(filters, p, offsetMinutes);
    sources = `c as (select e.vehicle_id, ${counts(filters)}, count(*) filter (where e.grade = 3 and ${countable(filters)})::int as high
                     from adas.incident_event e ${where(conditions)} group by 1),
           work as (select w.vehicle_id, sum(w.km)::float8 as km from adas.route_work w ${where(work)} group by 1)`;
  }
  return {
    text: `with ${sources}
      select c.vehicle_id, v.depot_number, v.state_number, d.depot_name, c.count, c.high,
             round(work.km::numeric, 1)::float8 as km, round(100.0 * c.count / nullif(work.km, 0)::numeric, 2)::float8 as per_100km,
             c.false_alarms, ${falseShare('c')}
        from c
        left join mgt.vehicles v on v.id = c.vehicle_id
        left join mgt.depot d on d.depot_id = v.depot_id
        left join work on work.vehicle_id = c.vehicle_id`,
    params: p.list,
  };
}

/** vehicle-on-route-list: the vehicles with incidents on each route (incidents per route and vehicle). */
export function vehiclesOnRoutesSql(filters: ReportFilterValues, { offsetMinutes }: Pick<ReportContext, 'offsetMinutes'>): ReportSql {
  const p = new Params();
  const days = !filters.type ? rollupDays(filters, offsetMinutes) : undefined;
  const counted = days
    ? `select d.route_id, d.vehicle_id, sum(${filters.falseAlarms === 'exclude' ? 'd.count - d.false_alarms' : 'd.count'})::int as count
         from (${vehicleRollup(filters, p, days)}) d group by 1, 2 having sum(d.count) > 0`
    : `select coalesce(e.route_id, 0) as route_id, e.vehicle_id, count(*) filter (where ${countable(filters)})::int as count
         from adas.incident_event e ${where(incidentConditions(filters, p))} group by 1, 2`;
  return {
    text: `select nullif(c.route_id, 0) as route_id,
                  case when c.route_id = 0 then 'Без маршрута' else coalesce(rt.route_short_name, c.route_id::text) end as route_name,
                  c.vehicle_id, v.depot_number, v.state_number, c.count
             from (${counted}) c
             left join mgt.routes rt on rt.route_id = c.route_id
             left join mgt.vehicles v on v.id = c.vehicle_id`,
    params: p.list,
  };
}

/** The columns of one incident: where and when, the vehicle, route, trip, driver, evidence and review. */
const INCIDENT_COLUMNS = `e.id::float8 as id, e.tm, e.vehicle_id, coalesce(e.depot_number, v.depot_number) as depot_number, v.state_number,
  e.incident_type, ${typeName('e.incident_type')} as incident_name,
  (select t.incident_color from adas.incident_type t where t.incident_type = e.incident_type order by t.id limit 1) as incident_color,
  e.grade, e.speed, e.lat, e.lon, e.route_id, rt.route_short_name as route_name, e.trip_id, e.race_num,
  e.driver_id, nullif(concat_ws(' ', dr.last_name, dr.first_name, dr.middle_name), '') as driver_name, e.evidence,
  e.review, e.review_comment, u.username as reviewed_by, e.reviewed_at,
  exists (select 1 from mgt.dvr d join mgt.dev_camera c on c.dvr_id = d.id where d.vehicle_id = e.vehicle_id) as has_recorder`;
const INCIDENT_JOINS = `left join mgt.vehicles v on v.id = e.vehicle_id
  left join mgt.routes rt on rt.route_id = e.route_id
  left join mgt.driver dr on dr.driver_id = e.driver_id
  left join app.users u on u.id = e.reviewed_by`;

/**
 * vehicle-incidents-detail-table (the detailing's drill-down): single incidents of the filters, newest first;
 * false alarms left out when the filters say so.
 */
export function incidentsSql(filters: ReportFilterValues): ReportSql {
  const p = new Params();
  const conditions = incidentConditions(filters, p);
  if (filters.falseAlarms === 'exclude') conditions.push(countable(filters));
  return { text: `select ${INCIDENT_COLUMNS} from adas.incident_event e ${INCIDENT_JOINS} ${where(conditions)}`, params: p.list };
}

/** One incident by id (its card, the notification's link, the review's answer), with its trip's line as WKT. */
export function incidentSql(id: number): ReportSql {
  return {
    text: `select ${INCIDENT_COLUMNS},
        (select st_astext(tr.trajectory, 6) from mgt.trip tr where tr.id = e.trip_id and geometrytype(tr.trajectory) = 'LINESTRING') as trip_line
      from adas.incident_event e ${INCIDENT_JOINS} where e.id = $1`,
    params: [id],
  };
}
