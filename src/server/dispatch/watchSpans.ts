import type { Queryable } from '../db/types';

/** How often the writer moves its span's end on; dispatch.watched allows for twice this of lag. */
const EXTEND_MS = 60_000;
const LAG_MS = 2 * EXTEND_MS;

const iso = (t: number) => new Date(t).toISOString();

/**
 * The writer's span of watching the fleet (dispatch.watch_span, migration 147): made at its first tick as the
 * writer, its end moved on every minute. A pause longer than the allowed lag (the module switched off, the lease
 * lost and taken back) starts a new span, so the time between is not counted as watched.
 */
export class WatchSpan {
  private id: string | null = null;
  private extendedAt = 0;

  constructor(private readonly db: Queryable) {}

  /** Each tick of a process running the engine; `writer`: it holds the writer's lease (the others keep no span). */
  async keep(now: number, writer: boolean): Promise<void> {
    if (!writer || now - this.extendedAt > LAG_MS) this.id = null;
    if (!writer) return;
    if (this.id === null) {
      const [row] = await this.db.query<{ id: string }>(
        'insert into dispatch.watch_span (started_at, ended_at) values ($1, $1) returning id',
        [iso(now)],
      );
      this.id = row.id;
      this.extendedAt = now;
      return;
    }
    if (now - this.extendedAt < EXTEND_MS) return;
    await this.db.query('update dispatch.watch_span set ended_at = $2 where id = $1', [this.id, iso(now)]);
    this.extendedAt = now;
  }
}

/** A time the live timetable was watching, by the spans read (the rule of dispatch.watched). */
export type Watched = (t: number) => boolean;

/** The spans over [from, to], as a test of one moment (runs judged in code: moved and added runs). */
export async function watchedBetween(db: Queryable, from: number, to: number): Promise<Watched> {
  const spans = (
    await db.query<{ started_at: string | Date; ended_at: string | Date }>(
      'select started_at, ended_at from dispatch.watch_span where ended_at >= $1 and started_at <= $2',
      [iso(from - LAG_MS), iso(to)],
    )
  ).map((s) => ({ start: new Date(s.started_at).getTime(), end: new Date(s.ended_at).getTime() }));
  return (t) => spans.some((s) => s.start <= t && s.end >= t - LAG_MS);
}
