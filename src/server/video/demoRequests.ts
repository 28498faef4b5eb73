import type { Db } from '../db/types';
import { demoCoverage, demoStoppedAt, piecesSeconds } from './demoArchive';

const MIN = 60_000;

/**
 * A fresh demo install's first archive requests, so the video lists, the archive and the journal show real
 * work at once: a few requests of the demo dispatcher for recent minutes of demo recorders, created as a user
 * would (status 1); the worker then takes them through their statuses like any other (performed for vehicles
 * on the road, waiting for those in the depot).
 */
export async function seedDemoRequests(db: Db, now = Date.now()): Promise<number> {
  const [{ count }] = await db.query<{ count: number }>('select count(*)::int as count from app.video_request');
  if (count > 0) return 0;
  const [user] = await db.query<{ id: number; username: string }>("select id, username from app.users where username = 'operator'");
  if (!user) return 0;
  const recorders = await db.query<{ vehicle_id: number; dvr_id: number; cameras: number[] }>(
    `select d.vehicle_id, d.id as dvr_id, array_agg(c.index order by c.index) as cameras
       from mgt.dvr d join mgt.dev_camera c on c.dvr_id = d.id
      where d.media_server_ip is null group by d.vehicle_id, d.id order by d.id limit 40`,
  );
  let made = 0;
  for (const [i, recorder] of recorders.entries()) {
    if (made >= 8) break;
    const to = Math.floor((now - (10 + i * 17) * MIN) / MIN) * MIN;
    const from = to - (2 + (i % 4)) * MIN;
    const cameras = recorder.cameras.slice(0, 1 + (i % 2));
    if (
      demoStoppedAt(recorder.dvr_id, now) !== null ||
      cameras.some((c) => piecesSeconds(demoCoverage(recorder.dvr_id, c, from, to, now, 72)) === 0)
    )
      continue;
    await db.query(
      `insert into app.video_request (user_id, username, vehicle_id, dvr_id, cameras, period_from, period_to, created_at)
       values ($1, $2, $3, $4, $5::int[], $6, $7, $8)`,
      [
        user.id,
        user.username,
        recorder.vehicle_id,
        recorder.dvr_id,
        cameras,
        new Date(from).toISOString(),
        new Date(to).toISOString(),
        new Date(now - (8 - made) * MIN).toISOString(),
      ],
    );
    made++;
  }
  return made;
}
