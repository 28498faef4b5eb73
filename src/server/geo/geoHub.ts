import { randomUUID } from 'node:crypto';
import type { GeoSubscription } from '../../shared/map';
import type { VehicleInfo } from '../map/fleetDirectory';
import type { LatestPosition } from '../telemetry/types';
import { ClusterIndex, viewHash, type ClusterOptions } from './clusterIndex';
import { fleetPoints } from './fleetPoints';
import { sseFrame } from './sseSink';

/** Where a stream's events go (an SseSink over HTTP; a fake in tests): whole frames made by sseFrame. */
export interface EventSink {
  send(frame: string | Buffer): boolean;
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
  lastHash: number;
  sink: EventSink;
}

export interface GeoHubOptions extends ClusterOptions {
  rebuildMs: number;
  /** Even without new positions the picture is rebuilt this often: vehicles turn "off" as their fixes age. */
  refreshMs: number;
}

export type UpdateOutcome = 'ok' | 'not_found' | 'forbidden';

/** A view's clusters as sent: the frame is encoded once and the same bytes go to every stream that watches it. */
interface View { hash: number; frame: Buffer }

/**
 * The geo stream's heart: one cluster index of the whole fleet, rebuilt at most once per `rebuildMs` while
 * positions change; per open stream the clusters of its viewport (and vehicle filter) are computed from it and
 * sent only when they differ from what that stream saw last. Streams watching the same view share one
 * computation and one serialised frame per rebuild.
 */
export class GeoHub {
  private readonly streams = new Map<string, GeoStream>();
  private base: ClusterIndex | null = null;
  private builtAt = 0;
  private dirty = true;
  private rebuildTimer: NodeJS.Timeout | undefined;
  private refreshTimer: NodeJS.Timeout | undefined;
  /** Per rebuild: indexes of filtered fleets and frames of views, shared by the streams that need them. */
  private filtered = new Map<string, ClusterIndex>();
  private views = new Map<string, View>();
  readonly stats = { builds: 0, lastBuildMs: 0, lastPoints: 0, framesSent: 0, framesUnchanged: 0 };

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
  }

  /** Something moved: a rebuild is due (no sooner than `rebuildMs` after the last one). */
  positionsChanged(): void {
    this.dirty = true;
    this.schedule();
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
    const stream: GeoStream = { id: randomUUID(), owner, subscription, filterKey: filterKeyOf(subscription), lastHash: -1, sink };
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
    this.build();
    for (const stream of this.streams.values()) this.push(stream, false);
  }

  private schedule(): void {
    if (this.rebuildTimer || this.streams.size === 0) return;
    const wait = Math.max(0, this.builtAt + this.options.rebuildMs - this.now());
    this.rebuildTimer = setTimeout(() => {
      this.rebuildTimer = undefined;
      if (this.dirty && this.streams.size > 0) this.rebuild();
    }, wait);
  }

  private build(): void {
    const started = performance.now();
    const now = this.now();
    const points = fleetPoints(this.source.positions(), (id) => this.source.vehicle(id), now);
    this.base = new ClusterIndex(points, this.options);
    this.builtAt = now;
    this.dirty = false;
    this.filtered.clear();
    this.views.clear();
    this.stats.builds += 1;
    this.stats.lastPoints = points.length;
    this.stats.lastBuildMs = performance.now() - started;
  }

  private push(stream: GeoStream, force: boolean): void {
    if (stream.sink.isClosed) {
      this.streams.delete(stream.id);
      return;
    }
    const view = this.view(stream);
    if (!force && view.hash === stream.lastHash) {
      this.stats.framesUnchanged += 1;
      return;
    }
    stream.lastHash = view.hash;
    stream.sink.send(view.frame);
    this.stats.framesSent += 1;
  }

  private view(stream: GeoStream): View {
    const { bounds, zoom } = stream.subscription;
    const key = `${stream.filterKey}|${bounds.join(',')}|${zoom}`;
    let view = this.views.get(key);
    if (!view) {
      const items = this.indexFor(stream).clusters(stream.subscription);
      const frame = Buffer.from(sseFrame('points', JSON.stringify({ time: new Date(this.builtAt).toISOString(), items })));
      view = { hash: viewHash(items), frame };
      this.views.set(key, view);
    }
    return view;
  }

  /** The whole fleet's index, or one of only the filtered vehicles (built once per rebuild per distinct filter). */
  private indexFor(stream: GeoStream): ClusterIndex {
    const base = this.base!;
    if (!stream.filterKey) return base;
    let index = this.filtered.get(stream.filterKey);
    if (!index) {
      const wanted = new Set(stream.subscription.vehicles);
      index = new ClusterIndex(base.points.filter((p) => wanted.has(p.id)), this.options);
      this.filtered.set(stream.filterKey, index);
    }
    return index;
  }
}

function filterKeyOf(subscription: GeoSubscription): string {
  return subscription.vehicles.length === 0 ? '' : [...new Set(subscription.vehicles)].sort((a, b) => a - b).join(',');
}
