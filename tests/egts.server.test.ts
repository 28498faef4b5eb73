import { afterEach, describe, expect, it } from 'vitest';
import { setTimeout as delay } from 'node:timers/promises';
import { EgtsServer } from '../src/server/telemetry/egts/server';
import { positionsPacket } from '../src/server/telemetry/egts/terminalPackets';
import type { Position } from '../src/server/telemetry/types';
import { silentLog } from './fixtures/egts/harness';
import { TcpTerminal } from './fixtures/egts/tcpTerminal';

describe('EGTS listener limits', () => {
  let server: EgtsServer | undefined;
  const ingested: Position[] = [];
  const start = async (options: { maxConnections?: number; idleTimeoutMs?: number }) => {
    server = new EgtsServer(
      {
        ingest: (positions) => {
          ingested.push(...positions);
          return { accepted: positions.length, duplicates: 0, rejected: [], durable: Promise.resolve(true) };
        },
        vehicleOf: (peer) => (String(peer) === '7000001' ? 1 : undefined),
        emitEvent: () => {},
        maxFrameBytes: 65_553,
      },
      { maxConnections: options.maxConnections ?? 100, idleTimeoutMs: options.idleTimeoutMs ?? 60_000, maxPendingWriteBytes: 65_536 },
      silentLog,
    );
    return server.listen(0, '127.0.0.1');
  };
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('drops a connection that stays silent past the idle timeout', async () => {
    const port = await start({ idleTimeoutMs: 200 });
    const terminal = await TcpTerminal.open(port);
    await terminal.waitClosed(3000);
    for (let i = 0; i < 20 && server!.stats().connections > 0; i++) await delay(25);
    expect(server!.stats().connections).toBe(0);
  });

  it('refuses connections beyond the limit and serves the ones within it', async () => {
    const port = await start({ maxConnections: 2 });
    const [a, b] = [await TcpTerminal.open(port), await TcpTerminal.open(port)];
    const c = await TcpTerminal.open(port);
    await c.waitClosed(3000);
    await a.write(
      positionsPacket(1, [{ rn: 1, oid: 7000001, fixes: [{ time: Date.now(), lat: 59.9, lon: 30.3, speed: 10, course: 0, valid: true }] }]),
    );
    expect(await a.waitFor(1)).toHaveLength(1);
    expect(server!.stats()).toMatchObject({ connections: 2, accepted: 2, packets: 1, positions: 1 });
    await Promise.all([a.close(), b.close()]);
    for (let i = 0; i < 20 && server!.stats().connections > 0; i++) await delay(25);
    expect(server!.stats().connections).toBe(0);
  });
});
