import type { FastifyBaseLogger } from 'fastify';
import { isDatabaseUnavailable } from './availability';
import type { Db, Queryable } from './types';
import type { Fence } from '../jobs/leases';

const DAY_MS = 86_400_000;
/** PostgreSQL's code of a lock not granted within lock_timeout. */
const LOCK_NOT_AVAILABLE = '55P03';
/** Rows deleted from a default partition per statement (a large backlog never holds one long transaction). */
const DELETE_SLICE = 50_000;

export interface DayPartitionsOptions {
  /** The table partitioned by range on a timestamptz column, schema-qualified (`app.track`). */
  table: string;
  /** Days kept: a day goes once all of it is older than this. */
  retentionDays: number;
  /** Days after today made by each maintenance pass. */
  aheadDays?: number;
  /**
   * How long a partition's creation or drop may wait for its lock. On PostgreSQL dropping a partition locks its
   * parent against every reader and writer, and a lock waiting behind a long reader holds up every query
   * queued after it: the drop gives up after this long instead and is tried again at the next pass.
   */
  lockTimeoutMs?: number;
}

/** What a maintenance pass did. */
export interface DayMaintenance {
  /** Partitions made (the coming days, and past days found in the default partition). */
  made: number;
  /** Partitions dropped, by name. */
  dropped: string[];
  /** Partitions past the retention whose drop waited too long for its lock: tried again at the next pass. */
  postponed: string[];
  /** Rows of the default partition deleted as past the retention. */
  expired: number;
}

/** UTC day number of an epoch-ms time, and back to its date. */
const dayOf = (ms: number) => Math.floor(ms / DAY_MS);
const dateOf = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);
const quoted = (name: string) => `"${name.replace(/"/g, '""')}"`;

/**
 * Daily partitions (UTC days, `<table>_YYYYMMDD`) of one table, made and dropped whole: the one mechanism of
 * the tables that grow with the fleet and time (migration 135's `app.ensure_day_partitions`). Writers call
 * `ensure` with their rows' times so rows go straight to their day; a periodic `maintain` makes the coming
 * days, makes the past days whose rows wait in the default partition (moving them in), drops the days past
 * the retention with DROP TABLE and deletes the default partition's rows past it. Dropping a day is one
 * catalog change whatever its size.
 */
export class DayPartitions {
  /** Days with a partition, as this process last saw or made them. */
  private readonly known = new Set<number>();
  private shape: Promise<{ schema: string; name: string; column: string; fallback: string | null }> | null = null;

  constructor(
    private readonly db: Db,
    private readonly options: DayPartitionsOptions,
    private readonly log: FastifyBaseLogger,
  ) {}

  get table(): string {
    return this.options.table;
  }

  /** The oldest day kept and the last day made ahead, as UTC day numbers. */
  private window(now: number): { first: number; last: number } {
    return { first: dayOf(now - this.options.retentionDays * DAY_MS), last: dayOf(now) + (this.options.aheadDays ?? 3) };
  }

  /**
   * Makes the partitions of the days of `times` (epoch ms) within the window that this process has not seen.
   * Never fails its caller: rows of a day not made go to the default partition, and the next maintenance
   * pass moves them into their day.
   */
  async ensure(times: Iterable<number>, now = Date.now()): Promise<void> {
    const { first, last } = this.window(now);
    let from = Infinity;
    let to = -Infinity;
    for (const tm of times) {
      const day = dayOf(tm);
      if (day < first || day > last || this.known.has(day)) continue;
      if (day < from) from = day;
      if (day > to) to = day;
    }
    if (from > to) return;
    try {
      await this.make(from, to);
    } catch (err) {
      if (!isDatabaseUnavailable(err))
        this.log.warn(
          { err, table: this.table, from: dateOf(from), to: dateOf(to) },
          'day partitions not made: rows wait in the default partition',
        );
    }
  }

  /**
   * One maintenance pass (see the class). `fence` (the job's lease, from the pass's start) is checked in each of
   * its write transactions: a pass outliving its lease makes, drops and deletes nothing more once another
   * process holds it.
   */
  async maintain(now = Date.now(), fence?: Fence): Promise<DayMaintenance> {
    const { schema, column, fallback } = await this.describe();
    const { first, last } = this.window(now);
    const outcome: DayMaintenance = { made: 0, dropped: [], postponed: [], expired: 0 };

    const waiting = fallback
      ? await this.db.query<{ day: number }>(
          `select distinct floor(extract(epoch from ${quoted(column)}) / 86400)::int as day from ${quoted(schema)}.${quoted(fallback)}
          where ${quoted(column)} >= $1 and ${quoted(column)} < $2`,
          [new Date(first * DAY_MS).toISOString(), new Date((last + 1) * DAY_MS).toISOString()],
        )
      : [];
    const today = dayOf(now);
    for (const [from, to] of [
      ...waiting.filter((row) => row.day < today).map((row): [number, number] => [row.day, row.day]),
      [today, last],
    ]) {
      try {
        outcome.made += await this.make(from, to, fence);
      } catch (err) {
        // The default partition was being read past the lock timeout: made at the next pass.
        if ((err as { code?: unknown }).code !== LOCK_NOT_AVAILABLE) throw err;
      }
    }

    for (const { day, partition } of await this.partitions()) {
      if (day >= first) continue;
      if (await this.drop(`${quoted(schema)}.${quoted(partition)}`, fence)) {
        outcome.dropped.push(partition);
        this.known.delete(day);
      } else {
        outcome.postponed.push(partition);
      }
    }

    if (fallback) {
      const cutoff = new Date(now - this.options.retentionDays * DAY_MS).toISOString();
      for (;;) {
        const slice = (q: Queryable) =>
          q.query<{ n: number }>(
            `with gone as (
             delete from ${quoted(schema)}.${quoted(fallback)} where ctid in (
               select ctid from ${quoted(schema)}.${quoted(fallback)} where ${quoted(column)} < $1 limit ${DELETE_SLICE})
             returning 1)
           select count(*)::int as n from gone`,
            [cutoff],
          );
        const [{ n }] = fence
          ? await this.db.transaction(async (tx) => {
              await fence(tx);
              return slice(tx);
            })
          : await slice(this.db);
        outcome.expired += n;
        if (n < DELETE_SLICE) break;
      }
    }

    if (outcome.made || outcome.dropped.length || outcome.postponed.length || outcome.expired)
      this.log.info({ table: this.table, ...outcome }, 'day partitions kept');
    return outcome;
  }

  /** The day partitions there are, oldest first. */
  async partitions(): Promise<{ day: number; partition: string }[]> {
    const { schema, name } = await this.describe();
    const rows = await this.db.query<{ partition: string }>(
      `select c.relname as partition from pg_inherits i join pg_class c on c.oid = i.inhrelid
        where i.inhparent = $1::regclass and c.relname ~ $2 order by c.relname`,
      [`${quoted(schema)}.${quoted(name)}`, `^${name}_[0-9]{8}$`],
    );
    const days = rows.map(({ partition }) => {
      const digits = partition.slice(-8);
      return { day: dayOf(Date.parse(`${digits.slice(0, 4)}-${digits.slice(4, 6)}-${digits.slice(6)}T00:00:00Z`)), partition };
    });
    for (const { day } of days) this.known.add(day);
    return days;
  }

  /** Makes the partitions of the days `from` to `to` (UTC day numbers) there are not yet. */
  private async make(from: number, to: number, fence?: Fence): Promise<number> {
    const made = await this.underLockTimeout(fence, async (tx) => {
      const [row] = await tx.query<{ made: number }>('select app.ensure_day_partitions($1::regclass, $2::date, $3::date) as made', [
        this.table,
        dateOf(from),
        dateOf(to),
      ]);
      return row.made;
    });
    for (let day = from; day <= to; day++) this.known.add(day);
    return made;
  }

  /** Drops one partition; false when its lock was not granted in time. */
  private async drop(qualified: string, fence?: Fence): Promise<boolean> {
    try {
      await this.underLockTimeout(fence, (tx) => tx.query(`drop table if exists ${qualified}`));
      return true;
    } catch (err) {
      if ((err as { code?: unknown }).code === LOCK_NOT_AVAILABLE) return false;
      throw err;
    }
  }

  private underLockTimeout<T>(fence: Fence | undefined, work: (tx: Queryable) => Promise<T>): Promise<T> {
    return this.db.transaction(async (tx) => {
      await tx.query("select set_config('lock_timeout', $1, true)", [`${this.options.lockTimeoutMs ?? 500}ms`]);
      await fence?.(tx);
      return work(tx);
    });
  }

  /** The table's schema and name, its partition column, and its default partition (if any), read once. */
  private describe(): Promise<{ schema: string; name: string; column: string; fallback: string | null }> {
    this.shape ??= this.db
      .query<{ schema: string; name: string; column: string; fallback: string | null }>(
        `select n.nspname as schema, c.relname as name, a.attname as column, d.relname as fallback
         from pg_partitioned_table p
         join pg_class c on c.oid = p.partrelid
         join pg_namespace n on n.oid = c.relnamespace
         join pg_attribute a on a.attrelid = p.partrelid and a.attnum = p.partattrs[0]
         left join pg_class d on d.oid = p.partdefid
        where p.partrelid = $1::regclass`,
        [this.table],
      )
      .then(([row]) => {
        if (!row) throw new Error(`${this.table} is not a partitioned table`);
        return row;
      })
      .catch((err: unknown) => {
        this.shape = null;
        throw err;
      });
    return this.shape;
  }
}
