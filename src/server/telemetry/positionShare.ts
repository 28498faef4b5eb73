import type { Bus } from '../bus/bus';
import type { WirePosition } from '../bus/channels';
import type { TelemetryPipeline } from './pipeline';
import type { Position } from './types';

/** Positions gathered this long go out as one message (an EGTS packet is often one fix). */
const GATHER_MS = 50;
/** Positions per message at most. */
const MESSAGE_MAX = 5000;

/**
 * Live positions between server processes: each process receives part of the fleet (its EGTS connections and
 * HTTP batches, the simulator where it runs), but every map, feed and the live timetable must see all of it.
 * What a process accepts goes out over the bus, gathered for 50 ms; what the others accepted comes in through
 * the pipeline's applyRemote (the latest state and the subscribers, never the track: the receiving process
 * writes that).
 */
export class PositionShare {
  private outgoing: WirePosition[] = [];
  private timer: NodeJS.Timeout | undefined;
  private readonly off: (() => void)[] = [];
  readonly stats = { sent: 0, received: 0 };

  private readonly onAccepted = (positions: readonly Position[], remote: boolean) => {
    if (remote) return;
    for (const p of positions)
      this.outgoing.push([p.vehicleId, p.time, p.lat, p.lon, p.speed, p.course, p.valid ? 1 : 0, p.history ? 1 : 0]);
    this.timer ??= setTimeout(() => this.flush(), GATHER_MS);
  };

  constructor(
    private readonly bus: Bus,
    private readonly pipeline: TelemetryPipeline,
  ) {}

  start(): void {
    if (!this.bus.shared || this.off.length) return;
    this.pipeline.on('accepted', this.onAccepted);
    this.off.push(
      () => this.pipeline.off('accepted', this.onAccepted),
      this.bus.subscribe('positions', (wire) => {
        const positions = fromWire(wire);
        this.stats.received += positions.length;
        this.pipeline.applyRemote(positions);
      }),
    );
  }

  stop(): void {
    for (const off of this.off.splice(0)) off();
    this.flush();
  }

  private flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    while (this.outgoing.length) {
      const message = this.outgoing.splice(0, MESSAGE_MAX);
      this.stats.sent += message.length;
      this.bus.publish('positions', message);
    }
  }
}

/** The well-formed positions of a message (another version's or a broken one's items are left out). */
function fromWire(wire: unknown): Position[] {
  if (!Array.isArray(wire)) return [];
  const positions: Position[] = [];
  for (const item of wire as unknown[]) {
    if (!Array.isArray(item) || item.length !== 8 || !item.every((v) => typeof v === 'number' && Number.isFinite(v))) continue;
    const [vehicleId, time, lat, lon, speed, course, valid, history] = item as WirePosition;
    positions.push({ vehicleId, time, lat, lon, speed, course, valid: valid === 1, history: history === 1 });
  }
  return positions;
}
