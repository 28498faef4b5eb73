/**
 * Whether an error means "the database cannot be reached right now" (restart, failover, network), as opposed
 * to a fault of the request or of the code. Such requests answer 503 `database_unavailable`: the sender may
 * retry, and nothing was changed (a transaction cut off mid-way is rolled back by the server).
 */
const UNAVAILABLE_SQLSTATES = new Set([
  '57P01', // admin_shutdown: terminating connection due to administrator command (restart, pg_terminate_backend)
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now: the database system is starting up / shutting down
  '53300', // too_many_connections
]);
const UNAVAILABLE_SYSCALL_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
// node-postgres says these in words only (no code): a socket closed under a client, or no client within the wait.
const UNAVAILABLE_MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error and is not queryable',
  'Client was closed and is not queryable',
  'Connection ended unexpectedly',
];

export function isDatabaseUnavailable(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, message, errors } = error as { code?: unknown; message?: unknown; errors?: unknown };
  if (typeof code === 'string' && (UNAVAILABLE_SQLSTATES.has(code) || code.startsWith('08') || UNAVAILABLE_SYSCALL_CODES.has(code)))
    return true;
  if (typeof message === 'string' && UNAVAILABLE_MESSAGES.some((text) => message.startsWith(text))) return true;
  // Connecting to "localhost" tries ::1 and 127.0.0.1: both refusals arrive as one AggregateError.
  return Array.isArray(errors) && errors.length > 0 && errors.every(isDatabaseUnavailable);
}
