import type { FastifyBaseLogger } from 'fastify';
import type { HistoryFillStatus } from '../../shared/historyFill';
import type { WeekdayPlans } from '../simulator/weekdayPlans';

/**
 * The demo's history fills that run in the background after listen (passenger flow, vehicle work data). They
 * write weeks of rows through the embedded engine, whose WASM heap grows with them and never shrinks: once
 * the last of them ends, the engine is reopened so the server settles as small as on a second start. They
 * share one plan per weekday (`plans`), let go then too.
 */
export class DemoHistory {
  private pending = 0;
  private sealed = false;
  private wrote = false;
  private complete = false;
  /** Each fill's days done of its total, as it reports them. */
  private readonly days = new Map<string, { done: number; total: number }>();
  private readonly started = performance.now();
  /** Resolves when every fill has ended (and the memory they grew is given back). */
  readonly done: Promise<void>;
  private finish!: () => void;

  constructor(
    readonly plans: WeekdayPlans,
    private readonly releaseMemory: () => Promise<void>,
    private readonly log: FastifyBaseLogger,
  ) {
    this.done = new Promise((resolve) => {
      this.finish = resolve;
    });
  }

  /** A fill started; `rows` resolves to how much it wrote (0: the history was already there). */
  track(name: string, rows: Promise<number>): void {
    this.pending += 1;
    rows
      .then((n) => {
        if (n > 0) this.wrote = true;
      })
      .catch((err: unknown) => this.log.error({ err }, `demo history not filled: ${name}`))
      .finally(() => {
        this.pending -= 1;
        void this.settle();
      });
  }

  /** The fill's report of its progress: `done` of `total` days (found already there included). */
  progress(name: string): (done: number, total: number) => void {
    return (done, total) => void this.days.set(name, { done, total });
  }

  /** Days done of all the fills' days; complete once every fill has ended. */
  status(): HistoryFillStatus {
    let [daysDone, daysTotal] = [0, 0];
    for (const { done, total } of this.days.values()) {
      daysDone += done;
      daysTotal += total;
    }
    return { complete: this.complete, daysDone: this.complete ? daysTotal : daysDone, daysTotal };
  }

  /** Every fill has been started: the last one to end settles. */
  seal(): void {
    this.sealed = true;
    void this.settle();
  }

  private async settle(): Promise<void> {
    if (!this.sealed || this.pending > 0) return;
    this.sealed = false; // once
    this.plans.clear();
    this.complete = true;
    if (this.wrote) await this.releaseMemory().catch((err: unknown) => this.log.warn({ err }, 'database memory not released'));
    this.log.info({ ms: Math.round(performance.now() - this.started), released: this.wrote }, 'demo history complete');
    this.finish();
  }
}
