import { DISPATCH_DEFAULTS, type DispatchSettings } from '../../shared/dispatch/settings';
import type { ReportFilterValues } from '../../shared/reports/filters';
import { ACCEPTED_ERROR, DISPATCH_REPORTS, HEADWAY_LOS, HEADWAY_LOS_WORST, PREDICTION_HORIZONS } from '../../shared/reports/dispatch';
import { Params, periodDays, routeName } from '../passengers/passengerQueries';
import { bindReports, type ReportContext, type ReportSql } from '../reports/reportSource';
import { operatorTzOffset } from '../platform/operatorDay';

/**
 * The SQL of the dispatcher's reports (declarations: src/shared/reports/dispatch.ts) over dispatch.stop_passage
 * and dispatch.prediction_sample. A period is read as the service dates it touches (the client's days, as the
 * passenger reports read theirs); hours are the operator's (the timetable's minutes of day). Interpolated passages
 * (a stop passed between two fixes, its time a guess) are left out of the measures, not of the order of vehicles.
 */

const settingsOf = (context: ReportContext): DispatchSettings => ({ ...DISPATCH_DEFAULTS, ...(context.settings?.dispatch ?? {}) });
const where = (conditions: string[]) => (conditions.length ? `where ${conditions.join(' and ')}` : '');

/** The route and depot (the route's) filters on a route id column. */
function routeScope(filters: ReportFilterValues, p: Params, column: string): string[] {
  const c: string[] = [];
  if (filters.route) c.push(`${column} = any(${p.add(filters.route)}::int[])`);
  if (filters.depot) c.push(`${column} in (select route_id from mgt.routes where "Depot_id" = any(${p.add(filters.depot)}::int[]))`);
  return c;
}

/** The routes the filters leave as an int[] expression, null for every route (dispatch.day_runs' p_routes). */
function routeArray(filters: ReportFilterValues, p: Params): string {
  const c = routeScope(filters, p, 'route_id');
  return c.length ? `(select coalesce(array_agg(route_id), '{}') from mgt.routes ${where(c)})` : 'null::int[]';
}

/** The service dates of the period as two parameters. */
function serviceDates(filters: ReportFilterValues, context: ReportContext, p: Params): { from: string; to: string } {
  const d = periodDays(filters, context.offsetMinutes);
  return { from: `${p.add(d.from)}::date`, to: `${p.add(d.to)}::date` };
}

/**
 * Each measured passage's deviation from the timetable, whole seconds: its departure (the arrival at the last
 * stop) less the scheduled time, as the engine judges a passage; with its route, stop and operator hour.
 */
function deviations(filters: ReportFilterValues, context: ReportContext, p: Params): string {
  const { from, to } = serviceDates(filters, context, p);
  const offset = p.add(operatorTzOffset());
  return `select p.route_id, p.stop_id,
                 extract(hour from p.schedule_departure at time zone 'UTC' + make_interval(mins => ${offset}::int))::int as hour,
                 round(extract(epoch from coalesce(p.actual_departure, p.actual_arrival) - p.schedule_departure))::float8 as deviation
            from dispatch.stop_passage p
           ${where([
             `p.service_date between ${from} and ${to}`,
             'not p.interpolated',
             'coalesce(p.actual_departure, p.actual_arrival) is not null',
             ...routeScope(filters, p, 'p.route_id'),
           ])}`;
}

/** Counts and shares of early, on-time and late departures over the grouped deviations `d`. */
function adherence(context: ReportContext, p: Params): string {
  const { earlySeconds, lateSeconds } = settingsOf(context);
  const early = `d.deviation < -${p.add(earlySeconds)}::float8`;
  const late = `d.deviation > ${p.add(lateSeconds)}::float8`;
  const share = (condition: string) => `round((100.0 * count(*) filter (where ${condition}) / count(*))::numeric, 1)::float8`;
  return `count(*)::int as departures, count(*) filter (where ${early})::int as early,
          count(*) filter (where not (${early}) and not (${late}))::int as on_time, count(*) filter (where ${late})::int as late,
          ${share(`not (${early}) and not (${late})`)} as on_time_share, ${share(early)} as early_share, ${share(late)} as late_share,
          round((percentile_cont(0.5) within group (order by d.deviation) / 60)::numeric, 1)::float8 as median_deviation`;
}

const hourName = (hour: string) => `lpad(${hour}::text, 2, '0') || ':00'`;

export function onTimeSql(filters: ReportFilterValues, context: ReportContext): ReportSql {
  const p = new Params();
  const d = deviations(filters, context, p);
  const measures = adherence(context, p);
  const group = filters.group === 'stop' ? 'stop_id' : filters.group === 'hour' ? 'hour' : 'route_id';
  // stop names joined to the grouped rows: the label view numbers a name's stops over the whole handbook
  const name = group === 'stop_id' ? 'l.label' : group === 'hour' ? hourName('d.key') : routeName('d.key');
  return {
    text: `select d.key, ${name} as name, d.departures, d.early, d.on_time, d.late, d.on_time_share, d.early_share, d.late_share, d.median_deviation
             from (select d.${group} as key, ${measures} from (${d}) d group by d.${group}) d
             ${group === 'stop_id' ? 'left join mgt.stop_label l on l.stop_id = d.key' : ''}`,
    params: p.list,
  };
}

/** On-time performance by hour of the day, whatever the grouping: the chart. */
export function onTimeChartSql(filters: ReportFilterValues, context: ReportContext): ReportSql {
  const p = new Params();
  const d = deviations(filters, context, p);
  return {
    text: `select d.hour as key, ${hourName('d.hour')} as name, ${adherence(context, p)} from (${d}) d group by d.hour order by d.hour`,
    params: p.list,
  };
}

/** The runs of the period judged by dispatch.run_status (no vehicle is on a run as far as a report knows). */
function judgedRuns(filters: ReportFilterValues, context: ReportContext, p: Params): string {
  const { from, to } = serviceDates(filters, context, p);
  const offset = p.add(operatorTzOffset());
  const missed = p.add(settingsOf(context).runMissedSeconds);
  return `select r.service_date, r.route_id,
                 dispatch.run_status(r.end_arrival is not null, r.passed, false, r.planned_end, now(), ${missed}::int) as status
            from dispatch.day_runs(${from}, ${to}, ${offset}::int, ${routeArray(filters, p)}) r`;
}

/** Counts by status and the shares of the runs judged (neither pending nor due while nobody watched). */
const completion = `count(*)::int as planned, count(*) filter (where r.status = 'performed')::int as performed,
  count(*) filter (where r.status = 'partial')::int as partial, count(*) filter (where r.status = 'not_performed')::int as not_performed,
  count(*) filter (where r.status = 'not_watched')::int as not_watched,
  count(*) filter (where r.status in ('in_progress', 'planned'))::int as pending,
  ${['performed', 'partial', 'not_performed']
    .map(
      (status) => `round((100.0 * count(*) filter (where r.status = '${status}')
    / nullif(count(*) filter (where r.status not in ('in_progress', 'planned', 'not_watched')), 0))::numeric, 1)::float8 as ${status}_share`,
    )
    .join(', ')}`;

export function runCompletionSql(filters: ReportFilterValues, context: ReportContext): ReportSql {
  const p = new Params();
  return {
    text: `select r.day, r.route_id, ${routeName('r.route_id')} as route_name, r.planned, r.performed, r.partial, r.not_performed, r.not_watched, r.pending,
                  r.performed_share, r.partial_share, r.not_performed_share
             from (select r.service_date as day, r.route_id, ${completion} from (${judgedRuns(filters, context, p)}) r group by 1, 2) r`,
    params: p.list,
  };
}

export function runCompletionChartSql(filters: ReportFilterValues, context: ReportContext): ReportSql {
  const p = new Params();
  return {
    text: `select r.service_date as day, ${completion} from (${judgedRuns(filters, context, p)}) r group by 1 order by 1`,
    params: p.list,
  };
}

/**
 * Each measured headway: at a stop, the time between the departures (the arrival at the last stop) of two
 * consecutive vehicles of the route and direction, against the timetable's headway there (the time since the
 * previous race of the variant and direction was due at the stop); the hour is the scheduled one.
 */
function headways(filters: ReportFilterValues, context: ReportContext, p: Params): string {
  const { from, to } = serviceDates(filters, context, p);
  return `with p as materialized (
            select p.service_date, p.route_id, p.direction, p.stop_id, p.vehicle_id, p.rasp_variant_id, p.graph, p.smena, p.race_num,
                   p.stop_sequence, p.interpolated, coalesce(p.actual_departure, p.actual_arrival) as actual
              from dispatch.stop_passage p
             ${where([`p.service_date between ${from} and ${to}`, 'coalesce(p.actual_departure, p.actual_arrival) is not null', ...routeScope(filters, p, 'p.route_id')])}),
          h as (
            select p.*, lag(p.actual) over w as prev_actual, lag(p.vehicle_id) over w as prev_vehicle, lag(p.interpolated) over w as prev_interpolated
              from p window w as (partition by p.service_date, p.route_id, p.direction, p.stop_id order by p.actual, p.vehicle_id)),
          s as (
            select rt."RaspVariant_id" as variant, rt.graph, rt.smena, rt.racenum, rt."order", rt.time,
                   (rt.time - lag(rt.time) over (partition by rt."RaspVariant_id", rt.stop_id, rt.racetype = 'B' order by rt.time, rt.graph, rt.racenum)) * 60 as scheduled
              from mgt.rasp_time rt where rt."RaspVariant_id" in (select distinct rasp_variant_id from p))
          select h.route_id, h.direction, (s.time / 60) % 24 as hour, extract(epoch from h.actual - h.prev_actual)::float8 as actual, s.scheduled::float8 as scheduled
            from h join s on s.variant = h.rasp_variant_id and s.graph = h.graph and s.smena = h.smena and s.racenum = h.race_num and s."order" = h.stop_sequence
           where h.prev_actual is not null and h.prev_vehicle <> h.vehicle_id and not h.interpolated and not h.prev_interpolated and s.scheduled > 0`;
}

/** TCQSM's measures, the ±50 % share, bunching and gaps over the grouped headways `x`. */
function regularity(context: ReportContext, p: Params): string {
  const { bunchingPercent, gapPercent } = settingsOf(context);
  const cv = 'stddev_pop(x.actual - x.scheduled) / avg(x.scheduled)';
  const los = `case ${HEADWAY_LOS.map(([level, bound]) => `when ${cv} <= ${bound} then '${level}'`).join(' ')} else '${HEADWAY_LOS_WORST}' end`;
  return `count(*)::int as headways, round((avg(x.scheduled) / 60)::numeric, 1)::float8 as scheduled_headway,
          round((avg(x.actual) / 60)::numeric, 1)::float8 as actual_headway, round((${cv})::numeric, 2)::float8 as cv, ${los} as los,
          round((100.0 * count(*) filter (where abs(x.actual - x.scheduled) <= 0.5 * x.scheduled) / count(*))::numeric, 1)::float8 as within_share,
          count(*) filter (where x.actual < ${p.add(bunchingPercent)}::float8 / 100 * x.scheduled)::int as bunching,
          count(*) filter (where x.actual > ${p.add(gapPercent)}::float8 / 100 * x.scheduled)::int as gaps`;
}

export function headwaysSql(filters: ReportFilterValues, context: ReportContext): ReportSql {
  const p = new Params();
  const x = headways(filters, context, p);
  return {
    text: `select x.route_id, ${routeName('x.route_id')} as route_name, x.direction::text as direction, x.hour, x.headways, x.scheduled_headway, x.actual_headway,
                  x.cv, x.los, x.within_share, x.bunching, x.gaps
             from (select x.route_id, x.direction, x.hour, ${regularity(context, p)} from (${x}) x group by 1, 2, 3) x`,
    params: p.list,
  };
}

export function headwaysChartSql(filters: ReportFilterValues, context: ReportContext): ReportSql {
  const p = new Params();
  const x = headways(filters, context, p);
  return { text: `select x.hour, ${regularity(context, p)} from (${x}) x group by 1 order by 1`, params: p.list };
}

/**
 * Each sampled prediction whose arrival followed (the same vehicle at the run's stop, not interpolated): per
 * method its horizon (minutes from when it was made to the time it gave) and its error (actual less predicted, s).
 */
export function predictionsSql(filters: ReportFilterValues, context: ReportContext): ReportSql {
  const p = new Params();
  const { from, to } = serviceDates(filters, context, p);
  // [from, to) each, the last closed
  const horizon = `case ${PREDICTION_HORIZONS.map(([key, , upper], i) => `when e.t ${i === PREDICTION_HORIZONS.length - 1 ? '<=' : '<'} ${upper} then '${key}'`).join(' ')} end`;
  const inside = `b.error > -${ACCEPTED_ERROR.scale} * ln(b.t + ${ACCEPTED_ERROR.early}) and b.error < ${ACCEPTED_ERROR.scale} * ln(b.t + ${ACCEPTED_ERROR.late})`;
  return {
    text: `with s as materialized (
             select s.made_at, s.predicted, s.baseline, a.actual_arrival as actual
               from dispatch.prediction_sample s
               join dispatch.stop_passage a on a.service_date = s.service_date and a.rasp_variant_id = s.rasp_variant_id and a.graph = s.graph
                and a.smena = s.smena and a.race_num = s.race_num and a.stop_sequence = s.stop_sequence and a.vehicle_id = s.vehicle_id
              ${where([`s.service_date between ${from} and ${to}`, 'not a.interpolated', 'a.actual_arrival is not null', ...routeScope(filters, p, 's.route_id')])}),
           e as (
             select 'learned' as method, extract(epoch from s.predicted - s.made_at)::float8 / 60 as t, extract(epoch from s.actual - s.predicted)::float8 as error from s
             union all
             select 'baseline', extract(epoch from s.baseline - s.made_at)::float8 / 60, extract(epoch from s.actual - s.baseline)::float8 from s),
           b as (select ${horizon} as horizon, e.method, e.t, e.error from e)
           select b.horizon, b.method, count(*)::int as samples,
                  round(percentile_cont(0.5) within group (order by abs(b.error)))::float8 as median_error, round(avg(b.error))::float8 as mean_error,
                  count(*) filter (where ${inside})::int as inside,
                  round((100.0 * count(*) filter (where ${inside}) / count(*))::numeric, 1)::float8 as inside_share
             from b where b.horizon is not null group by b.horizon, b.method`,
    params: p.list,
  };
}

/** The dispatcher's reports on their SQL. */
export const DISPATCH_SOURCES = bindReports(DISPATCH_REPORTS, {
  '/reports/on-time': { shape: 'rows', select: onTimeSql, chart: onTimeChartSql, sortSql: { name: 'lower(r.name)' } },
  '/reports/runs': {
    shape: 'rows',
    select: runCompletionSql,
    chart: runCompletionChartSql,
    sortSql: { route_name: 'lower(r.route_name)' },
  },
  '/reports/headways': { shape: 'rows', select: headwaysSql, chart: headwaysChartSql, sortSql: { route_name: 'lower(r.route_name)' } },
  '/reports/predictions': { shape: 'summary', select: predictionsSql },
});
