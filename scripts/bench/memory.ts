/**
 * Memory of `npm start` on the embedded engine, as an operator runs it: the whole process tree that `npm start`
 * leaves running (npm and the server, with whatever lies between), measured as PSS (proportional set size:
 * pages shared between the processes, such as Node's own code, counted once) and RSS summed over the tree.
 *
 * 1. First start on an empty data folder (PGlite init, PostGIS, migrations, the city demo data, then the demo
 *    history written in the background): BENCH_FIRST_MINUTES of operators while the history is written, sampled
 *    every minute, then a wait for the history's end; then SIGTERM to npm, and the tree must end.
 * 2. Second start on the same folder: BENCH_OPERATORS operators for BENCH_MINUTES, the tree sampled every
 *    minute; prints start, max, end and the slope per minute.
 *
 * Operators (scripts/bench/operators.ts), each its own session of the demo dispatcher: a live map stream open,
 * and every 1–3 s a handbook list (45 %), a journal page (25 %), a report (20 %) or a stop's edit (10 %).
 *
 *   npx tsx scripts/bench/memory.ts                  (BENCH_OPERATORS=10, BENCH_MINUTES=60, BENCH_FIRST_MINUTES=5,
 *                                                    BENCH_PORT=3301, BENCH_DIR=<keep the data folder>)
 *   BENCH_DIR=<a folder after its first start> BENCH_FIRST_MINUTES=0 npx tsx scripts/bench/memory.ts   (second start only)
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Operators, type Mix } from './operators';

const port = Number(process.env.BENCH_PORT ?? 3301);
const operatorCount = Number(process.env.BENCH_OPERATORS ?? 10);
const minutes = Number(process.env.BENCH_MINUTES ?? 60);
const firstMinutes = Number(process.env.BENCH_FIRST_MINUTES ?? 5);
const dataDir = process.env.BENCH_DIR ?? mkdtempSync(join(tmpdir(), 'memory-bench-'));
const MIX: Mix = { 'handbook list': 45, 'journal list': 25, report: 20, 'handbook edit': 10 };
const mb = (bytes: number) => Math.round(bytes / 1048576);

interface ProcessMemory {
  pid: number;
  name: string;
  pss: number;
  rss: number;
}

/** The process and all its descendants, from /proc (parent of each process in its stat line). */
function tree(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(parent, [...(children.get(parent) ?? []), Number(entry)]);
    } catch {
      // ended meanwhile
    }
  }
  const pids = existsSync(`/proc/${root}`) ? [root] : [];
  for (let i = 0; i < pids.length; i++) pids.push(...(children.get(pids[i]) ?? []));
  return pids;
}

function processMemory(pid: number): ProcessMemory | undefined {
  try {
    const kb = (text: string, field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(text)?.[1] ?? 0) * 1024;
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
    const name = args.find((arg) => /\.(m?js|ts)$|^start$/.test(arg)) ?? args[0] ?? '?';
    return {
      pid,
      name: `${/^Name:\s+(\S+)/m.exec(status)?.[1]} ${name.split('/').at(-1)}`,
      pss: kb(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'), 'Pss'),
      rss: kb(status, 'VmRSS'),
    };
  } catch {
    return undefined;
  }
}

interface Sample {
  minute: number;
  pss: number;
  rss: number;
  processes: ProcessMemory[];
}

function sample(root: number, since: number): Sample {
  const processes = tree(root)
    .map(processMemory)
    .filter((p): p is ProcessMemory => p !== undefined);
  return {
    minute: (performance.now() - since) / 60_000,
    pss: processes.reduce((s, p) => s + p.pss, 0),
    rss: processes.reduce((s, p) => s + p.rss, 0),
    processes,
  };
}

const describe = (s: Sample) =>
  `${s.minute.toFixed(1).padStart(5)} min  PSS ${mb(s.pss)} MB  RSS ${mb(s.rss)} MB  (${s.processes.map((p) => `${p.name} ${mb(p.pss)}`).join(', ')})`;

/** Least-squares slope of y over the minutes, MB a minute. */
function slope(samples: Sample[], field: 'pss' | 'rss'): number {
  const n = samples.length;
  const mx = samples.reduce((s, x) => s + x.minute, 0) / n;
  const my = samples.reduce((s, x) => s + mb(x[field]), 0) / n;
  const num = samples.reduce((s, x) => s + (x.minute - mx) * (mb(x[field]) - my), 0);
  const den = samples.reduce((s, x) => s + (x.minute - mx) ** 2, 0);
  return den ? num / den : 0;
}

function summary(label: string, samples: Sample[]): string {
  const line = (field: 'pss' | 'rss') => {
    const values = samples.map((s) => mb(s[field]));
    return `${field.toUpperCase()} start ${values[0]} MB, max ${Math.max(...values)} MB, end ${values.at(-1)} MB, slope ${slope(samples, field).toFixed(2)} MB/min`;
  };
  return `${label}\n  tree ${line('pss')}\n  tree ${line('rss')}\n  processes at the end: ${samples
    .at(-1)!
    .processes.map((p) => `${p.name} (PSS ${mb(p.pss)}, RSS ${mb(p.rss)})`)
    .join(', ')}`;
}

/** `npm start` as README says, on the bench's data folder and port; resolves once the console listens. */
async function start(): Promise<{ npm: ChildProcess; startedAt: number; listeningMs: number; history: Promise<number> }> {
  const startedAt = performance.now();
  const npm = spawn('npm', ['start'], {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', EGTS_PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let tail = '';
  let historyDone: (ms: number) => void;
  const history = new Promise<number>((resolve) => {
    historyDone = resolve;
  });
  await new Promise<void>((resolve, reject) => {
    npm.stdout!.on('data', (chunk: Buffer) => {
      // only the tail is kept: the info log of a running server is long
      tail = (tail + chunk.toString()).slice(-4096);
      if (tail.includes('Консоль запущена')) resolve();
      if (tail.includes('demo history complete')) historyDone(performance.now() - startedAt);
    });
    npm.once('exit', (code) => reject(new Error(`npm start exited (${code}) before the console listened`)));
  });
  return { npm, startedAt, listeningMs: performance.now() - startedAt, history };
}

/** SIGTERM to npm, as a terminal's Ctrl+C or a service manager would; every process of the tree must end. */
async function stop(npm: ChildProcess): Promise<void> {
  const pids = tree(npm.pid!);
  npm.kill('SIGTERM');
  const until = Date.now() + 60_000;
  while (pids.some((pid) => existsSync(`/proc/${pid}`)) && Date.now() < until) await sleep(200);
  const left = pids.filter((pid) => existsSync(`/proc/${pid}`));
  if (left.length) {
    console.log(`  after SIGTERM to npm, still running: ${left.map((pid) => processMemory(pid)?.name ?? pid).join(', ')} — killed`);
    for (const pid of left) process.kill(pid, 'SIGKILL');
  } else console.log('  SIGTERM to npm: the whole tree ended');
}

/** Operators for the given minutes while the tree is sampled every minute (and once before they start). */
async function underLoad(
  npm: ChildProcess,
  runMinutes: number,
  until?: Promise<unknown>,
): Promise<{ samples: Sample[]; operators: Operators }> {
  const operators = new Operators(`http://127.0.0.1:${port}`, MIX);
  await operators.login(Array.from({ length: operatorCount }, () => ({ username: 'operator', password: 'operator123' })));
  const since = performance.now();
  const samples = [sample(npm.pid!, since)];
  console.log(describe(samples[0]));
  await operators.start();
  let ended = false;
  void until?.then(() => (ended = true));
  for (let m = 1; m <= runMinutes && !ended; m++) {
    await Promise.race([sleep(since + m * 60_000 - performance.now()), ...(until ? [until] : [])]);
    samples.push(sample(npm.pid!, since));
    console.log(
      `${describe(samples.at(-1)!)}  ${operators.requests} requests, ${operators.errorCount()} errors, ${operators.streamsOpen} streams`,
    );
  }
  await operators.stop();
  return { samples, operators };
}

function operatorReport(operators: Operators): string {
  const kinds = [...operators.latencies]
    .filter(([kind]) => kind !== 'login')
    .map(([kind, values]) => {
      values.sort((a, b) => a - b);
      return `${kind} ${values.length} (p50 ${values[Math.floor(values.length / 2)]?.toFixed(0)} ms, p95 ${values[Math.floor(values.length * 0.95)]?.toFixed(0)} ms)`;
    });
  const errors = operators.errorCount();
  return `  ${operators.loggedIn} operators: ${kinds.join('; ')}; ${errors} errors${
    errors
      ? `: ${[...operators.errors]
          .slice(0, 5)
          .map(([what, n]) => `${n} × ${what}`)
          .join('; ')}`
      : ''
  }`;
}

console.log(
  `load average ${loadavg()
    .map((n) => n.toFixed(1))
    .join(' ')}; data in ${dataDir}; ${operatorCount} operators`,
);
try {
  if (firstMinutes > 0 || !existsSync(join(dataDir, 'pg'))) {
    const first = await start();
    console.log(
      `first start: listening in ${(first.listeningMs / 1000).toFixed(1)} s; ${firstMinutes} min of operators while the demo history is written`,
    );
    const during = await underLoad(first.npm, firstMinutes, first.history);
    console.log(summary('first start, while the history is written', during.samples));
    console.log(operatorReport(during.operators));
    const historyMs = await first.history;
    console.log(`  history complete at ${(historyMs / 1000).toFixed(0)} s; ${describe(sample(first.npm.pid!, first.startedAt))}`);
    await stop(first.npm);
  }
  const second = await start();
  console.log(`second start: listening in ${(second.listeningMs / 1000).toFixed(1)} s; ${minutes} min of operators`);
  const run = await underLoad(second.npm, minutes);
  console.log(
    summary(
      `second start, ${operatorCount} operators for ${minutes} min (load average ${loadavg()
        .map((n) => n.toFixed(1))
        .join(' ')})`,
      run.samples,
    ),
  );
  console.log(operatorReport(run.operators));
  await stop(second.npm);
} finally {
  if (!process.env.BENCH_DIR) rmSync(dataDir, { recursive: true, force: true });
}
process.exit(0);
