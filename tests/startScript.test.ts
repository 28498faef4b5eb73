import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SERVER_MALLOC_ENV, SERVER_NODE_ARGS, writeServerScript } from '../scripts/serverLaunch.mjs';

const SCRIPT = 'dist/server/start.sh';

/**
 * `npm start` prepares, then execs the server in place of npm's shell: the server is npm's own child with the
 * memory settings, and a SIGTERM to npm (a service manager stopping it) reaches the server. Checked through
 * npm itself, in a folder whose "server" is a stand-in that reports how it was started and what it received.
 */
describe('npm start', () => {
  const dir = mkdtempSync(join(tmpdir(), 'start-script-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('ends by exec-ing the script the preparation writes', () => {
    const start = (JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: { start: string } }).scripts.start;
    expect(start).toBe(`node scripts/start.mjs && exec sh ${SCRIPT}`);
    expect(readFileSync('scripts/start.mjs', 'utf8')).toContain(`writeServerScript('${SCRIPT}')`);
  });

  it("runs the server as npm's child with the memory settings, and SIGTERM to npm stops it gracefully", async () => {
    mkdirSync(join(dir, 'dist/server'), { recursive: true });
    writeFileSync(
      join(dir, 'package.json'),
      JSON.stringify({ name: 'start-script', private: true, scripts: { start: `exec sh ${SCRIPT}` } }),
    );
    writeFileSync(
      join(dir, 'dist/server/main.mjs'),
      `
      process.on('SIGTERM', () => { console.log('SIGTERM received'); process.exit(0); });
      console.log(JSON.stringify({ pid: process.pid, ppid: process.ppid, execArgv: process.execArgv,
        malloc: Object.fromEntries(Object.keys(${JSON.stringify(SERVER_MALLOC_ENV)}).map((k) => [k, process.env[k]])) }));
      setInterval(() => {}, 1000);
    `,
    );
    writeServerScript(join(dir, SCRIPT));
    // an operator's own setting wins over the default
    const npm = spawn('npm', ['start', '--silent'], {
      cwd: dir,
      env: { ...process.env, MALLOC_ARENA_MAX: '4' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let output = '';
    npm.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => npm.once('exit', (code) => resolve(code)));
    while (!output.includes('"pid"')) {
      if (npm.exitCode !== null) throw new Error(`npm start ended: ${output}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const started = JSON.parse(output.split('\n').find((line) => line.startsWith('{'))!) as {
      pid: number;
      ppid: number;
      execArgv: string[];
      malloc: Record<string, string>;
    };
    expect(started.ppid).toBe(npm.pid);
    expect(started.execArgv).toEqual(SERVER_NODE_ARGS);
    expect(started.malloc).toEqual({ ...SERVER_MALLOC_ENV, MALLOC_ARENA_MAX: '4' });

    npm.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(output).toContain('SIGTERM received');
  });
});
