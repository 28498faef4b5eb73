import type { Queryable } from '../../db/types';
import { addDays, operatorDate, operatorMinuteOfDay } from '../../map/operatorDay';
import { loadFeedIds, serviceToken, type FeedIds } from './feedIds';
import { nameTrips, raceKey, type RaceIdentity } from './exportPlan';

/** How long the day's races are kept before they are read again (a timetable edited today shows within it). */
const REFRESH_MS = 10 * 60_000;

interface LiveRace { start: number; end: number; tripId: string }

/**
 * The ids the GTFS-Realtime feed shares with the static one: a route's feed id, and the trip a vehicle runs now
 * by its exit's timetable (its task of today, or of yesterday for a race past midnight; a replacement takes
 * the exit's races from its start). Read once a while, so a feed poll never asks the database.
 */
export class LiveTrips {
  private routes: FeedIds | null = null;
  private racesOf = new Map<number, LiveRace[]>();
  private loadedAt = 0;
  private loadedDate = '';
  private loading: Promise<void> | null = null;

  constructor(private readonly db: Queryable, private readonly tzOffsetMinutes: number) {}

  /** Reads the day's races when they are older than REFRESH_MS or of another day; a failed read keeps the last. */
  async ensureFresh(now: number): Promise<void> {
    const date = operatorDate(now, this.tzOffsetMinutes);
    if (date === this.loadedDate && now - this.loadedAt < REFRESH_MS) return;
    this.loading ??= this.load(date, now).finally(() => {
      this.loading = null;
    });
    await this.loading;
  }

  routeId(localId: number): string {
    return this.routes?.of(localId) ?? String(localId);
  }

  /** The static feed's trip id of the race the vehicle runs at `now`; null between races or without a task. */
  tripOf(vehicleId: number, now: number): string | null {
    const minute = operatorMinuteOfDay(now, this.tzOffsetMinutes);
    const race = this.racesOf.get(vehicleId)?.find((r) => r.start <= minute && minute <= r.end);
    return race?.tripId ?? null;
  }

  private async load(date: string, now: number): Promise<void> {
    const ids = await loadFeedIds(this.db, ['route', 'variant']);
    const yesterday = addDays(date, -1);
    // Who runs each exit's races from when: the task's vehicle, a replacement from its start time.
    const tasks = await this.db.query<{ day: number; vehicle_id: number; v: number; g: number; s: string; from_minute: number; until_minute: number | null }>(
      `select case when k.date = $1::date then 0 else -1 end as day, k.vehicle_id, k."RaspVariant_id" v, k.graph g, k.smena s,
              0 as from_minute, (select min(r.starttime) from mgt.replace_vehicle r where r.date = k.date and r."RaspVariant_id" = k."RaspVariant_id"
                and r.graph = k.graph and r.smena = k.smena and r.vehicle_id = k.vehicle_id) as until_minute
         from mgt.vehicle_task k where k.date in ($1::date, $2::date)
       union all
       select case when r.date = $1::date then 0 else -1 end, r.replace_vehicle_id, r."RaspVariant_id", r.graph, r.smena, r.starttime, null
         from mgt.replace_vehicle r where r.date in ($1::date, $2::date)`, [date, yesterday]);
    const variants = [...new Set(tasks.map((t) => t.v))];
    const races = await this.db.query<RaceIdentity & { last_time: number; route_id: number }>(
      `select t."RaspVariant_id" v, t.graph g, t.smena s, t.racenum r, min(t.racetype) racetype, min(t.time)::int first_time, max(t.time)::int last_time,
              min(rv.route_id) route_id
         from mgt.rasp_time t join mgt.rasp_variant rv on rv.id = t."RaspVariant_id"
        where t."RaspVariant_id" = any($1::int[]) group by 1, 2, 3, 4`, [variants]);
    const routeOf = new Map(races.map((r) => [r.v, r.route_id]));
    const routeKeyOf = (v: number) => ids.route.of(routeOf.get(v)!);
    const { raceTrip } = nameTrips(races, routeKeyOf, (v) => serviceToken(v, routeKeyOf(v), ids.variant.imported(v)));
    const byExit = new Map<string, (typeof races)[number][]>();
    for (const race of races) {
      const exit = `${race.v}|${race.g}|${race.s}`;
      (byExit.get(exit) ?? byExit.set(exit, []).get(exit)!).push(race);
    }
    const racesOf = new Map<number, LiveRace[]>();
    for (const task of tasks) {
      for (const race of byExit.get(`${task.v}|${task.g}|${task.s}`) ?? []) {
        if (race.first_time < task.from_minute || (task.until_minute !== null && race.first_time >= task.until_minute)) continue;
        // Yesterday's races count from yesterday's midnight: only those past today's midnight matter.
        const shift = task.day * 1440;
        if (race.last_time + shift < 0) continue;
        const list = racesOf.get(task.vehicle_id) ?? racesOf.set(task.vehicle_id, []).get(task.vehicle_id)!;
        list.push({ start: race.first_time + shift, end: race.last_time + shift, tripId: raceTrip.get(raceKey(race.v, race.g, race.s, race.r))! });
      }
    }
    this.routes = ids.route;
    this.racesOf = racesOf;
    this.loadedAt = now;
    this.loadedDate = date;
  }
}
