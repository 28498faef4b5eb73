import { createHash, randomBytes } from 'node:crypto';
import type { Db, Queryable } from '../db/types';
import type { Config } from '../config';
import { mergePermissions, type PermissionMap } from '../../shared/permissions';
import { ReadCache, staleWindow } from '../db/readCache';
import type { Bus } from '../bus/bus';
import type { CacheInvalidation } from '../bus/channels';
import type { CurrentUserProfile } from './currentUser';

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

/** A session as this process last read it, with the times measured on its own clock. */
interface CachedSession {
  user: SessionUser;
  expiresAt: number;
  lastSeenAt: number;
  /** When last_seen_at was last written. */
  writtenAt: number;
}

/** How long a session read from the database is trusted before it is read again. */
const SESSION_CACHE_MS = 3000;
const TOUCH_WRITE_INTERVAL_MS = 60_000;

/**
 * Sessions live in the database, so any server process behind a load balancer knows them. Each process keeps
 * what it read for 3 s (like the settings): a session check costs no query, and it does not wait behind heavy
 * queries (see ReadCache). Logout, blocking, deleting a user, a new password and any role change forget the
 * entries at once, here and, over the bus, in every other process; should the bus be down, another process
 * sees the change within 3 s and one read (6 s at most). The idle and absolute timeouts are checked on every
 * request against the times read.
 */
export class Sessions {
  private readonly sessions: ReadCache<string, CachedSession>;
  /** The current-user documents (auth/current), forgotten with the user's sessions. */
  private readonly profiles: ReadCache<number, CurrentUserProfile>;

  constructor(
    private readonly db: Db,
    private readonly config: Config['session'],
    private readonly bus: Bus,
  ) {
    const staleMs = staleWindow(db);
    this.sessions = new ReadCache(SESSION_CACHE_MS, staleMs);
    this.profiles = new ReadCache(SESSION_CACHE_MS, staleMs);
    bus.subscribe('cache', (change) => this.apply(change));
    // what another process changed while the bus was down never arrived: read everything again
    bus.onReconnect(() => this.apply({ kind: 'roles' }));
  }

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
    return this.resolveHash(hashToken(token), touch);
  }

  /**
   * The user of a session named by its user and the start of its token hash (what a stream address carries),
   * under the same checks as resolve; not activity.
   */
  async resolveOwned(userId: number, hashStart: string): Promise<SessionUser | null> {
    if (!/^[0-9a-f]{12,64}$/.test(hashStart)) return null;
    const [row] = await this.db.query<{ token_hash: string }>(
      'select token_hash from app.session where user_id = $1 and left(token_hash, $3) = $2',
      [userId, hashStart, hashStart.length],
    );
    return row ? this.resolveHash(row.token_hash, false) : null;
  }

  private async resolveHash(tokenHash: string, touch: boolean): Promise<SessionUser | null> {
    let session = await this.sessions.get(tokenHash, () => this.read(tokenHash));
    if (session && !this.live(session)) {
      // Past a timeout by what this process saw: the database decides (another process may have seen activity).
      this.sessions.forget(tokenHash);
      session = await this.sessions.get(tokenHash, () => this.read(tokenHash));
    }
    if (!session || !this.live(session)) return null;
    if (touch) await this.touch(tokenHash, session);
    return session.user;
  }

  private live(session: CachedSession): boolean {
    const now = Date.now();
    return now < session.expiresAt && now - session.lastSeenAt < this.config.idleMinutes * 60_000;
  }

  private async read(tokenHash: string): Promise<CachedSession | undefined> {
    const rows = await this.db.query<{
      id: number;
      username: string;
      permissions: PermissionMap[] | null;
      expires_in_ms: number;
      idle_ms: number;
    }>(
      `select u.id, u.username,
              (select json_agg(r.permissions) from app.user_role ur join app.role r on r.id = ur.role_id where ur.user_id = u.id) as permissions,
              extract(epoch from s.expires_at - now()) * 1000 as expires_in_ms,
              extract(epoch from now() - s.last_seen_at) * 1000 as idle_ms
         from app.session s join app.users u on u.id = s.user_id
        where s.token_hash = $1 and s.expires_at > now() and not u.is_blocked
          and s.last_seen_at > now() - make_interval(mins => $2)`,
      [tokenHash, this.config.idleMinutes],
    );
    const row = rows[0];
    if (!row) return undefined;
    const now = Date.now();
    const lastSeenAt = now - Number(row.idle_ms);
    const user = { id: row.id, username: row.username, permissions: mergePermissions(row.permissions ?? []), tokenHash };
    return { user, expiresAt: now + Number(row.expires_in_ms), lastSeenAt, writtenAt: lastSeenAt };
  }

  /**
   * Activity is written at most once a minute per session. On PostgreSQL the request waits for it (the pool
   * has room); on the embedded engine it is queued and not awaited, so a request does not wait behind a heavy
   * query, and every later read still sees it (the engine runs queries in order).
   */
  private async touch(tokenHash: string, session: CachedSession): Promise<void> {
    const now = Date.now();
    session.lastSeenAt = now;
    if (now - session.writtenAt < TOUCH_WRITE_INTERVAL_MS) return;
    session.writtenAt = now;
    const write = this.db.query('update app.session set last_seen_at = now() where token_hash = $1', [tokenHash]);
    if (this.db.engine === 'pglite') write.catch((error: Error) => process.emitWarning(`session activity not recorded: ${error.message}`));
    else await write;
  }

  async revoke(tokenHash: string): Promise<void> {
    this.sessions.forget(tokenHash);
    await this.db.query('delete from app.session where token_hash = $1', [tokenHash]);
    this.changed({ kind: 'session', tokenHash });
  }

  /** Ends every session of a user: on block, delete or password change. Call forgetUser once committed. */
  static async revokeAllOf(db: Queryable, userId: number): Promise<void> {
    await db.query('delete from app.session where user_id = $1', [userId]);
  }

  /** After a change to a user (block, delete, password, roles, name): every process reads it again. */
  forgetUser(userId: number): void {
    this.changed({ kind: 'user', userId });
  }

  /** After a change to roles: every user's permissions may differ. */
  forgetAll(): void {
    this.changed({ kind: 'roles' });
  }

  /** The current-user document (auth/current), read through the cache. */
  profile(userId: number, load: () => Promise<CurrentUserProfile | undefined>): Promise<CurrentUserProfile | undefined> {
    return this.profiles.get(userId, load);
  }

  /** After a change to what only the current-user document carries (saved columns, map position). */
  forgetProfile(userId: number): void {
    this.changed({ kind: 'profile', userId });
  }

  /** Sessions past a timeout by what this process read: memory only (purgeExpired deletes the rows). */
  forgetExpired(): void {
    this.sessions.forgetWhere((session) => !this.live(session));
  }

  /** Forgets here, then tells the other processes. */
  private changed(change: CacheInvalidation): void {
    this.apply(change);
    this.bus.publish('cache', change);
  }

  private apply(change: CacheInvalidation): void {
    switch (change.kind) {
      case 'session':
        this.sessions.forget(change.tokenHash);
        break;
      case 'user':
        this.sessions.forgetWhere((session) => session.user.id === change.userId);
        this.profiles.forget(change.userId);
        break;
      case 'profile':
        this.profiles.forget(change.userId);
        break;
      case 'roles':
        this.sessions.clear();
        this.profiles.clear();
        break;
      default:
        break;
    }
  }

  /** Deletes the sessions past a timeout and stale login-failure windows (one process does, hourly). */
  async purgeExpired(): Promise<void> {
    this.forgetExpired();
    await this.db.query(`delete from app.session where expires_at < now() or last_seen_at < now() - make_interval(mins => $1)`, [
      this.config.idleMinutes,
    ]);
    await this.db.query(
      `delete from app.login_failure where window_started_at < now() - interval '1 day' and (locked_until is null or locked_until < now())`,
    );
  }
}
