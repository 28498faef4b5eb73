import { EGTS_EPOCH_MS, SRT } from './constants';
import { EgtsFormatError, type Subrecord } from './records';

/**
 * EGTS_SR_POS_DATA (ГОСТ 33465-2015, EGTS_TELEDATA_SERVICE): NTM (UINT), LAT (UINT), LONG (UINT),
 * FLG (ALTE:7 LOHS:6 LAHS:5 MV:4 BB:3 CS:2 FIX:1 VLD:0), SPD (USHORT: DIRH:15 ALTS:14, speed:14 in 0.1 km/h),
 * DIR (BYTE, low 8 bits of the course), ODM (3 bytes, 0.1 km), DIN (BYTE), SRC (BYTE), ALT (3 bytes, m) when ALTE.
 */
export interface PosData {
  /** Fix time, epoch milliseconds. */
  time: number;
  lat: number;
  lon: number;
  valid: boolean;
  /** FIX: 3D fix (else 2D). */
  fix3d: boolean;
  /** CS: coordinates in PZ-90.02 (else WGS-84). */
  pz90: boolean;
  /** BB: replayed from the black box. */
  blackBox: boolean;
  moving: boolean;
  /** km/h */
  speed: number;
  /** degrees 0..511 as sent; 0..359 when the terminal is right. */
  course: number;
  /** km */
  odometer: number;
  digitalInputs: number;
  source: number;
  /** metres, when ALTE */
  altitude?: number;
}

export const POS_DATA_MIN_LENGTH = 21;
/** LAT and LONG are fractions of 90° and 180° scaled to the full UINT range. */
const SCALE = 0xffffffff;

export function decodePosData(data: Buffer): PosData {
  if (data.length < POS_DATA_MIN_LENGTH) throw new EgtsFormatError(`POS_DATA of ${data.length} bytes`);
  const flg = data[12];
  const spd = data.readUInt16LE(13);
  const pos: PosData = {
    time: EGTS_EPOCH_MS + data.readUInt32LE(0) * 1000,
    lat: ((data.readUInt32LE(4) * 90) / SCALE) * (flg & 0x20 ? -1 : 1),
    lon: ((data.readUInt32LE(8) * 180) / SCALE) * (flg & 0x40 ? -1 : 1),
    valid: (flg & 0x01) !== 0,
    fix3d: (flg & 0x02) !== 0,
    pz90: (flg & 0x04) !== 0,
    blackBox: (flg & 0x08) !== 0,
    moving: (flg & 0x10) !== 0,
    speed: (spd & 0x3fff) / 10,
    // DIRH (bit 15 of SPD) is the ninth bit of the course: DIR alone only reaches 255°.
    course: data[15] | ((spd >> 15) << 8),
    odometer: data.readUIntLE(16, 3) / 10,
    digitalInputs: data[19],
    source: data[20],
  };
  if (flg & 0x80 && data.length >= 24) pos.altitude = data.readUIntLE(21, 3) * (spd & 0x4000 ? -1 : 1);
  return pos;
}

export function encodePosData(
  p: Omit<PosData, 'fix3d' | 'pz90' | 'moving' | 'odometer' | 'digitalInputs' | 'source'> & Partial<PosData>,
): Buffer {
  const hasAlt = p.altitude !== undefined;
  const out = Buffer.alloc(hasAlt ? 24 : 21);
  out.writeUInt32LE(Math.round((p.time - EGTS_EPOCH_MS) / 1000), 0);
  out.writeUInt32LE(Math.round((Math.abs(p.lat) / 90) * SCALE), 4);
  out.writeUInt32LE(Math.round((Math.abs(p.lon) / 180) * SCALE), 8);
  out[12] =
    (hasAlt ? 0x80 : 0) |
    (p.lon < 0 ? 0x40 : 0) |
    (p.lat < 0 ? 0x20 : 0) |
    (p.moving ? 0x10 : 0) |
    (p.blackBox ? 0x08 : 0) |
    (p.pz90 ? 0x04 : 0) |
    (p.fix3d ? 0x02 : 0) |
    (p.valid ? 0x01 : 0);
  const course = Math.round(p.course) & 0x1ff;
  out.writeUInt16LE(((course >> 8) << 15) | ((p.altitude ?? 0) < 0 ? 0x4000 : 0) | (Math.round(p.speed * 10) & 0x3fff), 13);
  out[15] = course & 0xff;
  out.writeUIntLE(Math.round((p.odometer ?? 0) * 10) & 0xffffff, 16, 3);
  out[19] = p.digitalInputs ?? 0;
  out[20] = p.source ?? 0;
  if (hasAlt) out.writeUIntLE(Math.abs(Math.round(p.altitude!)) & 0xffffff, 21, 3);
  return out;
}

/**
 * EGTS_SR_TERM_IDENTITY (EGTS_AUTH_SERVICE): TID (UINT), flags (MNE:7 BSE:6 NIDE:5 SSRA:4 LNGCE:3 IMSIE:2
 * IMEIE:1 HDIDE:0), then, as flagged and in this order, HDID (USHORT), IMEI (15 chars), IMSI (16 chars),
 * LNGC (3 chars), NID (3 bytes), BS (USHORT), MSISDN (15 chars).
 */
export interface TermIdentity {
  tid: number;
  /** SSRA: the terminal uses the "simple" service-request algorithm. */
  ssra: boolean;
  hdid?: number;
  imei?: string;
  imsi?: string;
  lngc?: string;
  nid?: Buffer;
  bs?: number;
  msisdn?: string;
}

export function decodeTermIdentity(data: Buffer): TermIdentity {
  if (data.length < 5) throw new EgtsFormatError(`TERM_IDENTITY of ${data.length} bytes`);
  const flags = data[4];
  const identity: TermIdentity = { tid: data.readUInt32LE(0), ssra: (flags & 0x10) !== 0 };
  let pos = 5;
  const take = (n: number): Buffer => {
    if (pos + n > data.length) throw new EgtsFormatError('TERM_IDENTITY truncated');
    const part = data.subarray(pos, pos + n);
    pos += n;
    return part;
  };
  const text = (n: number) => take(n).toString('latin1').replace(/\0+$/, '');
  if (flags & 0x01) identity.hdid = take(2).readUInt16LE(0);
  if (flags & 0x02) identity.imei = text(15);
  if (flags & 0x04) identity.imsi = text(16);
  if (flags & 0x08) identity.lngc = text(3);
  if (flags & 0x20) identity.nid = Buffer.from(take(3));
  if (flags & 0x40) identity.bs = take(2).readUInt16LE(0);
  if (flags & 0x80) identity.msisdn = text(15);
  return identity;
}

export function encodeTermIdentity(identity: { tid: number; imei?: string; ssra?: boolean; bs?: number }): Buffer {
  const parts: Buffer[] = [Buffer.alloc(5)];
  parts[0].writeUInt32LE(identity.tid, 0);
  parts[0][4] = (identity.imei !== undefined ? 0x02 : 0) | (identity.ssra ? 0x10 : 0) | (identity.bs !== undefined ? 0x40 : 0);
  if (identity.imei !== undefined) parts.push(Buffer.from(identity.imei.padStart(15, '0').slice(0, 15), 'latin1'));
  if (identity.bs !== undefined) {
    const bs = Buffer.alloc(2);
    bs.writeUInt16LE(identity.bs, 0);
    parts.push(bs);
  }
  return Buffer.concat(parts);
}

/** EGTS_SR_RECORD_RESPONSE: CRN (USHORT, the confirmed record number), RST (BYTE, its processing result). */
export function recordResponse(crn: number, status: number): Subrecord {
  const data = Buffer.allocUnsafe(3);
  data.writeUInt16LE(crn & 0xffff, 0);
  data[2] = status;
  return { type: SRT.RECORD_RESPONSE, data };
}

export function decodeRecordResponse(data: Buffer): { crn: number; rst: number } {
  if (data.length < 3) throw new EgtsFormatError('RECORD_RESPONSE truncated');
  return { crn: data.readUInt16LE(0), rst: data[2] };
}

/** EGTS_SR_RESULT_CODE: RCD (BYTE), the platform's verdict on an authentication. */
export function resultCode(code: number): Subrecord {
  return { type: SRT.RESULT_CODE, data: Buffer.from([code]) };
}
