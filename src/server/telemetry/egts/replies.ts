import { PT, SERVICE } from './constants';
import { encodeRecords, type OutgoingRecord } from './records';
import { encodePacket } from './transport';
import { resultCode } from './subrecords';

/**
 * EGTS_PT_RESPONSE (ГОСТ 33472-2015): SFRD = RPID (USHORT, the PID answered), PR (BYTE, the transport-level
 * result), then service records confirming each received record (EGTS_SR_RECORD_RESPONSE).
 */
export function responsePacket(pid: number, rpid: number, pr: number, records: readonly OutgoingRecord[] = []): Buffer {
  const head = Buffer.allocUnsafe(3);
  head.writeUInt16LE(rpid & 0xffff, 0);
  head[2] = pr;
  return encodePacket({ pid, pt: PT.RESPONSE, body: records.length > 0 ? Buffer.concat([head, encodeRecords(records)]) : head });
}

/** The platform's verdict on an authentication: an APPDATA packet with EGTS_SR_RESULT_CODE in EGTS_AUTH_SERVICE. */
export function resultCodePacket(pid: number, rn: number, code: number): Buffer {
  return encodePacket({
    pid,
    pt: PT.APPDATA,
    body: encodeRecords([{ rn, sst: SERVICE.AUTH, rst: SERVICE.AUTH, subrecords: [resultCode(code)] }]),
  });
}
