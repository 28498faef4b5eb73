import type { FastifyBaseLogger } from 'fastify';
import type { ExceptionKind } from '../../shared/dispatch/api';
import type { Db, Queryable } from '../db/types';
import { LeaseLostError, type Fence } from '../jobs/leases';
import type { BellExceptionKind, Notifier } from '../notifications/notifier';
import type { DispatchException } from './engineTypes';
import { lookupNames } from './names';

/**
 * The exceptions that need a person and go to the bell. Late, early, bunching and gap are the board's live state:
 * they come and go by the minute over a whole fleet and would drown the bell, so they stay on the board.
 */
export const BELL_KINDS = [
  'driver_message',
  'exit_not_started',
  'run_not_performed',
  'off_route',
  'no_signal',
] as const satisfies readonly BellExceptionKind[];
const isBellKind = (kind: ExceptionKind): kind is BellExceptionKind => (BELL_KINDS as readonly string[]).includes(kind);

/** At most this many exceptions get a notification each within BELL_WINDOW_MS; past it they are summed in one. */
export const BELL_LIMIT = 5;
export const BELL_WINDOW_MS = 60_000;
/** A process that does not write keeps what it saw raised this long, so a writer taking over rings what a dead one had not. */
const KEEP_UNWRITTEN_MS = 60_000;
/** Occurrences told to the bell are remembered this long (a restart raises the day's exits and runs again). */
const NOTICE_KEEP_MS = 3 * 86_400_000;
const PRUNE_EVERY_MS = 3_600_000;

export interface BellWindow {
  start: number;
  /** Notifications of one exception each written in the window. */
  sent: number;
  /** The summary being added to, while what it sums keeps coming (each batch within a window of the last). */
  summary: { id: number; lastAt: number; counts: Map<ExceptionKind, number> } | null;
}

export type BellPlan = { kind: 'each' } | { kind: 'summary'; id: number | null; counts: Map<ExceptionKind, number> };

/**
 * The rate bound, pure: a batch of fresh exceptions gets a notification each while the window's budget holds;
 * otherwise the whole batch goes into one summary, new or the one still open. A fleet-wide outage (hundreds of
 * vehicles silent over a few ticks) makes one summary that grows, not hundreds of rings.
 */
export function planBell(window: BellWindow, kinds: readonly ExceptionKind[], now: number): BellPlan {
  if (now - window.start >= BELL_WINDOW_MS) {
    window.start = now;
    window.sent = 0;
  }
  const open = window.summary && now - window.summary.lastAt < BELL_WINDOW_MS ? window.summary : null;
  if (!open && window.sent + kinds.length <= BELL_LIMIT) {
    window.sent += kinds.length;
    return { kind: 'each' };
  }
  const counts = new Map(open?.counts ?? []);
  for (const kind of kinds) counts.set(kind, (counts.get(kind) ?? 0) + 1);
  return { kind: 'summary', id: open?.id ?? null, counts };
}

interface Offered {
  exception: DispatchException;
  offeredAt: number;
}

export interface ExceptionBellDeps {
  db: Db;
  notifier: Notifier;
  log: FastifyBaseLogger;
  now?: () => number;
}

/**
 * Rings the bell for the exceptions of BELL_KINDS, once an occurrence. Every process runs the engine on the whole
 * fleet and so raises every exception; only the writer (the holder of `dispatch.writer`) writes notifications,
 * each batch in a transaction under the lease's fence that first records the occurrences in
 * `dispatch.exception_notice`: an occurrence already there (rung before a restart, or by a writer since dead) is
 * not rung again, and two writers racing a takeover cannot both ring it.
 */
export class ExceptionBell {
  private pending: Offered[] = [];
  private readonly window: BellWindow = { start: -Infinity, sent: 0, summary: null };
  private lastPrune = -Infinity;
  private readonly now: () => number;

  constructor(private readonly deps: ExceptionBellDeps) {
    this.now = deps.now ?? Date.now;
  }

  /** The engine raised these (its drained events): those for the bell wait for the next flush. */
  offer(raised: Iterable<DispatchException>): void {
    const at = this.now();
    for (const exception of raised) if (isBellKind(exception.kind)) this.pending.push({ exception: { ...exception }, offeredAt: at });
  }

  /** Writes what waits (the writer), or keeps the last minute of it for a writer to come. */
  async flush(writer: boolean, fence?: Fence): Promise<void> {
    const now = this.now();
    if (!writer) {
      this.pending = this.pending.filter((p) => p.offeredAt >= now - KEEP_UNWRITTEN_MS);
      return;
    }
    if (!this.pending.length) return this.prune(now, fence);
    const batch = this.pending;
    this.pending = [];
    try {
      await this.ring(
        batch.map((p) => p.exception),
        now,
        fence,
      );
    } catch (err) {
      if (err instanceof LeaseLostError) return;
      // kept for the next tick: the notice rows roll back with the notifications
      this.pending = [...batch, ...this.pending];
      this.deps.log.warn({ err, exceptions: batch.length }, 'dispatch exceptions not rung, kept for the next attempt');
    }
  }

  private async ring(batch: DispatchException[], now: number, fence?: Fence): Promise<void> {
    const unique = [...new Map(batch.map((e) => [`${e.key}|${e.since}`, e])).values()];
    const names = await lookupNames(this.deps.db, {
      vehicles: unique.map((e) => e.vehicleId),
      routes: unique.map((e) => e.routeId),
    });
    // planned on a copy, taken once written: a rolled back transaction leaves the window as it was
    let next = null as BellWindow | null;
    await this.deps.db.transaction(async (tx) => {
      await fence?.(tx);
      const fresh = await this.record(tx, unique);
      if (!fresh.length) return;
      const window: BellWindow = { ...this.window };
      const plan = planBell(
        window,
        fresh.map((e) => e.kind),
        now,
      );
      next = window;
      if (plan.kind === 'each') {
        for (const e of fresh) {
          const vehicle = e.vehicleId === null ? null : (names.vehicles.get(e.vehicleId)?.depotNumber ?? e.vehicleId);
          const route = e.routeId === null ? null : (names.routes.get(e.routeId)?.name ?? `#${e.routeId}`);
          const [, , graph, , race] = (e.runKey ?? e.blockKey)?.split('|') ?? [];
          const run = e.kind === 'run_not_performed' ? (race ?? null) : null;
          await this.deps.notifier.dispatchException(
            { kind: e.kind as BellExceptionKind, vehicle, route, graph: graph ?? null, race: run, text: e.text ?? null },
            tx,
          );
        }
        return;
      }
      const id = await this.deps.notifier.dispatchSummary(plan.counts, tx, plan.id ?? undefined);
      window.summary = { id, lastAt: now, counts: plan.counts };
    });
    if (next) Object.assign(this.window, next);
  }

  /** Records the occurrences; answers those not recorded before (the ones to ring). */
  private async record(tx: Queryable, batch: DispatchException[]): Promise<DispatchException[]> {
    const rows = await tx.query<{ key: string; since: number }>(
      `insert into dispatch.exception_notice (exception_key, since, kind)
       select k, to_timestamp(s / 1000.0), kd from unnest($1::text[], $2::float8[], $3::text[]) as x(k, s, kd)
       on conflict do nothing
       returning exception_key as key, (extract(epoch from since) * 1000)::float8 as since`,
      [batch.map((e) => e.key), batch.map((e) => e.since), batch.map((e) => e.kind)],
    );
    const fresh = new Set(rows.map((r) => `${r.key}|${Math.round(r.since)}`));
    return batch.filter((e) => fresh.has(`${e.key}|${e.since}`));
  }

  private async prune(now: number, fence?: Fence): Promise<void> {
    if (now - this.lastPrune < PRUNE_EVERY_MS) return;
    this.lastPrune = now;
    try {
      await this.deps.db.transaction(async (tx) => {
        await fence?.(tx);
        await tx.query('delete from dispatch.exception_notice where noticed_at < $1', [new Date(now - NOTICE_KEEP_MS).toISOString()]);
      });
    } catch (err) {
      if (!(err instanceof LeaseLostError)) this.deps.log.warn({ err }, 'old dispatch exception notices not deleted');
    }
  }
}
