import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { isDatabaseUnavailable } from './availability';
import { TYPE_PARSERS, type Db, type Queryable } from './types';

for (const [oid, parse] of Object.entries(TYPE_PARSERS)) pg.types.setTypeParser(Number(oid), parse);

/** COPY input in chunks of about 256 KB: few stream writes, bounded memory. */
function* chunksOf(lines: readonly string[]): Generator<string> {
  let chunk = '';
  for (const line of lines) {
    chunk += line;
    if (chunk.length >= 262_144) {
      yield chunk;
      chunk = '';
    }
  }
  if (chunk) yield chunk;
}

export interface ConnectOptions {
  /** How long to wait for the server at start (a depot server boots PostgreSQL and us together), seconds. */
  connectTimeoutS?: number;
  /** Told once per wait, and when the server answers after one. */
  log?: { warn(details: object, message: string): void; info(details: object, message: string): void };
}

/** A new connection (or a free pooled one) taking longer than this fails the request with 503, not a hang. */
const CONNECTION_TIMEOUT_MS = 10_000;

/**
 * Waits until the server accepts a query: retried with a doubling pause (0.25 s up to 5 s) while it is down or
 * starting up, for at most `timeoutS`; any other error (bad password, no such database) fails at once.
 */
async function waitForServer(pool: pg.Pool, timeoutS: number, log: ConnectOptions['log']): Promise<void> {
  const deadline = Date.now() + timeoutS * 1000;
  let pauseMs = 250;
  let waitingSince: number | undefined;
  for (;;) {
    try {
      await pool.query('select 1');
      if (waitingSince !== undefined) log?.info({ waitedMs: Date.now() - waitingSince }, 'PostgreSQL is up');
      return;
    } catch (error) {
      if (!isDatabaseUnavailable(error) || Date.now() + pauseMs > deadline) throw error;
      if (waitingSince === undefined) {
        waitingSince = Date.now();
        log?.warn({ err: error, timeoutS }, 'PostgreSQL not reachable yet: waiting for it');
      }
      await new Promise((resolve) => setTimeout(resolve, pauseMs));
      pauseMs = Math.min(pauseMs * 2, 5000);
    }
  }
}

/** A PostgreSQL server through a connection pool. */
export async function openPostgres(connectionString: string, poolSize = 10, options: ConnectOptions = {}): Promise<Db> {
  const pool = new pg.Pool({ connectionString, max: poolSize, connectionTimeoutMillis: CONNECTION_TIMEOUT_MS });
  // An idle connection the server drops (restart, failover) is removed from the pool and replaced by the next
  // request's new one: it must cost one reconnect, not the process.
  pool.on('error', (error) => options.log?.warn({ err: error }, 'PostgreSQL connection lost: it will be replaced'));
  await waitForServer(pool, options.connectTimeoutS ?? 0, options.log);
  const wrap = (target: pg.Pool | pg.PoolClient): Queryable => ({
    async query<T>(sql: string, params?: unknown[]) {
      return (await target.query(sql, params as unknown[])).rows as T[];
    },
  });
  const wrapClient = (client: pg.PoolClient): Queryable => ({
    ...wrap(client),
    async copyFrom(sql, lines) {
      const stream = client.query(copyFrom(sql));
      await pipeline(Readable.from(chunksOf(lines)), stream);
    },
  });
  return {
    engine: 'postgres',
    ...wrap(pool),
    async exec(sql) {
      await pool.query(sql);
    },
    async transaction(work) {
      const client = await pool.connect();
      // A checked-out client has no listener of the pool's: a connection cut between two statements of the
      // transaction would otherwise be an unhandled 'error' event and end the process. The next statement fails.
      const onLost = () => {};
      client.on('error', onLost);
      try {
        await client.query('begin');
        const result = await work(wrapClient(client));
        await client.query('commit');
        return result;
      } catch (error) {
        // On a lost connection the rollback fails too (the server has rolled back): the first error is the one to tell.
        await client.query('rollback').catch(() => undefined);
        throw error;
      } finally {
        client.off('error', onLost);
        client.release();
      }
    },
    close: () => pool.end(),
  };
}
