import { EventEmitter } from 'node:events';
import { PC } from './constants';
import { CT, decodeCommandData, SRT_COMMAND_DATA, type CommandData } from './commands';
import { EgtsFormatError, type ServiceRecord } from './records';

/**
 * A way to a terminal's EGTS commands service: its live TCP connection (egts/session.ts), or a simulated
 * terminal of the demo fleet (simulator/simulatedTerminals.ts), which gets the same bytes and answers with bytes.
 */
export interface TerminalLink {
  channel: 'egts' | 'simulator';
  /** Sends the commands as one packet; false when the connection cannot take it now. */
  send(commands: readonly CommandData[]): boolean;
}

/** A terminal's CT_COMCONF to one of our commands. */
export interface CommandConfirmation {
  vehicleId: number;
  cid: number;
  cct: number;
  ccd: number;
  adr: number;
  data: Buffer;
  at: number;
}

/**
 * A terminal's information message, or its answer to one of ours: CT_MSGFROM (the driver's text), CT_DELIV
 * (our message reached the terminal), CT_MSGCONF (shown to and confirmed by the driver). `cid` names ours.
 */
export interface TerminalMessage {
  vehicleId: number;
  ct: number;
  cct: number;
  cid: number;
  chs: number | null;
  data: Buffer;
  at: number;
}

/** What messages to drivers need of the terminals (the whole fleet's, FleetLinks). */
export type MessageLinks = Pick<TerminalLinks, 'online' | 'send' | 'onMessage' | 'onAttached'>;

/** What sends commands needs of the terminals: this process's (TerminalLinks), or the whole fleet's (FleetLinks). */
export type CommandLinks = Pick<TerminalLinks, 'online' | 'send' | 'onConfirmation' | 'onAttached'>;

/**
 * The terminals reachable now, by vehicle, and the confirmations they send. A real connection wins over a
 * simulated terminal of the same vehicle. Attaching emits 'attached', so waiting commands go out on reconnect.
 */
export class TerminalLinks {
  private readonly links = new Map<number, TerminalLink>();
  private readonly emitter = new EventEmitter();
  readonly counters = { sent: 0, confirmations: 0, malformed: 0 };

  constructor() {
    this.emitter.setMaxListeners(20);
  }

  get size(): number {
    return this.links.size;
  }

  attach(vehicleId: number, link: TerminalLink): void {
    const current = this.links.get(vehicleId);
    if (current === link) return;
    if (current?.channel === 'egts' && link.channel === 'simulator') return;
    this.links.set(vehicleId, link);
    this.emitter.emit('attached', vehicleId);
  }

  /** Forgets the link only if it is still the vehicle's (a newer connection may have replaced it). */
  detach(vehicleId: number, link: TerminalLink): void {
    if (this.links.get(vehicleId) !== link) return;
    this.links.delete(vehicleId);
    this.emitter.emit('detached', vehicleId);
  }

  /** The vehicles whose terminals are reachable here now. */
  vehicles(): IterableIterator<number> {
    return this.links.keys();
  }

  get(vehicleId: number): TerminalLink | undefined {
    return this.links.get(vehicleId);
  }

  online(vehicleId: number): boolean {
    return this.links.has(vehicleId);
  }

  send(vehicleId: number, commands: readonly CommandData[]): boolean {
    const link = this.links.get(vehicleId);
    if (!link) return false;
    const sent = link.send(commands);
    if (sent) this.counters.sent += commands.length;
    return sent;
  }

  onAttached(listener: (vehicleId: number) => void): () => void {
    this.emitter.on('attached', listener);
    return () => this.emitter.off('attached', listener);
  }

  onDetached(listener: (vehicleId: number) => void): () => void {
    this.emitter.on('detached', listener);
    return () => this.emitter.off('detached', listener);
  }

  onConfirmation(listener: (confirmations: CommandConfirmation[]) => void): () => void {
    this.emitter.on('confirmations', listener);
    return () => this.emitter.off('confirmations', listener);
  }

  onMessage(listener: (messages: TerminalMessage[]) => void): () => void {
    this.emitter.on('messages', listener);
    return () => this.emitter.off('messages', listener);
  }

  /**
   * A COMMANDS record from a terminal: its CT_COMCONF subrecords are confirmations of commands; CT_MSGFROM,
   * CT_DELIV and CT_MSGCONF are the driver's messages and the answers to ours; other types are acknowledged and
   * not used. Returns the record's result code.
   */
  receive(vehicleId: number, record: ServiceRecord, at = Date.now()): number {
    const confirmations: CommandConfirmation[] = [];
    const messages: TerminalMessage[] = [];
    for (const sub of record.subrecords) {
      if (sub.type !== SRT_COMMAND_DATA) continue;
      let command: CommandData;
      try {
        command = decodeCommandData(sub.data);
      } catch (err) {
        if (!(err instanceof EgtsFormatError)) throw err;
        this.counters.malformed += 1;
        return PC.INC_DATAFORM;
      }
      if (command.ct === CT.MSGFROM || command.ct === CT.DELIV || command.ct === CT.MSGCONF) {
        messages.push({ vehicleId, ct: command.ct, cct: command.cct, cid: command.cid, chs: command.chs ?? null, data: command.data, at });
        continue;
      }
      if (command.ct !== CT.COMCONF) continue;
      confirmations.push({
        vehicleId,
        cid: command.cid,
        cct: command.cct,
        ccd: command.ccd ?? 0,
        adr: command.adr ?? 0,
        data: command.data,
        at,
      });
    }
    if (confirmations.length) {
      this.counters.confirmations += confirmations.length;
      this.emitter.emit('confirmations', confirmations);
    }
    if (messages.length) this.emitter.emit('messages', messages);
    return PC.OK;
  }
}
