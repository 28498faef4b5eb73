import type { FastifyBaseLogger } from 'fastify';

/**
 * The process's last safety net (every export, job and stream handles its own failures first):
 * - a promise rejected with no handler is a fault of the code that made it, but nothing was left half-done
 *   by a throw: it is logged with its stack and the console, the API, EGTS ingestion and the simulator keep
 *   running;
 * - an exception thrown out of a callback may have left any state half-changed, so serving on is not safe:
 *   it is logged and `stop` shuts the server down in order (exit status 1, for the service manager to
 *   restart it).
 */
export function guardProcess(log: FastifyBaseLogger, stop: (reason: string) => void): void {
  process.on('unhandledRejection', (reason) => {
    log.error({ err: reason }, 'unhandled promise rejection (a fault: logged, the server keeps serving)');
  });
  process.on('uncaughtException', (error) => {
    log.fatal({ err: error }, 'uncaught exception: shutting down');
    stop('uncaughtException');
  });
}
