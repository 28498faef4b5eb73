import type { Queryable } from '../db/types';
import { operatorMidnight } from '../platform/operatorDay';
import { planDay } from './dayPlan';
import { loadNetwork, type SimNetwork } from './network';
import { VehiclePlan, type Race } from './vehiclePlan';

/** A past day driven as the first planned day of its weekday: the plans, that day's midnight, and the shift to `date`. */
export interface WeekdayPlan {
  plans: VehiclePlan[];
  /** Operator midnight of the day the plans were made for: their times fall in [midnight, midnight + 1 day). */
  midnight: number;
  /** Add to the plans' times to put them on the day asked for. */
  shiftMs: number;
}

/** A weekday's plans as kept between the days that use them: each vehicle's races, not its legs. */
interface KeptDay {
  date: string;
  vehicles: { vehicleId: number; depot: VehiclePlan['depot']; races: Race[] }[];
}

/**
 * The demo's history drives each past day as the same weekday's plan. Planning a day reads its races and
 * builds every vehicle's plan (seconds on a city, holding the engine meanwhile), so the history fills (passenger
 * flow, vehicle work data) share one plan per weekday, and one network, instead of planning every day each.
 *
 * Seven weekdays of a city's plans are kept for the whole fill, so they are kept small: each vehicle's races
 * (shared between the vehicles of an exit, their stop times packed in one buffer per weekday), and the plans'
 * legs are made again from them for each day asked for (milliseconds, against seconds to plan).
 */
export class WeekdayPlans {
  private network: Promise<SimNetwork> | undefined;
  private readonly byWeekday = new Map<number, Promise<KeptDay>>();

  constructor(
    private readonly db: Queryable,
    private readonly tzOffsetMinutes: number,
  ) {}

  async of(date: string): Promise<WeekdayPlan> {
    const weekday = new Date(`${date}T00:00:00Z`).getUTCDay();
    let source = this.byWeekday.get(weekday);
    if (!source) {
      this.network ??= loadNetwork(this.db);
      const network = this.network;
      source = network.then(async (net) => keep(date, await planDay(this.db, net, date, this.tzOffsetMinutes)));
      this.byWeekday.set(weekday, source);
    }
    const { date: planned, vehicles } = await source;
    const midnight = operatorMidnight(planned, this.tzOffsetMinutes);
    return {
      plans: vehicles.map((v) => new VehiclePlan(v.vehicleId, v.depot, v.races)),
      midnight,
      shiftMs: operatorMidnight(date, this.tzOffsetMinutes) - midnight,
    };
  }

  /** The history is filled: the plans and the network go. */
  clear(): void {
    this.network = undefined;
    this.byWeekday.clear();
  }
}

/** The plans' races without their legs, each distinct race once, its stop times in one shared buffer. */
function keep(date: string, plans: VehiclePlan[]): KeptDay {
  const races = new Map<Race, Race>();
  for (const plan of plans) for (const leg of plan.legs) if (leg.kind === 'race') races.set(leg.race, leg.race);
  const buffer = new Float64Array([...races.keys()].reduce((sum, race) => sum + race.times.length, 0));
  let used = 0;
  for (const race of races.keys()) {
    const times = buffer.subarray(used, (used += race.times.length));
    times.set(race.times);
    races.set(race, { ...race, times });
  }
  return {
    date,
    vehicles: plans.map((plan) => ({
      vehicleId: plan.vehicleId,
      depot: plan.depot,
      races: plan.legs.flatMap((leg) => (leg.kind === 'race' ? [races.get(leg.race)!] : [])),
    })),
  };
}
