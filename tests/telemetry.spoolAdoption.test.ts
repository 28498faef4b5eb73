import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../src/server/db/types';
import { SpoolAdoption } from '../src/server/telemetry/spoolAdoption';
import { newHolder, processStarted, readHolder, writeHolder, type SpoolGuard, type SpoolHolder } from '../src/server/telemetry/spoolLock';
import { TrackSpool, type TrackSpoolOptions } from '../src/server/telemetry/trackSpool';
import type { Position } from '../src/server/telemetry/types';
import { ENGINES } from './helpers/engines';
import { startTestApp, type TestApp } from './helpers/testApp';
import { silentLog } from './fixtures/egts/harness';

/** A pid no process has now (a child that has exited). */
const deadPid = () => spawnSync(process.execPath, ['-e', '']).pid!;

describe.each(ENGINES)('a dead sibling process’s track spool is written by a live one, on %s', (engine) => {
  let t: TestApp;
  let parent: string;
  let ownDir: string;
  let database: string;
  let vehicleId: number;
  const saved = { ...process.env };
  let tick = 0;

  beforeAll(async () => {
    parent = mkdtempSync(join(tmpdir(), 'spool-adoption-'));
    ownDir = join(parent, 'track-spool-3001');
    process.env.TRACK_SPOOL_DIR = ownDir;
    // Rounds are called by the test itself.
    process.env.TRACK_SPOOL_ADOPT_S = '3600';
    t = await startTestApp(engine);
    process.env = saved;
    [{ id: vehicleId }] = await t.db.query<{ id: number }>(
      'insert into mgt.vehicles (depot_number, peer_address) values (990501, 7500001) returning id',
    );
    database = JSON.parse(readFileSync(join(ownDir, 'lock'), 'utf8')).database;
  });
  afterAll(async () => {
    await t.close();
    rmSync(parent, { recursive: true, force: true });
  });

  const positions = (n: number): Position[] =>
    Array.from({ length: n }, () => ({
      vehicleId,
      time: Math.floor(Date.now() / 1000) * 1000 - 600_000 + 1000 * tick++,
      lat: 59.9,
      lon: 30.3,
      speed: 20,
      course: 90,
      valid: true,
      history: false,
    }));
  const stored = async () =>
    (await t.db.query<{ n: number }>('select count(*)::int as n from app.track where vehicle_id = $1', [vehicleId]))[0].n;
  const segments = (dir: string) => readdirSync(dir).filter((name) => name.endsWith('.spool'));

  /** A sibling's folder as its process left it: acknowledged positions on disk, its lock naming `holder`. */
  async function leftBy(name: string, count: number, holder: Partial<SpoolHolder>): Promise<string> {
    const dir = join(parent, name);
    const spool = new TrackSpool(dir, { syncIntervalMs: 5, maxRowsInMemory: 1000 }, silentLog);
    await spool.open();
    // two files, as a writer that sealed one and had not written it yet leaves them
    await spool.append(positions(Math.ceil(count / 2)));
    await spool.seal();
    await spool.append(positions(Math.floor(count / 2)));
    await spool.close();
    await writeHolder(dir, { ...newHolder('owner', database), ...holder });
    return dir;
  }

  it('takes the folder of a dead process, writes its positions and empties it; its owner started again finds nothing', async () => {
    const before = await stored();
    const dir = await leftBy('track-spool-3002', 10, { pid: deadPid() });
    expect(segments(dir)).toHaveLength(2);
    expect(await t.app.telemetry.track.adoption!.round()).toBe(10);
    expect(await stored()).toBe(before + 10);
    expect(segments(dir)).toEqual([]);
    expect(existsSync(join(dir, 'lock'))).toBe(false);
    expect(t.app.telemetry.track.adoption!.getStats()).toMatchObject({ folders: 1, positions: 10 });
    const restarted = new TrackSpool(dir, { syncIntervalMs: 5, maxRowsInMemory: 1000 }, silentLog);
    expect(await restarted.open()).toBe(0);
    await restarted.close();
  });

  it('takes the folder of a process killed and not yet reaped by its parent (a zombie)', async () => {
    // a child that exits at once under a parent that never waits for it (perl: Debian's essential perl-base; a shell
    // may reap its background job before an `exec`, when the job ends first)
    const unreaping = spawn('perl', ['-e', '$| = 1; my $pid = fork(); exit 0 unless $pid; print "$pid\\n"; sleep 30']);
    const zombie = await new Promise<number>((resolve) =>
      unreaping.stdout.once('data', (chunk: Buffer) => resolve(Number(chunk.toString()))),
    );
    try {
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(() => process.kill(zombie, 0)).not.toThrow();
      const dir = await leftBy('track-spool-3008', 4, { pid: zombie, started: processStarted(zombie) });
      const before = await stored();
      expect(await t.app.telemetry.track.adoption!.round()).toBe(4);
      expect(await stored()).toBe(before + 4);
      expect(segments(dir)).toEqual([]);
    } finally {
      unreaping.kill('SIGKILL');
    }
  });

  it("leaves a live process's folder, another installation's and one without a lock", async () => {
    const sleeper = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)']);
    try {
      const live = await leftBy('track-spool-3003', 4, { pid: sleeper.pid!, started: processStarted(sleeper.pid!) });
      const other = await leftBy('spool-3004', 4, { pid: deadPid(), database: 'postgres://elsewhere:5432/transport' });
      const unlocked = await leftBy('track-spool-3005', 4, { pid: deadPid() });
      rmSync(join(unlocked, 'lock'));
      // a pid taken by another process since (its start time differs) is no holder: that folder is taken
      const reused = await leftBy('track-spool-3007', 4, { pid: sleeper.pid!, started: 1 });
      const before = await stored();
      expect(await t.app.telemetry.track.adoption!.round()).toBe(4);
      expect(await stored()).toBe(before + 4);
      expect(segments(reused)).toEqual([]);
      for (const dir of [live, other, unlocked]) expect(segments(dir)).toHaveLength(2);
      // the owner starting again while a live sibling writes its folder waits for it
      await writeHolder(live, { ...newHolder('adopter', database), pid: sleeper.pid!, started: processStarted(sleeper.pid!) });
      const owner = new TrackSpool(live, { syncIntervalMs: 5, maxRowsInMemory: 1000, adoptionWaitMs: 300 }, silentLog);
      await expect(owner.open()).rejects.toThrow(/being written to the database/);
      for (const dir of [live, other, unlocked]) rmSync(dir, { recursive: true });
    } finally {
      sleeper.kill('SIGKILL');
    }
  });

  it('two processes racing for one folder: its positions stored once, no error', async () => {
    const guard: SpoolGuard = (work) =>
      (t.db as Db).transaction(async (tx) => {
        await tx.query('select pg_advisory_xact_lock(7346002)');
        return work();
      });
    const options = () => ({
      intervalMs: 3_600_000,
      spool: { syncIntervalMs: 5, maxRowsInMemory: 1000, guard, database } satisfies TrackSpoolOptions,
      writer: { flushIntervalMs: 3_600_000, flushRows: 1_000_000 },
    });
    const dirs = [];
    for (let i = 0; i < 3; i++) dirs.push(await leftBy(`track-spool-31${i}`, 6, { pid: deadPid() }));
    const adopters = [
      new SpoolAdoption(t.db, join(parent, 'track-spool-4001'), options(), silentLog),
      new SpoolAdoption(t.db, join(parent, 'track-spool-4002'), options(), silentLog),
    ];
    const app = t.app.telemetry.track.adoption!;
    const before = { rows: await stored(), folders: app.getStats().folders };
    expect(before.folders).toBe(3);
    const rounds = await Promise.all([...adopters.map((a) => a.round()), app.round()]);
    expect(rounds.reduce((sum, n) => sum + n, 0)).toBe(18);
    expect(await stored()).toBe(before.rows + 18);
    for (const dir of dirs) expect(segments(dir)).toEqual([]);
    // no folder was written by two of them
    expect(adopters.reduce((sum, a) => sum + a.getStats().folders, 0) + app.getStats().folders - before.folders).toBe(3);
  });

  it('a folder it could not write (the database away) is released and taken again next round', async () => {
    const dir = await leftBy('track-spool-3006', 4, { pid: deadPid() });
    const failing = new SpoolAdoption(
      { query: () => Promise.reject(new Error('database away')) },
      join(parent, 'track-spool-4003'),
      {
        intervalMs: 3_600_000,
        spool: { syncIntervalMs: 5, maxRowsInMemory: 1000, database },
        writer: { flushIntervalMs: 3_600_000, flushRows: 1_000_000 },
      },
      silentLog,
    );
    expect(await failing.round()).toBe(0);
    expect(segments(dir)).toHaveLength(2);
    expect((await readHolder(dir))?.role).toBe('released');
    const before = await stored();
    expect(await t.app.telemetry.track.adoption!.round()).toBe(4);
    expect(await stored()).toBe(before + 4);
  });
});
