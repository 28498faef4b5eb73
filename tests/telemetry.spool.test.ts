import { appendFileSync, copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PC } from '../src/server/telemetry/egts/constants';
import { authPacket, positionsPacket, type TerminalFix } from '../src/server/telemetry/egts/terminalPackets';
import { TrackSpool } from '../src/server/telemetry/trackSpool';
import { TrackWriter } from '../src/server/telemetry/trackWriter';
import { ENGINES } from './helpers/engines';
import { startTestApp, type TestApp } from './helpers/testApp';
import { decodeReply, silentLog } from './fixtures/egts/harness';
import { TcpTerminal } from './fixtures/egts/tcpTerminal';

const fix = (secondsAgo: number): TerminalFix => ({
  time: Math.floor(Date.now() / 1000 - secondsAgo) * 1000,
  lat: 59.94,
  lon: 30.31,
  speed: 31.5,
  course: 270,
  valid: true,
});

describe.each(ENGINES)('track spool: acknowledged positions survive a crash, on %s', (engine) => {
  let t: TestApp;
  let dataDir: string;
  let spoolDir: string;
  let port: number;
  let vehicleId: number;
  const saved = { ...process.env };

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'faults-spool-'));
    spoolDir = join(dataDir, 'track-spool');
    // The server's own writer waits an hour: what reaches the tracks table here is the replay's doing.
    process.env.TRACK_FLUSH_MS = '3600000';
    process.env.TRACK_FLUSH_ROWS = '1000000';
    t = await startTestApp(engine, { dataDir });
    process.env = saved;
    [{ id: vehicleId }] = await t.db.query<{ id: number }>(
      'insert into mgt.vehicles (depot_number, peer_address) values (990401, 7400001) returning id',
    );
    await t.app.telemetry.devices.refresh();
    port = await t.app.telemetry.startEgts(0, '127.0.0.1');
  });
  afterAll(async () => {
    await t.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const spoolFiles = () => readdirSync(spoolDir).filter((name) => name.endsWith('.spool'));
  const stored = async () =>
    (
      await t.db.query<{ n: number; distinct: number }>(
        'select count(*)::int as n, count(distinct tm)::int as distinct from app.track where vehicle_id = $1',
        [vehicleId],
      )
    )[0];
  /** What the next start of the server does with the spool folder the previous run left. */
  const replay = async () => {
    const spool = new TrackSpool(spoolDir, { syncIntervalMs: 5, maxRowsInMemory: 1000 }, silentLog);
    const writer = new TrackWriter(t.db, spool, { flushIntervalMs: 3_600_000, flushRows: 1_000_000 }, silentLog);
    const recovered = await spool.open();
    await writer.flush();
    await spool.close();
    return { recovered, stats: writer.getStats() };
  };

  it('acknowledges EGTS positions once they are on disk; a replay after a crash stores each exactly once', async () => {
    const terminal = await TcpTerminal.open(port);
    await terminal.write(authPacket(1, 1, { tid: 7400001 }));
    await terminal.waitFor(2);
    const fixes = [fix(40), fix(30), fix(20), fix(10)];
    await terminal.write(Buffer.concat(fixes.map((f, i) => positionsPacket(2 + i, [{ rn: 2 + i, fixes: [f] }]))));
    const acks = (await terminal.waitFor(6)).slice(2).map(decodeReply);
    expect(acks.map((a) => [a.rpid, a.pr])).toEqual([
      [2, PC.OK],
      [3, PC.OK],
      [4, PC.OK],
      [5, PC.OK],
    ]);
    // Acknowledged: on disk, not yet in the database (the server "crashes" here, its writer never ran).
    const files = spoolFiles();
    expect(files.reduce((sum, name) => sum + statSync(join(spoolDir, name)).size, 0)).toBe(fixes.length * 40);
    expect((await stored()).n).toBe(0);

    // A crash after the database committed a file but before it was deleted: the file is replayed again.
    const copies = files.map((name) => {
      copyFileSync(join(spoolDir, name), join(dataDir, name));
      return name;
    });
    const first = await replay();
    expect(first.recovered).toBe(fixes.length);
    expect(first.stats).toMatchObject({ written: fixes.length, duplicates: 0, buffered: 0 });
    expect(spoolFiles()).toEqual([]);
    for (const name of copies) copyFileSync(join(dataDir, name), join(spoolDir, name));
    // And an append torn by the crash (never acknowledged) at the end of the file.
    appendFileSync(join(spoolDir, copies[0]), Buffer.alloc(17, 0xab));
    const second = await replay();
    expect(second.stats).toMatchObject({ written: 0, duplicates: fixes.length, buffered: 0 });

    expect(await stored()).toEqual({ n: fixes.length, distinct: fixes.length });
    const rows = await t.db.query<{ tm: Date | string; speed: number; course: number }>(
      'select tm, speed, course from app.track where vehicle_id = $1 order by tm',
      [vehicleId],
    );
    expect(rows.map((row) => [new Date(row.tm).getTime(), row.course])).toEqual(fixes.map((f) => [f.time, 270]));
    expect(rows[0].speed).toBeCloseTo(31.5, 4);
    await terminal.close();
  });

  it('HTTP telemetry answered 200 is in the tracks table once the writer runs, even after a crash', async () => {
    const { createSource } = await import('../src/server/telemetry/http/sourceKeys');
    const { key } = await createSource(t.db, 'Источник спула', null);
    // The running server lets go of its spool file the replay above took over (its rows: already stored).
    await t.app.telemetry.track.writer.flush();
    const time = fix(5).time;
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/v1/telemetry/positions',
      headers: { 'x-telemetry-key': key },
      payload: { positions: [{ device: '7400001', time, lat: 59.95, lon: 30.32, speed: 12, course: 45 }] },
    });
    expect(response.statusCode, response.body).toBe(200);
    expect((await stored()).n).toBe(4);
    const { recovered } = await replay();
    expect(recovered).toBeGreaterThanOrEqual(1);
    expect(await stored()).toEqual({ n: 5, distinct: 5 });
  });

  it('answers 503 telemetry_not_stored when the spool cannot be written, and takes the resend once it can', async () => {
    const { createSource } = await import('../src/server/telemetry/http/sourceKeys');
    const { key } = await createSource(t.db, 'Источник без диска', null);
    const time = fix(3).time;
    const post = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/telemetry/positions',
        headers: { 'x-telemetry-key': key },
        payload: { positions: [{ device: '7400001', time, lat: 59.96, lon: 30.33, speed: 14, course: 50 }] },
      });
    // The writer closes its current file; with the folder gone the next one cannot be created (a failed disk).
    await t.app.telemetry.track.writer.flush();
    rmSync(spoolDir, { recursive: true, force: true });
    const refused = await post();
    expect(refused.statusCode).toBe(503);
    expect(refused.json()).toEqual({ messages: ['telemetry_not_stored'] });
    expect(refused.headers['retry-after']).toBe('5');
    mkdirSync(spoolDir);
    const resent = await post();
    expect(resent.statusCode, resent.body).toBe(200);
    // Not taken for a duplicate of the refused attempt: it was never acknowledged.
    expect(resent.json()).toEqual({ accepted: 1, duplicates: 0 });
    await t.app.telemetry.track.writer.flush();
    expect((await stored()).n).toBe(6);
  });
});
