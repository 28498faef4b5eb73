import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { isDatabaseUnavailable } from './availability';
import { currentCaller, QueryDroppedError } from './queryCaller';
import { DEFAULT_QUERY_LIMITS, TYPE_PARSERS, type Db, type QueryLimits, type Queryable } from './types';

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
  /** The default and long statement time limits (Db.longRunning). */
  limits?: QueryLimits;
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

/**
 * A PostgreSQL server through a connection pool. Every connection starts with the default statement_timeout,
 * so a query past it is cancelled by the server (57014); a transaction left idle past the long limit is ended
 * by the server too, so no connection can keep one open.
 */
export async function openPostgres(connectionString: string, poolSize = 10, options: ConnectOptions = {}): Promise<Db> {
  const limits = options.limits ?? DEFAULT_QUERY_LIMITS;
  const pool = new pg.Pool({
    connectionString,
    max: poolSize,
    connectionTimeoutMillis: CONNECTION_TIMEOUT_MS,
    statement_timeout: limits.defaultMs,
    idle_in_transaction_session_timeout: limits.longMs,
  });
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
  /** Runs on one pooled connection; a connection whose state cannot be restored is destroyed, not reused. */
  async function withClient<T>(
    use: (client: pg.PoolClient) => Promise<T>,
    restore: (client: pg.PoolClient) => Promise<unknown>,
  ): Promise<T> {
    const client = await pool.connect();
    // A checked-out client has no listener of the pool's: a connection cut between two statements would
    // otherwise be an unhandled 'error' event and end the process. The next statement fails instead.
    const onLost = () => {};
    client.on('error', onLost);
    try {
      return await use(client);
    } finally {
      // On a lost connection the rollback fails too (the server has rolled back): the first error is the one
      // to tell, and the connection is destroyed rather than reused.
      const broken = await restore(client).then(
        () => undefined,
        (error: Error) => error,
      );
      client.off('error', onLost);
      client.release(broken);
    }
  }

  // Admission control: reports and exports (the long-running view) take at most a quarter of the pool at
  // once, the others wait their turn. Five heavy requests at once kept every backend and both cores busy,
  // and a user's session check waited behind them.
  const heavy = admission(Math.max(1, Math.floor(poolSize / 4)));

  /**
   * Runs a statement on `client`; when the caller's client goes away meanwhile, the server cancels it (57014)
   * instead of finishing work no one will read. The connection goes back to the pool only once the cancel
   * has been delivered, so it can never reach the next user's statement.
   */
  async function cancellable<T>(client: pg.PoolClient, signal: AbortSignal | undefined, run: () => Promise<T>): Promise<T> {
    if (!signal) return run();
    let cancelled: Promise<unknown> | undefined;
    const pid = (client as pg.PoolClient & { processID: number | null }).processID;
    const cancel = () => {
      cancelled = pool.query('select pg_cancel_backend($1)', [pid]).catch(() => undefined);
    };
    signal.addEventListener('abort', cancel, { once: true });
    try {
      return await run();
    } finally {
      signal.removeEventListener('abort', cancel);
      await cancelled;
    }
  }

  const setLimit = (client: pg.PoolClient, ms: number, local: boolean) =>
    client.query('select set_config($1, $2, $3)', ['statement_timeout', String(ms), local]);

  function view(limitMs: number, admitted = false): Db {
    const custom = limitMs !== limits.defaultMs;
    const admit = admitted ? heavy : <T>(work: () => Promise<T>) => work();
    /** A query under a limit other than the connections' default: set, run, reset on one connection. */
    const limited = <T>(run: (client: pg.PoolClient) => Promise<T>) =>
      withClient(
        async (client) => {
          await setLimit(client, limitMs, false);
          return run(client);
        },
        (client) => setLimit(client, limits.defaultMs, false),
      );
    const plain = <T>(run: (client: pg.PoolClient) => Promise<T>) => withClient(run, async () => undefined);
    return {
      engine: 'postgres',
      async query<T>(sql: string, params?: unknown[]) {
        const signal = currentCaller()?.signal;
        if (signal?.aborted) throw new QueryDroppedError();
        const onClient = (client: pg.PoolClient) => cancellable(client, signal, () => client.query(sql, params));
        const result = await admit(() => (custom ? limited(onClient) : signal ? plain(onClient) : pool.query(sql, params)));
        return result.rows as T[];
      },
      async exec(sql) {
        await admit(() => (custom ? limited((client) => client.query(sql)) : pool.query(sql)));
      },
      async transaction(work) {
        let open = false;
        return admit(() =>
          withClient(
            async (client) => {
              await client.query('begin');
              open = true;
              if (custom) await setLimit(client, limitMs, true);
              const result = await work(wrapClient(client));
              await client.query('commit');
              open = false;
              return result;
            },
            // Rolled back after a failure or a cancelled statement; if even that fails the connection is destroyed.
            async (client) => {
              if (open) await client.query('rollback');
            },
          ),
        );
      },
      withLimit: (ms) => view(ms, admitted),
      longRunning: () => view(limits.longMs, true),
      // the pool runs several statements at once: a request is not held behind background work
      background: () => view(limitMs, admitted),
      close: () => pool.end(),
    };
  }
  return view(limits.defaultMs);
}

/** At most `slots` pieces of work at once; the rest start in arrival order as slots free up. */
function admission(slots: number): <T>(work: () => Promise<T>) => Promise<T> {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async (work) => {
    if (running >= slots) await new Promise<void>((resolve) => waiting.push(resolve));
    else running += 1;
    try {
      return await work();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else running -= 1;
    }
  };
}
