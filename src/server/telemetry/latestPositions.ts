import type { Queryable } from '../db/types';
import type { LatestPosition, Position } from './types';

const DAY_MS = 86_400_000;

/**
 * The latest state of every vehicle, in memory: the live map reads thousands of these per second and must not
 * touch the database for it. A position only replaces the state when it is newer, so black-box history and
 * late resends never move a vehicle back in time.
 */
export class LatestPositions {
  private readonly states = new Map<number, LatestPosition>();

  get(vehicleId: number): LatestPosition | undefined {
    return this.states.get(vehicleId);
  }

  entries(): IterableIterator<[number, LatestPosition]> {
    return this.states.entries();
  }

  get size(): number {
    return this.states.size;
  }

  /** Applies a position; true when it became the vehicle's latest state. */
  apply(p: Position, receivedAt: number): boolean {
    const current = this.states.get(p.vehicleId);
    if (current && current.time >= p.time) return false;
    // A fix without validity keeps the last valid coordinates: receivers repeat stale or zero positions then.
    if (current && current.valid && !p.valid) return false;
    this.states.set(p.vehicleId, { lat: p.lat, lon: p.lon, speed: p.speed, course: p.course, time: p.time, valid: p.valid, receivedAt });
    return true;
  }

  /**
   * Restores the state after a restart from the newest track point of each vehicle, one index probe per
   * vehicle and day partition (the (vehicle_id, tm) key) rather than a scan of the retention window. The
   * last day is asked first, then the last week, then the rest of the retention, each for the vehicles not
   * found yet: most vehicles reported lately, and a probe into every day of the retention costs a month's
   * partitions per vehicle.
   */
  async load(db: Queryable, sinceMs: number, now = Date.now()): Promise<number> {
    const found: number[] = [];
    for (const from of [now - DAY_MS, now - 7 * DAY_MS, sinceMs]) {
      const since = Math.max(from, sinceMs);
      const rows = await db.query<{
        vehicle_id: number;
        tm: Date | string;
        lat: number;
        lon: number;
        speed: number;
        course: number;
        valid: boolean;
      }>(
        `select v.id as vehicle_id, t.tm, t.lat, t.lon, t.speed, t.course, t.valid
           from mgt.vehicles v
           cross join lateral (
             select tm, lat, lon, speed, course, valid from app.track
              where vehicle_id = v.id and tm >= $1 order by tm desc limit 1) t
          where v.id <> all($2::int[])`,
        [new Date(since).toISOString(), found],
      );
      for (const row of rows) {
        found.push(row.vehicle_id);
        this.apply(
          {
            vehicleId: row.vehicle_id,
            time: new Date(row.tm).getTime(),
            lat: row.lat,
            lon: row.lon,
            speed: row.speed,
            course: row.course,
            valid: row.valid,
            history: true,
          },
          now,
        );
      }
      if (since === sinceMs) break;
    }
    return found.length;
  }
}
