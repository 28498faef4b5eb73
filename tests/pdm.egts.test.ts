import { describe, expect, it } from 'vitest';
import { EgtsSession } from '../src/server/telemetry/egts/session';
import { decodeRecords } from '../src/server/telemetry/egts/records';
import { decodeRecordResponse } from '../src/server/telemetry/egts/subrecords';
import {
  decodeAdSensors,
  decodeCounters,
  decodeLiquidLevel,
  decodeSensorSubrecord,
  encodeAdSensors,
  encodeCounters,
  encodeLiquidLevel,
  type SensorBatch,
} from '../src/server/telemetry/egts/sensors';
import { positionsPacket } from '../src/server/telemetry/egts/terminalPackets';
import { hex } from './fixtures/egts/hex';
import { silentLog } from './fixtures/egts/harness';

/** EGTS teledata sensor subrecords (ГОСТ 33465-2015) decoded from hand-built bytes with known values. */
describe('EGTS sensor subrecords', () => {
  it('decodes EGTS_SR_AD_SENSORS_DATA: digital octets by DIOE, analog 24-bit values by ASFE', () => {
    const data = hex(`
      05        # DIOE: ADIO1 and ADIO3 present
      80        # DOUT: output 8 on
      0A        # ASFE: ANS2 and ANS4 present
      81        # ADIO1: inputs 1 and 8 on
      02        # ADIO3: input 18 (bit 1 of the third octet) on
      E8 03 00  # ANS2: 1000
      56 34 12  # ANS4: 0x123456 = 1193046
    `);
    const { samples, outputs } = decodeAdSensors(data);
    expect(outputs).toBe(0x80);
    const digital = samples.filter((s) => s.kind === 'digital');
    expect(digital).toHaveLength(16);
    expect(digital.filter((s) => s.raw === 1).map((s) => s.channel)).toEqual([1, 8, 18]);
    expect(digital.map((s) => s.channel)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 17, 18, 19, 20, 21, 22, 23, 24]);
    expect(samples.filter((s) => s.kind === 'analog')).toEqual([
      { kind: 'analog', channel: 2, raw: 1000 },
      { kind: 'analog', channel: 4, raw: 1193046 },
    ]);
  });

  it('decodes EGTS_SR_COUNTERS_DATA: CFE bits and 24-bit counters', () => {
    const samples = decodeCounters(
      hex(`
      81        # CFE: CN1 and CN8
      01 00 00  # CN1: 1
      FF FF FF  # CN8: 16777215
    `),
    );
    expect(samples).toEqual([
      { kind: 'counter', channel: 1, raw: 1 },
      { kind: 'counter', channel: 8, raw: 16_777_215 },
    ]);
  });

  it('decodes EGTS_SR_LIQUID_LEVEL_SENSOR: number, module, unit, error flag', () => {
    // flags 0x52: LLSEF 1, LLSVU 01 (percent, 0.1 %), RDF 0, LLSN 2; MADDR 1; LLSD 755 → 75.5 %
    expect(decodeLiquidLevel(hex('52  01 00  F3 02 00 00'))).toEqual({
      kind: 'liquid',
      channel: 10,
      raw: 75.5,
      error: true,
      unit: 'percent',
    });
    // flags 0x20: LLSVU 10 (litres, 0.1 l), LLSN 0; MADDR 0; LLSD 1234 → 123.4 l
    expect(decodeLiquidLevel(hex('20  00 00  D2 04 00 00'))).toEqual({
      kind: 'liquid',
      channel: 0,
      raw: 123.4,
      error: false,
      unit: 'litres',
    });
    // not calibrated: the value as measured
    expect(decodeLiquidLevel(hex('03  00 00  10 27 00 00'))).toMatchObject({ channel: 3, raw: 10_000, unit: 'raw' });
  });

  it('decodes the absolute analog and counter subrecords (24, 25)', () => {
    expect(decodeSensorSubrecord({ type: 24, data: hex('05  10 27 00') })).toEqual([{ kind: 'analog', channel: 5, raw: 10_000 }]);
    expect(decodeSensorSubrecord({ type: 25, data: hex('02  03 00 00') })).toEqual([{ kind: 'counter', channel: 2, raw: 3 }]);
  });

  it('refuses a truncated subrecord as a format error', () => {
    expect(() => decodeAdSensors(hex('00 00 01  E8 03'))).toThrow(/AD_SENSORS_DATA/);
    expect(() => decodeCounters(hex('01  01 00'))).toThrow(/COUNTERS_DATA/);
    expect(() => decodeLiquidLevel(hex('00 00 00  01'))).toThrow(/LIQUID_LEVEL_SENSOR/);
  });

  it('encodes what it decodes', () => {
    expect(encodeAdSensors({ digital: [1, 0, 0, 0, 0, 0, 0, 1], analog: [undefined, 1000] }).data).toEqual(hex('01 00 02  81  E8 03 00'));
    expect(encodeCounters([5]).data).toEqual(hex('01  05 00 00'));
    expect(encodeLiquidLevel({ number: 2, module: 1, value: 75.5, unit: 'percent', error: true }).data).toEqual(
      hex('52  01 00  F3 02 00 00'),
    );
  });

  it("hands the sensors of a TELEDATA record to PDM at the position's time and confirms only once they are stored", async () => {
    const batches: SensorBatch[] = [];
    let store!: (ok: boolean) => void;
    const session = new EgtsSession(
      {
        ingest: () => ({ durable: Promise.resolve(true), accepted: 1, rejected: 0 }) as never,
        vehicleOf: (peer) => (String(peer) === '7000001' ? 42 : undefined),
        emitEvent: () => undefined,
        log: silentLog,
        maxFrameBytes: 65_553,
        ingestSensors: (b) => {
          batches.push(...b);
          return new Promise<boolean>((resolve) => {
            store = resolve;
          });
        },
      },
      'test',
    );
    const time = Math.floor(Date.now() / 1000 - 5) * 1000;
    const packet = positionsPacket(7, [
      {
        rn: 3,
        oid: 7000001,
        fixes: [{ time, lat: 59.9, lon: 30.3, speed: 10, course: 0, valid: true }],
        extra: [encodeAdSensors({ analog: [1260] }), encodeLiquidLevel({ number: 0, value: 50, unit: 'percent' })],
      },
    ]);
    const out = session.receive(packet);
    expect(batches).toEqual([
      { vehicleId: 42, time, samples: [{ kind: 'analog', channel: 1, raw: 1260 }] },
      { vehicleId: 42, time, samples: [{ kind: 'liquid', channel: 0, raw: 50, error: false, unit: 'percent' }] },
    ]);
    let confirmed = false;
    void out.durable!.then((ok) => {
      confirmed = ok;
    });
    await new Promise((r) => setTimeout(r, 10));
    expect(confirmed).toBe(false);
    store(true);
    await new Promise((r) => setTimeout(r, 10));
    expect(confirmed).toBe(true);
    const reply = out.replies[0];
    const [record] = decodeRecords(reply.subarray(11 + 3, reply.length - 2));
    expect(decodeRecordResponse(record.subrecords[0].data)).toEqual({ crn: 3, rst: 0 });
  });
});
