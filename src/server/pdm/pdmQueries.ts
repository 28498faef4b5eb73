import type { ReportFilterValues } from '../../shared/reports/filters';
import { CHART_SERIES_MAX } from '../../shared/pdm/model';
import { DUE_SOON_DAYS, type ChartStep } from '../../shared/reports/pdm';
import { fail } from '../http/errors';
import type { ReportContext, ReportSql } from '../reports/reportSource';

/**
 * The SQL of the PDM reports and of their screens' special parts (chart, heat layer, timeline): one builder
 * each, so a screen's picture and its table cannot disagree. Filters arrive checked by the declarations
 * (src/shared/reports/pdm.ts). Charts and the heat map read the rollups (minute, hour), time in state reads the
 * state changes, never the raw readings, except a chart of three hours or less.
 */

class Params {
  readonly list: unknown[] = [];
  add(value: unknown): string {
    return `$${this.list.push(value)}`;
  }
}

const where = (conditions: string[]) => (conditions.length ? `where ${conditions.join(' and ')}` : '');
const HOUR_MS = 3_600_000;

/** Every node with its path from the root ('Двигатель › Температура ОЖ'). */
const NODE_PATHS = `node_path as (
  with recursive p as (
    select id, name::text as path from pdm.node where parent_id is null
    union all select n.id, p.path || ' › ' || n.name from pdm.node n join p on n.parent_id = p.id
  ) select id, path from p)`;

/** The sensors of the assigned trees: one row per vehicle and sensor node, under the vehicle and sensor filters. */
function assignedSensors(filters: ReportFilterValues, p: Params, sensorsOnly = true): string {
  const conditions = [sensorsOnly ? 'n.channel_kind is not null' : 'true'];
  if (filters.vehicle) conditions.push(`tv.vehicle_id = any(${p.add(filters.vehicle)}::int[])`);
  if (filters.depot) conditions.push(`v.depot_id = any(${p.add(filters.depot)}::int[])`);
  if (filters.sensor) conditions.push(`n.sensor_type = any(${p.add(filters.sensor)}::text[])`);
  return `assigned as (
    select tv.vehicle_id, v.depot_number, v.state_number, n.id as node_id, n.tree_id, n.name, n.kind, n.unit, n.channel_kind, n.channel,
           n.normal_min, n.normal_max, n.fault_min, n.fault_max, n.silence_s
      from pdm.tree_vehicle tv join mgt.vehicles v on v.id = tv.vehicle_id join pdm.node n on n.tree_id = tv.tree_id
     ${where(conditions)})`;
}

const period = (filters: ReportFilterValues) => ({ from: filters.from as string, to: filters.to as string });

/** Time in each state per vehicle and sensor over [from, to] (to capped at now): the time before any reading is no data. */
export function equipmentStatusSql(filters: ReportFilterValues): ReportSql {
  const p = new Params();
  const { from, to } = period(filters);
  const f = p.add(from);
  const t = p.add(to);
  const sensors = assignedSensors(filters, p);
  const vehicles = filters.vehicle ? `and c.vehicle_id = any(${p.add(filters.vehicle)}::int[])` : '';
  return {
    text: `with ${NODE_PATHS}, ${sensors},
      bounds as (select ${f}::timestamptz as f, least(${t}::timestamptz, now()) as t),
      seg as (
        select c.vehicle_id, c.node_id, c.state,
               greatest(0, extract(epoch from least(coalesce(c.till, b.t), b.t) - greatest(c.tm, b.f))) as s
          from pdm.state_change c, bounds b
         where coalesce(c.till, 'infinity'::timestamptz) > b.f and c.tm < b.t ${vehicles}),
      per as (
        select vehicle_id, node_id, sum(s) filter (where state = 'normal') as normal, sum(s) filter (where state = 'warning') as warning,
               sum(s) filter (where state = 'fault') as fault, sum(s) filter (where state = 'no_data') as no_data
          from seg group by vehicle_id, node_id)
      select a.vehicle_id, a.depot_number, a.state_number, np.path as node_path,
             round((coalesce(per.normal, 0) / 3600)::numeric, 4)::float8 as normal_h,
             round((coalesce(per.warning, 0) / 3600)::numeric, 4)::float8 as warning_h,
             round((coalesce(per.fault, 0) / 3600)::numeric, 4)::float8 as fault_h,
             round((greatest(0, extract(epoch from b.t - b.f) - coalesce(per.normal, 0) - coalesce(per.warning, 0) - coalesce(per.fault, 0)) / 3600)::numeric, 4)::float8 as no_data_h,
             round((100 * coalesce(per.normal, 0) / greatest(extract(epoch from b.t - b.f), 1))::numeric, 2)::float8 as normal_share
        from assigned a cross join bounds b join node_path np on np.id = a.node_id
        left join per on per.vehicle_id = a.vehicle_id and per.node_id = a.node_id`,
    params: p.list,
  };
}

/** Each vehicle's nodes (units too, with the worst state of the sensors under them), states and last values. */
export function vehicleDiagnosticSql(filters: ReportFilterValues): ReportSql {
  const p = new Params();
  const sensors = assignedSensors({ ...filters, sensor: undefined }, p, false);
  const conditions: string[] = [];
  if (filters.state) conditions.push(`x.state = any(${p.add(filters.state)}::text[])`);
  if (filters.sensor) conditions.push(`x.sensor_type = any(${p.add(filters.sensor)}::text[])`);
  return {
    text: `with ${NODE_PATHS}, ${sensors},
      below as (
        with recursive d as (select id as anc, id from pdm.node union all select d.anc, n.id from d join pdm.node n on n.parent_id = d.id)
        select anc, id from d),
      states as (
        select a.vehicle_id, a.node_id, coalesce(s.state, 'no_data') as state, s.since, s.value, s.tm
          from assigned a left join pdm.node_state s on s.vehicle_id = a.vehicle_id and s.node_id = a.node_id
         where a.channel_kind is not null),
      x as (
        select a.vehicle_id, a.depot_number, a.state_number, t.name as tree_name, np.path as node_path, a.kind, n.sensor_type,
               case when a.channel_kind is null then null else upper(left(a.channel_kind, 1)) || a.channel end as channel,
               case when a.channel_kind is not null then st.state
                    else (select u.state from below b join states u on u.node_id = b.id and u.vehicle_id = a.vehicle_id
                           where b.anc = a.node_id
                           order by case u.state when 'fault' then 3 when 'warning' then 2 when 'no_data' then 1 else 0 end desc limit 1) end as state,
               st.since, st.value, a.unit, st.tm,
               case when a.normal_min is null and a.normal_max is null then null
                    else coalesce(a.normal_min::text, '−∞') || ' … ' || coalesce(a.normal_max::text, '+∞') end as normal
          from assigned a join pdm.tree t on t.id = a.tree_id join pdm.node n on n.id = a.node_id join node_path np on np.id = a.node_id
          left join states st on st.vehicle_id = a.vehicle_id and st.node_id = a.node_id)
      select x.vehicle_id, x.depot_number, x.state_number, x.tree_name, x.node_path, x.kind, x.channel, x.state, x.since, x.value, x.unit, x.tm, x.normal
        from x ${where(conditions)}`,
    params: p.list,
  };
}

/** State changes of the period (rows report, keyed by id). */
export function nodeJournalSql(filters: ReportFilterValues): ReportSql {
  const p = new Params();
  const { from, to } = period(filters);
  const conditions = [`c.tm >= ${p.add(from)}::timestamptz`, `c.tm <= ${p.add(to)}::timestamptz`];
  if (filters.vehicle) conditions.push(`c.vehicle_id = any(${p.add(filters.vehicle)}::int[])`);
  if (filters.depot) conditions.push(`v.depot_id = any(${p.add(filters.depot)}::int[])`);
  if (filters.state) conditions.push(`c.state = any(${p.add(filters.state)}::text[])`);
  if (filters.sensor) conditions.push(`n.sensor_type = any(${p.add(filters.sensor)}::text[])`);
  return {
    text: `with ${NODE_PATHS}
      select c.id::int as id, c.tm, c.vehicle_id, v.depot_number, v.state_number, np.path as node_path, c.prev_state, c.state, c.value, n.unit, c.till,
             round((extract(epoch from coalesce(c.till, now()) - c.tm) / 60)::numeric, 0)::float8 as minutes
        from pdm.state_change c join mgt.vehicles v on v.id = c.vehicle_id join pdm.node n on n.id = c.node_id join node_path np on np.id = c.node_id
       ${where(conditions)}`,
    params: p.list,
  };
}

/** Per vehicle and node: state now, time in fault and faults over the period, last service and the next one due. */
export function serviceSql(filters: ReportFilterValues): ReportSql {
  const p = new Params();
  const { from, to } = period(filters);
  const f = p.add(from);
  const t = p.add(to);
  const sensors = assignedSensors(filters, p, false);
  const show = filters.show === 'open' ? `where x.state = 'fault'` : filters.show === 'due' ? `where x.due in ('overdue', 'soon')` : '';
  return {
    text: `with ${NODE_PATHS}, ${sensors},
      bounds as (select ${f}::timestamptz as f, least(${t}::timestamptz, now()) as t),
      faults as (
        select c.vehicle_id, c.node_id,
               sum(greatest(0, extract(epoch from least(coalesce(c.till, b.t), b.t) - greatest(c.tm, b.f)))) as s,
               count(*) filter (where c.tm >= b.f) as n
          from pdm.state_change c, bounds b
         where c.state = 'fault' and coalesce(c.till, 'infinity'::timestamptz) > b.f and c.tm < b.t
         group by c.vehicle_id, c.node_id),
      x as (
        select a.vehicle_id, a.depot_number, a.state_number, np.path as node_path,
               case when a.channel_kind is null then null else coalesce(s.state, 'no_data') end as state,
               case when s.state = 'fault' then s.since end as fault_since,
               round((coalesce(fa.s, 0) / 3600)::numeric, 4)::float8 as fault_hours, coalesce(fa.n, 0)::int as faults,
               sr.tm as last_service, sr.work as last_work, to_char(sr.next_due, 'YYYY-MM-DD') as next_due,
               case when sr.next_due is null then 'none' when sr.next_due < current_date then 'overdue'
                    when sr.next_due < current_date + ${DUE_SOON_DAYS} then 'soon' else 'ok' end as due
          from assigned a join node_path np on np.id = a.node_id
          left join pdm.node_state s on s.vehicle_id = a.vehicle_id and s.node_id = a.node_id
          left join faults fa on fa.vehicle_id = a.vehicle_id and fa.node_id = a.node_id
          left join lateral (select r.tm, r.work, r.next_due from pdm.service_record r where r.vehicle_id = a.vehicle_id and r.node_id = a.node_id order by r.tm desc limit 1) sr on true
         where a.channel_kind is not null or sr.tm is not null)
      select * from x ${show}`,
    params: p.list,
  };
}

/** The step a chart of this period reads: raw up to 3 hours, minutes up to 2 days, hours up to 31 days, then days. */
export function chartStep(filters: ReportFilterValues): Exclude<ChartStep, 'auto'> | 'raw' {
  const chosen = (filters.step as ChartStep | undefined) ?? 'auto';
  if (chosen !== 'auto') return chosen;
  const span = Date.parse(filters.to as string) - Date.parse(filters.from as string);
  if (span <= 3 * HOUR_MS) return 'raw';
  if (span <= 48 * HOUR_MS) return 'minute';
  if (span <= 31 * 24 * HOUR_MS) return 'hour';
  return 'day';
}

const bucketText = (column: string, offset: string) =>
  `to_char(${column} at time zone 'UTC' + make_interval(mins => ${offset}::int), 'YYYY-MM-DD"T"HH24:MI')`;

/**
 * The series of a chart: vehicles × sensors, at most CHART_SERIES_MAX vehicles. Without chosen vehicles the
 * chart shows the sensors of the first vehicle (by garage number) with sensors under the filters, so the report's
 * defaults draw something.
 */
export function chartSql(filters: ReportFilterValues, context: Pick<ReportContext, 'offsetMinutes'>): ReportSql & { step: string } {
  const chosen = filters.vehicle as number[] | undefined;
  if (chosen && chosen.length > CHART_SERIES_MAX) throw fail(400, 'pdm_series_too_many');
  const p = new Params();
  const { from, to } = period(filters);
  const step = chartStep(filters);
  const nodes = filters.node
    ? (filters.node as string[]).map(Number).filter((n) => Number.isInteger(n) && n > 0 && n < 2 ** 31)
    : undefined;
  const sensors = assignedSensors(filters, p);
  const vehicles = chosen?.length
    ? `${p.add(chosen)}::int[]`
    : 'array(select vehicle_id from assigned order by depot_number, vehicle_id limit 1)';
  const f = p.add(from);
  const t = p.add(to);
  const off = p.add(context.offsetMinutes);
  const source =
    step === 'raw'
      ? `select r.vehicle_id, r.node_id, r.tm as b, r.value as avg, r.value as min, r.value as max, case when r.value is null then 0 else 1 end as n
         from pdm.reading r where r.tm >= ${f}::timestamptz and r.tm <= ${t}::timestamptz and r.vehicle_id = any(${vehicles})`
      : step === 'minute'
        ? `select r.vehicle_id, r.node_id, r.bucket as b, r.sum / nullif(r.n, 0) as avg, r.min, r.max, r.n
           from pdm.reading_minute r where r.bucket >= date_trunc('minute', ${f}::timestamptz) and r.bucket <= ${t}::timestamptz and r.vehicle_id = any(${vehicles})`
        : `select r.vehicle_id, r.node_id, ${step === 'day' ? `date_trunc('day', r.bucket at time zone 'UTC' + make_interval(mins => ${off}::int)) at time zone 'UTC' - make_interval(mins => ${off}::int)` : 'r.bucket'} as b,
                sum(r.sum) / nullif(sum(r.n), 0) as avg, min(r.min) as min, max(r.max) as max, sum(r.n)::int as n
           from pdm.reading_hour r where r.bucket >= date_trunc('hour', ${f}::timestamptz) and r.bucket <= ${t}::timestamptz and r.vehicle_id = any(${vehicles})
          group by 1, 2, 3`;
  const nodeFilter = nodes?.length ? `where a.node_id = any(${p.add(nodes)}::int[])` : '';
  return {
    step,
    text: `with ${sensors}
      select ${bucketText('s.b', off)} as period, a.depot_number::text || ' · ' || a.name as series, a.vehicle_id, a.node_id, a.unit,
             round(s.avg::numeric, 4)::float8 as avg, s.min, s.max, s.n as readings, s.b as at
        from (${source}) s join assigned a on a.vehicle_id = s.vehicle_id and a.node_id = s.node_id ${nodeFilter}`,
    params: p.list,
  };
}

/** The heat grid's rows: per vehicle and hour (or day) of the chosen sensor type, average value and fault share. */
export function heatSql(filters: ReportFilterValues, context: Pick<ReportContext, 'offsetMinutes'>): ReportSql {
  const p = new Params();
  const { from, to } = period(filters);
  const conditions = [
    `r.bucket >= date_trunc('hour', ${p.add(from)}::timestamptz)`,
    `r.bucket <= ${p.add(to)}::timestamptz`,
    `n.sensor_type = ${p.add(filters.sensorType ?? 'fuel_level')}`,
  ];
  if (filters.vehicle) conditions.push(`r.vehicle_id = any(${p.add(filters.vehicle)}::int[])`);
  if (filters.depot) conditions.push(`v.depot_id = any(${p.add(filters.depot)}::int[])`);
  const off = p.add(context.offsetMinutes);
  const bucket =
    filters.step === 'day'
      ? `date_trunc('day', r.bucket at time zone 'UTC' + make_interval(mins => ${off}::int))`
      : `date_trunc('hour', r.bucket at time zone 'UTC' + make_interval(mins => ${off}::int))`;
  return {
    text: `select r.vehicle_id, v.depot_number, v.state_number, to_char(${bucket}, 'YYYY-MM-DD"T"HH24:MI') as period,
                  round((sum(r.sum) / nullif(sum(r.n), 0))::numeric, 3)::float8 as value,
                  round((100.0 * sum(r.fault) / greatest(sum(r.n), sum(r.fault), 1))::numeric, 2)::float8 as fault_share,
                  sum(r.n)::int as readings
             from pdm.reading_hour r join pdm.node n on n.id = r.node_id join mgt.vehicles v on v.id = r.vehicle_id
            ${where(conditions)}
            group by r.vehicle_id, v.depot_number, v.state_number, ${bucket}`,
    params: p.list,
  };
}

/** The heat layer's points: places (rounded to ~100 m) of the chosen sensor type's hours, weighted by value or fault share. */
export function heatPointsSql(filters: ReportFilterValues): ReportSql {
  const p = new Params();
  const { from, to } = period(filters);
  const conditions = [
    `r.bucket >= date_trunc('hour', ${p.add(from)}::timestamptz)`,
    `r.bucket <= ${p.add(to)}::timestamptz`,
    `n.sensor_type = ${p.add(filters.sensorType ?? 'fuel_level')}`,
    'r.lat is not null',
  ];
  if (filters.vehicle) conditions.push(`r.vehicle_id = any(${p.add(filters.vehicle)}::int[])`);
  if (filters.depot) conditions.push(`r.vehicle_id in (select id from mgt.vehicles where depot_id = any(${p.add(filters.depot)}::int[]))`);
  const weight =
    filters.metric === 'fault_rate' ? 'sum(r.fault)::float8 / greatest(sum(r.n), sum(r.fault), 1)' : 'sum(r.sum) / nullif(sum(r.n), 0)';
  return {
    text: `select round(r.lat::numeric, 3)::float8 as lat, round(r.lon::numeric, 3)::float8 as lon, ${weight} as weight
             from pdm.reading_hour r join pdm.node n on n.id = r.node_id
            ${where(conditions)}
            group by 1, 2 order by 3 desc nulls last limit 5000`,
    params: p.list,
  };
}

/** One vehicle's sensors, each with its state segments over [from, to] (before its first change: no data). */
export function timelineSql(vehicleId: number, from: string, to: string): ReportSql {
  return {
    text: `with ${NODE_PATHS}
      select n.id as node_id, np.path as node_path,
             coalesce(json_agg(json_build_object('from', greatest(c.tm, $2::timestamptz), 'to', least(coalesce(c.till, now()), $3::timestamptz), 'state', c.state) order by c.tm)
                      filter (where c.id is not null), '[]') as segments
        from pdm.tree_vehicle tv join pdm.node n on n.tree_id = tv.tree_id and n.channel_kind is not null join node_path np on np.id = n.id
        left join pdm.state_change c on c.vehicle_id = tv.vehicle_id and c.node_id = n.id
             and coalesce(c.till, 'infinity'::timestamptz) > $2::timestamptz and c.tm < $3::timestamptz
       where tv.vehicle_id = $1
       group by n.id, np.path order by np.path`,
    params: [vehicleId, from, to],
  };
}
