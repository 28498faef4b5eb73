import type { ChannelKind } from '../../../shared/pdm/model';
import { EgtsFormatError, type Subrecord } from './records';

/**
 * Sensor subrecords of the teledata service (ГОСТ 33465-2015, EGTS_TELEDATA_SERVICE), decoded byte-exactly.
 * Every multi-byte field is little-endian; flag bit 0 is the first element (DIOE1, ASFE1, CFE1).
 *
 * - EGTS_SR_AD_SENSORS_DATA (18): DIOE (BYTE: ADIO1..8 present), DOUT (BYTE: discrete outputs), ASFE (BYTE:
 *   ANS1..8 present), then ADIOn (BYTE each, 8 additional digital inputs: input (n-1)×8 + bit + 1), then ANSn
 *   (3 bytes each, the analog value).
 * - EGTS_SR_COUNTERS_DATA (19): CFE (BYTE: CN1..8 present), then CNn (3 bytes each).
 * - EGTS_SR_ABS_AN_SENS_DATA (24): ASN (BYTE, analog input number), ASV (3 bytes).
 * - EGTS_SR_ABS_CNTR_DATA (25): CN (BYTE, counter number), CNV (3 bytes).
 * - EGTS_SR_LIQUID_LEVEL_SENSOR (27): flags (LLSEF:6 error, LLSVU:5-4 unit, RDF:3 raw data, LLSN:2-0 number),
 *   MADDR (USHORT, the sensor's module address), then LLSD: a UINT reading when RDF = 0, or the sensor's raw
 *   bytes (up to 512) when RDF = 1. LLSVU: 00 not calibrated (as measured), 01 percent of the tank's volume
 *   in 0.1 % steps, 10 litres in 0.1 l steps. The channel is MADDR × 8 + LLSN.
 */
export const SENSOR_SRT = {
  AD_SENSORS_DATA: 18,
  COUNTERS_DATA: 19,
  ABS_AN_SENS_DATA: 24,
  ABS_CNTR_DATA: 25,
  LIQUID_LEVEL_SENSOR: 27,
} as const;

const SENSOR_TYPES = new Set<number>(Object.values(SENSOR_SRT));
export const isSensorSubrecord = (type: number): boolean => SENSOR_TYPES.has(type);

/** One channel's value as the terminal sent it (raw: the tree node's scale and offset make it a quantity). */
export interface ChannelSample {
  kind: ChannelKind;
  channel: number;
  raw: number;
  /** The sensor reported its own fault (LLSEF). */
  error?: boolean;
  /** Liquid level: the unit LLSVU names ('raw', 'percent', 'litres'); the value is already in that unit. */
  unit?: 'raw' | 'percent' | 'litres';
}

const need = (data: Buffer, length: number, what: string) => {
  if (data.length < length) throw new EgtsFormatError(`${what} of ${data.length} bytes, ${length} needed`);
};

export function decodeAdSensors(data: Buffer): { samples: ChannelSample[]; outputs: number } {
  need(data, 3, 'AD_SENSORS_DATA');
  const dioe = data[0];
  const asfe = data[2];
  const samples: ChannelSample[] = [];
  let pos = 3;
  for (let n = 0; n < 8; n += 1) {
    if (!(dioe & (1 << n))) continue;
    need(data, pos + 1, 'AD_SENSORS_DATA');
    const octet = data[pos];
    pos += 1;
    for (let bit = 0; bit < 8; bit += 1) samples.push({ kind: 'digital', channel: n * 8 + bit + 1, raw: (octet >> bit) & 1 });
  }
  for (let n = 0; n < 8; n += 1) {
    if (!(asfe & (1 << n))) continue;
    need(data, pos + 3, 'AD_SENSORS_DATA');
    samples.push({ kind: 'analog', channel: n + 1, raw: data.readUIntLE(pos, 3) });
    pos += 3;
  }
  return { samples, outputs: data[1] };
}

export function decodeCounters(data: Buffer): ChannelSample[] {
  need(data, 1, 'COUNTERS_DATA');
  const cfe = data[0];
  const samples: ChannelSample[] = [];
  let pos = 1;
  for (let n = 0; n < 8; n += 1) {
    if (!(cfe & (1 << n))) continue;
    need(data, pos + 3, 'COUNTERS_DATA');
    samples.push({ kind: 'counter', channel: n + 1, raw: data.readUIntLE(pos, 3) });
    pos += 3;
  }
  return samples;
}

export function decodeLiquidLevel(data: Buffer): ChannelSample {
  need(data, 3, 'LIQUID_LEVEL_SENSOR');
  const flags = data[0];
  const channel = data.readUInt16LE(1) * 8 + (flags & 0x07);
  const error = (flags & 0x40) !== 0;
  const unitBits = (flags >> 4) & 0x03;
  if (flags & 0x08) {
    // RDF: the sensor's own bytes, meaningless without its protocol; kept as a reading of its error flag only.
    return { kind: 'liquid', channel, raw: Number.NaN, error, unit: 'raw' };
  }
  need(data, 7, 'LIQUID_LEVEL_SENSOR');
  const llsd = data.readUInt32LE(3);
  if (unitBits === 1) return { kind: 'liquid', channel, raw: llsd / 10, error, unit: 'percent' };
  if (unitBits === 2) return { kind: 'liquid', channel, raw: llsd / 10, error, unit: 'litres' };
  return { kind: 'liquid', channel, raw: llsd, error, unit: 'raw' };
}

/** The samples of one sensor subrecord (an empty list for any other type). */
export function decodeSensorSubrecord(sub: Subrecord): ChannelSample[] {
  switch (sub.type) {
    case SENSOR_SRT.AD_SENSORS_DATA:
      return decodeAdSensors(sub.data).samples;
    case SENSOR_SRT.COUNTERS_DATA:
      return decodeCounters(sub.data);
    case SENSOR_SRT.ABS_AN_SENS_DATA:
      need(sub.data, 4, 'ABS_AN_SENS_DATA');
      return [{ kind: 'analog', channel: sub.data[0], raw: sub.data.readUIntLE(1, 3) }];
    case SENSOR_SRT.ABS_CNTR_DATA:
      need(sub.data, 4, 'ABS_CNTR_DATA');
      return [{ kind: 'counter', channel: sub.data[0], raw: sub.data.readUIntLE(1, 3) }];
    case SENSOR_SRT.LIQUID_LEVEL_SENSOR: {
      const sample = decodeLiquidLevel(sub.data);
      return Number.isNaN(sample.raw) && !sample.error ? [] : [sample];
    }
    default:
      return [];
  }
}

const u24 = (value: number) => {
  const out = Buffer.alloc(3);
  out.writeUIntLE(Math.max(0, Math.min(0xffffff, Math.round(value))), 0, 3);
  return out;
};

/** Encoders, as a terminal sends them: the simulator, the benchmark and the tests speak through these. */
export function encodeAdSensors(input: {
  digital?: readonly number[];
  analog?: readonly (number | undefined)[];
  outputs?: number;
}): Subrecord {
  const octets: Buffer[] = [];
  let dioe = 0;
  const digital = input.digital ?? [];
  for (let n = 0; n < 8; n += 1) {
    const bits = digital.slice(n * 8, n * 8 + 8);
    if (!bits.length) continue;
    dioe |= 1 << n;
    octets.push(Buffer.from([bits.reduce((byte, bit, i) => byte | ((bit ? 1 : 0) << i), 0)]));
  }
  let asfe = 0;
  const analog: Buffer[] = [];
  (input.analog ?? []).slice(0, 8).forEach((value, n) => {
    if (value === undefined) return;
    asfe |= 1 << n;
    analog.push(u24(value));
  });
  return { type: SENSOR_SRT.AD_SENSORS_DATA, data: Buffer.concat([Buffer.from([dioe, input.outputs ?? 0, asfe]), ...octets, ...analog]) };
}

export function encodeCounters(counters: readonly (number | undefined)[]): Subrecord {
  let cfe = 0;
  const values: Buffer[] = [];
  counters.slice(0, 8).forEach((value, n) => {
    if (value === undefined) return;
    cfe |= 1 << n;
    values.push(u24(value));
  });
  return { type: SENSOR_SRT.COUNTERS_DATA, data: Buffer.concat([Buffer.from([cfe]), ...values]) };
}

export function encodeLiquidLevel(input: {
  number: number;
  module?: number;
  value: number;
  unit?: 'raw' | 'percent' | 'litres';
  error?: boolean;
}): Subrecord {
  const data = Buffer.alloc(7);
  const unitBits = input.unit === 'percent' ? 1 : input.unit === 'litres' ? 2 : 0;
  data[0] = (input.error ? 0x40 : 0) | (unitBits << 4) | (input.number & 0x07);
  data.writeUInt16LE(input.module ?? 0, 1);
  data.writeUInt32LE(Math.max(0, Math.round(input.unit && input.unit !== 'raw' ? input.value * 10 : input.value)) >>> 0, 3);
  return { type: SENSOR_SRT.LIQUID_LEVEL_SENSOR, data };
}

/** The samples of one record of one vehicle at one time, as the session hands them to PDM. */
export interface SensorBatch {
  vehicleId: number;
  /** epoch milliseconds */
  time: number;
  samples: ChannelSample[];
}
