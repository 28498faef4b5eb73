import { PT, SERVICE } from './constants';
import { EgtsFormatError, encodeRecords, type Subrecord } from './records';
import { encodePacket } from './transport';

/**
 * EGTS_COMMANDS_SERVICE (ГОСТ 33465-2015, "Сервис EGTS_COMMANDS_SERVICE"; transport of ГОСТ 33472-2015):
 * the subrecord EGTS_SR_COMMAND_DATA (SRT 51) carries commands to a terminal and its confirmations back.
 *
 *   CT:4 CCT:4        BYTE    command type (high nibble), confirmation type (low nibble)
 *   CID               UINT    command id: the confirmation carries the same value
 *   SID               UINT    sender id: the confirmation copies the command's
 *   flags             BYTE    bit 1 ACFE (AC present), bit 0 CHSFE (CHS present), the rest 0
 *   CHS               BYTE    charset of CD, when CHSFE (0 = CP1251, the default)
 *   ACL, AC           BYTE, ACL bytes: authorisation code, when ACFE
 *   CD                the command body, by CT:
 *     CT_COM          ADR (USHORT), ACT:4 SZ:4 (BYTE), CCD (USHORT), DT (the rest)
 *     CT_COMCONF      ADR (USHORT), CCD (USHORT), DT (the rest: a result, optional)
 *     other types     DT (the rest)
 * All multi-byte fields little-endian.
 */
export const SRT_COMMAND_DATA = 51;

export const CT = { COMCONF: 1, MSGCONF: 2, MSGFROM: 3, MSGTO: 4, COM: 5, DELCOM: 6, SUBREQ: 7, DELIV: 8 } as const;
export const CC = { OK: 0, ERROR: 1, ILL: 2, DEL: 3, NFOUND: 4, NCONF: 5, INPROG: 6 } as const;
/** ACT of CT_COM: what to do with the parameter CCD. */
export const ACT = { PARAMS: 0, GET: 1, SET: 2, ADD: 3, DELETE: 4 } as const;
/** Charsets of CHS. */
export const CHS = { CP1251: 0, ASCII: 1, BINARY: 2, LATIN1: 3, UCS2: 8 } as const;

export interface CommandData {
  ct: number;
  cct: number;
  cid: number;
  sid: number;
  chs?: number;
  /** Authorisation code (AC), when present. */
  ac?: Buffer;
  /** CT_COM and CT_COMCONF: the module address and command code. */
  adr?: number;
  ccd?: number;
  /** CT_COM: action and size nibble. */
  act?: number;
  sz?: number;
  /** DT (or the whole CD of other types). */
  data: Buffer;
}

const hasAddress = (ct: number) => ct === CT.COM || ct === CT.COMCONF;

export function encodeCommandData(c: CommandData): Buffer {
  const head = Buffer.alloc(10);
  head[0] = ((c.ct & 0x0f) << 4) | (c.cct & 0x0f);
  head.writeUInt32LE(c.cid >>> 0, 1);
  head.writeUInt32LE(c.sid >>> 0, 5);
  head[9] = (c.ac !== undefined ? 0x02 : 0) | (c.chs !== undefined ? 0x01 : 0);
  const parts: Buffer[] = [head];
  if (c.chs !== undefined) parts.push(Buffer.from([c.chs & 0xff]));
  if (c.ac !== undefined) {
    if (c.ac.length > 255) throw new EgtsFormatError('AC longer than 255 bytes');
    parts.push(Buffer.from([c.ac.length]), c.ac);
  }
  if (hasAddress(c.ct)) {
    const cd = Buffer.alloc(c.ct === CT.COM ? 5 : 4);
    cd.writeUInt16LE((c.adr ?? 0) & 0xffff, 0);
    if (c.ct === CT.COM) {
      cd[2] = (((c.act ?? 0) & 0x0f) << 4) | ((c.sz ?? 0) & 0x0f);
      cd.writeUInt16LE((c.ccd ?? 0) & 0xffff, 3);
    } else {
      cd.writeUInt16LE((c.ccd ?? 0) & 0xffff, 2);
    }
    parts.push(cd);
  }
  parts.push(c.data);
  return Buffer.concat(parts);
}

export function decodeCommandData(buf: Buffer): CommandData {
  if (buf.length < 10) throw new EgtsFormatError(`COMMAND_DATA of ${buf.length} bytes`);
  const c: CommandData = { ct: buf[0] >> 4, cct: buf[0] & 0x0f, cid: buf.readUInt32LE(1), sid: buf.readUInt32LE(5), data: Buffer.alloc(0) };
  const flags = buf[9];
  let pos = 10;
  const need = (n: number) => {
    if (pos + n > buf.length) throw new EgtsFormatError('COMMAND_DATA truncated');
  };
  if (flags & 0x01) {
    need(1);
    c.chs = buf[pos++];
  }
  if (flags & 0x02) {
    need(1);
    const acl = buf[pos++];
    need(acl);
    c.ac = Buffer.from(buf.subarray(pos, pos + acl));
    pos += acl;
  }
  if (hasAddress(c.ct)) {
    need(c.ct === CT.COM ? 5 : 4);
    c.adr = buf.readUInt16LE(pos);
    if (c.ct === CT.COM) {
      c.act = buf[pos + 2] >> 4;
      c.sz = buf[pos + 2] & 0x0f;
      c.ccd = buf.readUInt16LE(pos + 3);
      pos += 5;
    } else {
      c.ccd = buf.readUInt16LE(pos + 2);
      pos += 4;
    }
  }
  c.data = Buffer.from(buf.subarray(pos));
  return c;
}

export const commandSubrecord = (c: CommandData): Subrecord => ({ type: SRT_COMMAND_DATA, data: encodeCommandData(c) });

/** A parameter value as DT: text in CP1251's ASCII range (addresses, APN), integers as UINT (SZ 2: 2² bytes). */
export function parameterValue(value: string | number | boolean): { data: Buffer; sz: number; chs?: number } {
  if (typeof value === 'string') return { data: Buffer.from(value, 'latin1'), sz: 0, chs: CHS.CP1251 };
  const data = Buffer.alloc(4);
  data.writeUInt32LE((typeof value === 'boolean' ? Number(value) : value) >>> 0, 0);
  return { data, sz: 2 };
}

/** The platform's packet setting parameters: one COMMANDS record, one CT_COM subrecord per parameter. */
export function commandPacket(pid: number, rn: number, commands: readonly CommandData[]): Buffer {
  const body = encodeRecords([{ rn, sst: SERVICE.COMMANDS, rst: SERVICE.COMMANDS, subrecords: commands.map(commandSubrecord) }]);
  return encodePacket({ pid, pt: PT.APPDATA, body });
}

/** The terminal's confirmations: one COMMANDS record of CT_COMCONF subrecords (from the terminal: SSOD set). */
export function confirmationPacket(pid: number, rn: number, confirmations: readonly CommandData[]): Buffer {
  const body = encodeRecords(
    [{ rn, sst: SERVICE.COMMANDS, rst: SERVICE.COMMANDS, subrecords: confirmations.map(commandSubrecord) }],
    'terminal',
  );
  return encodePacket({ pid, pt: PT.APPDATA, body, priority: 3 });
}

/** The confirmation a terminal gives to a command (CID, SID, ADR and CCD copied from it). */
export function confirmationOf(command: CommandData, cct: number, result: Buffer = Buffer.alloc(0)): CommandData {
  return { ct: CT.COMCONF, cct, cid: command.cid, sid: command.sid, adr: command.adr ?? 0, ccd: command.ccd ?? 0, data: result };
}
