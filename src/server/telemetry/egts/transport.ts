import { crc8, crc16 } from './crc';
import { EGTS_PROTOCOL_VERSION, HEADER_LENGTH, HEADER_LENGTH_ROUTED } from './constants';

/**
 * Transport-layer header (ГОСТ 33472-2015, "Структура пакета Транспортного уровня"):
 * PRV, SKID, flags (PRF:2 RTE:1 ENA:2 CMP:1 PR:2), HL, HE, FDL (USHORT), PID (USHORT), PT,
 * then PRA (USHORT), RCA (USHORT), TTL when RTE = 1, then HCS. All multi-byte fields little-endian.
 */
export interface TransportHeader {
  prv: number;
  skid: number;
  prf: number;
  rte: boolean;
  ena: number;
  cmp: boolean;
  /** Routing priority PR: 0 highest .. 3 lowest. */
  priority: number;
  hl: number;
  he: number;
  fdl: number;
  pid: number;
  pt: number;
  pra?: number;
  rca?: number;
  ttl?: number;
  hcs: number;
}

/** Reads a header whose HL bytes are all present at `offset` (the frame reader guarantees it). */
export function decodeHeader(buf: Uint8Array, offset = 0): TransportHeader {
  const view = new DataView(buf.buffer, buf.byteOffset + offset);
  const flags = buf[offset + 2];
  const hl = buf[offset + 3];
  const header: TransportHeader = {
    prv: buf[offset],
    skid: buf[offset + 1],
    prf: flags >> 6,
    rte: (flags & 0x20) !== 0,
    ena: (flags >> 3) & 0x03,
    cmp: (flags & 0x04) !== 0,
    priority: flags & 0x03,
    hl,
    he: buf[offset + 4],
    fdl: view.getUint16(5, true),
    pid: view.getUint16(7, true),
    pt: buf[offset + 9],
    hcs: buf[offset + hl - 1],
  };
  if (hl === HEADER_LENGTH_ROUTED) {
    header.pra = view.getUint16(10, true);
    header.rca = view.getUint16(12, true);
    header.ttl = buf[offset + 14];
  }
  return header;
}

/** Header length announced at `offset`, when it is one the protocol defines. */
export function plausibleHeaderLength(buf: Uint8Array, offset: number): number | undefined {
  const hl = buf[offset + 3];
  return buf[offset] === EGTS_PROTOCOL_VERSION && (hl === HEADER_LENGTH || hl === HEADER_LENGTH_ROUTED) ? hl : undefined;
}

export interface PacketOptions {
  pid: number;
  pt: number;
  /** SFRD: empty for a header-only packet (then no SFRCS either). */
  body: Uint8Array;
  priority?: number;
}

/** A complete transport packet without routing: header with HCS, SFRD, SFRCS. */
export function encodePacket({ pid, pt, body, priority = 0 }: PacketOptions): Buffer {
  const hasBody = body.length > 0;
  const packet = Buffer.allocUnsafe(HEADER_LENGTH + (hasBody ? body.length + 2 : 0));
  packet[0] = EGTS_PROTOCOL_VERSION;
  packet[1] = 0; // SKID: no encryption key
  packet[2] = priority & 0x03; // PRF 00, RTE 0, ENA 00, CMP 0
  packet[3] = HEADER_LENGTH;
  packet[4] = 0; // HE: header not encoded
  packet.writeUInt16LE(body.length, 5);
  packet.writeUInt16LE(pid & 0xffff, 7);
  packet[9] = pt;
  packet[10] = crc8(packet, 0, 10);
  if (hasBody) {
    packet.set(body, HEADER_LENGTH);
    packet.writeUInt16LE(crc16(body), HEADER_LENGTH + body.length);
  }
  return packet;
}
