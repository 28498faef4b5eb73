import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/types';
import type { Lease } from '../jobs/leases';
import { PeriodicJob } from '../jobs/periodicJob';
import { addDays, operatorDate, operatorMidnight } from '../platform/operatorDay';
import { racesOfDate, type RaceRows } from '../simulator/dayPlan';
import { loadNetwork, type SimNetwork } from '../simulator/network';
import { WeekdayPlans } from '../simulator/weekdayPlans';
import { metresBetween } from '../simulator/polyline';
import { WORK_DAY_RULES, workDayOf, type PlannedRace, type WorkDay, type WorkPoint } from './workDay';

const BATCH_VEHICLES = 50;
const HOUR_MS = 3_600_000;

export interface WorkDayRow extends WorkDay {
  vehicleId: number;
}

/** Writes rollup rows of one day (replacing those of the same vehicles). */
export async function saveWorkDays(db: Db, day: string, rows: readonly WorkDayRow[]): Promise<void> {
  if (!rows.length) return;
  const json = JSON.stringify(
    rows.map((r) => ({
      v: r.vehicleId,
      f: new Date(r.firstAt).toISOString(),
      l: new Date(r.lastAt).toISOString(),
      o: r.onlineS,
      k: r.km,
      m: r.movingS,
      s: r.standingS,
      d: r.tripsDone,
      p: r.tripsPlanned,
      x: r.deviations,
    })),
  );
  await db.query(
    `insert into mnt.vehicle_work_day (day, vehicle_id, first_at, last_at, online_s, km, moving_s, standing_s, trips_done, trips_planned, deviations, computed_at)
     select $1::date, x.v, x.f, x.l, x.o, x.k, x.m, x.s, x.d, x.p, x.x, now()
       from jsonb_to_recordset($2::jsonb) as x(v int, f timestamptz, l timestamptz, o int, k real, m int, s int, d int, p int, x int)
     on conflict (day, vehicle_id) do update set first_at = excluded.first_at, last_at = excluded.last_at, online_s = excluded.online_s,
       km = excluded.km, moving_s = excluded.moving_s, standing_s = excluded.standing_s, trips_done = excluded.trips_done,
       trips_planned = excluded.trips_planned, deviations = excluded.deviations, computed_at = excluded.computed_at`,
    [day, json],
  );
}

/** A small deterministic number in [0, 1) from a vehicle and a day: the demo history's dice. */
const dice = (vehicleId: number, day: string, salt: number) => {
  let h = 2166136261 ^ salt;
  for (const c of `${vehicleId}|${day}`) h = Math.imul(h ^ c.charCodeAt(0), 16777619);
  return ((h >>> 0) % 10_000) / 10_000;
};

/**
 * The vehicle work data rollup (mnt.vehicle_work_day): for each operator day, each vehicle's WorkDay from
 * its track (app.track) and the races the schedule gave it. Today is computed again every `everyMs` as the
 * day goes; a finished day once more after midnight. A demo start fills the days before the demo's first
 * track from the schedule itself (what the simulator would have driven), so the report has history.
 */
export class WorkDayRollup {
  private network: SimNetwork | null = null;
  private networkAt = 0;
  private readonly job: PeriodicJob;
  private lastDay: string | null = null;

  constructor(
    private readonly db: Db,
    log: FastifyBaseLogger,
    /** `lease`: one process of several rolls up. */
    private readonly options: { tzOffsetMinutes: number; maxDeviationM: () => Promise<number>; everyMs: number; lease?: Lease },
  ) {
    this.job = new PeriodicJob(() => this.catchUp(), log, 'vehicle work data rollup failed', options.lease);
  }

  start(firstInMs = 120_000): void {
    this.job.start(this.options.everyMs, firstInMs);
  }

  stop(): Promise<void> {
    return this.job.stop();
  }

  private async net(): Promise<SimNetwork> {
    if (!this.network || Date.now() - this.networkAt > HOUR_MS) {
      this.network = await loadNetwork(this.db);
      this.networkAt = Date.now();
    }
    return this.network;
  }

  /** Today, and yesterday once after the day changed. */
  async catchUp(now = Date.now()): Promise<void> {
    const today = operatorDate(now, this.options.tzOffsetMinutes);
    if (this.lastDay && this.lastDay !== today) await this.rollupDay(this.lastDay);
    await this.rollupDay(today);
    this.lastDay = today;
  }

  /** The planned races of a date per vehicle (races starting that day). */
  async racesOf(day: string): Promise<Map<number, PlannedRace[]>> {
    const midnight = operatorMidnight(day, this.options.tzOffsetMinutes);
    const byVehicle = await racesOfDate(this.db, await this.net(), day, this.options.tzOffsetMinutes, new Map(), new Map() as RaceRows);
    const out = new Map<number, PlannedRace[]>();
    for (const [vehicleId, races] of byVehicle) {
      out.set(
        vehicleId,
        races
          .filter((r) => r.times[0] >= midnight && r.times[0] < midnight + 86_400_000)
          .map((r) => ({
            start: r.times[0],
            end: r.times[r.times.length - 1],
            from: r.line.at(r.dists[0]),
            to: r.line.at(r.dists[r.dists.length - 1]),
            line: r.tripId !== null ? r.line : null,
          })),
      );
    }
    return out;
  }

  /** Every vehicle with track points on `day`. Returns the rows written. */
  async rollupDay(day: string): Promise<number> {
    const from = operatorMidnight(day, this.options.tzOffsetMinutes);
    const to = from + 86_400_000;
    const db = this.db.longRunning();
    const vehicles = (
      await db.query<{ vehicle_id: number }>('select distinct vehicle_id from app.track where tm >= $1 and tm < $2', [
        new Date(from).toISOString(),
        new Date(to).toISOString(),
      ])
    ).map((r) => r.vehicle_id);
    if (!vehicles.length) return 0;
    const races = await this.racesOf(day);
    const rules = { ...WORK_DAY_RULES, maxDeviationM: await this.options.maxDeviationM() };
    let written = 0;
    for (let i = 0; i < vehicles.length; i += BATCH_VEHICLES) {
      const batch = vehicles.slice(i, i + BATCH_VEHICLES);
      const points = await db.query<{ vehicle_id: number; tm: number; lat: number; lon: number; speed: number }>(
        `select vehicle_id, (extract(epoch from tm) * 1000)::float8 as tm, lat, lon, speed from app.track
          where vehicle_id = any($1::int[]) and tm >= $2 and tm < $3 order by vehicle_id, tm`,
        [batch, new Date(from).toISOString(), new Date(to).toISOString()],
      );
      const byVehicle = new Map<number, WorkPoint[]>();
      for (const p of points) {
        const list = byVehicle.get(p.vehicle_id);
        if (list) list.push(p);
        else byVehicle.set(p.vehicle_id, [p]);
      }
      const rows: WorkDayRow[] = [];
      for (const [vehicleId, list] of byVehicle) {
        const work = workDayOf(list, races.get(vehicleId) ?? [], rules);
        if (work) rows.push({ vehicleId, ...work });
      }
      await saveWorkDays(db, day, rows);
      written += rows.length;
    }
    return written;
  }

  /**
   * Demo history: the `days` days before today that have no rows, from the schedule as the simulator drives
   * it (legs of each vehicle's plan) rather than from a stored track: mileage of races and runs to and from
   * the depot, time on line from the first leg to the last, a few races missed and deviations by the dice.
   * Each day is driven as its weekday's plan (shared with the passenger history).
   */
  async seedDemoHistory(
    days: number,
    weekdayPlans = new WeekdayPlans(this.db, this.options.tzOffsetMinutes),
    now = Date.now(),
    onProgress: (done: number, total: number) => void = () => undefined,
  ): Promise<number> {
    const today = operatorDate(now, this.options.tzOffsetMinutes);
    let written = 0;
    onProgress(0, days);
    // newest first: /vehicle-work-data's default period (the last days) has its rows soonest
    for (let n = 1; n <= days; n++) {
      const day = addDays(today, -n);
      const [exists] = await this.db.query('select 1 from mnt.vehicle_work_day where day = $1::date limit 1', [day]);
      if (exists) {
        onProgress(n, days);
        continue;
      }
      const { plans, midnight, shiftMs } = await weekdayPlans.of(day);
      const rows: WorkDayRow[] = [];
      for (const plan of plans) {
        const legs = plan.legs.filter((leg) => leg.end > midnight && leg.start < midnight + 86_400_000);
        if (!legs.length) continue;
        let moving = 0;
        let metres = 0;
        let planned = 0;
        for (const leg of legs) {
          if (leg.kind === 'race') {
            planned += 1;
            moving += (leg.end - leg.start) * 0.8;
            metres += leg.race.dists[leg.race.dists.length - 1] - leg.race.dists[0];
          } else if (leg.kind === 'deadhead') {
            moving += leg.end - leg.start;
            metres += metresBetween(leg.from, leg.to);
          }
        }
        const first = legs[0].start + shiftMs;
        const last = legs[legs.length - 1].end + shiftMs;
        const online = (last - first) / 1000;
        const missed = dice(plan.vehicleId, day, 1) < 0.15 ? 1 + Math.floor(dice(plan.vehicleId, day, 2) * 2) : 0;
        const deviations = dice(plan.vehicleId, day, 3) < 0.12 ? 1 + Math.floor(dice(plan.vehicleId, day, 4) * 3) : 0;
        rows.push({
          vehicleId: plan.vehicleId,
          firstAt: first,
          lastAt: last,
          onlineS: Math.round(online),
          km: Math.round(metres) / 1000,
          movingS: Math.round(moving / 1000),
          standingS: Math.round(online - moving / 1000),
          tripsDone: Math.max(0, planned - missed),
          tripsPlanned: planned,
          deviations,
        });
      }
      await saveWorkDays(this.db, day, rows);
      written += rows.length;
      onProgress(n, days);
    }
    return written;
  }
}
