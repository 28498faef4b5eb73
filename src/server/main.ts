import { loadConfig } from './config';
import { buildApp } from './app';
import { DEMO_ACCOUNTS } from './db/demo/accounts';

const startedAt = performance.now();
const config = loadConfig();
const app = await buildApp(config);

let closing = false;
async function shutdown(signal: string): Promise<void> {
  if (closing) return;
  closing = true;
  app.log.info({ signal }, 'shutting down');
  const timer = setTimeout(() => process.exit(1), 10_000);
  timer.unref();
  await app.close();
  process.exit(0);
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));

await app.listen({ port: config.port, host: config.host });
const url = `${config.tls ? 'https' : 'http'}://localhost:${config.port}/`;
const lines = [
  `Консоль запущена: ${url}  (база: ${app.db.engine}${config.databaseUrl ? '' : `, ${config.dataDir}`}; старт ${Math.round(performance.now() - startedAt)} мс)`,
  `API: ${url}api/docs   Полевое приложение: ${url}m/`,
];
if (config.demoData) lines.push(`Демо-учётные записи: ${DEMO_ACCOUNTS.map((a) => `${a.username} / ${a.password}`).join(', ')}`);
process.stdout.write(`${lines.join('\n')}\n`);
