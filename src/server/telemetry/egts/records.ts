/**
 * Service-layer records (ГОСТ 33465-2015, "Структура записи Уровня поддержки услуг", SDR):
 * RL (USHORT), RN (USHORT), RFL (SSOD:1 RSOD:1 GRP:1 RPP:2 TMFE:1 EVFE:1 OBFE:1), OID, EVID, TM (UINT each,
 * present by their flags), SST, RST, then RD: subrecords SRT (BYTE), SRL (USHORT), SRD.
 */
export interface Subrecord {
  type: number;
  data: Buffer;
}

export interface ServiceRecord {
  rn: number;
  ssod: boolean;
  rsod: boolean;
  group: boolean;
  priority: number;
  /** Object identifier: the terminal's (or the object's) address. */
  oid?: number;
  evid?: number;
  /** Record time, seconds since 2010-01-01 UTC. */
  tm?: number;
  sst: number;
  rst: number;
  subrecords: Subrecord[];
}

export class EgtsFormatError extends Error {}

/** Every record of an SFRD from `offset`; throws EgtsFormatError when a length points past the data. */
export function decodeRecords(sfrd: Buffer, offset = 0): ServiceRecord[] {
  const records: ServiceRecord[] = [];
  let pos = offset;
  while (pos < sfrd.length) {
    if (pos + 7 > sfrd.length) throw new EgtsFormatError(`record header truncated at ${pos}`);
    const rl = sfrd.readUInt16LE(pos);
    const rn = sfrd.readUInt16LE(pos + 2);
    const rfl = sfrd[pos + 4];
    pos += 5;
    const record: ServiceRecord = {
      rn,
      ssod: (rfl & 0x80) !== 0,
      rsod: (rfl & 0x40) !== 0,
      group: (rfl & 0x20) !== 0,
      priority: (rfl >> 3) & 0x03,
      sst: 0,
      rst: 0,
      subrecords: [],
    };
    const optional = ((rfl & 0x01) + ((rfl >> 1) & 0x01) + ((rfl >> 2) & 0x01)) * 4;
    if (pos + optional + 2 > sfrd.length) throw new EgtsFormatError(`record ${rn} header truncated`);
    if (rfl & 0x01) {
      record.oid = sfrd.readUInt32LE(pos);
      pos += 4;
    }
    if (rfl & 0x02) {
      record.evid = sfrd.readUInt32LE(pos);
      pos += 4;
    }
    if (rfl & 0x04) {
      record.tm = sfrd.readUInt32LE(pos);
      pos += 4;
    }
    record.sst = sfrd[pos];
    record.rst = sfrd[pos + 1];
    pos += 2;
    const end = pos + rl;
    if (end > sfrd.length) throw new EgtsFormatError(`record ${rn} longer than the frame`);
    while (pos < end) {
      if (pos + 3 > end) throw new EgtsFormatError(`subrecord header truncated in record ${rn}`);
      const type = sfrd[pos];
      const srl = sfrd.readUInt16LE(pos + 1);
      pos += 3;
      if (pos + srl > end) throw new EgtsFormatError(`subrecord ${type} longer than record ${rn}`);
      record.subrecords.push({ type, data: sfrd.subarray(pos, pos + srl) });
      pos += srl;
    }
    records.push(record);
  }
  return records;
}

export interface OutgoingRecord {
  rn: number;
  sst: number;
  rst: number;
  /** Object identifier, sent by terminals (and retranslating platforms) that are not authenticated by TID. */
  oid?: number;
  subrecords: Subrecord[];
}

/**
 * Encodes records. From the platform RFL is 0x40 (SSOD 0: the sending service is on the platform; RSOD 1: the
 * receiving one is on the terminal); from a terminal 0x80 (SSOD 1). Normal priority, no EVID or TM; OBFE and
 * OID when an OID is given.
 */
export function encodeRecords(records: readonly OutgoingRecord[], origin: 'platform' | 'terminal' = 'platform'): Buffer {
  const dataLength = (r: OutgoingRecord) => r.subrecords.reduce((s, sr) => s + 3 + sr.data.length, 0);
  const size = records.reduce((sum, r) => sum + 7 + (r.oid !== undefined ? 4 : 0) + dataLength(r), 0);
  const out = Buffer.allocUnsafe(size);
  let pos = 0;
  for (const record of records) {
    out.writeUInt16LE(dataLength(record), pos);
    out.writeUInt16LE(record.rn & 0xffff, pos + 2);
    out[pos + 4] = (origin === 'platform' ? 0x40 : 0x80) | (record.oid !== undefined ? 0x01 : 0);
    pos += 5;
    if (record.oid !== undefined) {
      out.writeUInt32LE(record.oid, pos);
      pos += 4;
    }
    out[pos] = record.sst;
    out[pos + 1] = record.rst;
    pos += 2;
    for (const sr of record.subrecords) {
      out[pos] = sr.type;
      out.writeUInt16LE(sr.data.length, pos + 1);
      out.set(sr.data, pos + 3);
      pos += 3 + sr.data.length;
    }
  }
  return out;
}
