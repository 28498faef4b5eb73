import { describe, expect, it } from 'vitest';
import { PC } from '../src/server/telemetry/egts/constants';
import { encodeRecords } from '../src/server/telemetry/egts/records';
import { decodeRecordResponse } from '../src/server/telemetry/egts/subrecords';
import { encodePacket } from '../src/server/telemetry/egts/transport';
import { authPacket, positionsPacket, type TerminalFix } from '../src/server/telemetry/egts/terminalPackets';
import { AUTH_TID_7000001, POS_7000001 } from './fixtures/egts/packets';
import { hex } from './fixtures/egts/hex';
import { decodeReply, sessionHarness } from './fixtures/egts/harness';

const VEHICLE = 42;
const PEERS = { '7000001': VEHICLE, '860000000000017': 17 };
/** A fix of a few seconds ago, at whole seconds as EGTS carries them. */
const fix = (secondsAgo: number, more: Partial<TerminalFix> = {}): TerminalFix => ({
  time: Math.floor(Date.now() / 1000 - secondsAgo) * 1000,
  lat: 59.93,
  lon: 30.33,
  speed: 36,
  course: 90,
  valid: true,
  ...more,
});

describe('EGTS acknowledgements', () => {
  it('answers a POS_DATA packet with a RESPONSE and one RECORD_RESPONSE, byte for byte', () => {
    const { session } = sessionHarness(PEERS);
    const { replies, close } = session.receive(POS_7000001);
    expect(close).toBe(false);
    expect(replies).toHaveLength(1);
    expect(replies[0].toString('hex')).toBe(
      hex(`
      01 00 00 0B 00  # PRV, SKID, flags (PR 00), HL 11, HE
      10 00           # FDL: 16
      00 00           # PID: 0, the first packet this connection receives from us
      00              # PT: EGTS_PT_RESPONSE
      68              # HCS
      02 00           # RPID: the PID answered
      00              # PR: EGTS_PC_OK
      06 00           # SDR  RL: 6
      00 00           #      RN: 0
      40              #      RFL: SSOD 0 (sender on the platform), RSOD 1
      02 02           #      SST, RST: EGTS_TELEDATA_SERVICE
      00 03 00        #   SRT 0 EGTS_SR_RECORD_RESPONSE, SRL 3
      02 00           #     CRN: record 2 confirmed
      00              #     RST: EGTS_PC_OK
      26 95           # SFRCS
    `).toString('hex'),
    );
  });

  it('answers TERM_IDENTITY of a known terminal with RECORD_RESPONSE, then RESULT_CODE 0, byte for byte', () => {
    const { session, events } = sessionHarness(PEERS);
    const { replies, close } = session.receive(AUTH_TID_7000001);
    expect(close).toBe(false);
    expect(replies.map((r) => r.toString('hex'))).toEqual([
      hex(`01 00 00 0B 00 10 00  00 00  00  68    # RESPONSE, PID 0, FDL 16
           01 00  00                           # RPID 1, PR OK
           06 00  00 00  40  01 01             # record RN 0, AUTH service
           00 03 00  01 00  00                 # RECORD_RESPONSE: CRN 1, RST OK
           CC 34`).toString('hex'),
      hex(`01 00 00 0B 00 0B 00  01 00  01  19    # APPDATA, PID 1, FDL 11
           04 00  01 00  40  01 01             # record RL 4, RN 1, AUTH service
           09 01 00  00                        # EGTS_SR_RESULT_CODE, SRL 1, RCD 0 = EGTS_PC_OK
           31 98`).toString('hex'),
    ]);
    expect(session.vehicleId).toBe(VEHICLE);
    expect(events).toMatchObject([{ vehicleId: VEHICLE, kind: 'connected', channel: 'egts', terminalId: '7000001' }]);
    session.end();
    expect(events[1]).toMatchObject({ vehicleId: VEHICLE, kind: 'disconnected' });
  });

  it('authenticates by IMEI when the TID is not a known peer address', () => {
    const { session } = sessionHarness(PEERS);
    const { replies } = session.receive(authPacket(1, 1, { tid: 17, imei: '860000000000017' }));
    expect(decodeReply(replies[1]).records[0].subrecords[0].data[0]).toBe(PC.OK);
    expect(session.vehicleId).toBe(17);
  });

  it('refuses an unknown terminal with RESULT_CODE AUTH_DENIED and closes', () => {
    const { session, events } = sessionHarness(PEERS);
    const { replies, close } = session.receive(authPacket(7, 1, { tid: 123 }));
    expect(close).toBe(true);
    expect(decodeReply(replies[0])).toMatchObject({ rpid: 7, pr: PC.OK });
    expect(replies[1].toString('hex')).toBe(
      hex(`01 00 00 0B 00 0B 00 01 00 01 19  04 00 01 00 40 01 01  09 01 00 97  6F 6B`).toString('hex'),
    );
    expect(events).toEqual([]);
    expect(session.receive(positionsPacket(8, [{ rn: 2, fixes: [fix(1)] }])).replies).toEqual([]);
  });

  it('numbers its packets and records per connection', () => {
    const { session } = sessionHarness(PEERS);
    const pids: number[] = [];
    const rns: number[] = [];
    for (let i = 0; i < 3; i++) {
      for (const reply of session.receive(positionsPacket(100 + i, [{ rn: i, oid: 7000001, fixes: [fix(10 - i)] }])).replies) {
        const decoded = decodeReply(reply);
        pids.push(decoded.header.pid);
        rns.push(...decoded.records.map((r) => r.rn));
        expect(decoded.rpid).toBe(100 + i);
      }
    }
    expect(pids).toEqual([0, 1, 2]);
    expect(rns).toEqual([0, 1, 2]);
  });

  it('confirms every record of a packet, each with its own status', () => {
    const { session } = sessionHarness(PEERS);
    const packet = encodePacket({
      pid: 5,
      pt: 1,
      priority: 3,
      body: encodeRecords(
        [
          { rn: 10, oid: 7000001, sst: 2, rst: 2, subrecords: [{ type: 16, data: positionsPacketFix() }] },
          { rn: 11, oid: 999, sst: 2, rst: 2, subrecords: [] },
          { rn: 12, sst: 7, rst: 7, subrecords: [] },
          { rn: 13, oid: 7000001, sst: 2, rst: 2, subrecords: [{ type: 16, data: Buffer.alloc(5) }] },
        ],
        'terminal',
      ),
    });
    const reply = decodeReply(session.receive(packet).replies[0]);
    const statuses = reply.records.flatMap((r) => r.subrecords.map((s) => decodeRecordResponse(s.data)));
    expect(statuses).toEqual([
      { crn: 10, rst: PC.OK },
      { crn: 11, rst: PC.OK }, // unknown OID, but the connection already belongs to vehicle 42 by record 10
      { crn: 13, rst: PC.INC_DATAFORM },
      { crn: 12, rst: PC.SRVC_NFOUND },
    ]);
  });

  it('refuses teledata of an unknown object on an unauthenticated connection with OBJ_NFOUND', () => {
    const { session, written } = sessionHarness(PEERS);
    const reply = decodeReply(session.receive(positionsPacket(1, [{ rn: 1, oid: 555, fixes: [fix(1)] }])).replies[0]);
    expect(decodeRecordResponse(reply.records[0].subrecords[0].data)).toEqual({ crn: 1, rst: PC.OBJ_NFOUND });
    expect(written()).toEqual([]);
  });
});

function positionsPacketFix(): Buffer {
  const packet = positionsPacket(0, [{ rn: 0, fixes: [fix(3)] }]);
  return packet.subarray(11 + 7 + 3, 11 + 7 + 3 + 21);
}

describe('EGTS refusals', () => {
  it('answers a header checksum failure with HEADERCRC_ERROR and processes nothing', () => {
    const { session, written } = sessionHarness(PEERS);
    const packet = positionsPacket(9, [{ rn: 1, oid: 7000001, fixes: [fix(1)] }]);
    packet[10] ^= 0x55;
    const replies = session.receive(packet).replies.map(decodeReply);
    expect(replies[0]).toMatchObject({ rpid: 9, pr: PC.HEADERCRC_ERROR, records: [] });
    expect(written()).toEqual([]);
  });

  it('answers a body checksum failure with DATACRC_ERROR, byte for byte, and processes nothing', () => {
    const { session, written, latest } = sessionHarness(PEERS);
    const packet = positionsPacket(2, [{ rn: 1, oid: 7000001, fixes: [fix(1)] }]);
    packet[packet.length - 1] ^= 0xff;
    const { replies } = session.receive(packet);
    expect(replies.map((r) => r.toString('hex'))).toEqual([hex('01 00 00 0B 00 03 00 00 00 00 50  02 00 8A  3E 92').toString('hex')]);
    expect(written()).toEqual([]);
    expect(latest.get(VEHICLE)).toBeUndefined();
  });

  it('refuses encrypted, compressed, foreign-prefix and unknown packet types', () => {
    const { session, written } = sessionHarness(PEERS);
    const base = positionsPacket(3, [{ rn: 1, oid: 7000001, fixes: [fix(1)] }]);
    const variant = (flags: number, pt = 1) => {
      const p = Buffer.from(base);
      p[2] = flags;
      p[9] = pt;
      p[10] = crc8Header(p);
      return p;
    };
    const results = [variant(0x08), variant(0x04), variant(0x40), variant(0x03, 7)].map(
      (p) => decodeReply(session.receive(p).replies[0]).pr,
    );
    expect(results).toEqual([PC.DECRYPT_ERROR, PC.INC_DATAFORM, PC.UNS_PROTOCOL, PC.UNS_PROTOCOL]);
    expect(written()).toEqual([]);
  });

  it('refuses a packet whose records overrun the frame with INC_DATAFORM', () => {
    const { session } = sessionHarness(PEERS);
    const body = encodeRecords([{ rn: 1, oid: 7000001, sst: 2, rst: 2, subrecords: [{ type: 16, data: Buffer.alloc(21) }] }], 'terminal');
    body.writeUInt16LE(200, 0); // RL larger than what follows
    expect(decodeReply(session.receive(encodePacket({ pid: 4, pt: 1, body })).replies[0]).pr).toBe(PC.INC_DATAFORM);
  });

  it('takes a RESPONSE from the terminal silently', () => {
    const { session } = sessionHarness(PEERS);
    expect(session.receive(encodePacket({ pid: 1, pt: 0, body: Buffer.from([0, 0, 0]) })).replies).toEqual([]);
  });
});

function crc8Header(packet: Buffer): number {
  let crc = 0xff;
  for (let i = 0; i < 10; i++) {
    crc ^= packet[i];
    for (let bit = 0; bit < 8; bit++) crc = crc & 0x80 ? ((crc << 1) ^ 0x31) & 0xff : (crc << 1) & 0xff;
  }
  return crc;
}

describe('EGTS positions through the pipeline', () => {
  it('ingests a fix into the latest state and the track', () => {
    const { session, latest, written } = sessionHarness(PEERS);
    session.receive(AUTH_TID_7000001);
    const f = fix(2, { speed: 42.5, course: 270 });
    session.receive(positionsPacket(2, [{ rn: 2, fixes: [f] }]));
    expect(latest.get(VEHICLE)).toMatchObject({ time: f.time, speed: 42.5, course: 270, valid: true });
    expect(latest.get(VEHICLE)!.lat).toBeCloseTo(59.93, 6);
    expect(written()).toHaveLength(1);
  });

  it('drops duplicates: a resent packet and a repeated fix inside one record', () => {
    const { session, written, pipeline } = sessionHarness(PEERS);
    const f = fix(5);
    const packet = positionsPacket(1, [{ rn: 1, oid: 7000001, fixes: [f, { ...f, speed: 0 }] }]);
    const first = decodeReply(session.receive(packet).replies[0]);
    const resent = decodeReply(session.receive(packet).replies[0]);
    // A resend is confirmed again (the terminal must stop resending) but stored once.
    expect(first.pr).toBe(PC.OK);
    expect(decodeRecordResponse(resent.records[0].subrecords[0].data)).toEqual({ crn: 1, rst: PC.OK });
    expect(written()).toHaveLength(1);
    expect(pipeline.stats()).toMatchObject({ accepted: 1, duplicates: 3 });
  });

  it('stores black-box history without moving the latest position back', () => {
    const { session, latest, written } = sessionHarness(PEERS);
    const now = fix(1, { lat: 59.9, lon: 30.3 });
    session.receive(positionsPacket(1, [{ rn: 1, oid: 7000001, fixes: [now] }]));
    const history = [fix(600, { lat: 59.8, lon: 30.1, blackBox: true }), fix(300, { lat: 59.85, lon: 30.2, blackBox: true })];
    session.receive(positionsPacket(2, [{ rn: 2, oid: 7000001, fixes: history }]));
    expect(latest.get(VEHICLE)).toMatchObject({ time: now.time });
    expect(latest.get(VEHICLE)!.lat).toBeCloseTo(59.9, 6);
    expect(written().map((p) => [p.time, p.history])).toEqual([
      [now.time, false],
      [history[0].time, true],
      [history[1].time, true],
    ]);
  });

  it('keeps the last valid coordinates when a fix is not valid, and drops impossible ones', () => {
    const { session, latest, written } = sessionHarness(PEERS);
    session.receive(positionsPacket(1, [{ rn: 1, oid: 7000001, fixes: [fix(20, { lat: 59.9 })] }]));
    session.receive(
      positionsPacket(2, [{ rn: 2, oid: 7000001, fixes: [fix(10, { lat: 59.7, valid: false }), fix(5, { lat: 0, lon: 0 }), fix(-3600)] }]),
    );
    expect(latest.get(VEHICLE)!.lat).toBeCloseTo(59.9, 6);
    expect(written().map((p) => p.valid)).toEqual([true, false]);
  });

  it('gives the same answers whether packets come split or coalesced', () => {
    const packets = [AUTH_TID_7000001, positionsPacket(2, [{ rn: 2, fixes: [fix(3)] }]), positionsPacket(3, [{ rn: 3, fixes: [fix(2)] }])];
    const whole = sessionHarness(PEERS);
    const coalesced = whole.session.receive(Buffer.concat(packets)).replies;
    const split = sessionHarness(PEERS);
    const stream = Buffer.concat(packets);
    const pieces: Buffer[] = [];
    for (let i = 0; i < stream.length; i += 7) pieces.push(...split.session.receive(stream.subarray(i, i + 7)).replies);
    expect(coalesced).toHaveLength(4);
    expect(pieces.map((p) => p.toString('hex'))).toEqual(coalesced.map((p) => p.toString('hex')));
    expect(split.written()).toHaveLength(2);
  });

  it('skips the signature of SIGNED_APPDATA and processes its records', () => {
    const { session, written } = sessionHarness(PEERS);
    const records = encodeRecords(
      [{ rn: 1, oid: 7000001, sst: 2, rst: 2, subrecords: [{ type: 16, data: positionsPacketFix() }] }],
      'terminal',
    );
    const signature = Buffer.from([4, 0, 0xde, 0xad, 0xbe, 0xef]);
    const reply = decodeReply(session.receive(encodePacket({ pid: 1, pt: 2, body: Buffer.concat([signature, records]) })).replies[0]);
    expect(reply.pr).toBe(PC.OK);
    expect(written()).toHaveLength(1);
  });
});
