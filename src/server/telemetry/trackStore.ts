import type { FastifyBaseLogger } from 'fastify';
import type { Queryable } from '../db/types';

export interface TrackPoint {
  tm: string;
  lat: number;
  lon: number;
  speed: number;
  course: number;
}

/** "Previous data" of one vehicle for a period, oldest first, at most `limit` points. */
export async function trackOf(db: Queryable, vehicleId: number, from: Date, to: Date, limit = 50_000): Promise<TrackPoint[]> {
  const rows = await db.query<{ tm: Date | string; lat: number; lon: number; speed: number; course: number }>(
    `select tm, lat, lon, speed, course from app.track
      where vehicle_id = $1 and tm >= $2 and tm <= $3 order by tm limit $4`,
    [vehicleId, from.toISOString(), to.toISOString(), limit],
  );
  return rows.map((row) => ({ tm: new Date(row.tm).toISOString(), lat: row.lat, lon: row.lon, speed: row.speed, course: row.course }));
}

/**
 * Deletes points older than the retention, in slices so a large backlog never holds one long transaction
 * (the BRIN index on tm finds old blocks cheaply). At fleet scale a daily partition dropped whole is the
 * next step; see the README.
 */
export async function purgeTrack(db: Queryable, retentionDays: number, log?: FastifyBaseLogger, slice = 50_000): Promise<number> {
  let total = 0;
  for (;;) {
    const [{ n }] = await db.query<{ n: number }>(
      `with gone as (
         delete from app.track where ctid in (
           select ctid from app.track where tm < now() - make_interval(days => $1) limit $2)
         returning 1)
       select count(*)::int as n from gone`,
      [retentionDays, slice],
    );
    total += n;
    if (n < slice) break;
  }
  if (total > 0) log?.info({ deleted: total, retentionDays }, 'old track points deleted');
  return total;
}
