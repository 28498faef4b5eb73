import { crc8, crc16 } from './crc';
import { EGTS_PROTOCOL_VERSION } from './constants';
import { decodeHeader, plausibleHeaderLength, type TransportHeader } from './transport';

export type FrameEvent =
  /** A whole packet; `bodyCrcOk` false when SFRCS does not match SFRD. */
  | { kind: 'frame'; header: TransportHeader; body: Buffer; bodyCrcOk: boolean; raw: Buffer }
  /** Where a packet was due, a header whose HCS is wrong: answerable with HEADERCRC_ERROR, then resync. */
  | { kind: 'headerCrc'; header: TransportHeader }
  /** A packet longer than the configured maximum: answered, and its bytes skipped as they arrive. */
  | { kind: 'tooLarge'; header: TransportHeader }
  /** Bytes that began no packet, skipped while looking for PRV = 0x01 with a valid HCS. */
  | { kind: 'garbage'; bytes: number };

const EMPTY = Buffer.alloc(0);

/**
 * Cuts transport packets out of a TCP byte stream: TCP delivers them split across reads and several per read.
 * A packet is HL header bytes, then FDL bytes of SFRD and 2 of SFRCS when FDL > 0. After bytes that start no
 * packet, the reader scans for the next PRV byte whose header checksum holds (the resync).
 */
export class FrameReader {
  private pending: Buffer = EMPTY;
  private skip = 0;
  /** True while the next byte is where a packet should start (nothing was lost before it). */
  private synced = true;

  constructor(private readonly maxFrameBytes: number) {}

  /** Bytes held waiting for the rest of a packet. */
  get buffered(): number {
    return this.pending.length;
  }

  push(chunk: Buffer): FrameEvent[] {
    const events: FrameEvent[] = [];
    if (this.skip > 0) {
      const skipped = Math.min(this.skip, chunk.length);
      this.skip -= skipped;
      chunk = chunk.subarray(skipped);
      if (chunk.length === 0) return events;
    }
    const buf = this.pending.length > 0 ? Buffer.concat([this.pending, chunk]) : chunk;
    let pos = 0;
    let garbage = 0;
    const lose = (bytes: number) => {
      garbage += bytes;
      pos += bytes;
      this.synced = false;
    };
    while (pos < buf.length) {
      if (buf[pos] !== EGTS_PROTOCOL_VERSION) {
        const next = buf.indexOf(EGTS_PROTOCOL_VERSION, pos + 1);
        lose((next < 0 ? buf.length : next) - pos);
        continue;
      }
      if (buf.length - pos < 4) break;
      const hl = plausibleHeaderLength(buf, pos);
      if (hl === undefined) {
        lose(1);
        continue;
      }
      if (buf.length - pos < hl) break;
      if (crc8(buf, pos, pos + hl - 1) !== buf[pos + hl - 1]) {
        if (this.synced) events.push({ kind: 'headerCrc', header: decodeHeader(buf, pos) });
        lose(1);
        continue;
      }
      const header = decodeHeader(buf, pos);
      const total = hl + (header.fdl > 0 ? header.fdl + 2 : 0);
      if (total > this.maxFrameBytes) {
        events.push({ kind: 'tooLarge', header });
        const available = buf.length - pos;
        this.skip = Math.max(0, total - available);
        pos += Math.min(total, available);
        this.synced = true;
        continue;
      }
      if (buf.length - pos < total) break;
      const bodyStart = pos + hl;
      const body = buf.subarray(bodyStart, bodyStart + header.fdl);
      const bodyCrcOk = header.fdl === 0 || crc16(body) === buf.readUInt16LE(bodyStart + header.fdl);
      events.push({ kind: 'frame', header, body, bodyCrcOk, raw: buf.subarray(pos, pos + total) });
      pos += total;
      this.synced = true;
    }
    if (garbage > 0) events.push({ kind: 'garbage', bytes: garbage });
    // Keep only the unfinished tail, copied so the (possibly large) read buffer can be freed.
    this.pending = pos >= buf.length ? EMPTY : Buffer.from(buf.subarray(pos));
    return events;
  }
}
