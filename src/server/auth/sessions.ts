import { createHash, randomBytes } from 'node:crypto';
import type { Db, Queryable } from '../db/types';
import type { Config } from '../config';
import { mergePermissions, type PermissionMap } from '../../shared/permissions';

/** The user behind a request, as the access checks need it. */
export interface SessionUser {
  id: number;
  username: string;
  permissions: PermissionMap;
  tokenHash: string;
}

/** 256 random bits, base64url: well above the 128 bits ASVS asks for. */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** Sessions live in the database, so any server process behind a load balancer knows them. */
export class Sessions {
  constructor(
    private readonly db: Db,
    private readonly config: Config['session'],
  ) {}

  async create(userId: number, ip: string, userAgent: string | undefined): Promise<string> {
    const token = newToken();
    await this.db.query(
      `insert into app.session (token_hash, user_id, expires_at, ip, user_agent)
       values ($1, $2, now() + make_interval(hours => $3), $4, $5)`,
      [hashToken(token), userId, this.config.absoluteHours, ip, userAgent?.slice(0, 300) ?? null],
    );
    return token;
  }

  /**
   * The session's user when the token is known, not past its absolute expiry, not idle too long, and the
   * user is not blocked. `touch` records activity (background polling does not, so it cannot keep an
   * abandoned console logged in).
   */
  async resolve(token: string, touch: boolean): Promise<SessionUser | null> {
    const tokenHash = hashToken(token);
    const rows = await this.db.query<{ id: number; username: string; permissions: PermissionMap[] | null; stale: boolean }>(
      `select u.id, u.username,
              (select json_agg(r.permissions) from app.user_role ur join app.role r on r.id = ur.role_id where ur.user_id = u.id) as permissions,
              s.last_seen_at < now() - interval '1 minute' as stale
         from app.session s join app.users u on u.id = s.user_id
        where s.token_hash = $1 and s.expires_at > now() and not u.is_blocked
          and s.last_seen_at > now() - make_interval(mins => $2)`,
      [tokenHash, this.config.idleMinutes],
    );
    const row = rows[0];
    if (!row) return null;
    // Activity is written at most once a minute: a busy console does not turn every read into a write.
    if (touch && row.stale) await this.db.query('update app.session set last_seen_at = now() where token_hash = $1', [tokenHash]);
    return { id: row.id, username: row.username, permissions: mergePermissions(row.permissions ?? []), tokenHash };
  }

  async revoke(tokenHash: string): Promise<void> {
    await this.db.query('delete from app.session where token_hash = $1', [tokenHash]);
  }

  /** Ends every session of a user: on block, delete or password change. */
  static async revokeAllOf(db: Queryable, userId: number): Promise<void> {
    await db.query('delete from app.session where user_id = $1', [userId]);
  }

  async purgeExpired(): Promise<void> {
    await this.db.query(
      `delete from app.session where expires_at < now() or last_seen_at < now() - make_interval(mins => $1)`,
      [this.config.idleMinutes],
    );
    await this.db.query(`delete from app.login_failure where window_started_at < now() - interval '1 day' and (locked_until is null or locked_until < now())`);
  }
}
