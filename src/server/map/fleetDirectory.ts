import type { FastifyBaseLogger } from 'fastify';
import type { Queryable } from '../db/types';
import { routeOfVehicleSql } from './assignmentsSql';
import { operatorDate } from '../platform/operatorDay';
import { classRankOf } from './vehicleClass';

/** What the live map shows about a vehicle beside its position. */
export interface VehicleInfo {
  id: number;
  depotNumber: number;
  gosNomer: string | null;
  model: string | null;
  depotId: number | null;
  vehicleTypeId: number | null;
  classRank: number | null;
  /** Today's assignment, else the route of the run the live timetable matched it to; null when neither. */
  routeId: number | null;
  routeShortName: string | null;
  routeType: string | null;
}

interface Row {
  id: number;
  depot_number: number;
  state_number: string | null;
  model: string | null;
  depot_id: number | null;
  vehicle_type_id: number | null;
  capacity_code: string | null;
  route_id: number | null;
  route_short_name: string | null;
  route_type: string | null;
}

/**
 * Vehicle → depot number, class and today's route, in memory: the geo stream labels thousands of points a second
 * and the GTFS-RT feed as many; neither may ask the database per point. Re-read every minute (assignments
 * change by the day and by handbook edits); `version` moves when the content changed, so clusters get rebuilt.
 */
export class FleetDirectory {
  private vehicles = new Map<number, VehicleInfo>();
  private timer: NodeJS.Timeout | undefined;
  private loading: Promise<void> | undefined;
  private signature = '';
  private readonly listeners: (() => void)[] = [];
  private matchedRoutes: () => Iterable<readonly [vehicleId: number, routeId: number]> = () => [];
  version = 0;
  loaded = false;

  constructor(
    private readonly db: Queryable,
    private readonly tzOffsetMinutes: number,
    private readonly log: FastifyBaseLogger,
    private readonly now: () => number = Date.now,
  ) {}

  get(id: number): VehicleInfo | undefined {
    return this.vehicles.get(id);
  }

  all(): IterableIterator<VehicleInfo> {
    return this.vehicles.values();
  }

  get size(): number {
    return this.vehicles.size;
  }

  /** Called after a load that changed what the map shows (the geo stream rebuilds its clusters). */
  onChange(listener: () => void): void {
    this.listeners.push(listener);
  }

  /**
   * Where a vehicle working without a task of the day is found on a route: the live timetable registers its
   * matched runs here (a fresh install driven from an imported feed has exits and runs, no tasks yet). A task wins.
   */
  useMatchedRoutes(source: () => Iterable<readonly [vehicleId: number, routeId: number]>): void {
    this.matchedRoutes = source;
  }

  /** Loads once; concurrent callers share the one load. */
  ensureLoaded(): Promise<void> {
    return this.loaded ? Promise.resolve() : this.refresh();
  }

  refresh(): Promise<void> {
    this.loading ??= this.load().finally(() => {
      this.loading = undefined;
    });
    return this.loading;
  }

  start(intervalMs: number): void {
    this.timer = setInterval(
      () => void this.refresh().catch((err) => this.log.warn({ err }, 'vehicle directory refresh failed')),
      intervalMs,
    );
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.loading?.catch(() => undefined);
  }

  private async load(): Promise<void> {
    const matched = [...this.matchedRoutes()];
    const rows = await this.db.query<Row>(
      `select v.id, v.depot_number, v.state_number, v.model, v.depot_id, v.vehicle_type_id, c.code as capacity_code,
              r.route_id, r.route_short_name, r.route_type
         from mgt.vehicles v
         left join mgt.capacity_type c on c.id = v.capacity_type_id
         left join (${routeOfVehicleSql('$1')}) a on a.vehicle_id = v.id
         left join unnest($2::int[], $3::int[]) as m(vehicle_id, route_id) on m.vehicle_id = v.id
         left join mgt.routes r on r.route_id = coalesce(a.route_id, m.route_id)
        order by v.id`,
      [operatorDate(this.now(), this.tzOffsetMinutes), matched.map(([vehicle]) => vehicle), matched.map(([, route]) => route)],
    );
    const next = new Map<number, VehicleInfo>();
    for (const row of rows) {
      next.set(row.id, {
        id: row.id,
        depotNumber: row.depot_number,
        gosNomer: row.state_number,
        model: row.model,
        depotId: row.depot_id,
        vehicleTypeId: row.vehicle_type_id,
        classRank: classRankOf(row.capacity_code),
        routeId: row.route_id,
        routeShortName: row.route_short_name,
        routeType: row.route_type,
      });
    }
    // A cheap fingerprint of what the map shows: an unchanged directory must not force a cluster rebuild.
    const signature = rows
      .map((r) => `${r.id}:${r.depot_number}:${r.capacity_code}:${r.route_id}:${r.route_short_name}:${r.route_type}`)
      .join('|');
    this.vehicles = next;
    this.loaded = true;
    if (signature !== this.signature) {
      this.signature = signature;
      this.version += 1;
      for (const listener of this.listeners) listener();
    }
  }
}
