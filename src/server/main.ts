import { loadConfig } from './config';
import { buildApp } from './app';
import { DEMO_ACCOUNTS } from './db/demo/accounts';
import { guardProcess } from './http/processGuard';

const startedAt = performance.now();
const config = loadConfig();
const app = await buildApp(config);

let closing = false;
async function shutdown(reason: string, exitCode = 0): Promise<void> {
  if (closing) return;
  closing = true;
  app.log.info({ reason }, 'shutting down');
  const timer = setTimeout(() => process.exit(1), 10_000);
  timer.unref();
  const closed = await app.close().then(
    () => true,
    (error: unknown) => {
      app.log.error({ err: error }, 'shutdown failed');
      return false;
    },
  );
  process.exit(closed ? exitCode : 1);
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));
guardProcess(app.log, (reason) => void shutdown(reason, 1));

await app.listen({ port: config.port, host: config.host });
const url = `${config.tls ? 'https' : 'http'}://localhost:${config.port}/`;
const lines = [
  `Консоль запущена: ${url}  (база: ${app.db.engine}${config.databaseUrl ? '' : `, ${config.dataDir}`}; старт ${Math.round(performance.now() - startedAt)} мс)`,
  `API: ${url}api/docs   Полевое приложение: ${url}m/`,
];
if (config.demoData) lines.push(`Демо-учётные записи: ${DEMO_ACCOUNTS.map((a) => `${a.username} / ${a.password}`).join(', ')}`);
process.stdout.write(`${lines.join('\n')}\n`);
