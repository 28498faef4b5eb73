import type { FastifyBaseLogger } from 'fastify';
import type { IngestOutcome, Position } from '../types';
import type { VehicleEvent } from '../vehicleEvents';
import { EGTS_EPOCH_MS, PC, PT, SERVICE, SRT } from './constants';
import { FrameReader } from './frameReader';
import { EgtsFormatError, decodeRecords, type OutgoingRecord, type ServiceRecord } from './records';
import { responsePacket, resultCodePacket } from './replies';
import { decodePosData, decodeTermIdentity, recordResponse } from './subrecords';
import type { TransportHeader } from './transport';
import { commandPacket, type CommandData } from './commands';
import type { TerminalLink, TerminalLinks } from './terminalLinks';
import { decodeSensorSubrecord, isSensorSubrecord, type SensorBatch } from './sensors';

/** What a session needs from the rest of the server: all synchronous, all in memory. */
export interface SessionContext {
  ingest(positions: Position[]): IngestOutcome;
  vehicleOf(peerAddress: string | number): number | undefined;
  emitEvent(event: VehicleEvent): void;
  log: FastifyBaseLogger;
  maxFrameBytes: number;
  /** The commands service: the session offers itself as the vehicle's link once it knows the vehicle. */
  commands?: TerminalLinks;
  /** Writes a packet the platform starts (commands) on this connection. */
  write?: (packet: Buffer) => boolean;
  /** Sensor readings (PDM): resolves true once stored; absent, sensor subrecords are skipped. */
  ingestSensors?(batches: SensorBatch[]): Promise<boolean>;
}

export interface SessionOutput {
  /** Packets to send, in order. */
  replies: Buffer[];
  /**
   * Set when the replies confirm positions: they may be sent once it resolves true (the positions are
   * durable). False: nothing may be confirmed; the connection is dropped and the terminal resends.
   */
  durable: Promise<boolean> | null;
  /** Close the connection once the replies are written (authentication refused). */
  close: boolean;
}

/**
 * The EGTS conversation of one terminal connection, without the socket: bytes in, answer packets out. Every
 * APPDATA packet is answered with a RESPONSE once it is decoded, validated and handed to the pipeline, and
 * (the output's `durable`) its positions are in the track spool on disk: never on the database, which may be
 * slow or restarting. Terminals resend what is not confirmed within 5 s.
 */
export class EgtsSession {
  vehicleId: number | undefined;
  terminalId: string | undefined;
  private readonly reader: FrameReader;
  private pid = 0;
  private rn = 0;
  private closing = false;
  private sensorBatches: SensorBatch[] = [];
  readonly counters = { packets: 0, positions: 0, refused: 0, garbageBytes: 0 };
  /** This connection as the way to its terminal's commands service (numbered with the session's PID and RN). */
  readonly link: TerminalLink = {
    channel: 'egts',
    send: (commands: readonly CommandData[]) => this.ctx.write?.(commandPacket(this.nextPid(), this.nextRn(), commands)) ?? false,
  };

  constructor(
    private readonly ctx: SessionContext,
    readonly remote: string,
  ) {
    this.reader = new FrameReader(ctx.maxFrameBytes);
  }

  receive(chunk: Buffer): SessionOutput {
    const out: SessionOutput = { replies: [], durable: null, close: false };
    if (this.closing) return out;
    for (const event of this.reader.push(chunk)) {
      if (this.closing) break;
      switch (event.kind) {
        case 'frame':
          this.onFrame(event.header, event.body, event.bodyCrcOk, out);
          break;
        case 'headerCrc':
          // ГОСТ 33472: a header that fails HCS is answered with HEADERCRC_ERROR when its PID can be read.
          this.counters.refused += 1;
          out.replies.push(this.response(event.header.pid, PC.HEADERCRC_ERROR));
          break;
        case 'tooLarge':
          this.counters.refused += 1;
          out.replies.push(this.response(event.header.pid, PC.INVDATALEN));
          break;
        case 'garbage':
          this.counters.garbageBytes += event.bytes;
          break;
      }
    }
    out.close = this.closing;
    return out;
  }

  /** The connection is gone: tell the journal if a vehicle was online on it. */
  end(): void {
    if (this.vehicleId !== undefined) this.ctx.commands?.detach(this.vehicleId, this.link);
    if (this.vehicleId !== undefined) {
      this.ctx.emitEvent({
        vehicleId: this.vehicleId,
        kind: 'disconnected',
        at: new Date(),
        channel: 'egts',
        remote: this.remote,
        terminalId: this.terminalId,
      });
    }
  }

  private nextPid(): number {
    const pid = this.pid;
    this.pid = (this.pid + 1) & 0xffff;
    return pid;
  }

  private nextRn(): number {
    const rn = this.rn;
    this.rn = (this.rn + 1) & 0xffff;
    return rn;
  }

  private response(rpid: number, pr: number, records: OutgoingRecord[] = []): Buffer {
    return responsePacket(this.nextPid(), rpid, pr, records);
  }

  private onFrame(header: TransportHeader, body: Buffer, bodyCrcOk: boolean, out: SessionOutput): void {
    this.counters.packets += 1;
    const refuse = (pr: number) => {
      this.counters.refused += 1;
      out.replies.push(this.response(header.pid, pr));
    };
    if (header.prf !== 0 || header.he !== 0) return refuse(PC.UNS_PROTOCOL);
    if (!bodyCrcOk) return refuse(PC.DATACRC_ERROR);
    if (header.ena !== 0) return refuse(PC.DECRYPT_ERROR);
    if (header.cmp) return refuse(PC.INC_DATAFORM);
    if (header.pt === PT.RESPONSE) return; // the terminal confirming our RESULT_CODE: nothing to answer
    if (header.pt !== PT.APPDATA && header.pt !== PT.SIGNED_APPDATA) return refuse(PC.UNS_PROTOCOL);
    if (header.fdl === 0) return refuse(PC.INC_DATAFORM);

    let records: ServiceRecord[];
    try {
      // SIGNED_APPDATA: SIGL (SHORT) and SIGD come first. The signature scheme is agreed out of band; it is
      // skipped, not verified (no terminal in the fleet signs).
      const start = header.pt === PT.SIGNED_APPDATA ? 2 + body.readInt16LE(0) : 0;
      if (start > body.length) throw new EgtsFormatError('signature longer than the frame');
      records = decodeRecords(body, start);
    } catch (err) {
      if (!(err instanceof EgtsFormatError) && !(err instanceof RangeError)) throw err;
      this.ctx.log.debug({ err, remote: this.remote }, 'EGTS frame with malformed records');
      return refuse(PC.INC_DATAFORM);
    }

    const positions: Position[] = [];
    const verdicts: number[] = [];
    const confirmations = new Map<number, OutgoingRecord>();
    for (const record of records) {
      const status = this.onRecord(record, positions, verdicts);
      // One confirming record per service, holding a RECORD_RESPONSE for each record received.
      let confirmation = confirmations.get(record.rst);
      if (!confirmation) {
        confirmation = { rn: this.nextRn(), sst: record.rst, rst: record.sst, subrecords: [] };
        confirmations.set(record.rst, confirmation);
      }
      confirmation.subrecords.push(recordResponse(record.rn, status));
    }
    if (positions.length > 0) {
      this.counters.positions += positions.length;
      const { durable } = this.ctx.ingest(positions);
      const before = out.durable;
      out.durable = before ? Promise.all([before, durable]).then(([a, b]) => a && b) : durable;
    }
    if (this.sensorBatches.length > 0 && this.ctx.ingestSensors) {
      const stored = this.ctx.ingestSensors(this.sensorBatches);
      const before = out.durable;
      out.durable = before ? Promise.all([before, stored]).then(([a, b]) => a && b) : stored;
    }
    this.sensorBatches = [];
    out.replies.push(this.response(header.pid, PC.OK, [...confirmations.values()]));
    // The authentication verdict follows the confirmation of the record that asked for it (and is numbered after it).
    for (const code of verdicts) out.replies.push(resultCodePacket(this.nextPid(), this.nextRn(), code));
  }

  /** Handles one record; returns its processing result for the RECORD_RESPONSE. */
  private onRecord(record: ServiceRecord, positions: Position[], verdicts: number[]): number {
    try {
      switch (record.rst) {
        case SERVICE.AUTH:
          return this.onAuth(record, verdicts);
        case SERVICE.TELEDATA:
          return this.onTeledata(record, positions);
        case SERVICE.COMMANDS:
          return this.ctx.commands && this.vehicleId !== undefined ? this.ctx.commands.receive(this.vehicleId, record) : PC.OK;
        default:
          return PC.SRVC_NFOUND;
      }
    } catch (err) {
      if (!(err instanceof EgtsFormatError) && !(err instanceof RangeError)) throw err;
      return PC.INC_DATAFORM;
    }
  }

  private onAuth(record: ServiceRecord, verdicts: number[]): number {
    for (const sub of record.subrecords) {
      if (sub.type !== SRT.TERM_IDENTITY) continue; // AUTH_INFO, MODULE_DATA, VEHICLE_DATA: informative
      const identity = decodeTermIdentity(sub.data);
      const vehicleId = this.ctx.vehicleOf(identity.tid) ?? (identity.imei ? this.ctx.vehicleOf(identity.imei) : undefined);
      if (vehicleId === undefined) {
        this.ctx.log.info({ remote: this.remote, tid: identity.tid, imei: identity.imei }, 'EGTS terminal unknown: authentication refused');
        verdicts.push(PC.AUTH_DENIED);
        this.closing = true;
      } else {
        this.bind(vehicleId, String(identity.tid));
        verdicts.push(PC.OK);
      }
    }
    return PC.OK;
  }

  private onTeledata(record: ServiceRecord, positions: Position[]): number {
    const byObject = record.oid !== undefined ? this.ctx.vehicleOf(record.oid) : undefined;
    const vehicleId = byObject ?? this.vehicleId;
    if (vehicleId === undefined) return PC.OBJ_NFOUND;
    if (this.vehicleId === undefined) this.bind(vehicleId, record.oid !== undefined ? String(record.oid) : undefined);
    let fixTime: number | undefined;
    for (const sub of record.subrecords) {
      // Sensor subrecords (PDM) are read at the record's time, else its position's, else now.
      if (isSensorSubrecord(sub.type) && this.ctx.ingestSensors) {
        const samples = decodeSensorSubrecord(sub);
        if (samples.length)
          this.sensorBatches.push({
            vehicleId,
            time: record.tm !== undefined ? EGTS_EPOCH_MS + record.tm * 1000 : (fixTime ?? Date.now()),
            samples,
          });
        continue;
      }
      // EXT_POS_DATA and the rest are skipped by their SRL: the map needs none of them yet.
      if (sub.type !== SRT.POS_DATA) continue;
      const pos = decodePosData(sub.data);
      fixTime = pos.time;
      positions.push({
        vehicleId,
        time: pos.time,
        lat: pos.lat,
        lon: pos.lon,
        speed: pos.speed,
        course: pos.course % 360,
        valid: pos.valid,
        history: pos.blackBox,
      });
    }
    return PC.OK;
  }

  private bind(vehicleId: number, terminalId: string | undefined): void {
    if (this.vehicleId === vehicleId) return;
    // A second TERM_IDENTITY naming another vehicle: the first one is no longer online on this connection.
    if (this.vehicleId !== undefined) this.end();
    this.vehicleId = vehicleId;
    this.terminalId = terminalId;
    this.ctx.emitEvent({ vehicleId, kind: 'connected', at: new Date(), channel: 'egts', remote: this.remote, terminalId });
    this.ctx.commands?.attach(vehicleId, this.link);
  }
}
