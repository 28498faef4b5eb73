/**
 * Memory of the server on the embedded engine: starts the real server (its bundle, with the settings `npm start` uses) on an empty data
 * folder (first start: PGlite init, PostGIS, migrations, the city demo data), stops it, starts it again on the
 * same folder, and prints the resident set size (RSS: the main thread, the database worker and PGlite's WASM
 * heap) after each start: a few seconds after it listens, and a few seconds after its background demo history
 * has ended (the server's settled size), with the times.
 *
 *   npx tsx scripts/bench/memory.ts            (BENCH_PORT=3301, BENCH_SETTLE_MS=5000, BENCH_SETTLED_MS=90000, BENCH_DIR=<keep folder>)
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir, loadavg } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { SERVER_NODE_ARGS, serverEnv } from '../serverLaunch.mjs';

const port = Number(process.env.BENCH_PORT ?? 3301);
const settleMs = Number(process.env.BENCH_SETTLE_MS ?? 5000);
// After a history fill the main thread's garbage goes back to the system over a minute or two.
const settledMs = Number(process.env.BENCH_SETTLED_MS ?? 90_000);
const dataDir = process.env.BENCH_DIR ?? mkdtempSync(join(tmpdir(), 'memory-bench-'));
const mb = (bytes: number) => `${Math.round(bytes / 1048576)} MB`;

/** Resident and peak resident set size of a process, from /proc. */
function rss(pid: number): { now: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0) * 1024;
  return { now: kb('VmRSS'), peak: kb('VmHWM') };
}

/** Starts the server; resolves when it listens, with a promise for the end of its background demo history. */
async function startServer(): Promise<{ child: ChildProcess; ms: number; history: Promise<number> }> {
  const started = performance.now();
  const child = spawn(process.execPath, [...SERVER_NODE_ARGS, 'dist/server/main.mjs'], {
    env: { ...serverEnv(), PORT: String(port), EGTS_PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'info', STATIC_DIR: '' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let tail = '';
  let historyDone: (ms: number) => void;
  const history = new Promise<number>((resolve) => {
    historyDone = resolve;
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      // only the tail is kept: the info log of a running server is long
      tail = (tail + chunk.toString()).slice(-4096);
      if (tail.includes('Консоль запущена')) resolve();
      if (tail.includes('demo history complete')) historyDone(performance.now() - started);
    });
    child.once('exit', (code) => reject(new Error(`server exited (${code}) before it started`)));
  });
  return { child, ms: performance.now() - started, history };
}

async function stopServer(child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/**
 * RSS a few seconds after listening, then again once the background demo history (passenger flow, work data)
 * has ended and the engine has given back the heap it grew: the server's settled size.
 */
async function measure(label: string): Promise<void> {
  const { child, ms, history } = await startServer();
  await sleep(settleMs);
  const early = rss(child.pid!);
  const historyMs = await history;
  await sleep(settledMs);
  const settled = rss(child.pid!);
  console.log(`${label}: listening in ${(ms / 1000).toFixed(1)} s, RSS ${mb(early.now)} ${settleMs / 1000} s later; ` +
    `background history done at ${(historyMs / 1000).toFixed(1)} s, RSS ${mb(settled.now)} ${settledMs / 1000} s later (peak ${mb(settled.peak)})`);
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
