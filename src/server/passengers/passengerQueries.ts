import type { ReportFilterValues } from '../../shared/reports/filters';
import { CLASS_CAPACITY, CLASS_ORDER, DEFAULT_CAPACITY, type PassengerSettings } from '../../shared/passengers/passengers';
import { PASSENGER_DEFAULTS } from '../../shared/passengers/passengers';
import type { ReportContext, ReportSql } from '../reports/reportSource';
import { EXCHANGE_SPANS, OD_SPANS, spannedRows } from './daySpans';

/**
 * The SQL of the passenger-flow reports (declarations: src/shared/reports/passengers.ts). Most read the
 * rollups of migrations 070 and 071 (route_hour, stop_hour, stop_day, vehicle_day, ticket_day, plan_hour, the
 * daily and spanned stop pairs, transfer_day), whose days and hours are the operator's: a period is read as the
 * whole operator days it touches. The registry reads the raw stop visits (a page from the arrival index), the
 * load profile the stop visits of one route direction.
 */

export class Params {
  readonly list: unknown[] = [];
  add(value: unknown): string {
    return `$${this.list.push(value)}`;
  }
}

const DAY_MS = 86_400_000;

/** The operator days of the period (the client's zone reads its own days). */
export function periodDays(
  filters: ReportFilterValues,
  offsetMinutes: number,
): { from: string; to: string; days: number; prevFrom: string; prevTo: string } {
  const day = (iso: string) => new Date(Date.parse(iso) + offsetMinutes * 60_000).toISOString().slice(0, 10);
  const from = day(filters.from as string);
  const to = day(filters.to as string);
  const days = Math.round((Date.parse(to) - Date.parse(from)) / DAY_MS) + 1;
  const shift = (date: string, n: number) => new Date(Date.parse(date) - n * DAY_MS).toISOString().slice(0, 10);
  return { from, to, days, prevFrom: shift(from, days), prevTo: shift(to, days) };
}

export const routeName = (alias: string) =>
  `(select concat_ws(' ', rr.route_short_name, rr.route_long_name) from mgt.routes rr where rr.route_id = ${alias})`;
const stopName = (alias: string) => `(select ss.stop_name from mgt.stops ss where ss.stop_id = ${alias})`;
const vehicleName = (alias: string) =>
  `(select concat_ws(' ', vv.depot_number::text, vv.state_number) from mgt.vehicles vv where vv.id = ${alias})`;
const where = (conditions: string[]) => (conditions.length ? `where ${conditions.join(' and ')}` : '');

/** Route, depot (the route's), vehicle, stop conditions on a rollup alias's columns. */
function common(filters: ReportFilterValues, p: Params, columns: { route?: string; vehicle?: string; stop?: string }): string[] {
  const c: string[] = [];
  if (columns.route && filters.route) c.push(`${columns.route} = any(${p.add(filters.route)}::int[])`);
  if (columns.route && filters.depot)
    c.push(`${columns.route} in (select route_id from mgt.routes where "Depot_id" = any(${p.add(filters.depot)}::int[]))`);
  if (columns.vehicle && filters.vehicle) c.push(`${columns.vehicle} = any(${p.add(filters.vehicle)}::int[])`);
  if (columns.stop && filters.stop) c.push(`${columns.stop} = any(${p.add(filters.stop)}::int[])`);
  return c;
}

function daysOf(column: string, p: Params, from: string, to: string): string {
  return `${column} between ${p.add(from)}::date and ${p.add(to)}::date`;
}

/** A vehicle's total capacity by its class (CLASS_CAPACITY); `v` a mgt.vehicles alias. */
export const capacitySql = (v: string) => `coalesce((select case ct.code ${Object.entries(CLASS_CAPACITY)
  .map(([code, n]) => `when '${code}' then ${n}`)
  .join(' ')} end
  from mgt.capacity_type ct where ct.id = ${v}.capacity_type_id), ${DEFAULT_CAPACITY})`;
const seatsSql = (v: string) =>
  `coalesce((select ct.seats from mgt.capacity_type ct where ct.id = ${v}.capacity_type_id), ${Math.round(DEFAULT_CAPACITY / 3)})`;

const settingsOf = (context: ReportContext): PassengerSettings => ({ ...PASSENGER_DEFAULTS, ...(context.settings?.passengers ?? {}) });

/** The peak hours of the settings as an SQL condition on an hour expression. */
export function peakCondition(hour: string, settings: PassengerSettings, which: 'all' | 'morning' | 'evening' | 'both'): string {
  const morning = `(${hour} >= ${settings.morningPeakFrom} and ${hour} < ${settings.morningPeakTo})`;
  const evening = `(${hour} >= ${settings.eveningPeakFrom} and ${hour} < ${settings.eveningPeakTo})`;
  if (which === 'morning') return morning;
  if (which === 'evening') return evening;
  if (which === 'both') return `(${morning} or ${evening})`;
  return 'true';
}

export function analysisSql(filters: ReportFilterValues, context: ReportContext): ReportSql {
  const p = new Params();
  const d = periodDays(filters, context.offsetMinutes);
  const shift = p.add(d.days);
  const part = (table: string, alias: string, value: string, from: string, to: string, day = `${alias}.day`) => {
    const c = [daysOf(`${alias}.day`, p, from, to), ...common(filters, p, { route: `${alias}.route_id` })];
    return `select ${day} as day, ${value} from ${table} ${alias} ${where(c)} group by 1`;
  };
  return {
    text: `with cur as (${part('pass.route_hour', 'h', 'sum(h.boardings)::float8 as passengers, sum(h.pkm) as pkm', d.from, d.to)}),
      val as (${part('pass.ticket_day', 't', 'sum(t.validations)::float8 as validations', d.from, d.to)}),
      work as (${part('pass.vehicle_day', 'w', 'sum(w.trips)::float8 as trips, sum(w.km * w.counted_trips / greatest(w.trips, 1)) as counted_km', d.from, d.to)}),
      prev as (${part('pass.route_hour', 'h', 'sum(h.boardings)::float8 as previous', d.prevFrom, d.prevTo, `h.day + ${shift}::int`)})
      select days.day::date as day, coalesce(cur.passengers, 0) as passengers, coalesce(val.validations, 0) as validations,
             coalesce(work.trips, 0) as trips, round(coalesce(cur.pkm, 0)::numeric, 1)::float8 as pkm,
             case when work.counted_km > 0 then round((cur.pkm / work.counted_km)::numeric, 1)::float8 end as load_avg,
             coalesce(prev.previous, 0) as previous
        from (select day from cur union select day from val union select day from work) days
        left join cur on cur.day = days.day left join val on val.day = days.day left join work on work.day = days.day
        left join prev on prev.day = days.day`,
    params: p.list,
  };
}

/** Data-quality flags of a trip: counts that do not balance, or a counter that reported nothing. */
const IMBALANCE = 'abs(t.boardings - t.alightings) > greatest(3, 0.1 * t.boardings)';
const SILENT = 't.boardings + t.alightings = 0';

export function registrySql(filters: ReportFilterValues, context: ReportContext): ReportSql {
  const p = new Params();
  const d = periodDays(filters, context.offsetMinutes);
  const from = p.add(d.from);
  const to = p.add(d.to);
  // The arrivals a service day can hold, wide enough for any zone and races past midnight: the page in its
  // default order (newest first) is then a range of the arrival index, not a sort of the period's visits.
  const arrivals = `v.arrival >= (${from}::date - 1)::timestamp at time zone 'UTC' and v.arrival < (${to}::date + 3)::timestamp at time zone 'UTC'`;
  const c = [
    `v.service_date between ${from}::date and ${to}::date`,
    arrivals,
    ...common(filters, p, { route: 'v.route_id', vehicle: 'v.vehicle_id', stop: 'v.stop_id' }),
  ];
  const flags = (filters.flag as string[] | undefined) ?? [];
  if (flags.length) c.push(`(${flags.map((f) => (f === 'imbalance' ? 'q.imbalance' : 'q.silent')).join(' or ')})`);
  return {
    text: `select v.id, v.arrival, v.departure, ${routeName('v.route_id')} as route_name, v.direction::text as direction,
             (select depot_number from mgt.vehicles where id = v.vehicle_id) as depot_number, ${stopName('v.stop_id')} as stop_name,
             v.stop_sequence, v.boardings, v.alightings, v.departure_load,
             concat_ws(', ', case when q.imbalance then 'Вошедшие и вышедшие не сходятся' end, case when q.silent then 'Счётчик ничего не передал' end) as flags
        from pass.stop_visit v
        join lateral (select ${IMBALANCE} as imbalance, ${SILENT} as silent from pass.trip_performed t where t.id = v.trip_performed_id) q on true
       ${where(c)}`,
    params: p.list,
  };
}

export function passageSql(filters: ReportFilterValues, context: ReportContext): ReportSql {
  const p = new Params();
  const d = periodDays(filters, context.offsetMinutes);
  const c = [daysOf('h.day', p, d.from, d.to), ...common(filters, p, { route: 'h.route_id' })];
  const period =
    filters.step === 'hour'
      ? `to_char(h.day, 'YYYY-MM-DD') || 'T' || lpad(h.hour::text, 2, '0') || ':00'`
      : `to_char(h.day, 'YYYY-MM-DD') || 'T00:00'`;
  return {
    text: `select ${period} as period, h.route_id, ${routeName('h.route_id')} as route_name, h.direction::text as direction,
             sum(h.boardings)::float8 as boardings, sum(h.alightings)::float8 as alightings, round(sum(h.pkm)::numeric, 1)::float8 as pkm
        from pass.route_hour h ${where(c)} group by 1, 2, 4`,
    params: p.list,
  };
}

export function stopsSql(filters: ReportFilterValues, context: ReportContext): ReportSql {
  const p = new Params();
  const d = periodDays(filters, context.offsetMinutes);
  const c = [daysOf('h.day', p, d.from, d.to), ...common(filters, p, { route: 'h.route_id', stop: 'h.stop_id' })];
  return {
    // per stop and route first (hashed), then per stop: no sort of the period's rows for a distinct count
    text: `select h.stop_id, s.stop_name, s.stop_lat as lat, s.stop_lon as lon, sum(h.boardings)::float8 as boardings,
             sum(h.alightings)::float8 as alightings, sum(h.boardings + h.alightings)::float8 as exchange, count(*)::int as routes
        from (select h.stop_id, h.route_id, sum(h.boardings) as boardings, sum(h.alightings) as alightings from pass.stop_day h ${where(c)} group by 1, 2) h
        join mgt.stops s on s.stop_id = h.stop_id
       group by h.stop_id, s.stop_name, s.stop_lat, s.stop_lon`,
    params: p.list,
  };
}

export function paySql(filters: ReportFilterValues, context: ReportContext): ReportSql {
  const p = new Params();
  const d = periodDays(filters, context.offsetMinutes);
  const ticketConditions = () => {
    const c = [daysOf('t.day', p, d.from, d.to), ...common(filters, p, { route: 't.route_id' })];
    if (filters.ticket) c.push(`t.ticket_type_id = any(${p.add(filters.ticket)}::int[])`);
    return c;
  };
  const group = filters.group as string;
  if (group === 'ticketType' || group === 'ticketView') {
    const key = group === 'ticketType' ? 'tt.ticket_type_id' : 'tt.ticket_kind_id';
    const name =
      group === 'ticketType'
        ? `concat_ws(' ', tt.ticket_type_code, tt.ticket_type_name)`
        : '(select tv.ticket_kind_name from cat.ticket_view tv where tv.ticket_kind_id = tt.ticket_kind_id)';
    return {
      text: `select g.key, g.name, g.validations, round((100 * g.validations / nullif(sum(g.validations) over (), 0))::numeric, 1)::float8 as share,
                    null::float8 as passengers, null::float8 as per_passenger, null::float8 as evasion
               from (select ${key}::text as key, ${name} as name, sum(t.validations)::float8 as validations
                       from pass.ticket_day t join cat.ticket_type tt on tt.ticket_type_id = t.ticket_type_id ${where(ticketConditions())} group by 1, 2) g`,
      params: p.list,
    };
  }
  // by route or day: validations, and passengers counted on the same vehicles (validations per passenger estimate evasion)
  const work = [daysOf('w.day', p, d.from, d.to), ...common(filters, p, { route: 'w.route_id' })];
  const key = group === 'route' ? 'w.route_id::text' : `to_char(w.day, 'YYYY-MM-DD')`;
  const name = group === 'route' ? routeName('w.route_id') : `to_char(w.day, 'DD.MM.YYYY')`;
  const ticketFiltered = Boolean(filters.ticket);
  return {
    text: `select g.key, g.name, g.validations, round((100 * g.validations / nullif(sum(g.validations) over (), 0))::numeric, 1)::float8 as share,
                  g.passengers, round((g.counted_validations / nullif(g.passengers, 0))::numeric, 2)::float8 as per_passenger,
                  round(greatest(0, 100 * (1 - g.counted_validations / nullif(g.passengers, 0)))::numeric, 1)::float8 as evasion
             from (select ${key} as key, min(${name}) as name,
                          ${ticketFiltered ? `(select sum(t.validations) from pass.ticket_day t ${where(ticketConditions())} and ${group === 'route' ? 't.route_id = min(w.route_id)' : 't.day = min(w.day)'})::float8` : 'sum(w.validations)::float8'} as validations,
                          ${ticketFiltered ? 'null::float8' : 'sum(w.boardings) filter (where w.counted_trips > 0)::float8'} as passengers,
                          sum(w.validations) filter (where w.counted_trips > 0)::float8 as counted_validations
                     from pass.vehicle_day w ${where(work)} group by 1) g`,
    params: p.list,
  };
}

export function correspondenceSql(filters: ReportFilterValues, context: ReportContext): ReportSql {
  const p = new Params();
  const d = periodDays(filters, context.offsetMinutes);
  let pairs: string;
  if (filters.view === 'transfers') {
    const c = [daysOf('j.day', p, d.from, d.to), ...common(filters, p, { route: 'j.route_id' })];
    pairs = `select ${routeName('j.route_id')} as origin, ${routeName('j.next_route_id')} as destination, sum(j.transfers)::float8 as journeys
               from pass.transfer_day j ${where(c)} group by j.route_id, j.next_route_id having sum(j.transfers) > 0`;
  } else {
    // between stops or districts: the period's spans and days of stop pairs, not every journey
    const parts = spannedRows(
      p,
      d.from,
      d.to,
      { spans: 'pass.od_span', lengths: OD_SPANS, days: 'pass.od_day' },
      'x.board_stop_id, x.alight_stop_id, x.journeys',
      common(filters, p, { route: 'x.route_id' }),
    );
    const pairsOfDays = `select x.board_stop_id, x.alight_stop_id, sum(x.journeys) as n from (${parts}) x group by 1, 2 having sum(x.journeys) > 0`;
    if (filters.view === 'districts') {
      // each stop's district looked up once, not once per pair
      pairs = `with x as (${pairsOfDays}),
                    sd as (select st.stop_id, (select dd.district_name from cat.district dd where st_contains(dd.geom, ss.geom) order by dd.district_id limit 1) as name
                             from (select board_stop_id as stop_id from x union select alight_stop_id from x) st join mgt.stops ss on ss.stop_id = st.stop_id)
               select coalesce(o.name, '—') as origin, coalesce(t.name, '—') as destination, sum(x.n)::float8 as journeys
                 from x left join sd o on o.stop_id = x.board_stop_id left join sd t on t.stop_id = x.alight_stop_id
                group by 1, 2`;
    } else {
      // the stops' labels (a stop is a stop id: a shared name gets the id) joined, two hash joins of the
      // network's stops labelled once, not looked up pair by pair: the 40,000 lookups of 20,000 pairs were
      // half the time of a city's day
      pairs = `with l as materialized (select stop_id, label from mgt.stop_label)
               select so.label as origin, sd.label as destination, x.n::float8 as journeys
                 from (${pairsOfDays} order by 3 desc limit 20000) x
                 left join l so on so.stop_id = x.board_stop_id left join l sd on sd.stop_id = x.alight_stop_id`;
    }
  }
  return {
    text: `select g.origin, g.destination, g.journeys, round((100 * g.journeys / nullif(sum(g.journeys) over (), 0))::numeric, 2)::float8 as share from (${pairs}) g`,
    params: p.list,
  };
}

export function turnoverSql(filters: ReportFilterValues, context: ReportContext): ReportSql {
  const p = new Params();
  const d = periodDays(filters, context.offsetMinutes);
  const c = [daysOf('w.day', p, d.from, d.to), ...common(filters, p, { route: 'w.route_id', vehicle: 'w.vehicle_id' })];
  const group = filters.group as string;
  const key = group === 'vehicle' ? 'w.vehicle_id::text' : group === 'day' ? `to_char(w.day, 'YYYY-MM-DD')` : 'w.route_id::text';
  const name =
    group === 'vehicle'
      ? vehicleName('min(w.vehicle_id)')
      : group === 'day'
        ? `to_char(min(w.day), 'DD.MM.YYYY')`
        : routeName('min(w.route_id)');
  return {
    text: `select ${key} as key, ${name} as name, round(sum(w.pkm)::numeric, 1)::float8 as pkm, sum(w.boardings)::float8 as passengers,
                  round(sum(w.km)::numeric, 1)::float8 as km, sum(w.trips)::float8 as trips,
                  round((sum(w.pkm) / nullif(sum(w.boardings), 0))::numeric, 2)::float8 as avg_ride_km
             from pass.vehicle_day w ${where(c)} group by 1`,
    params: p.list,
  };
}

/**
 * The stop hours of the exchange's filters (period, depots, routes, stops): the period's spans of
 * pass.stop_hour_span and single days of pass.stop_hour (a month of a city is 240,000–430,000 rows of them
 * instead of 1,500,000 stop hours).
 */
function exchangeRows(filters: ReportFilterValues, context: ReportContext, p: Params): string {
  const d = periodDays(filters, context.offsetMinutes);
  return spannedRows(
    p,
    d.from,
    d.to,
    { spans: 'pass.stop_hour_span', lengths: EXCHANGE_SPANS, days: 'pass.stop_hour' },
    'x.stop_id, x.route_id, x.hour, x.boardings, x.alightings',
    common(filters, p, { route: 'x.route_id', stop: 'x.stop_id' }),
  );
}

/**
 * The exchange per stop, route and hour: a city's day is 26,000 of these rows, its month 55,000, so the report
 * is paged in SQL (a rows report) with its count and totals beside the page, and its chart by hour is
 * exchangeChartSql. Sums as float8 (exact for counts; numeric sums of bigint took a third of the month).
 */
export function exchangeSql(filters: ReportFilterValues, context: ReportContext): ReportSql {
  const p = new Params();
  return {
    // names joined to the grouped rows (a lookup each cost more than the sums)
    text: `select s.stop_name, concat_ws(' ', rr.route_short_name, rr.route_long_name) as route_name, h.hour::int as hour,
                  h.boardings, h.alightings, h.boardings + h.alightings as exchange
             from (select h.stop_id, h.route_id, h.hour, sum(h.boardings::float8) as boardings, sum(h.alightings::float8) as alightings
                     from (${exchangeRows(filters, context, p)}) h group by 1, 2, 3) h
             left join mgt.stops s on s.stop_id = h.stop_id left join mgt.routes rr on rr.route_id = h.route_id`,
    params: p.list,
  };
}

/** The exchange's chart: the same stop hours by hour of the day (24 rows whatever the network). */
export function exchangeChartSql(filters: ReportFilterValues, context: ReportContext): ReportSql {
  const p = new Params();
  return {
    text: `select h.hour::int as hour, sum(h.boardings::float8) as boardings, sum(h.alightings::float8) as alightings,
                  sum(h.boardings::float8 + h.alightings::float8) as exchange
             from (${exchangeRows(filters, context, p)}) h group by 1 order by 1`,
    params: p.list,
  };
}

export function loadProfileSql(filters: ReportFilterValues, context: ReportContext): ReportSql {
  const p = new Params();
  const d = periodDays(filters, context.offsetMinutes);
  const from = p.add(d.from);
  const to = p.add(d.to);
  const settings = settingsOf(context);
  const peak = filters.peak === 'morning' || filters.peak === 'evening' ? (filters.peak as 'morning' | 'evening') : 'all';
  const chosen = filters.route
    ? `${p.add((filters.route as number[])[0])}::int`
    : `(select h.route_id from pass.route_hour h where h.day between ${from}::date and ${to}::date group by h.route_id order by sum(h.boardings) desc, h.route_id limit 1)`;
  const direction = p.add(Number(filters.direction ?? 0));
  return {
    text: `with route as (select ${chosen} as route_id),
      tp as (select t.id, t.trip_id, t.vehicle_id from pass.trip_performed t, route
              where t.service_date between ${from}::date and ${to}::date and t.route_id = route.route_id and t.direction = ${direction}::int and t.counted
                and ${peakCondition('extract(hour from pass.local_time(t.schedule_start))', settings, peak)}),
      main as (select trip_id from tp group by trip_id order by count(*) desc, trip_id limit 1),
      chosen_trips as (select tp.id, tp.vehicle_id from tp where tp.trip_id is not distinct from (select trip_id from main)),
      -- the chosen trips' visits by their key (a scan of the period's visits took seconds on the embedded engine)
      v as (select sv.stop_sequence, sv.stop_id, sv.boardings, sv.alightings, sv.departure_load, sv.trip_performed_id, ct.vehicle_id
              from chosen_trips ct join lateral (select * from pass.stop_visit s where s.trip_performed_id = ct.id) sv on true),
      cap as (select vh.id, ${seatsSql('vh')} as seats, ${capacitySql('vh')} as capacity from mgt.vehicles vh where vh.id in (select vehicle_id from tp))
      select g.stop_sequence, ${stopName('g.stop_id')} as stop_name, ${stopName('g.next_stop_id')} as next_stop_name,
             g.boardings, g.alightings, g.load_avg, g.load_max, g.seats, g.capacity,
             round((100 * g.load_avg / nullif(g.capacity, 0))::numeric, 1)::float8 as load_factor, g.trips,
             ${routeName('(select route_id from route)')} as route_name
        from (select v.stop_sequence, min(v.stop_id) as stop_id, lead(min(v.stop_id)) over (order by v.stop_sequence) as next_stop_id, round(avg(v.boardings)::numeric, 1)::float8 as boardings,
                     round(avg(v.alightings)::numeric, 1)::float8 as alightings, round(avg(v.departure_load)::numeric, 1)::float8 as load_avg,
                     max(v.departure_load)::float8 as load_max, round(avg(cap.seats)::numeric, 0)::float8 as seats,
                     round(avg(cap.capacity)::numeric, 0)::float8 as capacity, count(distinct v.trip_performed_id)::int as trips
                from v join cap on cap.id = v.vehicle_id group by v.stop_sequence) g`,
    params: p.list,
  };
}

export function rollingStockSql(filters: ReportFilterValues, context: ReportContext): ReportSql {
  const p = new Params();
  const d = periodDays(filters, context.offsetMinutes);
  const days = p.add(d.days);
  const actual = [daysOf('t.day', p, d.from, d.to), ...common(filters, p, { route: 't.route_id' })];
  const plan = [daysOf('ph.day', p, d.from, d.to), ...common(filters, p, { route: 'ph.route_id' })];
  return {
    // the route days' starts (pass.route_start: distinct vehicles counted per day and hour when the races are written)
    text: `with a as (select t.route_id, nullif(t.hour, -1)::int as hour, t.day, t.vehicles, t.trips, t.vehicle_hours as vh
                        from pass.route_start t ${where(actual)}),
           aa as (select route_id, hour, sum(vehicles)::float8 / ${days}::int as vehicles, sum(trips)::float8 as trips, sum(vh)::float8 as vh from a group by 1, 2),
           pp as (select ph.route_id, ph.hour::int as hour, sum(ph.vehicles)::float8 / ${days}::int as planned_vehicles, sum(ph.trips)::float8 as planned_trips
                    from pass.plan_hour ph ${where(plan)} group by 1, 2)
      select coalesce(aa.route_id, pp.route_id) as route_id, ${routeName('coalesce(aa.route_id, pp.route_id)')} as route_name, coalesce(aa.hour, pp.hour) as hour,
             round(coalesce(pp.planned_vehicles, 0)::numeric, 1)::float8 as planned_vehicles, round(coalesce(aa.vehicles, 0)::numeric, 1)::float8 as vehicles,
             coalesce(pp.planned_trips, 0) as planned_trips, coalesce(aa.trips, 0) as trips, round(coalesce(aa.vh, 0)::numeric, 1)::float8 as vehicle_hours
        from aa full join pp on pp.route_id = aa.route_id and pp.hour = aa.hour`,
    params: p.list,
  };
}

export function classFitSql(filters: ReportFilterValues, context: ReportContext): ReportSql {
  const p = new Params();
  const d = periodDays(filters, context.offsetMinutes);
  const settings = settingsOf(context);
  const crowded = p.add(settings.crowdedLoadPercent / 100);
  const loads = [
    daysOf('h.day', p, d.from, d.to),
    ...common(filters, p, { route: 'h.route_id' }),
    peakCondition('h.hour', settings, 'both'),
    'h.visits > 0',
  ];
  const work = [daysOf('w.day', p, d.from, d.to), ...common(filters, p, { route: 'w.route_id' }), 'w.trips > 0'];
  const classes = CLASS_ORDER.map((code, i) => `('${code}', ${i + 1}, ${CLASS_CAPACITY[code]})`).join(', ');
  return {
    text: `with k(code, rank, capacity) as (values ${classes}),
      peak as (select h.route_id, percentile_cont(0.95) within group (order by h.load_max)::float8 as peak_load from pass.route_hour h ${where(loads)} group by 1),
      fleet as (select w.route_id, count(distinct w.vehicle_id)::int as vehicles,
                       mode() within group (order by ct.code) as class_code, avg(${capacitySql('v')})::float8 as capacity
                  from pass.vehicle_day w join mgt.vehicles v on v.id = w.vehicle_id left join mgt.capacity_type ct on ct.id = v.capacity_type_id
                 ${where(work)} group by 1),
      fit as (select f.*, pk.peak_load,
                     (select k.code from k where k.capacity * ${crowded}::float8 >= pk.peak_load order by k.rank limit 1) as fit_code
                from fleet f join peak pk on pk.route_id = f.route_id)
      select fit.route_id, ${routeName('fit.route_id')} as route_name, fit.class_code, fit.vehicles, round(fit.peak_load::numeric, 0)::float8 as peak_load,
             round(fit.capacity::numeric, 0)::float8 as capacity, round((100 * fit.peak_load / nullif(fit.capacity, 0))::numeric, 1)::float8 as load_factor,
             coalesce(fit.fit_code, '${CLASS_ORDER[CLASS_ORDER.length - 1]}+') as recommended,
             case when fit.fit_code is null or (select rank from k where code = fit.fit_code) > coalesce((select rank from k where code = fit.class_code), 2) then 'larger'
                  when (select rank from k where code = fit.fit_code) < coalesce((select rank from k where code = fit.class_code), 2) then 'smaller'
                  else 'fits' end as verdict
        from fit`,
    params: p.list,
  };
}

export function trafficSql(filters: ReportFilterValues, context: ReportContext): ReportSql {
  const p = new Params();
  const d = periodDays(filters, context.offsetMinutes);
  const actual = [daysOf('t.day', p, d.from, d.to), ...common(filters, p, { route: 't.route_id' })];
  const plan = [daysOf('ph.day', p, d.from, d.to), ...common(filters, p, { route: 'ph.route_id' })];
  return {
    // races and run times per route day from pass.route_start, not the month's races
    text: `with a as (select t.day, t.route_id, sum(t.trips)::float8 as performed,
                             (sum(t.vehicle_hours) * 60 / nullif(sum(t.timed_trips), 0))::float8 as run_minutes
                        from pass.route_start t ${where(actual)} group by 1, 2),
           pl as (select ph.day, ph.route_id, sum(ph.trips)::float8 as planned from pass.plan_hour ph ${where(plan)} group by 1, 2)
      select coalesce(a.day, pl.day) as day, coalesce(a.route_id, pl.route_id) as route_id, ${routeName('coalesce(a.route_id, pl.route_id)')} as route_name,
             coalesce(pl.planned, 0) as planned, coalesce(a.performed, 0) as performed,
             round((100 * coalesce(a.performed, 0) / nullif(pl.planned, 0))::numeric, 1)::float8 as regularity,
             round(a.run_minutes::numeric, 1)::float8 as run_minutes
        from a full join pl on pl.day = a.day and pl.route_id = a.route_id`,
    params: p.list,
  };
}

export function dailySql(filters: ReportFilterValues, context: ReportContext): ReportSql {
  const p = new Params();
  const d = periodDays(filters, context.offsetMinutes);
  const c = [daysOf('w.day', p, d.from, d.to), ...common(filters, p, { route: 'w.route_id', vehicle: 'w.vehicle_id' })];
  const byVehicle = filters.group === 'vehicle';
  const key = byVehicle ? 'w.vehicle_id' : 'w.route_id';
  return {
    text: `select w.day, ${key}::text as key, ${byVehicle ? vehicleName(`${key}`) : routeName(`${key}`)} as name,
                  sum(w.boardings)::float8 as passengers, sum(w.validations)::float8 as validations, sum(w.trips)::float8 as trips,
                  sum(w.counted_trips)::float8 as counted_trips,
                  round((100 * sum(w.counted_trips)::numeric / nullif(sum(w.trips), 0)), 1)::float8 as completeness
             from pass.vehicle_day w ${where(c)} group by w.day, ${key}`,
    params: p.list,
  };
}

export function importsSql(filters: ReportFilterValues): ReportSql {
  const p = new Params();
  const c: string[] = [];
  if (filters.from) c.push(`i.at >= ${p.add(filters.from)}::timestamptz`);
  if (filters.to) c.push(`i.at <= ${p.add(filters.to)}::timestamptz`);
  return {
    text: `select i.id, i.at, coalesce(i.username, '') as username, i.file, i.rows, i.added, i.skipped, i.refused, i.status, i.message from pass.import_run i ${where(c)}`,
    params: p.list,
  };
}
