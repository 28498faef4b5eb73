import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setTimeout as delay } from 'node:timers/promises';
import { PC } from '../src/server/telemetry/egts/constants';
import { proxyV1, proxyV2 } from '../src/server/telemetry/egts/proxyProtocol';
import { EgtsServer } from '../src/server/telemetry/egts/server';
import { authPacket, positionsPacket } from '../src/server/telemetry/egts/terminalPackets';
import type { VehicleEvent } from '../src/server/telemetry/vehicleEvents';
import { ENGINES } from './helpers/engines';
import { startTestApp, type TestApp } from './helpers/testApp';
import { decodeReply, silentLog } from './fixtures/egts/harness';
import { TcpTerminal } from './fixtures/egts/tcpTerminal';

const LISTENER = { address: '10.0.0.2', port: 5163 };

async function eventually<T>(read: () => Promise<T>, accept: (value: T) => boolean, timeoutMs = 5000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (accept(value) || Date.now() > until) return value;
    await delay(100);
  }
}

/** EGTS behind HAProxy's `send-proxy-v2` (EGTS_PROXY_PROTOCOL=true): the terminal's own address is recorded. */
describe.each(ENGINES)('EGTS with the PROXY protocol through buildApp on %s', (engine) => {
  let t: TestApp;
  let port: number;
  let first: number;
  let second: number;
  let third: number;
  const journal = (vehicleId: number) =>
    t.db.query<{ kind: string; details: { channel: string; remote: string; terminalId: string } }>(
      'select kind, details from app.vehicle_event where vehicle_id = $1 order by id',
      [vehicleId],
    );
  const fix = () => ({ time: Math.floor(Date.now() / 1000 - 5) * 1000, lat: 59.93, lon: 30.31, speed: 20, course: 90, valid: true });

  beforeAll(async () => {
    t = await startTestApp(engine);
    [{ id: first }, { id: second }, { id: third }] = await t.db.query<{ id: number }>(
      `insert into mgt.vehicles (depot_number, peer_address) values (990301, 7300001), (990302, 7300002), (990303, 7300003) returning id`,
    );
    await t.app.telemetry.devices.refresh();
    t.app.telemetry.config.egtsProxyProtocol = true;
    port = await t.app.telemetry.startEgts(0, '127.0.0.1');
  });
  afterAll(() => t.close());

  it("records the terminal's address from a v2 header sent with the authentication in one chunk", async () => {
    const terminal = await TcpTerminal.open(port);
    await terminal.write(Buffer.concat([proxyV2({ address: '203.0.113.7', port: 40123 }, LISTENER), authPacket(1, 1, { tid: 7300001 })]));
    const [ack, verdict] = (await terminal.waitFor(2)).map(decodeReply);
    expect(ack).toMatchObject({ rpid: 1, pr: PC.OK });
    expect(verdict.records[0].subrecords[0].data[0]).toBe(PC.OK);
    const f = fix();
    await terminal.write(positionsPacket(2, [{ rn: 2, fixes: [f] }]));
    await terminal.waitFor(3);
    expect(t.app.telemetry.latest.get(first)?.time).toBe(f.time);
    await terminal.close();
    const rows = await eventually(
      () => journal(first),
      (r) => r.length >= 2,
    );
    expect(rows.map((row) => [row.kind, row.details.remote])).toEqual([
      ['connect', '203.0.113.7:40123'],
      ['disconnect', '203.0.113.7:40123'],
    ]);
  });

  it('takes a v1 line split across packets, and an IPv6 source', async () => {
    const terminal = await TcpTerminal.open(port);
    const line = proxyV1({ address: '2001:db8::7', port: 50000 }, { address: '2001:db8::1', port: 5163 });
    await terminal.write(line.subarray(0, 10));
    await delay(30);
    await terminal.write(line.subarray(10));
    await delay(30);
    await terminal.write(authPacket(1, 1, { tid: 7300002 }));
    const [, verdict] = (await terminal.waitFor(2)).map(decodeReply);
    expect(verdict.records[0].subrecords[0].data[0]).toBe(PC.OK);
    await terminal.close();
    const rows = await eventually(
      () => journal(second),
      (r) => r.length >= 1,
    );
    expect(rows[0].details).toMatchObject({ channel: 'egts', remote: '2001:db8::7:50000', terminalId: '7300002' });
  });

  it('closes a connection that starts without a PROXY header, storing nothing', async () => {
    const terminal = await TcpTerminal.open(port);
    await terminal.write(Buffer.concat([authPacket(1, 1, { tid: 7300003 }), positionsPacket(2, [{ rn: 2, fixes: [fix()] }])]));
    await terminal.waitClosed();
    expect(terminal.received).toEqual([]);
    // a garbled header too
    const garbled = await TcpTerminal.open(port);
    await garbled.write(Buffer.concat([Buffer.from('PROXY TCP4 203.0.113.9 10.0.0.2 99999 5163\r\n'), authPacket(1, 1, { tid: 7300003 })]));
    await garbled.waitClosed();
    expect(garbled.received).toEqual([]);
    await delay(1200); // the journal's batches go out every second
    expect(await journal(third)).toEqual([]);
    expect(t.app.telemetry.latest.get(third)).toBeUndefined();
    expect(t.app.telemetry.egts?.stats().connections).toBe(0);
  });

  it("keeps the connection's own address for HAProxy's health check (LOCAL)", async () => {
    const terminal = await TcpTerminal.open(port);
    await terminal.write(Buffer.concat([proxyV2(), authPacket(1, 1, { tid: 7300001 })]));
    const [, verdict] = (await terminal.waitFor(2)).map(decodeReply);
    expect(verdict.records[0].subrecords[0].data[0]).toBe(PC.OK);
    await terminal.close();
    const rows = await eventually(
      () => journal(first),
      (r) => r.length >= 4,
    );
    expect(rows[2].details.remote).toMatch(/^(::ffff:)?127\.0\.0\.1:\d+$/);
  });
});

describe('EGTS listener waiting for a PROXY header', () => {
  it('closes a connection that sends none in time, and keeps the old behaviour when the setting is off', async () => {
    const events: VehicleEvent[] = [];
    const start = async (proxyProtocol: boolean) => {
      const server = new EgtsServer(
        {
          ingest: (positions) => ({ accepted: positions.length, duplicates: 0, rejected: [], durable: Promise.resolve(true) }),
          vehicleOf: (peer) => (String(peer) === '7000001' ? 1 : undefined),
          emitEvent: (event) => events.push(event),
          maxFrameBytes: 65_553,
        },
        { maxConnections: 10, idleTimeoutMs: 60_000, maxPendingWriteBytes: 65_536, proxyProtocol, proxyHeaderTimeoutMs: 200 },
        silentLog,
      );
      return { server, port: await server.listen(0, '127.0.0.1') };
    };
    const proxied = await start(true);
    const silent = await TcpTerminal.open(proxied.port);
    const openedAt = performance.now();
    await silent.waitClosed(2000);
    expect(performance.now() - openedAt).toBeGreaterThanOrEqual(150);
    // half a header, then silence: closed as well
    const half = await TcpTerminal.open(proxied.port);
    await half.write(proxyV2({ address: '203.0.113.7', port: 1 }, LISTENER).subarray(0, 20));
    await half.waitClosed(2000);
    await proxied.server.close();

    const plain = await start(false);
    const terminal = await TcpTerminal.open(plain.port);
    await terminal.write(authPacket(1, 1, { tid: 7000001 }));
    await terminal.waitFor(2);
    await delay(300);
    expect(terminal.closed).toBe(false);
    expect(events[0]?.remote).toMatch(/^(::ffff:)?127\.0\.0\.1:\d+$/);
    await terminal.close();
    await plain.server.close();
  });
});
