import type { FastifyBaseLogger } from 'fastify';
import type { Db, Queryable } from '../db/types';
import { Random } from '../db/demo/random';
import { addDays, operatorDate } from '../platform/operatorDay';
import { WeekdayPlans } from '../simulator/weekdayPlans';
import { loadFleet, newCardPool, pilotRoutes, planOf, tripsOf } from './flowDay';
import { chainJourneys, writePlan, writeTripsInSlices, type TripRecord } from './tripWriter';

/** Days of passenger history a fresh demo start gets (SCREENS.md: the screens show data at once). */
export const HISTORY_DAYS = 30;
const DAY_MS = 86_400_000;
const pause = () => new Promise((resolve) => setTimeout(resolve, 50));

export interface HistoryOptions {
  days?: number;
  /** The newest days whose validations are stored one by one (and chained into journeys); older days keep
   *  their validations as daily rollups only, as a retention policy would, so a city's month stays affordable. */
  detailDays: number;
  /** Only the races of this many pilot routes (a city's month at full detail would take the embedded engine tens of minutes). */
  pilotRoutes?: number;
  tzOffsetMinutes: number;
  maxWalkMeters: number;
  transferMinutes: number;
  now?: number;
  log?: FastifyBaseLogger;
  /** The weekday plans shared with the other history fills (one of its own otherwise). */
  plans?: WeekdayPlans;
  /** Told after each day: days done (found already there included) of all. */
  onProgress?: (done: number, total: number) => void;
}

/** The validations of trips kept as rollups only: per day, route and ticket type; per day, vehicle and route. */
async function rollValidations(db: Queryable, day: string, trips: TripRecord[]): Promise<void> {
  const tickets = new Map<string, number>();
  const vehicles = new Map<string, number>();
  for (const trip of trips) {
    for (const v of trip.validations) {
      const t = `${trip.routeId}|${v.ticketTypeId}`;
      tickets.set(t, (tickets.get(t) ?? 0) + 1);
    }
    if (trip.validations.length) {
      const k = `${trip.vehicleId}|${trip.routeId}`;
      vehicles.set(k, (vehicles.get(k) ?? 0) + trip.validations.length);
    }
    trip.validations = [];
  }
  const rows = (map: Map<string, number>) =>
    JSON.stringify(
      [...map].map(([key, n]) => {
        const [a, b] = key.split('|').map(Number);
        return { a, b, n };
      }),
    );
  await db.query(
    `insert into pass.ticket_day as d (day, route_id, ticket_type_id, validations)
     select $1::date, a, b, n from jsonb_to_recordset($2::jsonb) as x(a int, b int, n int)
     on conflict (day, route_id, ticket_type_id) do update set validations = d.validations + excluded.validations`,
    [day, rows(tickets)],
  );
  await db.query(
    `insert into pass.vehicle_day as d (day, vehicle_id, route_id, validations)
     select $1::date, a, b, n from jsonb_to_recordset($2::jsonb) as x(a int, b int, n int)
     on conflict (day, vehicle_id, route_id) do update set validations = d.validations + excluded.validations`,
    [day, rows(vehicles)],
  );
}

/**
 * The demo's passenger history: each of the last `days` operator days without trips yet gets its weekday's
 * plan (vehicle tasks × schedule, as the simulator drives it), the passengers of the demand model on the
 * vehicles with counters, the plan per route and hour, and trip chaining. Newest day first, one transaction a
 * day, so the screens fill while it runs and a restart picks up where it stopped. Deterministic per date.
 */
export interface HistoryStats {
  days: number;
  trips: number;
  validations: number;
  ms: number;
  phases: Record<'plan' | 'simulate' | 'write' | 'chain', number>;
}

export async function fillHistory(db: Db, options: HistoryOptions): Promise<HistoryStats> {
  const started = performance.now();
  const days = options.days ?? HISTORY_DAYS;
  const weekdayPlans = options.plans ?? new WeekdayPlans(db, options.tzOffsetMinutes);
  const fleet = await loadFleet(db);
  const today = operatorDate(options.now ?? Date.now(), options.tzOffsetMinutes);
  // a day is done once its plan is written (last): a restart redoes a day cut short, its trips skipped as duplicates
  const filled = new Set(
    (
      await db.query<{ day: string }>('select distinct day::text as day from pass.plan_hour where day >= $1::date and day < $2::date', [
        addDays(today, -days),
        today,
      ])
    ).map((r) => r.day),
  );
  let routes: Set<number> | undefined;
  let count = 0;
  let trips = 0;
  let validations = 0;
  const phases = { plan: 0, simulate: 0, write: 0, chain: 0 };
  let mark = performance.now();
  const lap = (phase: keyof typeof phases) => {
    const now = performance.now();
    phases[phase] += now - mark;
    mark = now;
  };
  const report = () => options.onProgress?.(filled.size + count, days);
  report();
  // newest first: the default report periods (the last days, and the ones before to compare with) fill soonest
  for (let back = 1; back <= days; back++) {
    const date = addDays(today, -back);
    if (filled.has(date)) continue;
    mark = performance.now();
    const { plans, midnight, shiftMs } = await weekdayPlans.of(date);
    if (options.pilotRoutes && !routes) routes = pilotRoutes(plans, fleet, options.pilotRoutes);
    lap('plan');
    const random = new Random(`passengers/${date}`);
    const next = () => random.next();
    const records = tripsOf(plans, midnight, midnight + DAY_MS, fleet, {
      shiftMs,
      tzOffsetMinutes: options.tzOffsetMinutes,
      random: next,
      cards: newCardPool(fleet, `${date.replace(/-/g, '')}-`),
      dropShare: 0.03,
      routes,
    });
    const detail = back <= options.detailDays;
    lap('simulate');
    const long = db.longRunning();
    if (!detail) await rollValidations(long, date, records);
    const written = await writeTripsInSlices(long, records);
    trips += written.trips;
    validations += written.validations;
    lap('write');
    if (detail) await chainJourneys(long, date, options.maxWalkMeters, options.transferMinutes);
    lap('chain');
    await writePlan(long, date, planOf(plans, midnight, midnight + DAY_MS, options.tzOffsetMinutes, routes));
    await pause();
    count += 1;
    report();
  }
  // the embedded engine has no autovacuum: fresh statistics for the report plans
  if (count) await db.exec('analyze pass.trip_performed; analyze pass.stop_visit; analyze pass.fare_transaction; analyze pass.journey');
  const ms = Math.round(performance.now() - started);
  for (const phase of Object.keys(phases) as (keyof typeof phases)[]) phases[phase] = Math.round(phases[phase]);
  if (count) options.log?.info({ days: count, trips, validations, ms, phases }, 'passenger history filled');
  return { days: count, trips, validations, ms, phases };
}
