/**
 * Memory of the server on the embedded engine: starts the real server (its bundle, with the settings `npm start` uses) on an empty data
 * folder (first start: PGlite init, PostGIS, migrations, the city demo data), stops it, starts it again on the
 * same folder, and prints the resident set size (RSS: the main thread, the database worker and PGlite's WASM
 * heap) after each start, settled for a few seconds, with the start times.
 *
 *   npx tsx scripts/bench/memory.ts            (BENCH_PORT=3301, BENCH_SETTLE_MS=5000, BENCH_DIR=<keep folder>)
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir, loadavg } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { SERVER_NODE_ARGS, serverEnv } from '../serverLaunch.mjs';

const port = Number(process.env.BENCH_PORT ?? 3301);
const settleMs = Number(process.env.BENCH_SETTLE_MS ?? 5000);
const dataDir = process.env.BENCH_DIR ?? mkdtempSync(join(tmpdir(), 'memory-bench-'));
const mb = (bytes: number) => `${Math.round(bytes / 1048576)} MB`;

/** Resident and peak resident set size of a process, from /proc. */
function rss(pid: number): { now: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0) * 1024;
  return { now: kb('VmRSS'), peak: kb('VmHWM') };
}

async function startServer(): Promise<{ child: ChildProcess; ms: number }> {
  const started = performance.now();
  const child = spawn(process.execPath, [...SERVER_NODE_ARGS, 'dist/server/main.mjs'], {
    env: { ...serverEnv(), PORT: String(port), EGTS_PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'warn', STATIC_DIR: '' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Консоль запущена')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`server exited (${code}) before it started`)));
  });
  return { child, ms: performance.now() - started };
}

async function stopServer(child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

async function measure(label: string): Promise<void> {
  const { child, ms } = await startServer();
  await sleep(settleMs);
  const memory = rss(child.pid!);
  console.log(`${label}: started in ${(ms / 1000).toFixed(1)} s; RSS ${mb(memory.now)} ${settleMs / 1000} s later (peak ${mb(memory.peak)})`);
  await stopServer(child);
}

// What `npm start` runs: the server's bundle.
execFileSync(process.execPath, ['scripts/buildServer.mjs'], { stdio: 'inherit' });
console.log(`load average ${loadavg().map((n) => n.toFixed(1)).join(' ')}; data in ${dataDir}`);
try {
  await measure('first start (empty folder, city demo data)');
  await measure('second start (data kept)');
} finally {
  if (!process.env.BENCH_DIR) rmSync(dataDir, { recursive: true, force: true });
}
