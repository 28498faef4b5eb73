import type { Db } from '../db/types';
import type { Config } from '../config';

/**
 * Failed logins counted in a sliding window per account (from anywhere), per account and address pair, and
 * per address for unknown login names only. Past the limit the subject is refused for a while, the pause
 * doubling with each further burst up to an hour: never a permanent lock that an attacker could use to shut a
 * real user out. Failures against one account lock that account, never the others sharing the address
 * (an office behind one NAT address); a flood of made-up names still locks the address.
 */
export class LoginThrottle {
  constructor(
    private readonly db: Db,
    private readonly rules: Config['loginThrottle'],
  ) {}

  /** Seconds until the account, the account from this address, or the address may try again, or 0. */
  async retryAfter(username: string, ip: string): Promise<number> {
    const rows = await this.db.query<{ wait: number | null }>(
      `select ceil(extract(epoch from max(locked_until) - now()))::int as wait
         from app.login_failure where subject = any($1) and locked_until > now()`,
      [[accountKey(username), pairKey(username, ip), addressKey(ip)]],
    );
    return Math.max(0, rows[0]?.wait ?? 0);
  }

  /** A wrong password for an existing account, or (`knownAccount` false) a login name nobody has. */
  async recordFailure(username: string, ip: string, knownAccount: boolean): Promise<void> {
    await this.bump(accountKey(username), this.rules.accountFailures);
    await this.bump(knownAccount ? pairKey(username, ip) : addressKey(ip), this.rules.addressFailures);
  }

  async recordSuccess(username: string, ip: string): Promise<void> {
    await this.db.query('delete from app.login_failure where subject = any($1)', [[accountKey(username), pairKey(username, ip)]]);
  }

  private async bump(subject: string, limit: number): Promise<void> {
    await this.db.query(
      `insert into app.login_failure as f (subject, failures, window_started_at) values ($1, 1, now())
       on conflict (subject) do update set
         failures = case when f.window_started_at < now() - make_interval(mins => $2) then 1 else f.failures + 1 end,
         window_started_at = case when f.window_started_at < now() - make_interval(mins => $2) then now() else f.window_started_at end`,
      [subject, this.rules.windowMinutes],
    );
    await this.db.query(
      `update app.login_failure
          set locked_until = now() + make_interval(mins => least(60, $2 * power(2, failures / $3 - 1))::int)
        where subject = $1 and failures >= $3 and failures % $3 = 0`,
      [subject, this.rules.lockMinutes, limit],
    );
  }
}

const accountKey = (username: string) => `user:${username.trim().toLowerCase()}`;
const addressKey = (ip: string) => `ip:${ip}`;
const pairKey = (username: string, ip: string) => `${accountKey(username)}@${ip}`;
