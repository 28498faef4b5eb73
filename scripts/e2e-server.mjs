// Starts the real product for the Playwright specs on fresh embedded databases, as `npm start` runs it (the
// server's bundle): bundles the server once, then runs as many servers as its argument says (default 1) on ports
// PORT, PORT + 1, …, each on its own DATA_DIR (removed first: `<DATA_DIR>-<port>`), as `npm start` does
// (serverLaunch.mjs).
// Run with `node scripts/e2e-server.mjs [servers]` (playwright.config.ts does).
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { runServer } from './serverLaunch.mjs';

const dataDir = process.env.DATA_DIR ?? '.tmp/e2e-data';
const firstPort = Number(process.env.PORT ?? 3199);
const servers = Number(process.argv[2] ?? 1);
const server = spawnSync(process.execPath, ['scripts/buildServer.mjs'], { stdio: 'inherit' });
if (server.status !== 0) process.exit(server.status ?? 1);
for (let i = 0; i < servers; i++) {
  const port = firstPort + i;
  const DATA_DIR = `${dataDir}-${port}`;
  rmSync(resolve(DATA_DIR), { recursive: true, force: true });
  runServer({ PORT: String(port), DATA_DIR });
}
