import type { TrackPoint } from '../../shared/map';
import type { Queryable } from '../db/types';

/** "Previous data" of one vehicle for a period, oldest first, at most `limit` points. */
export async function trackOf(db: Queryable, vehicleId: number, from: Date, to: Date, limit = 50_000): Promise<TrackPoint[]> {
  const rows = await db.query<{ tm: Date | string; lat: number; lon: number; speed: number; course: number }>(
    `select tm, lat, lon, speed, course from app.track
      where vehicle_id = $1 and tm >= $2 and tm <= $3 order by tm limit $4`,
    [vehicleId, from.toISOString(), to.toISOString(), limit],
  );
  return rows.map((row) => ({ tm: new Date(row.tm).toISOString(), lat: row.lat, lon: row.lon, speed: row.speed, course: row.course }));
}
