import type { Queryable } from '../db/types';
import { operatorMidnight } from '../map/operatorDay';
import { planDay } from './dayPlan';
import { loadNetwork, type SimNetwork } from './network';
import type { VehiclePlan } from './vehiclePlan';

/** A past day driven as the first planned day of its weekday: the plans, that day's midnight, and the shift to `date`. */
export interface WeekdayPlan {
  plans: VehiclePlan[];
  /** Operator midnight of the day the plans were made for: their times fall in [midnight, midnight + 1 day). */
  midnight: number;
  /** Add to the plans' times to put them on the day asked for. */
  shiftMs: number;
}

/**
 * The demo's history drives each past day as the same weekday's plan. Planning a day reads its races and
 * builds every vehicle's plan (seconds on a city, holding the engine meanwhile), so the history fills (passenger
 * flow, vehicle work data) share one plan per weekday, and one network, instead of planning every day each.
 */
export class WeekdayPlans {
  private network: Promise<SimNetwork> | undefined;
  private readonly byWeekday = new Map<number, Promise<{ date: string; plans: VehiclePlan[] }>>();

  constructor(private readonly db: Queryable, private readonly tzOffsetMinutes: number) {}

  async of(date: string): Promise<WeekdayPlan> {
    const weekday = new Date(`${date}T00:00:00Z`).getUTCDay();
    let source = this.byWeekday.get(weekday);
    if (!source) {
      this.network ??= loadNetwork(this.db);
      const network = this.network;
      source = network.then(async (net) => ({ date, plans: await planDay(this.db, net, date, this.tzOffsetMinutes) }));
      this.byWeekday.set(weekday, source);
    }
    const { date: planned, plans } = await source;
    const midnight = operatorMidnight(planned, this.tzOffsetMinutes);
    return { plans, midnight, shiftMs: operatorMidnight(date, this.tzOffsetMinutes) - midnight };
  }

  /** The history is filled: the plans and the network go. */
  clear(): void {
    this.network = undefined;
    this.byWeekday.clear();
  }
}
