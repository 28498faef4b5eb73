import { describe, expect, it } from 'vitest';
import { crc8, crc16 } from '../src/server/telemetry/egts/crc';
import { FrameReader, type FrameEvent } from '../src/server/telemetry/egts/frameReader';
import { decodeRecords } from '../src/server/telemetry/egts/records';
import { decodePosData, decodeTermIdentity, encodePosData } from '../src/server/telemetry/egts/subrecords';
import { decodeHeader, encodePacket } from '../src/server/telemetry/egts/transport';
import { authPacket, positionsPacket } from '../src/server/telemetry/egts/terminalPackets';
import { AUTH_TID_7000001, POS_7000001 } from './fixtures/egts/packets';
import { PUBLIC_POS_DATA, PUBLIC_RESPONSE, PUBLIC_ROUTED_POS_DATA, PUBLIC_TERM_IDENTITY } from './fixtures/egts/publicVectors';

const frames = (events: FrameEvent[]) => events.filter((e): e is Extract<FrameEvent, { kind: 'frame' }> => e.kind === 'frame');
const only = (packet: Buffer) => {
  const found = frames(new FrameReader(65_553).push(packet));
  expect(found).toHaveLength(1);
  return found[0];
};

describe('EGTS checksums', () => {
  it('match the catalogued check values for "123456789"', () => {
    const check = Buffer.from('123456789', 'ascii');
    expect(crc8(check)).toBe(0xf7); // CRC-8, poly 0x31, init 0xFF, no reflection
    expect(crc16(check)).toBe(0x29b1); // CRC-16/CCITT-FALSE: poly 0x1021, init 0xFFFF, no reflection
  });

  it('reproduce the HCS and SFRCS of a published packet', () => {
    expect(crc8(PUBLIC_RESPONSE, 0, 10)).toBe(0x4a);
    expect(crc16(PUBLIC_RESPONSE, 11, 14)).toBe(0xe833);
  });
});

describe('EGTS decoding of recorded packets', () => {
  it('decodes the published POS_DATA packet', () => {
    const frame = only(PUBLIC_POS_DATA);
    expect(frame.bodyCrcOk).toBe(true);
    expect(frame.header).toMatchObject({
      prv: 1,
      prf: 0,
      rte: false,
      ena: 0,
      cmp: false,
      priority: 3,
      hl: 11,
      fdl: 35,
      pid: 138,
      pt: 1,
      hcs: 73,
    });
    const [record] = decodeRecords(frame.body);
    expect(record).toMatchObject({ rn: 97, ssod: true, oid: 133552, sst: 2, rst: 2 });
    expect(record.subrecords.map((s) => s.type)).toEqual([16]);
    const pos = decodePosData(record.subrecords[0].data);
    expect(new Date(pos.time).toISOString()).toBe('2018-07-05T20:08:53.000Z');
    expect(pos.lat).toBeCloseTo(55.55389399769574, 12);
    expect(pos.lon).toBeCloseTo(37.43236696287812, 12);
    expect(pos).toMatchObject({ valid: true, blackBox: false, speed: 200, course: 300, odometer: 0.1, digitalInputs: 0, source: 0 });
  });

  it('decodes the published TERM_IDENTITY packet', () => {
    const frame = only(PUBLIC_TERM_IDENTITY);
    const [record] = decodeRecords(frame.body);
    expect(record).toMatchObject({ rn: 95, oid: 2, sst: 1, rst: 1 });
    expect(decodeTermIdentity(record.subrecords[0].data)).toEqual({ tid: 133552, ssra: true });
  });

  it('decodes the published routed packet (HL 16) with two fixes in one record', () => {
    const frame = only(PUBLIC_ROUTED_POS_DATA);
    expect(frame.header).toMatchObject({ rte: true, hl: 16, pra: 200, rca: 201, ttl: 0, pid: 3612, fdl: 59 });
    const [record] = decodeRecords(frame.body);
    expect(record.oid).toBe(10634759);
    const [first, second] = record.subrecords.map((s) => decodePosData(s.data));
    expect(new Date(first.time).toISOString()).toBe('2017-11-28T03:26:18.000Z');
    expect(first).toMatchObject({ speed: 15, course: 246, valid: true });
    expect(second.time).toBe(first.time);
  });

  it('encodes the published RESPONSE byte for byte', () => {
    expect(decodeHeader(PUBLIC_RESPONSE)).toMatchObject({ pt: 0, pid: 137, fdl: 3, hcs: 0x4a });
    const rebuilt = encodePacket({ pid: 137, pt: 0, body: Buffer.from([0x15, 0x38, 0x00]), priority: 3 });
    expect(rebuilt.equals(PUBLIC_RESPONSE)).toBe(true);
  });

  it('decodes the hand-built TERM_IDENTITY and POS_DATA packets field by field', () => {
    const auth = decodeRecords(only(AUTH_TID_7000001).body)[0];
    expect(auth).toMatchObject({ rn: 1, sst: 1, rst: 1 });
    expect(auth.oid).toBeUndefined();
    expect(decodeTermIdentity(auth.subrecords[0].data)).toEqual({ tid: 7000001, ssra: false });

    const frame = only(POS_7000001);
    expect(frame.header).toMatchObject({ pid: 2, fdl: 52, pt: 1 });
    const [record] = decodeRecords(frame.body);
    expect(record).toMatchObject({ rn: 2, oid: 7000001, sst: 2, rst: 2 });
    expect(record.subrecords.map((s) => [s.type, s.data.length])).toEqual([
      [16, 21],
      [17, 3],
      [18, 3],
      [99, 2],
    ]);
    const pos = decodePosData(record.subrecords[0].data);
    expect(new Date(pos.time).toISOString()).toBe('2025-06-01T12:00:00.000Z');
    expect(pos.lat).toBeCloseTo(59.95355, 7);
    expect(pos.lon).toBeCloseTo(30.30991, 7);
    expect(pos).toMatchObject({ valid: true, fix3d: true, moving: true, blackBox: false, speed: 42.5, course: 270, odometer: 12345.6 });
  });

  it('decodes southern and western hemispheres, altitude and the black-box flag', () => {
    const data = encodePosData({
      time: Date.UTC(2026, 0, 2, 3, 4, 5),
      lat: -33.5,
      lon: -70.25,
      speed: 0.1,
      course: 359,
      valid: false,
      blackBox: true,
      altitude: -12,
    });
    expect(data.length).toBe(24);
    expect(data[12]).toBe(0x80 | 0x40 | 0x20 | 0x08); // ALTE, LOHS, LAHS, BB
    const pos = decodePosData(data);
    expect(pos).toMatchObject({ valid: false, blackBox: true, speed: 0.1, course: 359, altitude: -12 });
    expect(pos.lat).toBeCloseTo(-33.5, 7);
    expect(pos.lon).toBeCloseTo(-70.25, 7);
  });

  it('builds terminal packets identical to the hand-built ones', () => {
    expect(authPacket(1, 1, { tid: 7000001 }).equals(AUTH_TID_7000001)).toBe(true);
    const rebuilt = positionsPacket(2, [
      {
        rn: 2,
        oid: 7000001,
        fixes: [
          {
            time: Date.UTC(2025, 5, 1, 12),
            lat: 59.95355,
            lon: 30.30991,
            speed: 42.5,
            course: 270,
            valid: true,
            fix3d: true,
            moving: true,
            odometer: 12345.6,
          },
        ],
        extra: [
          { type: 17, data: Buffer.from([0x01, 0x64, 0x00]) },
          { type: 18, data: Buffer.from([0, 0, 0]) },
          { type: 99, data: Buffer.from([0xaa, 0xbb]) },
        ],
      },
    ]);
    expect(rebuilt.toString('hex')).toBe(POS_7000001.toString('hex'));
  });
});

describe('EGTS framing of a TCP stream', () => {
  const stream = Buffer.concat([AUTH_TID_7000001, POS_7000001, PUBLIC_POS_DATA]);

  it('cuts packets coalesced in one read', () => {
    const found = frames(new FrameReader(65_553).push(stream));
    expect(found.map((f) => f.header.pid)).toEqual([1, 2, 138]);
    expect(found.every((f) => f.bodyCrcOk)).toBe(true);
  });

  it('reassembles packets split at every byte', () => {
    const reader = new FrameReader(65_553);
    const found: number[] = [];
    for (let i = 0; i < stream.length; i++) found.push(...frames(reader.push(stream.subarray(i, i + 1))).map((f) => f.header.pid));
    expect(found).toEqual([1, 2, 138]);
    expect(reader.buffered).toBe(0);
  });

  it('reassembles packets split at arbitrary points', () => {
    for (const cuts of [[5], [11, 12], [3, 40, 41, 90], [26, 27]]) {
      const reader = new FrameReader(65_553);
      const found: number[] = [];
      let from = 0;
      for (const cut of [...cuts, stream.length]) {
        found.push(...frames(reader.push(stream.subarray(from, cut))).map((f) => f.header.pid));
        from = cut;
      }
      expect(found, `cuts ${cuts}`).toEqual([1, 2, 138]);
    }
  });

  it('resyncs after garbage by scanning for PRV with a valid header checksum', () => {
    const reader = new FrameReader(65_553);
    const events = reader.push(Buffer.concat([Buffer.from([0x00, 0x01, 0x0b, 0x01, 0x01, 0x01, 0x10, 0xff]), POS_7000001]));
    expect(frames(events).map((f) => f.header.pid)).toEqual([2]);
    expect(events.find((e) => e.kind === 'garbage')).toEqual({ kind: 'garbage', bytes: 8 });
    expect(events.some((e) => e.kind === 'headerCrc')).toBe(false); // garbage is not answered
  });

  it('reports a header checksum failure where a packet was due, then finds the next packet', () => {
    const broken = Buffer.from(POS_7000001);
    broken[7] ^= 0xff; // PID byte changed: HCS no longer matches
    const events = new FrameReader(65_553).push(Buffer.concat([broken, AUTH_TID_7000001]));
    expect(events[0]).toMatchObject({ kind: 'headerCrc' });
    expect(frames(events).map((f) => f.header.pid)).toEqual([1]);
  });

  it('flags a body checksum failure', () => {
    const broken = Buffer.from(POS_7000001);
    broken[30] ^= 0x01;
    expect(only(broken).bodyCrcOk).toBe(false);
  });

  it('skips a packet longer than the maximum, across reads', () => {
    const reader = new FrameReader(40);
    const first = reader.push(POS_7000001.subarray(0, 20));
    expect(first).toEqual([expect.objectContaining({ kind: 'tooLarge' })]);
    expect(frames(reader.push(Buffer.concat([POS_7000001.subarray(20), AUTH_TID_7000001]))).map((f) => f.header.pid)).toEqual([1]);
  });
});
