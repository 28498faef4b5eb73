import type { DispatchException, ExceptionEvent } from './engineTypes';

/** A driver's message stays on the board this long. */
export const DRIVER_MESSAGE_MS = 3_600_000;

/** The exceptions in force, keyed by kind and subject, and the raised and cleared events since the last drain. */
export class ExceptionBoard {
  private readonly active = new Map<string, DispatchException>();
  private eventsOut: ExceptionEvent[] = [];

  get(key: string): DispatchException | undefined {
    return this.active.get(key);
  }

  values(): IterableIterator<DispatchException> {
    return this.active.values();
  }

  raise(fields: Omit<DispatchException, 'key' | 'since'>, since: number, key = `${fields.kind}|v${fields.vehicleId}`): void {
    const current = this.active.get(key);
    if (current) {
      current.value = fields.value;
      return;
    }
    const exception = { key, since, ...fields };
    this.active.set(key, exception);
    this.eventsOut.push({ type: 'raised', at: since, exception });
  }

  clear(key: string, at: number): void {
    const current = this.active.get(key);
    if (!current) return;
    this.active.delete(key);
    this.eventsOut.push({ type: 'cleared', at, exception: current });
  }

  /** The events since the last drain. */
  drain(): ExceptionEvent[] {
    const out = this.eventsOut;
    this.eventsOut = [];
    return out;
  }
}
