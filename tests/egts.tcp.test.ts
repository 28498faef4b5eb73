import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setTimeout as delay } from 'node:timers/promises';
import { PC } from '../src/server/telemetry/egts/constants';
import { decodeRecordResponse } from '../src/server/telemetry/egts/subrecords';
import { authPacket, positionsPacket, type TerminalFix } from '../src/server/telemetry/egts/terminalPackets';
import { ENGINES } from './helpers/engines';
import { startTestApp, type TestApp } from './helpers/testApp';
import { AUTH_TID_7000001 } from './fixtures/egts/packets';
import { decodeReply } from './fixtures/egts/harness';
import { TcpTerminal } from './fixtures/egts/tcpTerminal';

const fix = (secondsAgo: number, more: Partial<TerminalFix> = {}): TerminalFix => ({
  time: Math.floor(Date.now() / 1000 - secondsAgo) * 1000,
  lat: 59.9386,
  lon: 30.3141,
  speed: 27.5,
  course: 181,
  valid: true,
  ...more,
});

async function eventually<T>(read: () => Promise<T>, accept: (value: T) => boolean, timeoutMs = 5000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (accept(value) || Date.now() > until) return value;
    await delay(100);
  }
}

describe.each(ENGINES)('EGTS over TCP through buildApp on %s', (engine) => {
  let t: TestApp;
  let port: number;
  let vehicleId: number;
  let terminalVehicleId: number;

  beforeAll(async () => {
    t = await startTestApp(engine);
    // A vehicle known by its own peer address, and one known through its on-board terminal (mgt.dev_mnt).
    [{ id: vehicleId }] = await t.db.query<{ id: number }>(
      'insert into mgt.vehicles (depot_number, peer_address) values (990001, 7000001) returning id',
    );
    [{ id: terminalVehicleId }] = await t.db.query<{ id: number }>('insert into mgt.vehicles (depot_number) values (990002) returning id');
    const [{ id: mntType }] = await t.db.query<{ id: number }>(
      `insert into mgt.mnt_type (name, type, version) values ('ТЕСТ', 'egts', '1') returning id`,
    );
    await t.db.query(`insert into mgt.dev_mnt (ip, "DevMNTType_id", vehicle_id, peer_address) values ('10.0.0.9', $1, $2, 7000002)`, [
      mntType,
      terminalVehicleId,
    ]);
    await t.app.telemetry.devices.refresh();
    port = await t.app.telemetry.startEgts(0, '127.0.0.1');
  });
  afterAll(() => t.close());

  it('authenticates a terminal, acknowledges packets split across reads and coalesced, and stores them', async () => {
    const terminal = await TcpTerminal.open(port);
    await terminal.write(AUTH_TID_7000001);
    const [ack, verdict] = (await terminal.waitFor(2)).map(decodeReply);
    expect(ack).toMatchObject({ rpid: 1, pr: PC.OK });
    expect(decodeRecordResponse(ack.records[0].subrecords[0].data)).toEqual({ crn: 1, rst: PC.OK });
    expect(verdict.header.pt).toBe(1);
    expect(verdict.records[0].subrecords[0]).toMatchObject({ type: 9, data: Buffer.from([PC.OK]) });

    const fixes = [fix(30), fix(20, { course: 5 }), fix(10, { speed: 50.2 })];
    const split = positionsPacket(2, [{ rn: 2, fixes: [fixes[0]] }]);
    await terminal.write(split.subarray(0, 9));
    await delay(30);
    await terminal.write(split.subarray(9));
    await terminal.write(
      Buffer.concat([positionsPacket(3, [{ rn: 3, fixes: [fixes[1]] }]), positionsPacket(4, [{ rn: 4, fixes: [fixes[2]] }])]),
    );
    const acks = (await terminal.waitFor(5)).slice(2).map(decodeReply);
    expect(acks.map((a) => [a.rpid, a.pr])).toEqual([
      [2, PC.OK],
      [3, PC.OK],
      [4, PC.OK],
    ]);

    expect(t.app.telemetry.latest.get(vehicleId)).toMatchObject({ time: fixes[2].time, speed: 50.2, course: 181, valid: true });
    const admin = await t.login('admin', 'admin123');
    const period = await t.app.inject({
      method: 'POST',
      url: '/api/v1/map/vehicles/period',
      headers: { authorization: admin },
      payload: { vehicleId, from: new Date(Date.now() - 3_600_000).toISOString(), to: new Date().toISOString() },
    });
    expect(period.statusCode).toBe(200);
    expect(period.json().points.map((p: { tm: string; course: number }) => [Date.parse(p.tm), p.course])).toEqual([
      [fixes[0].time, 181],
      [fixes[1].time, 5],
      [fixes[2].time, 181],
    ]);
    expect(period.json().points[2].speed).toBeCloseTo(50.2, 4);

    await terminal.close();
    const journal = await eventually(
      () =>
        t.db.query<{ kind: string; details: { channel: string; terminalId: string } }>(
          'select kind, details from app.vehicle_event where vehicle_id = $1 order by id',
          [vehicleId],
        ),
      (rows) => rows.length >= 2,
    );
    expect(journal.map((row) => row.kind)).toEqual(['connect', 'disconnect']);
    expect(journal[0].details).toMatchObject({ channel: 'egts', terminalId: '7000001' });
  });

  it('knows a terminal by the peer address of its on-board unit and by the OID of its records', async () => {
    const terminal = await TcpTerminal.open(port);
    const f = fix(5);
    await terminal.write(positionsPacket(1, [{ rn: 1, oid: 7000002, fixes: [f] }]));
    const [ack] = (await terminal.waitFor(1)).map(decodeReply);
    expect(decodeRecordResponse(ack.records[0].subrecords[0].data)).toEqual({ crn: 1, rst: PC.OK });
    expect(t.app.telemetry.latest.get(terminalVehicleId)?.time).toBe(f.time);
    await terminal.close();
  });

  it('refuses an unknown terminal with RESULT_CODE AUTH_DENIED and closes the connection', async () => {
    const terminal = await TcpTerminal.open(port);
    await terminal.write(authPacket(1, 1, { tid: 4242 }));
    const replies = (await terminal.waitFor(2)).map(decodeReply);
    expect(replies[1].records[0].subrecords[0].data[0]).toBe(PC.AUTH_DENIED);
    await terminal.waitClosed();
  });

  it('answers a corrupted body with DATACRC_ERROR and keeps the connection for the resend', async () => {
    const terminal = await TcpTerminal.open(port);
    const good = positionsPacket(7, [{ rn: 1, oid: 7000001, fixes: [fix(2)] }]);
    const bad = Buffer.from(good);
    bad[20] ^= 0xff;
    await terminal.write(Buffer.concat([Buffer.from([0xee, 0xee]), bad]));
    await terminal.write(good);
    const replies = (await terminal.waitFor(2)).map(decodeReply);
    expect(replies.map((r) => [r.rpid, r.pr])).toEqual([
      [7, PC.DATACRC_ERROR],
      [7, PC.OK],
    ]);
    await terminal.close();
  });
});
