// Starts the real product for the Playwright specs on a fresh embedded database, as `npm start` runs it (the
// server's bundle): removes DATA_DIR (default .tmp/e2e-data), bundles the server, then runs it as `npm start` does (serverLaunch.mjs).
// Run with `node scripts/e2e-server.mjs` (playwright.config.ts does).
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { runServer } from './serverLaunch.mjs';

process.env.DATA_DIR ??= '.tmp/e2e-data';
rmSync(resolve(process.env.DATA_DIR), { recursive: true, force: true });
const server = spawnSync(process.execPath, ['scripts/buildServer.mjs'], { stdio: 'inherit' });
if (server.status !== 0) process.exit(server.status ?? 1);
runServer();
