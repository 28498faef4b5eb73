// How the server process is started by `npm start`, the e2e run and the benchmarks, so all of them measure
// and run the same thing. The settings trade a little allocation speed for memory, for small depot servers:
// - glibc's malloc keeps one arena per thread by default (the database worker, V8's compiler threads, libuv's
//   pool), each holding freed memory: two arenas, and freed blocks over 1 MB handed back, save about 120 MB;
// - V8's young generation of each thread (the main one and the database worker) is capped at 4 MB semi-spaces
//   instead of 16 MB: about 30 MB less, young collections stay short;
// - WebAssembly (the embedded PostgreSQL and PostGIS) is compiled by Liftoff only, not again by TurboFan for
//   its hot functions: about 40 MB less settled; the million-row handbook list answered as fast within the
//   noise (scripts/bench/tableList.ts);
// - V8 favours memory over speed (--optimize-for-size): it collects the old generation sooner, so the database
//   worker does not carry ~25 MB of answered queries' garbage and the ~40 MB of PostGIS bundle copies it let go
//   of at open until its heap happens to fill: a second start settles ~50 MB lower.
// malloc reads its settings once, before Node starts, so they are set in the server process's environment.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';

export const SERVER_NODE_ARGS = ['--max-semi-space-size=4', '--liftoff-only', '--optimize-for-size'];
export const SERVER_MALLOC_ENV = { MALLOC_ARENA_MAX: '2', MALLOC_TRIM_THRESHOLD_: '1048576', MALLOC_MMAP_THRESHOLD_: '1048576' };
const SERVER_ENTRY = 'dist/server/main.mjs';

/** Environment of the server process: the memory settings unless the operator set their own. */
export function serverEnv(env = process.env) {
  return { ...SERVER_MALLOC_ENV, ...env };
}

const quote = (word) => `'${word.replaceAll("'", `'\\''`)}'`;

/**
 * Writes the shell script `npm start` ends with (`exec sh <path>`): it sets the memory settings the operator has
 * not set and replaces itself with the server (exec), so npm's own child is the server: no launcher process
 * stays in memory, and the signals npm passes on (SIGTERM from a service manager, Ctrl+C) reach the server.
 */
export function writeServerScript(path) {
  const lines = [
    '# Written by scripts/start.mjs from scripts/serverLaunch.mjs: the server with its memory settings.',
    ...Object.entries(SERVER_MALLOC_ENV).map(([name, value]) => `: "\${${name}=${value}}"; export ${name}`),
    `exec ${[process.execPath, ...SERVER_NODE_ARGS, SERVER_ENTRY].map(quote).join(' ')}`,
  ];
  writeFileSync(path, `${lines.join('\n')}\n`);
}

/** Runs the server's bundle as a child with the settings above; signals are passed on, its exit code is ours. */
export function runServer() {
  const child = spawn(process.execPath, [...SERVER_NODE_ARGS, SERVER_ENTRY], { stdio: 'inherit', env: serverEnv() });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}
