// `npm run cluster`: several server processes of one installation on this machine behind HAProxy, on PostgreSQL
// and Redis (docs/deployment.md, «Behind HAProxy»). It builds as `npm start` does, starts CLUSTER_PROCESSES
// processes on the ports after PORT, then HAProxy on PORT (and EGTS_PORT) with the configuration written for
// them; SIGTERM or Ctrl+C stops them all gracefully. Its own variables are declared in
// src/server/configuration/cluster.ts.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join, resolve } from 'node:path';
import { haproxyConfig, localLayout } from './haproxyConfig.mjs';
import { SERVER_NODE_ARGS, serverEnv } from './serverLaunch.mjs';

const env = process.env;
const setting = (value, fallback) => (value?.trim() ? value.trim() : fallback);
const fail = (message) => {
  console.error(`npm run cluster: ${message}`);
  process.exit(2);
};

const databaseUrl = setting(env.DATABASE_URL, '');
if (!/^postgres(ql)?:\/\//.test(databaseUrl))
  fail('DATABASE_URL must name a PostgreSQL database (postgres://user@host:5432/db): processes share it');
const count = Math.max(1, Math.round(Number(setting(env.CLUSTER_PROCESSES, '2')) || 2));
const port = Number(setting(env.PORT, '3000'));
const egtsPort = setting(env.EGTS_ENABLED, 'true') === 'false' ? 0 : Number(setting(env.EGTS_PORT, '5162'));
if (!Number.isInteger(port) || !Number.isInteger(egtsPort)) fail('PORT and EGTS_PORT must be port numbers');
const busUrl = setting(env.BUS_URL, 'redis://127.0.0.1:6379');
const dataDir = resolve(setting(env.DATA_DIR, './data'));
const haproxyProgram = setting(env.CLUSTER_HAPROXY, 'haproxy');
const CONFIG = 'dist/cluster/haproxy.cfg';

// ---------------------------------------------------------------- build, as `npm start` does
const build = spawnSync(process.execPath, ['scripts/start.mjs'], { stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);

const layout = localLayout({ count, port, egtsPort, host: setting(env.HOST, '0.0.0.0') });
mkdirSync('dist/cluster', { recursive: true });
writeFileSync(CONFIG, haproxyConfig(layout));
const check = spawnSync(haproxyProgram, ['-c', '-q', '-f', CONFIG], { stdio: 'inherit' });
if (check.error)
  fail(
    `HAProxy is not available (${haproxyProgram}: ${check.error.message}); install it (apt-get install haproxy) or name it in CLUSTER_HAPROXY`,
  );
if (check.status !== 0) fail(`HAProxy refused ${CONFIG}`);

// ---------------------------------------------------------------- processes
let stopping = false;
/** @type {{ name: string, port: number, child: import('node:child_process').ChildProcess, exited: Promise<void> }[]} */
const servers = [];
/** @type {import('node:child_process').ChildProcess | undefined} */
let haproxy;

/** Passes a child's output on, each line headed by its name. */
function relay(name, child) {
  for (const [stream, out] of [
    [child.stdout, process.stdout],
    [child.stderr, process.stderr],
  ]) {
    let rest = '';
    stream.on('data', (chunk) => {
      const lines = (rest + chunk.toString()).split('\n');
      rest = lines.pop() ?? '';
      for (const line of lines) out.write(`[${name}] ${line}\n`);
    });
  }
}

/** Starts one server process; resolves once it listens (its start banner), rejects if it exits first. */
function startServer({ name, port: serverPort, egtsPort: serverEgtsPort }) {
  const child = spawn(process.execPath, [...SERVER_NODE_ARGS, 'dist/server/main.mjs'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: serverEnv({
      ...env,
      DATABASE_URL: databaseUrl,
      BUS_URL: busUrl,
      PORT: String(serverPort),
      HOST: '127.0.0.1',
      TRUST_PROXY: 'true',
      EGTS_PORT: String(serverEgtsPort ?? 0),
      EGTS_HOST: '127.0.0.1',
      // HAProxy's EGTS backend sends a PROXY v2 header with every connection (haproxyConfig.mjs)
      EGTS_PROXY_PROTOCOL: serverEgtsPort ? 'true' : 'false',
      DATA_DIR: dataDir,
      TRACK_SPOOL_DIR: join(dataDir, `track-spool-${serverPort}`),
    }),
  });
  relay(name, child);
  const exited = new Promise((done) =>
    child.once('exit', (code, signal) => {
      if (!stopping)
        console.error(`[cluster] ${name} (pid ${child.pid}) завершился: ${signal ?? `код ${code}`}; остальные продолжают работу`);
      done();
      if (!stopping && servers.every((server) => server.child.exitCode !== null || server.child.signalCode !== null)) void stop(1);
    }),
  );
  servers.push({ name, port: serverPort, child, exited });
  return new Promise((ready, refused) => {
    const listening = (chunk) => {
      if (!chunk.toString().includes('Консоль запущена')) return;
      child.stdout.off('data', listening);
      console.log(`[cluster] ${name}: порт ${serverPort}${serverEgtsPort ? `, EGTS ${serverEgtsPort}` : ''}, pid ${child.pid}`);
      ready();
    };
    child.stdout.on('data', listening);
    child.once('exit', () => refused(new Error(`${name} did not start`)));
  });
}

async function stop(code) {
  if (stopping) return;
  stopping = true;
  haproxy?.kill('SIGTERM');
  for (const server of servers) server.child.kill('SIGTERM');
  const killer = setTimeout(() => servers.forEach((server) => server.child.kill('SIGKILL')), 20_000);
  await Promise.all(servers.map((server) => server.exited));
  clearTimeout(killer);
  process.exit(code);
}
process.on('SIGINT', () => void stop(0));
process.on('SIGTERM', () => void stop(0));

/** Resolves once something accepts connections on the port. */
async function listening(onPort) {
  for (;;) {
    const open = await new Promise((answer) => {
      const socket = connect({ port: onPort, host: '127.0.0.1' }, () => {
        socket.destroy();
        answer(true);
      });
      socket.once('error', () => answer(false));
    });
    if (open) return;
    await new Promise((wait) => setTimeout(wait, 100));
  }
}

try {
  // The first alone: it migrates and, on an empty database, loads the demo data; the others find it done.
  const [first, ...others] = layout.servers;
  await startServer(first);
  await Promise.all(others.map(startServer));
} catch (error) {
  console.error(`[cluster] ${error.message}`);
  await stop(1);
}

haproxy = spawn(haproxyProgram, ['-db', '-q', '-f', CONFIG], { stdio: ['ignore', 'pipe', 'pipe'] });
relay('haproxy', haproxy);
haproxy.once('exit', (code, signal) => {
  if (stopping) return;
  console.error(`[cluster] HAProxy завершился: ${signal ?? `код ${code}`}`);
  void stop(1);
});
await listening(port);
console.log(
  `Кластер запущен: http://localhost:${port}/ — процессов: ${count}, HAProxy pid ${haproxy.pid}${egtsPort ? `, EGTS на порту ${egtsPort}` : ''}`,
);
