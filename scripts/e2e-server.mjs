// Starts the real product for the Playwright specs on a fresh embedded database:
// removes DATA_DIR (default .tmp/e2e-data), then runs src/server/main.ts in this process.
// Run with `node --import tsx scripts/e2e-server.mjs` (playwright.config.ts does).
import { rmSync } from 'node:fs';
import { resolve } from 'node:path';

process.env.DATA_DIR ??= '.tmp/e2e-data';
rmSync(resolve(process.env.DATA_DIR), { recursive: true, force: true });
await import('../src/server/main.ts');
