import type { VehicleEvent } from '../telemetry/vehicleEvents';
import type { Position } from '../telemetry/types';

/**
 * When the demo fleet's terminals come online and go away, for the vehicle events journal (/journal/eventsts), as an
 * EGTS listener would see them: a terminal's first report connects it (every terminal at the simulator's start, as
 * after a server restart), and a silence past the idle time-out (a reporting gap of terminalReports.ts) disconnects
 * it at the moment the listener would close it; its next report connects it again.
 */
export class TerminalConnections {
  /** Online terminals: vehicle → the time of its last report. */
  private readonly lastReport = new Map<number, number>();

  constructor(
    private readonly emit: (event: VehicleEvent) => void,
    private readonly idleTimeoutMs: number,
  ) {}

  /** The reports just sent (in time order), and the time the terminals' reports were sent up to. */
  reported(positions: readonly Position[], upTo: number): void {
    for (const { vehicleId, time } of positions) {
      if (!this.lastReport.has(vehicleId)) this.emit({ vehicleId, kind: 'connected', at: new Date(time), channel: 'simulator' });
      this.lastReport.set(vehicleId, time);
    }
    for (const [vehicleId, last] of this.lastReport) {
      if (upTo - last <= this.idleTimeoutMs) continue;
      this.lastReport.delete(vehicleId);
      this.emit({ vehicleId, kind: 'disconnected', at: new Date(last + this.idleTimeoutMs), channel: 'simulator' });
    }
  }
}
