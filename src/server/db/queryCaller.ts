import { AsyncLocalStorage } from 'node:async_hooks';
import { QUERY_CANCELED } from './types';

/**
 * Who the queries being run are for, carried with the request's asynchronous work (AsyncLocalStorage), so the
 * database layer sees it without every call site passing it on. The embedded engine takes the queued queries
 * of the callers that used it least first, and drops the queries of a caller whose client went away.
 */
export interface QueryCaller {
  /** The user, or the client's address before a login: whose share of the engine a query counts against. */
  key(): string;
  /** Aborted when the client went away before its answer: its queries not yet started are dropped. */
  readonly signal: AbortSignal;
}

const callers = new AsyncLocalStorage<QueryCaller>();

/** The caller of the work running now; undefined for the server's own work (timers, the track writer). */
export const currentCaller = (): QueryCaller | undefined => callers.getStore();

export function runAsCaller<T>(caller: QueryCaller, work: () => T): T {
  return callers.run(caller, work);
}

/**
 * Runs work as the server's own, outside the caller of the request that started it: work that outlives its
 * request (a background import, a shared writer's batch, a periodic job started lazily) must neither count
 * against that user's share nor be dropped when that client goes away.
 */
export function runAsServer<T>(work: () => T): T {
  return callers.exit(work);
}

/** A query dropped before it ran: its client went away. PostgreSQL's code of a cancelled statement. */
export class QueryDroppedError extends Error {
  readonly code = QUERY_CANCELED;
  constructor() {
    super('canceling statement due to user request (the client went away)');
  }
}
