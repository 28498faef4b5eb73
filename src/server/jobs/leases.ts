import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { FastifyBaseLogger } from 'fastify';
import type { Db, Queryable } from '../db/types';

/**
 * Checks, inside a write transaction, that the lease is still this process's at the generation a pass started
 * with, and keeps it so until the transaction ends: the lease row is read FOR SHARE, so another process's
 * takeover (an update of that row) waits for the transaction to commit, and a transaction begun after a
 * takeover finds another holder or generation and throws LeaseLostError, writing nothing.
 */
export type Fence = (tx: Queryable) => Promise<void>;

/** A fenced write refused: another process took the lease over since the pass began. */
export class LeaseLostError extends Error {
  constructor(readonly lease: string) {
    super(`lease ${lease} was taken over: nothing written`);
    this.name = 'LeaseLostError';
  }
}

/** A singleton job's right to run in this process (docs/deployment.md, "several machines"). */
export interface Lease {
  readonly name: string;
  /**
   * This process holds the lease now, by its own clock: until a margin before anyone else could take it, so
   * a holder that stalled (a pause, a lost database) stops counting itself the holder before another starts.
   * A job looks at it before each pass.
   */
  readonly held: boolean;
  /** Goes up each time the lease changes hands (0 while never held here). */
  readonly generation: number;
  /** Called with true when this process takes the lease, false when it loses or gives it up. */
  onChange(listener: (held: boolean) => void): () => void;
  /**
   * The fence of a pass starting now (at this generation): each write transaction of the pass calls it first.
   * A pass that outlives the lease (a stall, a slow database) then writes nothing once another process holds it.
   */
  fence(): Fence;
}

/** Fences nothing: a lease that is always held (the embedded engine, one process), or a job without one. */
export const UNFENCED: Fence = async () => undefined;

export interface LeaseOptions {
  /** How long a lease lasts unrenewed (LEASE_TTL_S): a dead holder's leases are taken within it and one round. */
  ttlMs: number;
}

class HeldLease implements Lease {
  generation = 0;
  /** performance.now() until which this process holds it. */
  validUntil = 0;
  /** What the listeners were told last. */
  reported = false;
  expiry: NodeJS.Timeout | undefined;
  readonly listeners = new Set<(held: boolean) => void>();

  constructor(
    readonly name: string,
    /** The holder and database of the fence; none on the embedded engine, where every lease is held. */
    private readonly owner?: string,
  ) {}

  fence(): Fence {
    const owner = this.owner;
    if (owner === undefined) return UNFENCED;
    const { name, generation } = this;
    return async (tx) => {
      const rows = await tx.query(
        'select 1 from app.lease where name = $1 and holder = $2 and generation = $3 and expires_at > now() for share',
        [name, owner, generation],
      );
      if (!rows.length) throw new LeaseLostError(name);
    };
  }

  get held(): boolean {
    return performance.now() < this.validUntil;
  }

  onChange(listener: (held: boolean) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

/**
 * The leases of this process's singleton jobs, in the `app.lease` table. Every round (a quarter of the
 * lifetime) one statement renews the leases this process holds and takes those whose holder let them run
 * out; a lease taken from another holder gets the next generation. A process that dies (even killed, with no
 * chance to let go) loses its leases when they run out: another takes them within the lifetime and a round
 * (12.5 s with the default 10 s). A shutdown lets go at once, so the next round elsewhere takes them. On the
 * embedded engine one process owns the database, and every lease is simply held.
 */
export class Leases {
  /** This process among the holders (the host, the process id, and a random part for restarts). */
  readonly holder = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  private readonly leases = new Map<string, HeldLease>();
  private timer: NodeJS.Timeout | undefined;
  private round: Promise<void> | null = null;
  private stopped = false;
  private readonly local: boolean;

  constructor(
    private readonly db: Db,
    private readonly log: FastifyBaseLogger,
    private readonly options: LeaseOptions,
  ) {
    this.local = db.engine === 'pglite';
  }

  /** The lease of `name` (made on first use; tried for from the next round on). */
  lease(name: string): Lease {
    let lease = this.leases.get(name);
    if (!lease) {
      lease = new HeldLease(name, this.local ? undefined : this.holder);
      if (this.local) {
        lease.validUntil = Infinity;
        lease.generation = 1;
        lease.reported = true;
      }
      this.leases.set(name, lease);
    }
    return lease;
  }

  /** The names of the leases this process holds now. */
  heldNames(): string[] {
    return [...this.leases.values()].filter((lease) => lease.held).map((lease) => lease.name);
  }

  /** The first round (awaited, so jobs started after it know what they hold), then one every quarter lifetime. */
  async start(): Promise<void> {
    if (this.local || this.timer || this.stopped) return;
    await this.renew();
    this.timer = setInterval(() => void this.renew(), Math.max(250, this.options.ttlMs / 4));
    this.timer.unref();
  }

  /** Lets go of every lease (after the jobs stopped), so another process takes them at its next round. */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    clearInterval(this.timer);
    await this.round;
    if (this.local) return;
    const held = [...this.leases.values()].filter((lease) => lease.validUntil > 0);
    for (const lease of held) {
      lease.validUntil = 0;
      this.report(lease);
    }
    if (!held.length) return;
    await this.db
      .withLimit(5000)
      .query('update app.lease set expires_at = now() where holder = $1 and name = any($2::text[])', [
        this.holder,
        held.map((lease) => lease.name),
      ])
      .catch((err: unknown) => this.log.warn({ err }, 'leases not let go: they run out by themselves'));
  }

  /** One round now (the timer's; tests call it to skip waiting). */
  renew(): Promise<void> {
    this.round ??= this.renewRound().finally(() => {
      this.round = null;
    });
    return this.round;
  }

  private async renewRound(): Promise<void> {
    // in name order in every process: two rounds at once then wait for each other's rows, never deadlock
    const leases = [...this.leases.values()].sort((x, y) => (x.name < y.name ? -1 : 1));
    if (!leases.length || this.stopped) return;
    const { ttlMs } = this.options;
    const sentAt = performance.now();
    let rows: { name: string; generation: number }[];
    try {
      rows = await this.db.withLimit(Math.max(1000, ttlMs / 4)).query<{ name: string; generation: number }>(
        `insert into app.lease as l (name, holder, expires_at)
         select n, $2, now() + make_interval(secs => $3::float8 / 1000) from unnest($1::text[]) as n
         on conflict (name) do update
            set holder = excluded.holder,
                generation = l.generation + (l.holder <> excluded.holder)::int,
                acquired_at = case when l.holder = excluded.holder then l.acquired_at else now() end,
                expires_at = excluded.expires_at
          where l.holder = excluded.holder or l.expires_at < now()
         returning name, generation::float8 as generation`,
        [leases.map((lease) => lease.name), this.holder, ttlMs],
      );
    } catch (err) {
      // what is held stays held until its time runs out here: the next round may renew it
      this.log.warn({ err }, 'leases not renewed');
      return;
    }
    if (this.stopped) return;
    const won = new Map(rows.map((row) => [row.name, row.generation]));
    // The database's lease ends ttl after the statement ran; here it ends ttl minus a fifth after it was sent.
    const until = sentAt + ttlMs * 0.8;
    for (const lease of leases) {
      const generation = won.get(lease.name);
      if (generation === undefined) lease.validUntil = 0;
      else {
        lease.validUntil = until;
        lease.generation = generation;
      }
      this.report(lease);
    }
  }

  /** Tells the listeners when holding changed, and looks again when the lease would run out here. */
  private report(lease: HeldLease): void {
    clearTimeout(lease.expiry);
    const held = lease.held;
    if (held) {
      lease.expiry = setTimeout(() => this.report(lease), lease.validUntil - performance.now() + 1);
      lease.expiry.unref();
    }
    if (held === lease.reported) return;
    lease.reported = held;
    this.log.info({ lease: lease.name, generation: lease.generation, holder: this.holder }, held ? 'lease taken' : 'lease lost');
    for (const listener of lease.listeners) {
      try {
        listener(held);
      } catch (err) {
        this.log.warn({ err, lease: lease.name }, 'lease listener failed');
      }
    }
  }
}

/** A job started and stopped with its lease (start when this process takes it, stop when it loses it). */
export interface LeasedJob {
  start(): void;
  stop(): Promise<unknown> | void;
}

/**
 * Runs `job` while this process holds `lease`: started when it is taken, stopped (waiting for the pass under
 * way) when it is lost. Returns the shutdown, which stops the job if it runs.
 */
export function runWhileHeld(lease: Lease, job: LeasedJob, log: FastifyBaseLogger): () => Promise<void> {
  let running = false;
  let chain: Promise<void> = Promise.resolve();
  const apply = (held: boolean) => {
    chain = chain
      .then(async () => {
        if (held && !running) {
          running = true;
          job.start();
        } else if (!held && running) {
          running = false;
          await job.stop();
        }
      })
      .catch((err: unknown) => log.warn({ err, lease: lease.name }, held ? 'leased job not started' : 'leased job not stopped'));
  };
  const off = lease.onChange(apply);
  if (lease.held) apply(true);
  return async () => {
    off();
    apply(false);
    await chain;
  };
}
