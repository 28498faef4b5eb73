import { EventEmitter } from 'node:events';
import type { Bus } from '../../bus/bus';
import type { WireCommand, WireConfirmation, WireTerminalMessage } from '../../bus/channels';
import type { CommandData } from './commands';
import type { CommandConfirmation, CommandLinks, MessageLinks, TerminalLinks, TerminalMessage } from './terminalLinks';

/** Each process says which terminals it reaches this often (and at once when one comes or goes). */
const ANNOUNCE_MS = 5000;
/** A process silent for this long is taken for dead: its terminals are no longer reachable. */
const SILENT_MS = 3 * ANNOUNCE_MS;

const toWire = (c: CommandData): WireCommand => ({ ...c, data: c.data.toString('base64'), ac: c.ac?.toString('base64') });
const fromWire = (c: WireCommand): CommandData => ({
  ...c,
  data: Buffer.from(c.data, 'base64'),
  ac: c.ac === undefined ? undefined : Buffer.from(c.ac, 'base64'),
});

/**
 * The whole fleet's terminals as the rollout dispatcher sees them: those connected to this process
 * (TerminalLinks) and, over the bus, those connected to the other server processes. The dispatcher runs in one
 * process (its lease) while a terminal's EGTS connection lands on any: a command for a terminal held elsewhere
 * goes to that process over the bus and out on its connection, and every process sends the confirmations its
 * terminals return over the bus. With one process this is the process's own links.
 */
export class FleetLinks implements CommandLinks, MessageLinks {
  /** Terminals of the other processes: the vehicle's process. */
  private readonly remote = new Map<number, string>();
  /** What each other process announced last, and when. */
  private readonly announced = new Map<string, { at: number; vehicles: Set<number> }>();
  private readonly emitter = new EventEmitter();
  private outgoing = new Map<string, [number, WireCommand[]][]>();
  private changes = { attached: new Set<number>(), detached: new Set<number>() };
  private flushing = false;
  private timer: NodeJS.Timeout | undefined;
  private readonly off: (() => void)[] = [];
  readonly stats = { sentAway: 0, receivedToSend: 0 };

  constructor(
    private readonly local: TerminalLinks,
    private readonly bus: Bus,
    private readonly now: () => number = Date.now,
  ) {
    this.emitter.setMaxListeners(20);
  }

  start(): void {
    if (!this.bus.shared || this.off.length) return;
    const { bus, local } = this;
    this.off.push(
      local.onAttached((vehicleId) => this.changed('attached', vehicleId)),
      local.onDetached((vehicleId) => this.changed('detached', vehicleId)),
      local.onConfirmation((list) =>
        bus.publish(
          'terminals.confirmations',
          list.map((c) => ({ ...c, data: c.data.toString('base64') })),
        ),
      ),
      bus.subscribe('terminals', (message, from) => this.heard(from, message)),
      bus.subscribe('terminals.send', ({ to, items }) => {
        if (to !== bus.origin) return;
        for (const [vehicleId, commands] of items) {
          this.stats.receivedToSend += 1;
          local.send(vehicleId, commands.map(fromWire));
        }
      }),
      local.onMessage((list) =>
        bus.publish(
          'terminals.messages',
          list.map((m) => ({ ...m, data: m.data.toString('base64') })),
        ),
      ),
      bus.subscribe('terminals.messages', (list) => {
        const messages = list.map((m: WireTerminalMessage): TerminalMessage => ({ ...m, data: Buffer.from(m.data, 'base64') }));
        if (messages.length) this.emitter.emit('messages', messages);
      }),
      bus.subscribe('terminals.confirmations', (list) => {
        const confirmations = list.map((c: WireConfirmation): CommandConfirmation => ({ ...c, data: Buffer.from(c.data, 'base64') }));
        if (confirmations.length) this.emitter.emit('confirmations', confirmations);
      }),
      // a process that came back on the bus may have missed who holds what
      bus.onReconnect(() => this.announce()),
    );
    this.announce();
    this.timer = setInterval(() => this.announce(), ANNOUNCE_MS);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    for (const off of this.off.splice(0)) off();
    this.flush();
  }

  online(vehicleId: number): boolean {
    return this.local.online(vehicleId) || this.remote.has(vehicleId);
  }

  /** On this process's connection, or handed to the process holding the terminal (true: on its way). */
  send(vehicleId: number, commands: readonly CommandData[]): boolean {
    if (this.local.online(vehicleId)) return this.local.send(vehicleId, commands);
    const origin = this.remote.get(vehicleId);
    if (!origin) return false;
    let items = this.outgoing.get(origin);
    if (!items) this.outgoing.set(origin, (items = []));
    items.push([vehicleId, commands.map(toWire)]);
    this.stats.sentAway += 1;
    this.schedule();
    return true;
  }

  onConfirmation(listener: (confirmations: CommandConfirmation[]) => void): () => void {
    const offLocal = this.local.onConfirmation(listener);
    this.emitter.on('confirmations', listener);
    return () => {
      offLocal();
      this.emitter.off('confirmations', listener);
    };
  }

  onMessage(listener: (messages: TerminalMessage[]) => void): () => void {
    const offLocal = this.local.onMessage(listener);
    this.emitter.on('messages', listener);
    return () => {
      offLocal();
      this.emitter.off('messages', listener);
    };
  }

  onAttached(listener: (vehicleId: number) => void): () => void {
    const offLocal = this.local.onAttached(listener);
    this.emitter.on('attached', listener);
    return () => {
      offLocal();
      this.emitter.off('attached', listener);
    };
  }

  private changed(kind: 'attached' | 'detached', vehicleId: number): void {
    this.changes[kind].add(vehicleId);
    this.changes[kind === 'attached' ? 'detached' : 'attached'].delete(vehicleId);
    this.schedule();
  }

  /** This process's whole list; the silent processes' terminals forgotten. */
  private announce(): void {
    this.bus.publish('terminals', { all: [...this.local.vehicles()] });
    const now = this.now();
    for (const [origin, { at }] of this.announced) if (now - at > SILENT_MS) this.forget(origin);
  }

  private heard(from: string, message: { all?: number[]; attached?: number[]; detached?: number[] }): void {
    let known = this.announced.get(from);
    if (!known) this.announced.set(from, (known = { at: 0, vehicles: new Set() }));
    known.at = this.now();
    if (message.all) {
      const all = new Set(message.all);
      for (const vehicleId of known.vehicles) if (!all.has(vehicleId) && this.remote.get(vehicleId) === from) this.remote.delete(vehicleId);
      known.vehicles = all;
      for (const vehicleId of all) this.remote.set(vehicleId, from);
    }
    for (const vehicleId of message.detached ?? []) {
      known.vehicles.delete(vehicleId);
      if (this.remote.get(vehicleId) === from) this.remote.delete(vehicleId);
    }
    for (const vehicleId of message.attached ?? []) {
      known.vehicles.add(vehicleId);
      this.remote.set(vehicleId, from);
      // a terminal back online elsewhere: its waiting commands go out now
      this.emitter.emit('attached', vehicleId);
    }
  }

  private forget(origin: string): void {
    for (const vehicleId of this.announced.get(origin)?.vehicles ?? [])
      if (this.remote.get(vehicleId) === origin) this.remote.delete(vehicleId);
    this.announced.delete(origin);
  }

  /** What was asked within one turn of the event loop goes out together. */
  private schedule(): void {
    if (this.flushing) return;
    this.flushing = true;
    setImmediate(() => this.flush());
  }

  private flush(): void {
    this.flushing = false;
    const { attached, detached } = this.changes;
    if (attached.size || detached.size) this.bus.publish('terminals', { attached: [...attached], detached: [...detached] });
    this.changes = { attached: new Set(), detached: new Set() };
    for (const [to, items] of this.outgoing) this.bus.publish('terminals.send', { to, items });
    this.outgoing = new Map();
  }
}
