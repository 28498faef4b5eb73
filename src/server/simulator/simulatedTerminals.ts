import { PC, SERVICE } from '../telemetry/egts/constants';
import {
  CC,
  CHS,
  CT,
  commandPacket,
  confirmationOf,
  confirmationPacket,
  decodeCommandData,
  SRT_COMMAND_DATA,
  type CommandData,
} from '../telemetry/egts/commands';
import { FrameReader } from '../telemetry/egts/frameReader';
import { decodeRecords } from '../telemetry/egts/records';
import type { TerminalLink, TerminalLinks } from '../telemetry/egts/terminalLinks';
import { encodeCp1251 } from '../telemetry/egts/text';
import { simulatorVariables } from './config';

/** How a simulated terminal answers commands: most confirm, a few refuse, reject a parameter or stay silent. */
export type TerminalTemper = 'ok' | 'refuses' | 'illegal' | 'silent';

/**
 * The demo fleet's terminals, fixed per vehicle: `refusePercent` % (SIMULATOR_TERMINAL_REFUSE_PERCENT, 3)
 * refuse every command (CC_ERROR), 1 % reject the reporting parameters as illegal (CC_ILL), 1 % never answer
 * (the time-out), the rest confirm each parameter.
 */
export function temperOf(vehicleId: number, refusePercent = simulatorVariables.variables.terminalRefusePercent.read()): TerminalTemper {
  const roll = ((Math.imul(vehicleId ^ 0x5bd1e995, 2654435761) >>> 0) >>> 7) % 100;
  if (roll < refusePercent) return 'refuses';
  if (roll < refusePercent + 1) return 'illegal';
  if (roll < refusePercent + 2) return 'silent';
  return 'ok';
}

/** What the demo's drivers now and then write to the dispatcher. */
export const DRIVER_TEXTS = [
  'Пробка, опаздываю',
  'Прошу связаться',
  'Неисправность дверей',
  'Конфликт в салоне',
  'Задерживаюсь на конечной',
];

/** Manufacturer codes of the reporting intervals (src/shared/equipment/parameters.ts): what an 'illegal' terminal rejects. */
const VENDOR_CODES = new Set([0x8001, 0x8002]);

/**
 * Simulated terminals speak the commands service in bytes, like real ones: the platform's packet is cut from
 * the byte stream and decoded (transport, records, EGTS_SR_COMMAND_DATA), and after a short "processing"
 * delay the terminal's answer is encoded as a packet of CT_COMCONF and decoded again by the platform side.
 * A vehicle's terminal is reachable while it reports (its last position younger than `onlineMs`).
 */
export class SimulatedTerminals {
  private readonly attached = new Map<number, TerminalLink>();
  private timer: NodeJS.Timeout | undefined;
  private pid = 0;
  readonly stats = { commands: 0, answered: 0, messages: 0, driverMessages: 0 };

  constructor(
    private readonly links: TerminalLinks,
    private readonly lastReport: (vehicleId: number) => number | undefined,
    private readonly options: {
      onlineMs?: number;
      delayMs?: [number, number];
      temper?: (vehicleId: number) => TerminalTemper;
      /** How long a driver takes to read a message after it reached the terminal. */
      readDelayMs?: [number, number];
      /** The whole fleet's drivers write one message this often on average (0: never). */
      driverMessageEveryMs?: number;
    } = {},
  ) {}

  start(vehicles: () => Iterable<number>, everyMs = 5000): void {
    const every = this.options.driverMessageEveryMs ?? 15 * 60_000;
    const run = () => {
      this.refresh(vehicles());
      if (every > 0 && this.attached.size && Math.random() < everyMs / every) {
        const ids = [...this.attached.keys()];
        const vehicleId = ids[Math.floor(Math.random() * ids.length)];
        this.driverMessage(vehicleId, DRIVER_TEXTS[Math.floor(Math.random() * DRIVER_TEXTS.length)]);
      }
    };
    run();
    this.timer = setInterval(run, everyMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    for (const [vehicleId, link] of this.attached) this.links.detach(vehicleId, link);
    this.attached.clear();
  }

  /** Attaches the terminals of vehicles reporting now, detaches those that went quiet. */
  refresh(vehicles: Iterable<number>, now = Date.now()): void {
    const onlineMs = this.options.onlineMs ?? 300_000;
    const seen = new Set<number>();
    for (const vehicleId of vehicles) {
      const last = this.lastReport(vehicleId);
      if (last === undefined || now - last > onlineMs) continue;
      seen.add(vehicleId);
      if (!this.attached.has(vehicleId)) {
        const link = this.linkOf(vehicleId);
        this.attached.set(vehicleId, link);
        this.links.attach(vehicleId, link);
      }
    }
    for (const [vehicleId, link] of this.attached) {
      if (seen.has(vehicleId)) continue;
      this.links.detach(vehicleId, link);
      this.attached.delete(vehicleId);
    }
  }

  /** Attaches one vehicle's terminal regardless of its positions (tests). */
  connect(vehicleId: number): TerminalLink {
    const link = this.attached.get(vehicleId) ?? this.linkOf(vehicleId);
    this.attached.set(vehicleId, link);
    this.links.attach(vehicleId, link);
    return link;
  }

  disconnect(vehicleId: number): void {
    const link = this.attached.get(vehicleId);
    if (link) this.links.detach(vehicleId, link);
    this.attached.delete(vehicleId);
  }

  /** The driver writes to the dispatcher: a CT_MSGFROM from the terminal, read by the platform as any packet. */
  driverMessage(vehicleId: number, text: string): void {
    if (!this.attached.has(vehicleId)) return;
    this.stats.driverMessages += 1;
    this.reply(vehicleId, [{ ct: CT.MSGFROM, cct: CC.OK, cid: this.pid & 0xffff, sid: 0, chs: CHS.CP1251, data: encodeCp1251(text) }]);
  }

  private linkOf(vehicleId: number): TerminalLink {
    return {
      channel: 'simulator',
      send: (commands) => {
        // The bytes a real terminal would receive: our packet, encoded as the platform sends it.
        const packet = commandPacketBytes(commands);
        const [min, max] = this.options.delayMs ?? [300, 2500];
        setTimeout(() => this.answer(vehicleId, packet), min + Math.random() * (max - min)).unref();
        return true;
      },
    };
  }

  /** The terminal's side: decode what came, answer each command, send the answer's bytes back. */
  private answer(vehicleId: number, packet: Buffer): void {
    if (this.attached.get(vehicleId) === undefined) return; // went offline meanwhile: the platform times it out
    const temper = this.options.temper ? this.options.temper(vehicleId) : temperOf(vehicleId);
    const confirmations: CommandData[] = [];
    const shown: CommandData[] = [];
    for (const event of new FrameReader(65_553).push(packet)) {
      if (event.kind !== 'frame') continue;
      for (const record of decodeRecords(event.body)) {
        if (record.rst !== SERVICE.COMMANDS) continue;
        for (const sub of record.subrecords) {
          if (sub.type !== SRT_COMMAND_DATA) continue;
          const command = decodeCommandData(sub.data);
          if (command.ct === CT.MSGTO) {
            // a message for the driver: delivered at once, confirmed once the driver has read it
            this.stats.messages += 1;
            if (temper === 'silent') continue;
            confirmations.push({ ct: CT.DELIV, cct: CC.OK, cid: command.cid, sid: command.sid, data: Buffer.alloc(0) });
            shown.push({ ct: CT.MSGCONF, cct: CC.OK, cid: command.cid, sid: command.sid, data: Buffer.alloc(0) });
            continue;
          }
          if (command.ct !== CT.COM) continue;
          this.stats.commands += 1;
          if (temper === 'silent') continue;
          const cct = temper === 'refuses' ? CC.ERROR : temper === 'illegal' && VENDOR_CODES.has(command.ccd ?? 0) ? CC.ILL : CC.OK;
          confirmations.push(confirmationOf(command, cct));
        }
      }
    }
    if (shown.length) {
      const [min, max] = this.options.readDelayMs ?? [5000, 20000];
      setTimeout(
        () => {
          if (this.attached.has(vehicleId)) this.reply(vehicleId, shown);
        },
        min + Math.random() * (max - min),
      ).unref();
    }
    if (!confirmations.length) return;
    this.stats.answered += confirmations.length;
    this.reply(vehicleId, confirmations);
  }

  /** The terminal's packet of command data, read back by the platform's side as any terminal's packet is. */
  private reply(vehicleId: number, subrecords: CommandData[]): void {
    const reply = confirmationPacket(this.pid++ & 0xffff, this.pid & 0xffff, subrecords);
    // The platform's side of the simulated connection: the answer is read as any terminal's packet is.
    for (const event of new FrameReader(65_553).push(reply)) {
      if (event.kind !== 'frame' || !event.bodyCrcOk) continue;
      for (const record of decodeRecords(event.body)) {
        if (record.rst === SERVICE.COMMANDS && this.links.receive(vehicleId, record) !== PC.OK) return;
      }
    }
  }
}

let platformPid = 0;
/** The platform's packet for a simulated terminal (numbered apart from real connections: it has none). */
function commandPacketBytes(commands: readonly CommandData[]): Buffer {
  platformPid = (platformPid + 1) & 0xffff;
  return commandPacket(platformPid, platformPid, commands);
}
