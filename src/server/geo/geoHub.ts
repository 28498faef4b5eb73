import { randomUUID } from 'node:crypto';
import {
  clusterKey,
  deltaGroup,
  deltaVehicle,
  type GeoDelta,
  type GeoDeltaGroup,
  type GeoDeltaVehicle,
  type GeoSubscription,
  type MapCluster,
} from '../../shared/map';
import type { VehicleInfo } from '../map/fleetDirectory';
import type { LatestPosition } from '../telemetry/types';
import { ClusterIndex, type ClusterOptions } from './clusterIndex';
import { FleetPoints } from './fleetPoints';
import { sseFrame } from './sseSink';

/** Where a stream's events go (an SseSink over HTTP; a fake in tests): whole frames made by sseFrame. */
export interface EventSink {
  send(frame: string | Buffer): boolean;
  /** A frame is waiting for the client to drain the one before (the next frame sent replaces it). */
  readonly waiting?: boolean;
  heartbeat(): void;
  close(): void;
  readonly isClosed: boolean;
}

/** Where the hub reads the fleet: latest positions and the vehicle directory. */
export interface GeoSource {
  positions(): Iterable<[number, LatestPosition]>;
  vehicle(id: number): VehicleInfo | undefined;
}

export interface StreamOwner {
  userId: number;
  /** The session token the stream was opened with: re-checked while the stream lives. */
  token: string;
}

export interface GeoStream {
  id: string;
  owner: StreamOwner;
  subscription: GeoSubscription;
  /** The vehicle filter as a key ('' = the whole fleet). */
  filterKey: string;
  /** The view whose picture the client holds (or will, once its waiting frame is written), and its number. */
  viewKey: string;
  version: number;
  sink: EventSink;
}

export interface GeoHubOptions extends ClusterOptions {
  /**
   * Positions that arrive together are sent together: a rebuild waits this long after the last one
   * (GEO_REBUILD_MS). A rebuild that took long stretches the wait (see MIN_IDLE_SHARE) so that a huge fleet
   * cannot keep the server busy with clustering alone.
   */
  rebuildMs: number;
  /** Even without new positions the picture is rebuilt this often: vehicles turn "off" as their fixes age. */
  refreshMs: number;
}

export type UpdateOutcome = 'ok' | 'not_found' | 'forbidden';

/**
 * One distinct view (filter, bounds, zoom) that streams watch, and the picture it showed last. Streams watching
 * it share one computation, one diff and one serialised frame per rebuild.
 */
interface View {
  key: string;
  filterKey: string;
  subscription: GeoSubscription;
  /** Number of the current picture; a delta leads from the one before to this. */
  version: number;
  /** The picture by item key (vehicle id; minus the group id for a group), and a map to make the next in. */
  items: Map<number, MapCluster>;
  spare: Map<number, MapCluster>;
  /** Its frames, encoded once for every stream that needs them (the whole picture only when someone needs it). */
  full: Buffer | null;
  delta: Buffer | null;
}

/** A rebuild is followed by at least this many times its own duration of rest (a 5,000-vehicle city needs ~20 ms). */
const MIN_IDLE_SHARE = 2;

const itemKey = (item: MapCluster) => (item.type === 'vehicle' ? item.id : -item.id);

function sameItem(a: MapCluster, b: MapCluster): boolean {
  return (
    a.center[0] === b.center[0] &&
    a.center[1] === b.center[1] &&
    a.course === b.course &&
    a.on === b.on &&
    a.count === b.count &&
    a.date === b.date &&
    a.averageSpeed === b.averageSpeed &&
    a.classRank === b.classRank &&
    a.route === b.route &&
    a.routeType === b.routeType &&
    a.depotNumber === b.depotNumber &&
    a.type === b.type
  );
}

/**
 * The geo stream's heart: one cluster index of the whole fleet, rebuilt when positions changed (what arrived
 * within `rebuildMs` goes together); per distinct view the new picture is compared with the previous one, and
 * each stream gets only what changed since the frame it has (a `delta`), or the whole picture when it has none
 * yet, changed its view, or could not take the previous frame in time.
 */
export class GeoHub {
  private readonly streams = new Map<string, GeoStream>();
  private readonly points = new FleetPoints();
  private base: ClusterIndex | null = null;
  private builtAt = 0;
  private dirty = true;
  private rebuildTimer: NodeJS.Timeout | undefined;
  private refreshTimer: NodeJS.Timeout | undefined;
  /** Per rebuild: indexes of filtered fleets, shared by the streams that need them (the previous ones, for reuse). */
  private filtered = new Map<string, ClusterIndex>();
  private earlierFiltered = new Map<string, ClusterIndex>();
  private readonly views = new Map<string, View>();
  /** Fix times of the items' ISO dates (a few hundred distinct ones at a time). */
  private readonly dates = new DateTimes();
  /** How long the last rebuild and its pushes took: the next one waits at least MIN_IDLE_SHARE times that. */
  private lastCycleMs = 0;
  readonly stats = {
    builds: 0,
    lastBuildMs: 0,
    lastCycleMs: 0,
    lastPoints: 0,
    framesSent: 0,
    framesUnchanged: 0,
    fullFrames: 0,
    deltaFrames: 0,
    bytesSent: 0,
  };

  constructor(
    private readonly source: GeoSource,
    private readonly options: GeoHubOptions,
    private readonly now: () => number = Date.now,
  ) {}

  get size(): number {
    return this.streams.size;
  }

  start(): void {
    this.refreshTimer = setInterval(() => this.positionsChanged(), this.options.refreshMs);
    this.refreshTimer.unref();
  }

  /** Ends every stream (server shutdown: an open event stream would hold the close forever). */
  stop(): void {
    clearInterval(this.refreshTimer);
    clearTimeout(this.rebuildTimer);
    this.rebuildTimer = undefined;
    for (const stream of this.streams.values()) stream.sink.close();
    this.streams.clear();
    this.views.clear();
  }

  /** Something moved: a rebuild is due (no sooner than `rebuildMs` after the last one). */
  positionsChanged(): void {
    this.dirty = true;
    this.schedule();
  }

  holds(streamId: string): boolean {
    return this.streams.has(streamId);
  }

  streamsOf(userId: number): number {
    let n = 0;
    for (const stream of this.streams.values()) if (stream.owner.userId === userId) n += 1;
    return n;
  }

  all(): IterableIterator<GeoStream> {
    return this.streams.values();
  }

  /** Registers a stream: 'hello' with its id, then the current picture at once. */
  open(owner: StreamOwner, subscription: GeoSubscription, sink: EventSink): GeoStream {
    const stream: GeoStream = {
      id: randomUUID(),
      owner,
      subscription,
      filterKey: filterKeyOf(subscription),
      viewKey: '',
      version: 0,
      sink,
    };
    this.streams.set(stream.id, stream);
    sink.send(sseFrame('hello', JSON.stringify({ streamId: stream.id })));
    // After a quiet spell with nobody watching, the index may be minutes old: rebuild (for everyone) first.
    if (!this.base || (this.dirty && this.now() - this.builtAt >= this.options.rebuildMs)) this.rebuild();
    else this.push(stream, true);
    if (this.dirty) this.schedule();
    return stream;
  }

  /** A new viewport or filter for a stream (only its owner may change it): the new picture is pushed at once. */
  update(streamId: string, userId: number, subscription: GeoSubscription): UpdateOutcome {
    const stream = this.streams.get(streamId);
    if (!stream) return 'not_found';
    if (stream.owner.userId !== userId) return 'forbidden';
    stream.subscription = subscription;
    stream.filterKey = filterKeyOf(subscription);
    if (!this.base) this.build();
    this.push(stream, true);
    return 'ok';
  }

  close(streamId: string): void {
    const stream = this.streams.get(streamId);
    if (!stream) return;
    this.streams.delete(streamId);
    stream.sink.close();
  }

  /** Rebuilds now and pushes to every stream whose view changed (the timer calls it; tests and benches may too). */
  rebuild(): void {
    clearTimeout(this.rebuildTimer);
    this.rebuildTimer = undefined;
    const started = performance.now();
    this.build();
    const watchers = new Map<string, GeoStream[]>();
    for (const stream of this.streams.values()) {
      const key = viewKeyOf(stream);
      const list = watchers.get(key);
      if (list) list.push(stream);
      else watchers.set(key, [stream]);
    }
    // each view's frames go out as soon as it is refreshed: with many distinct views the first ones need not wait
    for (const [key, view] of this.views) {
      const streams = watchers.get(key);
      if (!streams) {
        this.views.delete(key);
        continue;
      }
      this.refresh(view);
      for (const stream of streams) this.push(stream, false);
      watchers.delete(key);
    }
    // views nobody watched before this rebuild (made now, sent whole)
    for (const streams of watchers.values()) for (const stream of streams) this.push(stream, false);
    this.lastCycleMs = performance.now() - started;
    this.stats.lastCycleMs = this.lastCycleMs;
  }

  private schedule(): void {
    if (this.rebuildTimer || this.streams.size === 0) return;
    const interval = Math.max(this.options.rebuildMs, this.lastCycleMs * MIN_IDLE_SHARE);
    const wait = Math.max(0, this.builtAt + interval - this.now());
    this.rebuildTimer = setTimeout(() => {
      this.rebuildTimer = undefined;
      if (this.dirty && this.streams.size > 0) this.rebuild();
    }, wait);
  }

  private build(): void {
    const started = performance.now();
    const now = this.now();
    const points = this.points.update(this.source.positions(), (id) => this.source.vehicle(id), now);
    this.base = new ClusterIndex(points, this.options, this.base ?? undefined);
    this.builtAt = now;
    this.dirty = false;
    this.earlierFiltered = this.filtered;
    this.filtered = new Map();
    this.stats.builds += 1;
    this.stats.lastPoints = points.length;
    this.stats.lastBuildMs = performance.now() - started;
  }

  /** The view's picture from the new index: what changed since its previous one becomes its delta. */
  private refresh(view: View): void {
    const items = this.indexFor(view.filterKey, view.subscription).clusters(view.subscription);
    const at = this.builtAt;
    // the map of two pictures ago is reused: a city of views would otherwise make thousands of maps a second
    const next = view.spare;
    next.clear();
    const vehicles: GeoDeltaVehicle[] = [];
    const groups: GeoDeltaGroup[] = [];
    for (const item of items) {
      const key = itemKey(item);
      next.set(key, item);
      const before = view.items.get(key);
      if (before === item || (before && sameItem(before, item))) continue;
      const age = at - this.dates.time(item.date);
      if (item.type === 'vehicle') vehicles.push(deltaVehicle(item, before, age));
      else groups.push(deltaGroup(item, age));
    }
    const gone: string[] = [];
    if (next.size !== view.items.size || vehicles.length + groups.length > 0) {
      for (const [key, item] of view.items) if (!next.has(key)) gone.push(clusterKey(item));
    }
    if (vehicles.length === 0 && groups.length === 0 && gone.length === 0) return;
    view.spare = view.items;
    view.items = next;
    view.version += 1;
    view.full = null;
    const delta: GeoDelta = { time: new Date(at).toISOString(), at, v: view.version, base: view.version - 1, vehicles, groups, gone };
    view.delta = Buffer.from(sseFrame('delta', JSON.stringify(delta)));
  }

  private push(stream: GeoStream, force: boolean): void {
    if (stream.sink.isClosed) {
      this.streams.delete(stream.id);
      return;
    }
    const view = this.view(stream);
    const same = stream.viewKey === view.key;
    if (!force && same && stream.version === view.version) {
      this.stats.framesUnchanged += 1;
      return;
    }
    // A waiting frame is replaced by the next one (SseSink): only a whole picture may replace it.
    const delta = !force && same && stream.version === view.version - 1 && view.delta !== null && !stream.sink.waiting;
    let frame: Buffer;
    if (delta) {
      frame = view.delta!;
      this.stats.deltaFrames += 1;
    } else {
      frame = view.full ??= Buffer.from(
        sseFrame(
          'points',
          JSON.stringify({ time: new Date(this.builtAt).toISOString(), v: view.version, items: [...view.items.values()] }),
        ),
      );
      this.stats.fullFrames += 1;
    }
    stream.viewKey = view.key;
    stream.version = view.version;
    stream.sink.send(frame);
    this.stats.framesSent += 1;
    this.stats.bytesSent += frame.length;
  }

  /** The stream's view, computed from the current index the first time anyone watches it. */
  private view(stream: GeoStream): View {
    const key = viewKeyOf(stream);
    let view = this.views.get(key);
    if (!view) {
      const items = new Map<number, MapCluster>();
      for (const item of this.indexFor(stream.filterKey, stream.subscription).clusters(stream.subscription)) items.set(itemKey(item), item);
      view = {
        key,
        filterKey: stream.filterKey,
        subscription: stream.subscription,
        version: 1,
        items,
        spare: new Map(),
        full: null,
        delta: null,
      };
      this.views.set(key, view);
    }
    return view;
  }

  /** The whole fleet's index, or one of only the filtered vehicles (built once per rebuild per distinct filter). */
  private indexFor(filterKey: string, subscription: GeoSubscription): ClusterIndex {
    const base = this.base!;
    if (!filterKey) return base;
    let index = this.filtered.get(filterKey);
    if (!index) {
      const wanted = new Set(subscription.vehicles);
      index = new ClusterIndex(
        base.points.filter((p) => wanted.has(p.id)),
        this.options,
        this.earlierFiltered.get(filterKey),
      );
      this.filtered.set(filterKey, index);
    }
    return index;
  }
}

function viewKeyOf(stream: GeoStream): string {
  const { bounds, zoom } = stream.subscription;
  return `${stream.filterKey}|${bounds.join(',')}|${zoom}`;
}

function filterKeyOf(subscription: GeoSubscription): string {
  return subscription.vehicles.length === 0 ? '' : [...new Set(subscription.vehicles)].sort((a, b) => a - b).join(',');
}

/** Epoch milliseconds of ISO texts, remembered (the items' dates: fixes share a few hundred distinct times). */
class DateTimes {
  private times = new Map<string, number>();

  time(date: string): number {
    let time = this.times.get(date);
    if (time === undefined) {
      time = Date.parse(date);
      if (this.times.size >= 100_000) this.times = new Map();
      this.times.set(date, time);
    }
    return time;
  }
}
