import type { Queryable } from '../db/types';
import type { LatestPosition, Position } from './types';

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
   * vehicle (the (vehicle_id, tm) key) rather than a scan of the retention window.
   */
  async load(db: Queryable, sinceMs: number): Promise<number> {
    const rows = await db.query<{ vehicle_id: number; tm: Date | string; lat: number; lon: number; speed: number; course: number; valid: boolean }>(
      `select v.id as vehicle_id, t.tm, t.lat, t.lon, t.speed, t.course, t.valid
         from mgt.vehicles v
         cross join lateral (
           select tm, lat, lon, speed, course, valid from app.track
            where vehicle_id = v.id and tm >= $1 order by tm desc limit 1) t`,
      [new Date(sinceMs).toISOString()],
    );
    const now = Date.now();
    for (const row of rows) {
      this.apply({ vehicleId: row.vehicle_id, time: new Date(row.tm).getTime(), lat: row.lat, lon: row.lon, speed: row.speed, course: row.course, valid: row.valid, history: true }, now);
    }
    return rows.length;
  }
}
