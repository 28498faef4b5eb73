import { describe, expect, it } from 'vitest';
import { crc8, crc16 } from '../src/server/telemetry/egts/crc';
import { PC, SERVICE } from '../src/server/telemetry/egts/constants';
import {
  ACT,
  CC,
  CT,
  commandPacket,
  confirmationOf,
  confirmationPacket,
  decodeCommandData,
  encodeCommandData,
  parameterValue,
  SRT_COMMAND_DATA,
} from '../src/server/telemetry/egts/commands';
import { FrameReader } from '../src/server/telemetry/egts/frameReader';
import { decodeRecords, EgtsFormatError } from '../src/server/telemetry/egts/records';
import { decodeRecordResponse } from '../src/server/telemetry/egts/subrecords';
import { EgtsSession } from '../src/server/telemetry/egts/session';
import { TerminalLinks, type CommandConfirmation } from '../src/server/telemetry/egts/terminalLinks';
import { authPacket } from '../src/server/telemetry/egts/terminalPackets';
import { CommandDispatcher } from '../src/server/equipment/commandDispatcher';
import { hex } from './fixtures/egts/hex';
import { silentLog } from './fixtures/egts/harness';

/** EGTS_SR_COMMAND_DATA (ГОСТ 33465-2015, EGTS_COMMANDS_SERVICE) byte for byte, and its way over a session. */
describe('EGTS commands service', () => {
  it('encodes a CT_COM setting the APN as the standard lays it out', () => {
    const { data, sz, chs } = parameterValue('internet');
    const bytes = encodeCommandData({ ct: CT.COM, cct: CC.OK, cid: 0x01020304, sid: 1, chs, adr: 0, act: ACT.SET, sz, ccd: 0x0203, data });
    expect(bytes.toString('hex')).toBe(
      hex(`
      50              # CT 0101 CT_COM, CCT 0000
      04 03 02 01     # CID
      01 00 00 00     # SID
      01              # flags: ACFE 0, CHSFE 1
      00              # CHS: CP1251
      00 00           # ADR
      20              # ACT 0010 (set value), SZ 0000
      03 02           # CCD: EGTS_GPRS_APN 0x0203
      69 6E 74 65 72 6E 65 74   # DT: "internet"
    `).toString('hex'),
    );
    expect(decodeCommandData(bytes)).toMatchObject({
      ct: CT.COM,
      cid: 0x01020304,
      sid: 1,
      chs: 0,
      adr: 0,
      act: ACT.SET,
      sz: 0,
      ccd: 0x0203,
    });
  });

  it('encodes an integer parameter as a UINT (SZ 2) and reads authorisation codes', () => {
    const { data, sz } = parameterValue(30);
    const bytes = encodeCommandData({
      ct: CT.COM,
      cct: 0,
      cid: 7,
      sid: 1,
      ac: Buffer.from('1234'),
      adr: 0,
      act: ACT.SET,
      sz,
      ccd: 0x8001,
      data,
    });
    expect(bytes.toString('hex')).toBe(hex('50 07 00 00 00 01 00 00 00 02 04 31 32 33 34 00 00 22 01 80 1E 00 00 00').toString('hex'));
    expect(decodeCommandData(bytes)).toMatchObject({ ac: Buffer.from('1234'), sz: 2, ccd: 0x8001, data: Buffer.from([30, 0, 0, 0]) });
  });

  it('decodes a terminal CT_COMCONF of each confirmation type', () => {
    for (const cct of [CC.OK, CC.ERROR, CC.ILL, CC.DEL, CC.NFOUND, CC.NCONF, CC.INPROG]) {
      const bytes = hex(`1${cct}  2A 00 00 00  01 00 00 00  00  00 00  03 02`);
      expect(decodeCommandData(bytes)).toMatchObject({ ct: CT.COMCONF, cct, cid: 42, sid: 1, adr: 0, ccd: 0x0203, data: Buffer.alloc(0) });
    }
    expect(() => decodeCommandData(hex('10 2A 00 00 00 01'))).toThrow(EgtsFormatError);
    expect(() => decodeCommandData(hex('10 2A 00 00 00 01 00 00 00 00 00'))).toThrow(EgtsFormatError);
    expect(() => decodeCommandData(hex('50 2A 00 00 00 01 00 00 00 02 05 31 32'))).toThrow(EgtsFormatError);
  });

  it('wraps commands in an APPDATA packet of the commands service, checksums included', () => {
    const commands = CommandDispatcher.commandsOf(9, { apn: 'internet', reportIntervalMoving: 5 });
    const packet = commandPacket(3, 4, commands);
    const sub1 = encodeCommandData(commands[0]);
    const sub2 = encodeCommandData(commands[1]);
    const rd = Buffer.concat([
      Buffer.from([SRT_COMMAND_DATA, sub1.length, 0]),
      sub1,
      Buffer.from([SRT_COMMAND_DATA, sub2.length, 0]),
      sub2,
    ]);
    const sfrd = Buffer.concat([hex(`${rd.length.toString(16).padStart(2, '0')} 00  04 00  40  04 04`), rd]);
    const header = hex(`01 00 00 0B 00 ${(sfrd.length & 0xff).toString(16).padStart(2, '0')} 00  03 00  01`);
    const crc = Buffer.alloc(2);
    crc.writeUInt16LE(crc16(sfrd));
    expect(packet.toString('hex')).toBe(Buffer.concat([header, Buffer.from([crc8(header)]), sfrd, crc]).toString('hex'));
    const [frame] = new FrameReader(65_553).push(packet);
    expect(frame).toMatchObject({ kind: 'frame', bodyCrcOk: true });
    const [record] = decodeRecords((frame as { body: Buffer }).body);
    expect(record).toMatchObject({ rn: 4, sst: SERVICE.COMMANDS, rst: SERVICE.COMMANDS, rsod: true });
    expect(record.subrecords.map((s) => decodeCommandData(s.data).ccd)).toEqual([0x0203, 0x8001]);
  });

  it('goes over a terminal connection: authenticated, the session is the vehicle link; a confirmation comes back as an event', () => {
    const links = new TerminalLinks();
    const written: Buffer[] = [];
    const session = new EgtsSession(
      {
        ingest: () => ({ accepted: 0, rejected: 0, durable: Promise.resolve(true) }) as never,
        vehicleOf: (peer) => (String(peer) === '7000001' ? 42 : undefined),
        emitEvent: () => undefined,
        log: silentLog,
        maxFrameBytes: 65_553,
        commands: links,
        write: (packet) => written.push(packet) > 0,
      },
      '127.0.0.1:1',
    );
    expect(links.online(42)).toBe(false);
    session.receive(authPacket(1, 1, { tid: 7000001 }));
    expect(links.online(42)).toBe(true);

    const confirmations: CommandConfirmation[] = [];
    links.onConfirmation((list) => confirmations.push(...list));
    const commands = CommandDispatcher.commandsOf(77, { apn: 'internet' });
    expect(links.send(42, commands)).toBe(true);
    expect(written).toHaveLength(1);
    // The packet went out numbered after the session's own answers (RESPONSE PID 0, RESULT_CODE PID 1).
    expect(written[0].readUInt16LE(7)).toBe(2);
    const [received] = decodeRecords(written[0].subarray(11, written[0].length - 2));
    const command = decodeCommandData(received.subrecords[0].data);

    const { replies } = session.receive(confirmationPacket(5, 9, [confirmationOf(command, CC.OK)]));
    expect(confirmations).toMatchObject([{ vehicleId: 42, cid: 77, cct: CC.OK, ccd: 0x0203 }]);
    // ... and the terminal's record is confirmed with a RECORD_RESPONSE in the commands service.
    const body = replies[0].subarray(11, replies[0].length - 2);
    const [record] = decodeRecords(body, 3);
    expect(record.sst).toBe(SERVICE.COMMANDS);
    expect(decodeRecordResponse(record.subrecords[0].data)).toEqual({ crn: 9, rst: PC.OK });

    session.end();
    expect(links.online(42)).toBe(false);
  });
});
