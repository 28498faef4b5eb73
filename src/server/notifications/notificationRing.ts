import type { Db } from '../db/types';
import type { NotificationType } from './notificationTypes';

export interface NotificationItem {
  id: number;
  at: string;
  type: NotificationType;
  severity: string;
  title: string;
  body: string;
  link: string | null;
  isNew: boolean;
}

/** new_list names at most this many unseen notifications; `count` still says how many there are. */
export const NEW_LIST_MAX = 100;

const VISIBLE = '(n.user_id is null or n.user_id = $1) and n.type = any($2::text[])';

/**
 * One user's view of the bell. What the user has seen is a watermark, the highest id seen: unseen means
 * "id above the watermark", so the count is a range scan of the newest rows, and "set all viewed" is one
 * upsert whatever the number of users and notifications.
 */
export class NotificationRing {
  constructor(private readonly db: Db) {}

  /**
   * The user's watermark. A user's first look starts it at the last notification older than the account,
   * so a new account does not inherit the whole history as unseen.
   */
  async watermark(userId: number): Promise<number> {
    const read = async () =>
      (await this.db.query<{ id: number }>('select last_seen_id::float8 as id from app.notification_seen where user_id = $1', [userId]))[0]
        ?.id;
    const known = await read();
    if (known !== undefined) return known;
    await this.db.query(
      `insert into app.notification_seen (user_id, last_seen_id)
       select u.id, coalesce((select max(n.id) from app.notification n where n.at < u.created_at), 0) from app.users u where u.id = $1
       on conflict (user_id) do nothing`,
      [userId],
    );
    return (await read()) ?? 0;
  }

  async unseenCount(userId: number, types: NotificationType[]): Promise<number> {
    const seen = await this.watermark(userId);
    const [{ count }] = await this.db.query<{ count: number }>(
      `select count(*)::int as count from app.notification n where n.id > $3 and ${VISIBLE}`,
      [userId, types, seen],
    );
    return count;
  }

  async list(
    userId: number,
    types: NotificationType[],
    skip: number,
    take: number,
  ): Promise<{ list: NotificationItem[]; count: number; new_list: number[] }> {
    const seen = await this.watermark(userId);
    const list = await this.db.query<NotificationItem>(
      `select n.id::float8 as id, n.at, n.type, n.severity, n.title, n.body, n.link, n.id > $3 as "isNew"
         from app.notification n where ${VISIBLE} order by n.id desc limit $4 offset $5`,
      [userId, types, seen, take, skip],
    );
    const [{ count }] = await this.db.query<{ count: number }>(`select count(*)::int as count from app.notification n where ${VISIBLE}`, [
      userId,
      types,
    ]);
    const fresh = await this.db.query<{ id: number }>(
      `select n.id::float8 as id from app.notification n where n.id > $3 and ${VISIBLE} order by n.id desc limit ${NEW_LIST_MAX}`,
      [userId, types, seen],
    );
    return { list, count, new_list: fresh.map((row) => row.id) };
  }

  /**
   * Marks as seen everything up to `upTo` (the newest id the console showed) or, without it, everything so
   * far. The watermark never moves back.
   */
  async markViewed(userId: number, upTo?: number): Promise<number> {
    const [row] = await this.db.query<{ id: number }>(
      `insert into app.notification_seen (user_id, last_seen_id, seen_at)
       values ($1, coalesce($2::bigint, (select max(id) from app.notification), 0), now())
       on conflict (user_id) do update set last_seen_id = greatest(app.notification_seen.last_seen_id, excluded.last_seen_id), seen_at = now()
       returning last_seen_id::float8 as id`,
      [userId, upTo ?? null],
    );
    return row.id;
  }
}
