import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/types';
import type { Lease } from '../jobs/leases';
import { PeriodicJob } from '../jobs/periodicJob';
import { operatorDate, operatorMidnight } from '../platform/operatorDay';
import type { Simulator } from '../simulator/simulator';
import type { PassengerSettings } from '../../shared/passengers/passengers';
import type { CardPool } from './demandModel';
import { loadFleet, newCardPool, pilotRoutes, planOf, tripsOf, type FlowFleet } from './flowDay';
import { chainJourneys, writePlan, writeTripsInSlices } from './tripWriter';

const TICK_MS = 60_000;
const CHAIN_EVERY_MS = 15 * 60_000;
const CATCH_UP_WINDOW_MS = 30 * 60_000;
const DAY_MS = 86_400_000;

/**
 * The demo fleet's counters and validators, live: every minute the races the simulator's vehicles finished
 * report their stop visits and validations (a counter sends its trip when the trip is over). The first round
 * catches up with the races finished since the operator's midnight, or since the last one written before a
 * restart. Today's journeys are chained again every
 * quarter of an hour with the settings in force.
 */
export class LiveFlow {
  private fleet: FlowFleet | null = null;
  private cards: CardPool | null = null;
  private last: number | null = null;
  private day: string | null = null;
  private chainedAt = 0;
  /** The routes counted, when limited (the city demo: as its history, else a day's chaining holds the engine a minute). */
  private routes: Set<number> | undefined;
  private readonly job: PeriodicJob;
  readonly stats = { trips: 0, validations: 0 };

  constructor(
    private readonly db: Db,
    private readonly simulator: Simulator,
    private readonly tzOffsetMinutes: number,
    private readonly settings: () => Promise<PassengerSettings>,
    log: FastifyBaseLogger,
    private readonly now: () => number = Date.now,
    /** Count only the busiest routes with counters, this many (undefined: every route). */
    private readonly pilotRoutes?: number,
    /** The simulator's lease: the counters report from the process driving the fleet. */
    lease?: Lease,
  ) {
    this.job = new PeriodicJob(() => this.tick(), log, 'live passenger flow not written', lease);
  }

  start(): void {
    this.job.start(TICK_MS);
  }

  stop(): Promise<void> {
    return this.job.stop();
  }

  async tick(): Promise<void> {
    const plans = this.simulator.vehicles;
    if (!plans.length) return;
    const now = this.now();
    const date = operatorDate(now, this.tzOffsetMinutes);
    const midnight = operatorMidnight(date, this.tzOffsetMinutes);
    this.fleet ??= await loadFleet(this.db);
    if (date !== this.day) {
      this.day = date;
      if (this.pilotRoutes) this.routes = pilotRoutes(plans, this.fleet, this.pilotRoutes);
      this.cards = newCardPool(this.fleet, `${date.replace(/-/g, '')}-L`);
      await writePlan(this.db, date, planOf(plans, midnight, midnight + DAY_MS, this.tzOffsetMinutes, this.routes));
    }
    // After a restart, from the last race already written today (the ones ending since are skipped as duplicates).
    let from = this.last ?? Math.max(midnight, await this.lastWritten(date));
    // A catch-up over hours goes window by window, so a city's day of races is never in memory at once.
    while (from < now) {
      const to = Math.min(now, from + CATCH_UP_WINDOW_MS);
      const records = tripsOf(
        plans,
        from,
        to,
        this.fleet,
        {
          shiftMs: 0,
          tzOffsetMinutes: this.tzOffsetMinutes,
          random: Math.random,
          cards: this.cards!,
          dropShare: 0.03,
          routes: this.routes,
        },
        'end',
      );
      const written = await writeTripsInSlices(this.db, records);
      this.stats.trips += written.trips;
      this.stats.validations += written.validations;
      from = to;
    }
    this.last = now;
    if (now - this.chainedAt >= CHAIN_EVERY_MS) {
      this.chainedAt = now;
      const settings = await this.settings();
      await chainJourneys(this.db.longRunning(), date, settings.maxWalkMeters, settings.transferMinutes);
    }
  }

  /** The planned start of the latest race written for the day, or 0. */
  private async lastWritten(date: string): Promise<number> {
    const [row] = await this.db.query<{ at: number | null }>(
      'select (extract(epoch from max(schedule_start)) * 1000)::float8 as at from pass.trip_performed where service_date = $1::date',
      [date],
    );
    return row?.at ?? 0;
  }
}
