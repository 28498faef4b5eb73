import type { FastifyInstance } from 'fastify';
import {
  PASSENGER_DEFAULTS,
  SUMMARY_API,
  type PassengerSettings,
  type PassengerSummary,
  type SummaryFigures,
} from '../../shared/passengers/passengers';
import { parseReportFilters, type ReportFilterValues } from '../../shared/reports/filters';
import { PASSENGER_ANALYSIS } from '../../shared/reports/passengers';
import { fail } from '../http/errors';
import { clientOffset, reportQuerySchema } from '../reports/reportsRoutes';
import { reportQuery } from '../reports/reportQuery';
import { capacitySql, Params, peakCondition, periodDays, routeName } from './passengerQueries';

interface Range {
  from: string;
  to: string;
}

/** Route and depot conditions on a rollup's route column. */
function routeConditions(filters: ReportFilterValues, p: Params, column: string): string {
  const c: string[] = [];
  if (filters.route) c.push(`${column} = any(${p.add(filters.route)}::int[])`);
  if (filters.depot) c.push(`${column} in (select route_id from mgt.routes where "Depot_id" = any(${p.add(filters.depot)}::int[]))`);
  return c.map((x) => ` and ${x}`).join('');
}

async function figures(
  app: FastifyInstance,
  filters: ReportFilterValues,
  range: Range,
  settings: PassengerSettings,
): Promise<SummaryFigures> {
  const p = new Params();
  const days = (alias: string) => `${alias}.day between ${p.add(range.from)}::date and ${p.add(range.to)}::date`;
  const text = `select
      (select coalesce(sum(h.boardings), 0)::float8 from pass.route_hour h where ${days('h')}${routeConditions(filters, p, 'h.route_id')}) as passengers,
      (select coalesce(sum(h.pkm), 0)::float8 from pass.route_hour h where ${days('h')}${routeConditions(filters, p, 'h.route_id')}) as pkm,
      (select coalesce(sum(h.boardings), 0)::float8 from pass.route_hour h where ${days('h')}${routeConditions(filters, p, 'h.route_id')}
          and ${peakCondition('h.hour', settings, 'both')}) as peak_passengers,
      (select percentile_cont(0.95) within group (order by h.load_max)::float8 from pass.route_hour h where ${days('h')}${routeConditions(filters, p, 'h.route_id')}
          and h.visits > 0 and ${peakCondition('h.hour', settings, 'both')}) as peak_load,
      (select coalesce(sum(t.validations), 0)::float8 from pass.ticket_day t where ${days('t')}${routeConditions(filters, p, 't.route_id')}) as validations,
      (select coalesce(sum(w.trips), 0)::float8 from pass.vehicle_day w where ${days('w')}${routeConditions(filters, p, 'w.route_id')}) as trips,
      (select sum(w.km * w.counted_trips / greatest(w.trips, 1))::float8 from pass.vehicle_day w where ${days('w')}${routeConditions(filters, p, 'w.route_id')}) as counted_km,
      (select avg(${capacitySql('v')})::float8 from pass.vehicle_day w join mgt.vehicles v on v.id = w.vehicle_id
        where ${days('w')}${routeConditions(filters, p, 'w.route_id')} and w.counted_trips > 0) as capacity`;
  const [row] = await reportQuery<Record<string, number | null>>(app, text, p.list);
  const loadAvg = row.counted_km ? Number(row.pkm) / Number(row.counted_km) : 0;
  const capacity = Number(row.capacity ?? 0);
  const round = (value: number, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits;
  return {
    passengers: Number(row.passengers),
    validations: Number(row.validations),
    trips: Number(row.trips),
    pkm: round(Number(row.pkm)),
    loadAvg: round(loadAvg),
    loadFactorAvg: capacity ? round((100 * loadAvg) / capacity) : 0,
    loadFactorPeak: capacity && row.peak_load !== null ? round((100 * Number(row.peak_load)) / capacity) : 0,
    peakPassengers: Number(row.peak_passengers),
  };
}

/**
 * GET /api/v1/passengers/analysis/summary: the overview above /passengers/analysis's table with the same
 * filters: the period against the one before it (passengers, validations, trips, passenger-km, average and
 * peak load factor), passengers by hour of day, the busiest routes and stops. Peak hours from the settings.
 */
export default async function passengerSummaryRoute(app: FastifyInstance): Promise<void> {
  const querystring = reportQuerySchema(PASSENGER_ANALYSIS, 'export');
  app.get(
    SUMMARY_API,
    {
      config: { access: { path: PASSENGER_ANALYSIS.path, action: 'read' }, module: 'passengers' },
      schema: {
        tags: ['passengers'],
        summary: 'Анализ пассажиропотока: сводка периода против предыдущего, по часам суток, самые загруженные маршруты и остановки',
        querystring,
      },
    },
    async (request): Promise<PassengerSummary> => {
      const parsed = parseReportFilters(PASSENGER_ANALYSIS, request.query as Record<string, unknown>);
      if (!parsed.ok) throw fail(400, parsed.code, parsed.field);
      const filters = parsed.values;
      const settings: PassengerSettings = { ...PASSENGER_DEFAULTS, ...((await app.settings.get()).passengers ?? {}) };
      const d = periodDays(filters, clientOffset(request));
      const [current, previous] = await Promise.all([
        figures(app, filters, d, settings),
        figures(app, filters, { from: d.prevFrom, to: d.prevTo }, settings),
      ]);
      const hours = new Params();
      const hourRoutes = routeConditions(filters, hours, 'h.route_id');
      const [from, to, prevFrom, prevTo] = [d.from, d.to, d.prevFrom, d.prevTo].map((day) => hours.add(day));
      const top = <T extends { name: string; passengers: number }>(sql: (from: string, to: string, routes: string) => string) => {
        const p = new Params();
        const routes = routeConditions(filters, p, 'h.route_id');
        return reportQuery<T>(app, sql(p.add(d.from), p.add(d.to), routes), p.list);
      };
      const [byHour, topRoutes, topStops] = await Promise.all([
        reportQuery<{ hour: number; passengers: number; previous: number }>(
          app,
          `select g.hour, coalesce(sum(h.boardings) filter (where h.day between ${from}::date and ${to}::date), 0)::float8 as passengers,
                coalesce(sum(h.boardings) filter (where h.day between ${prevFrom}::date and ${prevTo}::date), 0)::float8 as previous
           from generate_series(0, 23) g(hour)
           left join pass.route_hour h on h.hour = g.hour and h.day between ${prevFrom}::date and ${to}::date${hourRoutes}
          group by g.hour order by g.hour`,
          hours.list,
        ),
        top(
          (f, t, routes) => `select ${routeName('h.route_id')} as name, sum(h.boardings)::float8 as passengers from pass.route_hour h
          where h.day between ${f}::date and ${t}::date${routes} group by h.route_id order by 2 desc, 1 limit 5`,
        ),
        // the stop days (migration 071), not the stop hours: the hour is not needed, and a month is a seventh the rows
        top<{ id: number; name: string; passengers: number }>(
          (f, t, routes) => `select h.stop_id as id, (select s.label from mgt.stop_label s where s.stop_id = h.stop_id) as name,
             sum(h.boardings + h.alightings)::float8 as passengers
           from pass.stop_day h where h.day between ${f}::date and ${t}::date${routes} group by h.stop_id order by 3 desc, 2, 1 limit 5`,
        ),
      ]);
      return { current, previous, byHour, topRoutes, topStops, settings };
    },
  );
}
