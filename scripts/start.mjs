// `npm start`'s preparation: builds the front ends when their sources changed since the last build, bundles the
// server and writes dist/server/start.sh, which `npm start` then `exec`s: the server, with the memory settings of
// serverLaunch.mjs, takes the place of npm's shell, so npm's child is the server itself (SIGTERM and Ctrl+C reach
// it and it shuts down gracefully) and no launcher process stays in memory.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { writeServerScript } from './serverLaunch.mjs';

const BUILD_STAMP = 'dist/client/index.html';
const SOURCES = [
  'index.html',
  'm',
  'vite.config.ts',
  'src/client',
  'src/mobile',
  'src/web',
  'src/shared',
  'schemas',
  'public',
  'package-lock.json',
];

function newestMtime(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(path).reduce((newest, name) => Math.max(newest, newestMtime(join(path, name))), stat.mtimeMs);
}

const builtAt = existsSync(BUILD_STAMP) ? statSync(BUILD_STAMP).mtimeMs : 0;
if (process.env.SKIP_BUILD !== 'true' && Math.max(...SOURCES.map(newestMtime)) > builtAt) {
  console.log('Сборка интерфейса (vite build)…');
  const build = spawnSync(process.execPath, ['node_modules/vite/bin/vite.js', 'build', '--logLevel', 'warn'], { stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

// The server runs from its bundle (scripts/buildServer.mjs, about a second): no TypeScript loader at run time.
const server = spawnSync(process.execPath, ['scripts/buildServer.mjs'], { stdio: 'inherit' });
if (server.status !== 0) process.exit(server.status ?? 1);
writeServerScript('dist/server/start.sh');
