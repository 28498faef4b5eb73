import type { FastifyBaseLogger } from 'fastify';
import { PeriodicJob } from '../jobs/periodicJob';
import type { Db } from './types';

/** How often the embedded engine's tables are looked over (EMBEDDED_UPKEEP_MS). */
const UPKEEP_EVERY_MS = 5 * 60_000;
/** The first look, once a start's own work (migrations, a demo load, the first logins) is done. */
const FIRST_PASS_AFTER_MS = 20_000;
/** PostgreSQL's autovacuum thresholds: rows changed since the last analyze (dead rows for a vacuum) over base + scale × rows. */
const ANALYZE_BASE = 500;
const ANALYZE_SCALE = 0.1;
const VACUUM_BASE = 1000;
const VACUUM_SCALE = 0.2;
/** PostgreSQL's code of a table that does not exist. */
const UNDEFINED_TABLE = '42P01';

interface TableState {
  name: string;
  rows: number;
  changed: number;
  dead: number;
}

/** What a table needs now: an analyze when it was never analyzed or changed much since, a vacuum when its dead rows piled up. */
export function upkeepOf(table: TableState): { analyze: boolean; vacuum: boolean } {
  const rows = Math.max(table.rows, 0);
  return {
    analyze: table.rows < 0 || table.changed > ANALYZE_BASE + ANALYZE_SCALE * rows,
    vacuum: table.dead > VACUUM_BASE + VACUUM_SCALE * rows,
  };
}

/**
 * The embedded engine is PostgreSQL without its autovacuum: nothing analyzes a table after bulk writes (a
 * city's 280,000 schedule times were planned as a table never analyzed, and a search that an index answers in a
 * millisecond scanned for one), and nothing vacuums. This pass does what autovacuum would, one table per
 * statement in the background lane, so a person's query waits for at most one of them. A table's change
 * counters start from zero with each start of the engine; a table never analyzed is analyzed at the first pass.
 * PostgreSQL servers run their own autovacuum: there this does nothing.
 */
export class EmbeddedUpkeep {
  private readonly job: PeriodicJob;

  constructor(
    private readonly db: Db,
    log: FastifyBaseLogger,
  ) {
    this.job = new PeriodicJob(() => this.pass(), log, 'embedded database upkeep failed');
  }

  start(everyMs = UPKEEP_EVERY_MS): void {
    if (this.db.engine === 'pglite') this.job.start(everyMs, FIRST_PASS_AFTER_MS);
  }

  stop(): Promise<void> {
    return this.job.stop();
  }

  /** Analyzes and vacuums the tables that need it now; returns what it did, as `analyze t` / `vacuum t`. */
  async pass(): Promise<string[]> {
    // The engine publishes its change counters at most once a second: what was written just now counts too.
    await this.db.query('select pg_stat_force_next_flush()');
    const tables = await this.db.query<TableState>(
      `select format('%I.%I', s.schemaname, s.relname) as name, c.reltuples::float8 as rows,
              s.n_mod_since_analyze::float8 as changed, s.n_dead_tup::float8 as dead
         from pg_stat_user_tables s join pg_class c on c.oid = s.relid
        where c.relkind = 'r'
        order by s.schemaname, s.relname`,
    );
    const done: string[] = [];
    for (const table of tables) {
      const { analyze, vacuum } = upkeepOf(table);
      if (!analyze && !vacuum) continue;
      const statement = vacuum ? `vacuum${analyze ? ' (analyze)' : ''} ${table.name}` : `analyze ${table.name}`;
      try {
        await this.db.exec(statement);
      } catch (err) {
        // A day partition dropped by its retention since the list was read: nothing to look after.
        if ((err as { code?: unknown }).code === UNDEFINED_TABLE) continue;
        throw err;
      }
      done.push(statement);
    }
    return done;
  }
}
