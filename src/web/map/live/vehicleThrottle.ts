import type { MapCluster } from '../../../shared/map';
import { mergeSnapshot, type Snapshot } from '../vehicleSnapshot';

/** Redraws at most this often (4 a second), whatever the stream's rate. */
export const VEHICLE_REDRAW_MS = 250;
/**
 * While the map is being moved (a move within the last MOVING_MS), at most once a second: a redraw of thousands
 * of vehicles costs a frame or two, and the canvas moves with the map anyway.
 */
export const VEHICLE_REDRAW_MOVING_MS = 1000;
export const MOVING_MS = 150;
/** A finger on the map that has not moved it for this long rests (the pictures it held are drawn). */
export const FINGER_REST_MS = 500;

/** What the vehicle layer draws: the time of the stream's picture and its vehicles and groups. */
export interface VehiclePicture {
  time: string;
  /** The same array as before when nothing changed, so the layer skips the redraw. */
  items: readonly MapCluster[];
  /** The same items by kind and id (a popup following its vehicle). */
  snapshot: Snapshot;
}

export const NO_VEHICLES: VehiclePicture = { time: '', items: [], snapshot: new Map() };

export interface ThrottleClock {
  now(): number;
  setTimeout(run: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const browserClock: ThrottleClock = {
  now: () => performance.now(),
  setTimeout: (run, ms) => setTimeout(run, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/**
 * Between the geo stream and the vehicle layer: pictures arriving faster than a redraw collapse into the
 * last one, merged with what is drawn (unchanged items keep their objects), and handed on at most every
 * VEHICLE_REDRAW_MS, or every VEHICLE_REDRAW_MOVING_MS while the map moves. While a finger drags the map
 * nothing is handed on (a redraw would cost the drag frames): the last picture comes when the move ends,
 * or when the finger rests (FINGER_REST_MS without a move).
 */
export class VehicleRedrawThrottle {
  private snapshot: Snapshot = new Map();
  private items: readonly MapCluster[] = [];
  private pending: { time: string; items: readonly MapCluster[] } | null = null;
  private timer: unknown = null;
  private lastDraw = Number.NEGATIVE_INFINITY;
  private lastMove = Number.NEGATIVE_INFINITY;
  private held = false;

  constructor(
    private readonly draw: (picture: VehiclePicture) => void,
    private readonly clock: ThrottleClock = browserClock,
  ) {}

  /** The map moved (panning, zooming): redraws slow down for a while. */
  moved(): void {
    this.lastMove = this.clock.now();
  }

  /** A finger drags the map: the pictures wait while it moves. */
  hold(): void {
    this.held = true;
  }

  /** Whether pictures wait for a drag's end. */
  get holding(): boolean {
    return this.held;
  }

  /** The drag's move has ended (the map's glide after the finger included): the waiting picture is drawn at once. */
  release(): void {
    if (!this.held) return;
    this.held = false;
    this.lastDraw = Number.NEGATIVE_INFINITY;
    this.flush();
  }

  /** A picture of the stream; drawn when the throttle allows. */
  push(time: string, items: readonly MapCluster[]): void {
    this.pending = { time, items };
    if (this.timer === null) this.timer = this.clock.setTimeout(() => this.flush(), Math.min(this.delay(), MOVING_MS));
  }

  /** Nothing to show (the filter chose no vehicle): cleared at once. */
  clear(time: string): void {
    this.pending = { time, items: [] };
    this.lastDraw = Number.NEGATIVE_INFINITY;
    this.flush();
  }

  /** The layer is gone: no further draw, and a new start begins from an empty picture. */
  stop(): void {
    if (this.timer !== null) this.clock.clearTimeout(this.timer);
    this.timer = null;
    this.pending = null;
    this.snapshot = new Map();
    this.items = [];
  }

  /** How long until the next redraw may happen. */
  private delay(): number {
    const now = this.clock.now();
    const moving = now - this.lastMove < MOVING_MS;
    if (this.held && now - this.lastMove < FINGER_REST_MS) return this.lastMove + FINGER_REST_MS - now;
    return Math.max(0, this.lastDraw + (moving ? VEHICLE_REDRAW_MOVING_MS : VEHICLE_REDRAW_MS) - now);
  }

  private flush(): void {
    if (this.timer !== null) this.clock.clearTimeout(this.timer);
    this.timer = null;
    const next = this.pending;
    if (!next) return;
    const wait = this.delay();
    if (wait > 0) {
      // check again soon: a move that has stopped must not hold the picture back a whole second
      this.timer = this.clock.setTimeout(() => this.flush(), Math.min(wait, MOVING_MS));
      return;
    }
    this.pending = null;
    this.lastDraw = this.clock.now();
    const { snapshot, changed } = mergeSnapshot(this.snapshot, next.items);
    if (changed > 0) {
      this.snapshot = snapshot;
      this.items = [...snapshot.values()];
    }
    this.draw({ time: next.time, items: this.items, snapshot: this.snapshot });
  }
}
