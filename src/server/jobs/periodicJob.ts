import type { FastifyBaseLogger } from 'fastify';
import type { Lease } from './leases';

/**
 * A background pass repeated on a timer, never two at once: when a pass is still running as the next falls
 * due, that one is skipped (a slow database stretches the period instead of piling passes up on the one
 * embedded connection). A failed pass is logged and the next one runs as usual; `stop` waits for the pass
 * under way, so a shutdown never cuts one off. A singleton job (one that must run in one process of several)
 * names its lease: a pass runs only while this process holds it.
 */
export class PeriodicJob {
  private timers: NodeJS.Timeout[] = [];
  private running: Promise<void> | null = null;

  constructor(
    private readonly pass: () => Promise<unknown>,
    private readonly log: FastifyBaseLogger,
    /** The warning logged when a pass fails. */
    private readonly failure: string,
    private readonly lease?: Lease,
  ) {}

  /** A pass every `everyMs`; with `firstInMs`, one more that long after the start (0: at once). */
  start(everyMs: number, firstInMs?: number): void {
    if (this.timers.length) return;
    if (firstInMs === 0) this.runNow();
    else if (firstInMs !== undefined) this.timers.push(setTimeout(() => this.runNow(), firstInMs));
    this.timers.push(setInterval(() => this.runNow(), everyMs));
    for (const timer of this.timers) timer.unref();
  }

  /** A pass now, unless one is running (or another process holds the job's lease). */
  runNow(): void {
    const lease = this.lease;
    if (lease && !lease.held) return;
    if (this.running) return;
    const startedAt = Date.now();
    this.running = this.pass()
      .then(
        () => undefined,
        (err: unknown) => this.log.warn({ err }, this.failure),
      )
      .finally(() => {
        this.running = null;
        // which process ran which singleton pass when: what a failover is checked by
        if (lease) this.log.debug({ lease: lease.name, generation: lease.generation, startedAt, endedAt: Date.now() }, 'singleton pass');
      });
  }

  async stop(): Promise<void> {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers = [];
    await this.running;
  }
}
