import type { FastifyInstance } from 'fastify';
import type { Queryable } from '../db/types';

const BATCH = 10_000;
const HOUR_MS = 3_600_000;

/**
 * Deletes user-action rows older than the retention period, a batch at a time so that a first sweep over
 * years of rows never holds one huge transaction. Returns the number of rows deleted.
 */
export async function sweepUserActions(db: Queryable, retentionDays: number): Promise<number> {
  let total = 0;
  for (;;) {
    const [{ n }] = await db.query<{ n: number }>(
      `with gone as (
         delete from app.user_action where id in (
           select id from app.user_action where at < now() - make_interval(days => $1) limit ${BATCH})
         returning 1)
       select count(*)::int as n from gone`,
      [retentionDays],
    );
    total += n;
    if (n < BATCH) return total;
  }
}

/**
 * The hourly sweep (settings.journals.retentionDays), by one process of several (its lease); the timer never
 * keeps the process alive.
 */
export function startRetentionSweep(app: FastifyInstance): void {
  const lease = app.leases.lease('journals.retention');
  const run = async () => {
    if (!lease.held) return;
    const { journals } = await app.settings.get();
    const deleted = await sweepUserActions(app.db, journals.retentionDays);
    if (deleted) app.log.info({ deleted, retentionDays: journals.retentionDays }, 'user-action journal swept');
  };
  const timer = setInterval(() => void run().catch((err) => app.log.warn({ err }, 'user-action journal sweep failed')), HOUR_MS);
  timer.unref();
  app.addHook('onClose', async () => clearInterval(timer));
}
