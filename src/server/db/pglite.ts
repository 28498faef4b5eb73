import { Worker } from 'node:worker_threads';
import { entryPoint } from '../entryPoints';
import { DEFAULT_QUERY_LIMITS, QueryTimeoutError, type Db, type QueryLimits, type Queryable } from './types';
import type { WorkerEvent, WorkerReply, WorkerRequest, WorkerStart } from './pgliteProtocol';
import { currentCaller, QueryDroppedError } from './queryCaller';

/**
 * After a query of other work than background work, the background waits this long before it takes the engine:
 * a request's next query (the server's own work between two, a password's hash, takes some milliseconds) then
 * runs at once instead of behind a background statement of seconds.
 */
const BACKGROUND_GRACE_MS = 75;
/**
 * A foreground query queued this long goes before every fresher one, whatever its weight or its caller's share:
 * the fair order must never starve a report behind a steady stream of light queries.
 */
const MAX_WAIT_MS = 2000;

/**
 * How fast a caller's use of the engine is forgotten (its half-life): a user who ran seconds of queries goes
 * after the others for about this long, then is even with them again.
 */
const USAGE_HALF_LIFE_MS = 10_000;

type Operation = { op: 'query'; sql: string; params?: unknown[] } | { op: 'exec'; sql: string } | { op: 'dump' } | { op: 'close' };

/** A transaction as the scheduler sees it: its queries run while it holds the engine. */
interface TransactionState {
  ended: boolean;
  /** Opened by background work (Db.background): its queries, commit and rollback are background work too. */
  background: boolean;
  /** Set when a query of it ran past its limit or it stayed idle too long: its further queries fail. */
  timedOut?: QueryTimeoutError;
  timer?: NodeJS.Timeout;
}

interface Job {
  operation: Operation;
  limitMs: number;
  tx?: TransactionState;
  /** `begin` takes the engine for tx; `commit`/`rollback` give it back; `recycle` closes the engine to open it anew. */
  role?: 'begin' | 'end' | 'recycle';
  /** Work no one waits for (Db.background): it runs when no other query is queued. */
  background: boolean;
  /** Reports and exports (Db.longRunning): queued after other work of the same caller's share. */
  heavy: boolean;
  /** Whose share of the engine the query counts against (QueryCaller.key; the server's own work: ''). */
  caller: string;
  /** When it was queued (Date.now()): a query waiting past MAX_WAIT_MS goes before any fresher one. */
  queuedAt: number;
  /** Aborted when the caller's client went away: the query is dropped if it has not started. */
  signal?: AbortSignal;
  /** Takes the job out of the queue when its signal aborts. */
  drop?: () => void;
  resolve(reply: WorkerReply): void;
  reject(error: Error): void;
}

/** Where a query belongs: its transaction and role in it, and whether it is background work outside one. */
type JobScope = Partial<Pick<Job, 'tx' | 'role' | 'background' | 'heavy'>>;

export type PgliteDb = Db & { dumpDataDir(): Promise<Blob> };

/** Milliseconds each caller ran on the engine lately, halved every USAGE_HALF_LIFE_MS. */
class EngineUsage {
  private readonly used = new Map<string, { ms: number; at: number }>();

  of(caller: string, now: number): number {
    const entry = this.used.get(caller);
    return entry ? entry.ms * 0.5 ** ((now - entry.at) / USAGE_HALF_LIFE_MS) : 0;
  }

  add(caller: string, ms: number): void {
    const now = Date.now();
    this.used.set(caller, { ms: this.of(caller, now) + ms, at: now });
    // Callers idle for minutes count as nothing: forgotten, so the map stays as small as the active users.
    if (this.used.size > 1000) for (const [key, entry] of this.used) if (now - entry.at > 20 * USAGE_HALF_LIFE_MS) this.used.delete(key);
  }
}

/**
 * PostgreSQL's error as thrown by PGlite, with its fields (code, detail, constraint…) restored, so error
 * handling reads the same fields on both engines.
 */
function restoreError(fields: Record<string, string>): Error {
  return Object.assign(new Error(fields.message), fields);
}

/**
 * The embedded engine: PGlite with PostGIS in a worker thread, persisted in a folder (or in memory when dir is
 * undefined), optionally started from a dumped data folder (tests clone a prepared database that way).
 *
 * The worker runs one query at a time; this side queues them, lets a transaction's queries through while it
 * holds the engine, and times every query. PGlite cannot cancel a running statement, so at a limit the
 * worker is terminated and a new one opened on the same folder (PostgreSQL's WAL recovery drops what the
 * stopped statement and its transaction wrote); the queued queries, never started, then run on it. An
 * in-memory database restarts from the image it was opened with: what was written since is lost, which is
 * why only tests run in memory. Background work (Db.background: the demo history's fill) runs only when no
 * other query waits, and a moment after the last one: a login during a fill waits for at most the one
 * background statement running, not for every one queued before it.
 *
 * Among the other queries, the engine is shared between callers (the request's user, db/queryCaller.ts): the
 * next query is one of the caller that used the engine least lately (milliseconds run, halved every
 * USAGE_HALF_LIFE_MS), reports' and exports' queries (Db.longRunning) after every other query, each caller's
 * own queries in their order; a query queued over MAX_WAIT_MS goes first, so nothing starves. One user's five
 * long searches then delay another user's request by at most the one statement running, not by all five. A query
 * whose client went away is dropped before it runs.
 */
export async function openPglite(
  dir?: string,
  loadDataDir?: Blob,
  limits: QueryLimits = DEFAULT_QUERY_LIMITS,
  /** PostgreSQL settings for the engine (`name=value`), e.g. a smaller shared_buffers. */
  settings: string[] = [],
): Promise<PgliteDb> {
  const image = loadDataDir ? await loadDataDir.arrayBuffer() : undefined;
  const queue: Job[] = [];
  let worker: Worker | undefined;
  let running: Job | undefined;
  let runningTimer: NodeJS.Timeout | undefined;
  let holder: TransactionState | undefined;
  let nextId = 1;
  let closed = false;
  /** Set when a restart failed: nothing can run any more. */
  let broken: Error | undefined;
  /** The worker whose engine closed for a recycle, until it is terminated. */
  let retired: Worker | undefined;
  /** When a query of other work than background work last ended, and the timer that waits out its grace. */
  let foregroundEndedAt = 0;
  let graceTimer: NodeJS.Timeout | undefined;
  const usage = new EngineUsage();
  let runningSince = 0;

  function startWorker(withImage: boolean): Promise<void> {
    // A file-backed folder already holds the image after the first start; memory starts from it each time.
    const start: WorkerStart = { dir, loadDataDir: withImage || !dir ? image?.slice(0) : undefined, settings };
    const created = new Worker(entryPoint('pgliteWorker').url, { workerData: start });
    return new Promise<void>((resolve, reject) => {
      const onStartError = (error: Error) => reject(error);
      created.once('error', onStartError);
      created.on('message', (event: WorkerEvent) => {
        if ('ready' in event) {
          created.off('error', onStartError);
          created.on('error', (error) => void crashed(created, error));
          created.on('exit', (code) => void crashed(created, new Error(`database worker exited (${code})`)));
          worker = created;
          resolve();
          return;
        }
        settle(event);
      });
    });
  }

  /** Terminates the worker and opens a new one on the same data; the queue resumes on it. */
  async function restart(old: Worker | undefined = worker): Promise<void> {
    worker = undefined;
    if (holder) holder.ended = true; // the stopped worker's open transaction is gone with it
    holder = undefined;
    if (old) {
      old.removeAllListeners('exit');
      old.removeAllListeners('error');
      await old.terminate();
    }
    try {
      await startWorker(false);
    } catch (error) {
      broken = error instanceof Error ? error : new Error(String(error));
      for (const job of queue.splice(0)) job.reject(broken);
      throw broken;
    }
    pump();
  }

  async function crashed(which: Worker, error: Error): Promise<void> {
    if (which !== worker || closed) return;
    failRunning(error);
    await restart().catch(() => {}); // the queue has been failed with the reason
  }

  function failRunning(error: Error): void {
    const job = running;
    running = undefined;
    clearTimeout(runningTimer);
    if (!job) return;
    if (job.tx) job.tx.ended = true;
    job.reject(error);
  }

  function settle(reply: WorkerReply): void {
    const job = running;
    if (!job) return;
    running = undefined;
    clearTimeout(runningTimer);
    usage.add(job.caller, Date.now() - runningSince);
    if (!job.background) foregroundEndedAt = Date.now();
    if (job.tx && (job.role === 'end' || (job.role === 'begin' && 'error' in reply))) {
      job.tx.ended = true;
      holder = undefined;
    }
    // Like PostgreSQL's idle_in_transaction_session_timeout: a transaction may not hold the engine idle for long.
    if (job.tx && !job.tx.ended) {
      const tx = job.tx;
      tx.timer = setTimeout(() => transactionIdleTooLong(tx), limits.longMs);
    }
    // The engine closed itself to be opened anew: nothing more goes to this worker.
    if (job.role === 'recycle') {
      retired = worker;
      worker = undefined;
    }
    job.resolve(reply);
    // On the next turn of the event loop: a request's next query, asked as soon as this one's answer is read,
    // is then queued and takes its caller's turn instead of the next caller's long statement.
    setImmediate(pump);
  }

  /**
   * Which queued query runs next: the holder's while a transaction is open, else the first of other work than
   * background work by its caller's turn (goesFirst), else the oldest background one once the grace after the
   * last other query is over (-1: none now).
   */
  function nextJob(): number {
    if (holder) return queue.findIndex((job) => job.tx === holder);
    let foreground = -1;
    const now = Date.now();
    for (let index = 0; index < queue.length; index++) {
      const job = queue[index];
      if (!job.background && (foreground < 0 || goesFirst(job, queue[foreground], now))) foreground = index;
    }
    if (foreground >= 0 || !queue.length) return foreground;
    const grace = foregroundEndedAt + BACKGROUND_GRACE_MS - Date.now();
    if (grace <= 0) return 0;
    graceTimer ??= setTimeout(() => {
      graceTimer = undefined;
      pump();
    }, grace);
    return -1;
  }

  /** A query waiting too long first; light work before heavy work; then the caller that used the engine least lately; else the older. */
  function goesFirst(job: Job, than: Job, now: number): boolean {
    const aged = now - job.queuedAt > MAX_WAIT_MS;
    const thanAged = now - than.queuedAt > MAX_WAIT_MS;
    if (aged || thanAged) return aged && (!thanAged || job.queuedAt < than.queuedAt);
    if (job.heavy !== than.heavy) return than.heavy;
    return job.caller !== than.caller && usage.of(job.caller, now) < usage.of(than.caller, now);
  }

  /** Sends the next query the engine may run (nextJob). */
  function pump(): void {
    if (running || !worker) return;
    const index = nextJob();
    if (index < 0) return;
    const [job] = queue.splice(index, 1);
    // A transaction stopped by its limit or by a crashed worker: its remaining queries must not run outside it.
    if (job.tx && job.role !== 'begin' && (job.tx.ended || (job.tx.timedOut && job.role !== 'end'))) {
      job.reject(job.tx.timedOut ?? new Error('transaction ended by a restart of the database worker'));
      pump();
      return;
    }
    if (job.role === 'begin') holder = job.tx;
    clearTimeout(job.tx?.timer);
    if (job.drop) job.signal?.removeEventListener('abort', job.drop);
    running = job;
    runningSince = Date.now();
    const id = nextId++;
    worker.postMessage({ id, ...job.operation } as WorkerRequest);
    runningTimer = setTimeout(() => void queryTimedOut(job), job.limitMs);
  }

  async function queryTimedOut(job: Job): Promise<void> {
    if (running !== job) return;
    const error = new QueryTimeoutError(job.limitMs);
    if (job.tx) job.tx.timedOut = error;
    failRunning(error);
    await restart().catch(() => {}); // the queue has been failed with the reason
  }

  /** A transaction that kept the engine waiting on the main thread's work past the long limit: rolled back. */
  function transactionIdleTooLong(tx: TransactionState): void {
    if (tx.ended || tx.timedOut || running?.tx === tx) return;
    tx.timedOut = new QueryTimeoutError(limits.longMs);
    queue.unshift({
      operation: { op: 'exec', sql: 'rollback' },
      limitMs: limits.defaultMs,
      tx,
      role: 'end',
      background: tx.background,
      heavy: false,
      caller: '',
      queuedAt: Date.now(),
      resolve: () => {},
      reject: () => {},
    });
    pump();
  }

  function submit(
    operation: Operation,
    limitMs: number,
    { tx, role, background = tx?.background ?? false, heavy = false }: JobScope = {},
  ): Promise<WorkerReply> {
    if (closed || broken) return Promise.reject(broken ?? new Error('database closed'));
    if (tx?.timedOut && role !== 'end') return Promise.reject(tx.timedOut);
    if (tx?.ended && role !== 'begin') return Promise.reject(new Error('transaction already ended'));
    const caller = currentCaller();
    // Inside a transaction only its begin may be dropped: its other statements and its end must reach the engine.
    const signal = !tx || role === 'begin' ? caller?.signal : undefined;
    if (signal?.aborted) return Promise.reject(new QueryDroppedError());
    return new Promise<WorkerReply>((resolve, reject) => {
      const job: Job = {
        operation,
        limitMs,
        tx,
        role,
        background,
        heavy,
        caller: caller?.key() ?? '',
        queuedAt: Date.now(),
        signal,
        resolve,
        reject,
      };
      if (signal) {
        job.drop = () => {
          const index = queue.indexOf(job);
          if (index < 0) return;
          queue.splice(index, 1);
          reject(new QueryDroppedError());
        };
        signal.addEventListener('abort', job.drop, { once: true });
      }
      queue.push(job);
      pump();
    });
  }

  async function run(operation: Operation, limitMs: number, scope?: JobScope): Promise<WorkerReply> {
    const reply = await submit(operation, limitMs, scope);
    if ('error' in reply) throw restoreError(reply.error);
    return reply;
  }

  const rowsOf = (reply: WorkerReply) => ('rows' in reply ? reply.rows : []);

  function view(limitMs: number, background = false, heavy = false): PgliteDb {
    const queryable = (tx?: TransactionState): Queryable => ({
      async query<T>(sql: string, params?: unknown[]) {
        return rowsOf(await run({ op: 'query', sql, params }, limitMs, { tx, background, heavy })) as T[];
      },
    });
    return {
      engine: 'pglite',
      ...queryable(),
      async exec(sql) {
        await run({ op: 'exec', sql }, limitMs, { background, heavy });
      },
      async transaction(work) {
        const tx: TransactionState = { ended: false, background };
        await run({ op: 'exec', sql: 'begin' }, limitMs, { tx, role: 'begin', heavy });
        let result;
        try {
          result = await work(queryable(tx));
        } catch (error) {
          if (!tx.ended) await run({ op: 'exec', sql: 'rollback' }, limitMs, { tx, role: 'end' }).catch(() => {});
          throw error;
        }
        if (tx.timedOut) throw tx.timedOut;
        await run({ op: 'exec', sql: 'commit' }, limitMs, { tx, role: 'end' });
        return result;
      },
      withLimit: (ms) => view(ms, background, heavy),
      longRunning: () => view(limits.longMs, background, true),
      background: () => view(limitMs, true, heavy),
      // The WASM heap only grows: after bulk work the engine is closed cleanly at its turn in the queue (never
      // inside a transaction) and opened anew on its folder, the queries behind it waiting meanwhile. In memory
      // a restart would lose the data: only a folder-backed database gives its heap back.
      async releaseMemory() {
        if (!dir) return;
        await run({ op: 'close' }, limits.longMs, { role: 'recycle' });
        await restart(retired);
        retired = undefined;
      },
      async close() {
        if (closed) return;
        await submit({ op: 'close' }, limitMs);
        closed = true;
        clearTimeout(graceTimer);
        const last = worker;
        worker = undefined;
        last?.removeAllListeners('exit');
        await last?.terminate();
      },
      async dumpDataDir() {
        const reply = await run({ op: 'dump' }, limits.longMs);
        if (!('dump' in reply)) throw new Error('no dump from the database worker');
        return new Blob([reply.dump]);
      },
    };
  }

  await startWorker(true);
  return view(limits.defaultMs);
}
