import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { freeConsecutivePorts, startServerCluster, type ServerCluster } from '../scripts/bench/serverProcess';
import { openPostgres } from '../src/server/db/postgres';
import { PC } from '../src/server/telemetry/egts/constants';
import { authPacket, positionsPacket } from '../src/server/telemetry/egts/terminalPackets';
import { decodeReply } from './fixtures/egts/harness';
import { TcpTerminal } from './fixtures/egts/tcpTerminal';
import { clusterTestsRunnable, TEST_REDIS_URL } from './helpers/redis';
import { clonePostgresDatabase } from './helpers/testApp';

const runnable = await clusterTestsRunnable('a killed process’s spool written by another (cluster.spool.test.ts)');

const TERMINAL = 7_600_001;
const FIXES = 30;

/**
 * Two real server processes with their spools side by side (`track-spool-<n>` in one folder, as `npm run
 * cluster` lays them out). The first acknowledges a terminal's positions with its database writes held back
 * (an hour between flushes), then is killed: the second writes what the first acknowledged.
 */
describe.skipIf(!runnable)('positions acknowledged by a process killed before it wrote them', () => {
  let cluster: ServerCluster;
  let drop: () => Promise<void>;
  let url: string;
  let vehicleId: number;
  let egtsPort: number;
  const parent = mkdtempSync(join(tmpdir(), 'tc-spools-'));
  const spoolOf = (i: number) => join(parent, `track-spool-${i}`);

  beforeAll(async () => {
    ({ url, drop } = await clonePostgresDatabase());
    const db = await openPostgres(url, 1);
    [{ id: vehicleId }] = await db.query<{ id: number }>(
      'insert into mgt.vehicles (depot_number, peer_address) values (990601, $1) returning id',
      [TERMINAL],
    );
    await db.close();
    egtsPort = await freeConsecutivePorts(1);
    cluster = await startServerCluster(
      2,
      { DATABASE_URL: url, BUS_URL: TEST_REDIS_URL, DEMO_DATA: 'false', SIMULATOR: 'false', LOG_LEVEL: 'info', TRACK_SPOOL_ADOPT_S: '1' },
      120_000,
      (i): Record<string, string> =>
        i === 0
          ? {
              TRACK_SPOOL_DIR: spoolOf(0),
              EGTS_PORT: String(egtsPort),
              EGTS_HOST: '127.0.0.1',
              TRACK_FLUSH_MS: '3600000',
              TRACK_FLUSH_ROWS: '1000000',
            }
          : { TRACK_SPOOL_DIR: spoolOf(1) },
    );
  }, 150_000);
  afterAll(async () => {
    await cluster?.stop();
    await drop?.();
    rmSync(parent, { recursive: true, force: true });
  });

  const stored = async () => {
    const db = await openPostgres(url, 1);
    try {
      return (await db.query<{ n: number }>('select count(*)::int as n from app.track where vehicle_id = $1', [vehicleId]))[0].n;
    } finally {
      await db.close();
    }
  };

  it('stores every position the killed process acknowledged, once', async () => {
    const [victim, survivor] = cluster.processes;
    const terminal = await TcpTerminal.open(egtsPort);
    await terminal.write(authPacket(0, 0, { tid: TERMINAL }));
    await terminal.waitFor(2); // the transport's answer and the authentication's result
    const start = Math.floor(Date.now() / 1000) * 1000 - FIXES * 1000;
    const packets = Array.from({ length: FIXES }, (_, i) =>
      positionsPacket(1 + i, [
        { rn: 1 + i, fixes: [{ time: start + i * 1000, lat: 59.9 + i * 1e-4, lon: 30.3, speed: 20, course: 90, valid: true }] },
      ]),
    );
    await terminal.write(Buffer.concat(packets));
    const replies = (await terminal.waitFor(2 + FIXES)).slice(2).map(decodeReply);
    const acknowledged = replies.filter((reply) => reply.pr === PC.OK).length;
    expect(acknowledged).toBe(FIXES);
    // acknowledged, on the victim's disk, not in the database
    expect(readdirSync(spoolOf(0)).filter((name) => name.endsWith('.spool')).length).toBeGreaterThan(0);
    expect(await stored()).toBe(0);

    await victim.kill();
    const killedAt = Date.now();
    await vi.waitUntil(async () => (await stored()) >= FIXES, { timeout: 15_000, interval: 200 });
    expect(await stored()).toBe(acknowledged);
    expect(Date.now() - killedAt).toBeLessThan(10_000);
    expect(readdirSync(spoolOf(0)).filter((name) => name.endsWith('.spool'))).toEqual([]);
    expect(survivor.log.some((line) => line.includes('track spool of a dead process written to the database'))).toBe(true);
    expect(survivor.errors()).toEqual([]);
    await terminal.close().catch(() => undefined);
  });
});
