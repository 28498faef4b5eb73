import { PT, SERVICE, SRT } from './constants';
import { encodeRecords, type Subrecord } from './records';
import { encodePosData, encodeTermIdentity, type PosData } from './subrecords';
import { encodePacket } from './transport';

/**
 * Packets as a terminal sends them: the benchmark's simulated fleet and the tests speak through these, and a
 * retranslator to another platform would too. Priority 11 (low), as most terminals send telemetry.
 */
export function authPacket(pid: number, rn: number, identity: { tid: number; imei?: string }): Buffer {
  const body = encodeRecords(
    [{ rn, sst: SERVICE.AUTH, rst: SERVICE.AUTH, subrecords: [{ type: SRT.TERM_IDENTITY, data: encodeTermIdentity(identity) }] }],
    'terminal',
  );
  return encodePacket({ pid, pt: PT.APPDATA, body, priority: 3 });
}

export type TerminalFix = Pick<PosData, 'time' | 'lat' | 'lon' | 'speed' | 'course' | 'valid'> & Partial<PosData>;

/** One TELEDATA record per entry, each holding the POS_DATA of its fixes. */
export function positionsPacket(pid: number, records: { rn: number; oid?: number; fixes: TerminalFix[]; extra?: Subrecord[] }[]): Buffer {
  const body = encodeRecords(
    records.map((r) => ({
      rn: r.rn,
      oid: r.oid,
      sst: SERVICE.TELEDATA,
      rst: SERVICE.TELEDATA,
      subrecords: [...r.fixes.map((fix) => ({ type: SRT.POS_DATA, data: encodePosData({ blackBox: false, ...fix }) })), ...(r.extra ?? [])],
    })),
    'terminal',
  );
  return encodePacket({ pid, pt: PT.APPDATA, body, priority: 3 });
}
