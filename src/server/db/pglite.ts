import { Worker } from 'node:worker_threads';
import { entryPoint } from '../entryPoints';
import { DEFAULT_QUERY_LIMITS, QueryTimeoutError, type Db, type QueryLimits, type Queryable } from './types';
import type { WorkerEvent, WorkerReply, WorkerRequest, WorkerStart } from './pgliteProtocol';

/**
 * After a query of other work than background work, the background waits this long before it takes the engine:
 * a request's next query (the server's own work between two, a password's hash, takes some milliseconds) then
 * runs at once instead of behind a background statement of seconds.
 */
const BACKGROUND_GRACE_MS = 75;

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
  resolve(reply: WorkerReply): void;
  reject(error: Error): void;
}

/** Where a query belongs: its transaction and role in it, and whether it is background work outside one. */
type JobScope = Partial<Pick<Job, 'tx' | 'role' | 'background'>>;

export type PgliteDb = Db & { dumpDataDir(): Promise<Blob> };

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
    pump();
  }

  /**
   * Which queued query runs next: the holder's while a transaction is open, else the oldest of other work than
   * background work, else the oldest background one once the grace after the last other query is over (-1:
   * none now).
   */
  function nextJob(): number {
    if (holder) return queue.findIndex((job) => job.tx === holder);
    const foreground = queue.findIndex((job) => !job.background);
    if (foreground >= 0 || !queue.length) return foreground;
    const grace = foregroundEndedAt + BACKGROUND_GRACE_MS - Date.now();
    if (grace <= 0) return 0;
    graceTimer ??= setTimeout(() => {
      graceTimer = undefined;
      pump();
    }, grace);
    return -1;
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
    running = job;
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
    queue.unshift({ operation: { op: 'exec', sql: 'rollback' }, limitMs: limits.defaultMs, tx, role: 'end', background: tx.background, resolve: () => {}, reject: () => {} });
    pump();
  }

  function submit(operation: Operation, limitMs: number, { tx, role, background = tx?.background ?? false }: JobScope = {}): Promise<WorkerReply> {
    if (closed || broken) return Promise.reject(broken ?? new Error('database closed'));
    if (tx?.timedOut && role !== 'end') return Promise.reject(tx.timedOut);
    if (tx?.ended && role !== 'begin') return Promise.reject(new Error('transaction already ended'));
    return new Promise<WorkerReply>((resolve, reject) => {
      queue.push({ operation, limitMs, tx, role, background, resolve, reject });
      pump();
    });
  }

  async function run(operation: Operation, limitMs: number, scope?: JobScope): Promise<WorkerReply> {
    const reply = await submit(operation, limitMs, scope);
    if ('error' in reply) throw restoreError(reply.error);
    return reply;
  }

  const rowsOf = (reply: WorkerReply) => ('rows' in reply ? reply.rows : []);

  function view(limitMs: number, background = false): PgliteDb {
    const queryable = (tx?: TransactionState): Queryable => ({
      async query<T>(sql: string, params?: unknown[]) {
        return rowsOf(await run({ op: 'query', sql, params }, limitMs, { tx, background })) as T[];
      },
    });
    return {
      engine: 'pglite',
      ...queryable(),
      async exec(sql) {
        await run({ op: 'exec', sql }, limitMs, { background });
      },
      async transaction(work) {
        const tx: TransactionState = { ended: false, background };
        await run({ op: 'exec', sql: 'begin' }, limitMs, { tx, role: 'begin' });
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
      withLimit: (ms) => view(ms, background),
      longRunning: () => view(limits.longMs, background),
      background: () => view(limitMs, true),
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
