import { EventEmitter } from 'node:events';
import type { FastifyBaseLogger } from 'fastify';

/** A vehicle's terminal came online or went away (spec: the "vehicle connect events" journal). */
export interface VehicleEvent {
  vehicleId: number;
  kind: 'connected' | 'disconnected';
  at: Date;
  channel: 'egts' | 'http' | 'simulator';
  /** Remote address of the connection, the terminal id it presented. */
  remote?: string;
  terminalId?: string;
}

/** Whoever records vehicle events (the journals area) implements this; it must not throw or block. */
export type VehicleEventSink = (event: VehicleEvent) => void;

/** Fan-out of vehicle events: the journal writer and anybody else subscribe with `onVehicleEvent`. */
export class VehicleEvents {
  private readonly emitter = new EventEmitter();

  constructor() {
    this.emitter.setMaxListeners(50);
  }

  onVehicleEvent(sink: VehicleEventSink): () => void {
    this.emitter.on('event', sink);
    return () => this.emitter.off('event', sink);
  }

  emit(event: VehicleEvent): void {
    this.emitter.emit('event', event);
  }
}

/** The journal's own shape (journals/eventsWriter.ts, app.vehicle_event): kind 'connect' | 'disconnect'. */
export interface JournalVehicleEvent {
  at: Date;
  vehicleId: number;
  kind: 'connect' | 'disconnect';
  details: { channel: VehicleEvent['channel']; remote?: string; terminalId?: string };
}

/**
 * Feeds vehicle events to the vehicle events journal in batches: a reconnect storm of thousands of terminals
 * becomes one INSERT a second instead of thousands. Nothing is awaited on the connection path.
 */
export class JournalBatcher {
  private queue: JournalVehicleEvent[] = [];
  private readonly timer: NodeJS.Timeout;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly write: (events: JournalVehicleEvent[]) => Promise<unknown>,
    private readonly log: FastifyBaseLogger,
    intervalMs = 1000,
    private readonly maxQueued = 100_000,
  ) {
    this.timer = setInterval(() => void this.flush(), intervalMs);
    this.timer.unref();
  }

  readonly sink: VehicleEventSink = (event) => {
    if (this.queue.length >= this.maxQueued) return;
    this.queue.push({
      at: event.at,
      vehicleId: event.vehicleId,
      kind: event.kind === 'connected' ? 'connect' : 'disconnect',
      details: { channel: event.channel, remote: event.remote, terminalId: event.terminalId },
    });
  };

  flush(): Promise<void> {
    this.writing = this.writing.then(async () => {
      if (this.queue.length === 0) return;
      const batch = this.queue;
      this.queue = [];
      try {
        await this.write(batch);
      } catch (err) {
        this.log.warn({ err, events: batch.length }, 'vehicle events not journaled');
      }
    });
    return this.writing;
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }
}
