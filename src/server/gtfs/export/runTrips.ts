import type { Queryable } from '../../db/types';
import { operatorDate } from '../../platform/operatorDay';
import { dayNumber, isoOfDay } from '../import/serviceCalendar';
import { nameTrips, raceKey, ROUTE_IN_PERIOD, variantsOfPeriod, type RaceIdentity } from './exportPlan';
import { loadFeedIds, serviceToken, type FeedIds } from './feedIds';

/** The ids are read again at least this often (an import changes the GTFS ids a timetable keeps). */
const REFRESH_MS = 10 * 60_000;

/** A race of the live timetable (a run): its variant, exit, shift and number. */
export interface RaceRef {
  variantId: number;
  graph: number;
  smena: string;
  raceNum: number;
}

/**
 * The static feed's ids for the races the live timetable holds: a route's and a stop's feed id, and a race's
 * trip id when the static feed (`GET /api/v1/gtfs/static.zip` of today) has that trip. Trip ids are made by the
 * export's own rule (nameTrips) over the same races it names together — every race of a variant running in the
 * feed's period whose route and service token are those of a held variant — so the `-2` suffixes come out alike.
 * Read once a while, so a feed poll never asks the database.
 */
export class RunTrips {
  private routes: FeedIds | null = null;
  private stops: FeedIds | null = null;
  private trips = new Map<string, string>();
  private loadedAt = 0;
  private signature = '';
  private loading: Promise<void> | null = null;

  constructor(
    private readonly db: Queryable,
    private readonly options: { tzOffsetMinutes: number; periodDays: number },
  ) {}

  /**
   * Reads the ids of the given variants' races when they are other variants, of another day, or older than
   * REFRESH_MS; a failed read keeps the last (the caller logs it).
   */
  async ensureFresh(variantIds: readonly number[], now: number): Promise<void> {
    const today = operatorDate(now, this.options.tzOffsetMinutes);
    const signature = `${today}|${[...variantIds].sort((a, b) => a - b).join(',')}`;
    if (signature === this.signature && now - this.loadedAt < REFRESH_MS) return;
    this.loading ??= this.load(today, variantIds, now)
      .then(() => {
        this.signature = signature;
      })
      .finally(() => {
        this.loading = null;
      });
    await this.loading;
  }

  routeId(localId: number): string {
    return this.routes?.of(localId) ?? String(localId);
  }

  stopId(localId: number): string {
    return this.stops?.of(localId) ?? String(localId);
  }

  /** The race's trip id in today's static feed; undefined when the feed has no such trip (a variant no longer in force). */
  tripId(race: RaceRef): string | undefined {
    return this.trips.get(raceKey(race.variantId, race.graph, race.smena, race.raceNum));
  }

  private async load(today: string, variantIds: readonly number[], now: number): Promise<void> {
    const first = dayNumber(today);
    const last = first + this.options.periodDays - 1;
    const ids = await loadFeedIds(this.db, ['route', 'stop', 'variant']);
    const routeRows = await this.db.query<{ route_id: number }>(
      `select r.route_id from mgt.routes r where r.route_id in (select route_id from mgt.rasp_variant where id = any($3::int[])) and ${ROUTE_IN_PERIOD}`,
      [today, isoOfDay(last), variantIds],
    );
    const { variants, daysOf } = await variantsOfPeriod(
      this.db,
      routeRows.map((r) => r.route_id),
      first,
      last,
    );
    const routeOf = new Map(variants.map((v) => [v.id, v.route_id]));
    const routeKeyOf = (v: number) => ids.route.of(routeOf.get(v)!);
    const tokenOf = (v: number) => serviceToken(v, routeKeyOf(v), ids.variant.imported(v));
    // the races the export names beside the held ones: the same route and service token (the base of a trip id)
    const held = new Set(variantIds.filter((v) => daysOf.has(v)));
    const bases = new Set([...held].map((v) => `${routeOf.get(v)}|${tokenOf(v)}`));
    const named = variants.filter((v) => daysOf.has(v.id) && bases.has(`${v.route_id}|${tokenOf(v.id)}`)).map((v) => v.id);
    const races = await this.db.query<RaceIdentity>(
      `select "RaspVariant_id" v, graph g, smena s, racenum r, min(racetype) racetype, min(time)::int first_time
         from mgt.rasp_time where "RaspVariant_id" = any($1::int[]) group by 1, 2, 3, 4`,
      [named],
    );
    const { raceTrip } = nameTrips(races, routeKeyOf, tokenOf);
    for (const key of raceTrip.keys()) if (!held.has(Number(key.slice(0, key.indexOf('|'))))) raceTrip.delete(key);
    this.routes = ids.route;
    this.stops = ids.stop;
    this.trips = raceTrip;
    this.loadedAt = now;
  }
}
