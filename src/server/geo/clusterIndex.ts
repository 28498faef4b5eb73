import Supercluster from 'supercluster';
import type { GeoSubscription, MapCluster } from '../../shared/map';
import type { VehicleInfo } from '../map/fleetDirectory';
import type { LatestPosition } from '../telemetry/types';

/** One vehicle as the index holds it; `item` is its stream item, made on first sight. */
export interface VehiclePoint {
  id: number;
  info: VehicleInfo | undefined;
  lat: number;
  lon: number;
  speed: number;
  course: number;
  time: number;
  on: boolean;
  /** Its stream item, made when a viewer first sees it on its own; kept while the vehicle does not change. */
  item: MapCluster | undefined;
  /** Its clustering input, made once and kept with the point (the coordinates are rewritten at each build). */
  feature: PointFeature | undefined;
  /** The latest position it shows (FleetPoints tells a moved vehicle by this object). */
  source: LatestPosition | undefined;
}

interface PointFeature {
  type: 'Feature';
  geometry: { type: 'Point'; coordinates: [number, number] };
  properties: GroupProps;
}

/**
 * Aggregates of a group: speed sum, count of vehicles on, newest fix time, lowest vehicle id. A vehicle's own
 * (kept with its feature, `p` pointing back at it) serve as supercluster's input properties as they are: no
 * `map` step, which would allocate an object for every vehicle merged into a group at every rebuild.
 */
interface GroupProps {
  s: number;
  o: number;
  t: number;
  m: number;
  p: VehiclePoint | null;
}

export interface ClusterOptions {
  radius: number;
  maxZoom: number;
}

/** Share of the viewport added on each side: vehicles just outside stay put during a small pan. */
const VIEW_MARGIN = 0.1;
const round6 = (value: number) => Math.round(value * 1e6) / 1e6;

/**
 * A group's id: its lowest vehicle id and its zoom (`m * 32 + zoom`). Unlike supercluster's cluster ids, which
 * shift whenever a group anywhere before it in the index changes, it stays the same while that vehicle stays in
 * the group, so a viewer's picture can be updated group by group. Two groups of one zoom never share a vehicle.
 */
export const groupId = (lowestVehicleId: number, zoom: number) => lowestVehicleId * 32 + zoom;

function featureOf(p: VehiclePoint): PointFeature {
  const feature = (p.feature ??= {
    type: 'Feature',
    geometry: { type: 'Point', coordinates: [p.lon, p.lat] },
    properties: { s: 0, o: 0, t: 0, m: p.id, p },
  });
  feature.geometry.coordinates[0] = p.lon;
  feature.geometry.coordinates[1] = p.lat;
  const props = feature.properties;
  props.s = p.speed;
  props.o = p.on ? 1 : 0;
  props.t = p.time;
  return feature;
}

function sameGroup(a: MapCluster, b: MapCluster): boolean {
  return (
    a.count === b.count &&
    a.center[0] === b.center[0] &&
    a.center[1] === b.center[1] &&
    a.on === b.on &&
    a.date === b.date &&
    a.averageSpeed === b.averageSpeed
  );
}

/**
 * The vehicles clustered at every zoom (supercluster: a KD-tree per zoom, built once, queried per viewport in
 * well under a millisecond for thousands of points). A rebuild makes a new one; the items of vehicles and groups
 * that did not change since the `previous` index are the same objects as before.
 */
export class ClusterIndex {
  private readonly index: Supercluster<GroupProps, GroupProps>;
  /**
   * Group items made so far (group ids are unique across zooms): viewers of overlapping views at one zoom
   * share them, so a rebuild pays for each group once however many streams see it.
   */
  private readonly groups = new Map<number, MapCluster>();
  /** The previous index's groups: an unchanged group keeps its item. */
  private readonly earlier: ReadonlyMap<number, MapCluster> | undefined;

  private readonly maxZoom: number;

  constructor(
    readonly points: readonly VehiclePoint[],
    options: ClusterOptions,
    previous?: ClusterIndex,
  ) {
    this.earlier = previous?.groups;
    this.maxZoom = options.maxZoom;
    this.index = new Supercluster<GroupProps, GroupProps>({
      radius: options.radius,
      maxZoom: options.maxZoom,
      // A group's aggregates start as a copy of its first member's (supercluster copies them) and take the rest in.
      reduce: (acc, props) => {
        acc.s += props.s;
        acc.o += props.o;
        if (props.t > acc.t) acc.t = props.t;
        if (props.m < acc.m) acc.m = props.m;
      },
    });
    const features = new Array<PointFeature>(points.length);
    for (let i = 0; i < points.length; i++) features[i] = featureOf(points[i]);
    this.index.load(features);
  }

  get size(): number {
    return this.points.length;
  }

  /** Groups and single vehicles in the subscription's view (with a margin) at its zoom. */
  clusters(subscription: Pick<GeoSubscription, 'bounds' | 'zoom'>): MapCluster[] {
    const [south, west, north, east] = subscription.bounds;
    const dLat = (north - south) * VIEW_MARGIN;
    // A view across the antimeridian (west > east) is passed as it is: supercluster splits it.
    const dLon = east >= west ? (east - west) * VIEW_MARGIN : 0;
    const bbox: [number, number, number, number] = [
      Math.max(-180, west - dLon),
      Math.max(-90, south - dLat),
      Math.min(180, east + dLon),
      Math.min(90, north + dLat),
    ];
    const zoom = Math.round(subscription.zoom);
    const fast = this.fastClusters(bbox, zoom);
    if (fast) return fast;
    const features = this.index.getClusters(bbox, zoom);
    const items: MapCluster[] = new Array(features.length);
    for (let k = 0; k < features.length; k++) {
      const { properties, geometry } = features[k];
      if ('cluster' in properties && properties.cluster) {
        const id = groupId(properties.m, zoom);
        items[k] = this.groups.get(id) ?? this.group(id, properties.point_count, properties, geometry.coordinates);
      } else {
        items[k] = itemOf((properties as GroupProps).p!);
      }
    }
    return items;
  }

  /**
   * getClusters without its GeoJSON: supercluster 9 keeps each zoom's groups and points in a KD-tree over an
   * Int32Array (x, y, zoom, id, parent, count, aggregates index per entry; coordinates as (mercator - 0.5) × 2^30)
   * and getClusters dresses every hit as a Feature with a copy of its aggregates, some 500 bytes each. Reading
   * the arrays directly allocates only the items not made before, which keeps a rebuild's first queries off the
   * garbage collector's path. Null when the index is not laid out so (another supercluster version): the
   * caller then takes the public way. tests/geo.clustering.test.ts checks that both agree.
   */
  private fastClusters(bbox: readonly [number, number, number, number], zoom: number): MapCluster[] | null {
    const index = this.index as unknown as SuperclusterInternals;
    if (
      !FAST_PATH.enabled ||
      index.stride !== 7 ||
      !Array.isArray(index.trees) ||
      !Array.isArray(index.clusterProps) ||
      !Array.isArray(index.props)
    )
      return null;
    const [minLng, minLat, maxLng, maxLat] = bbox;
    if (minLng > maxLng || minLng < -180 || maxLng > 180) return null;
    const tree = index.trees[Math.max(0, Math.min(zoom, this.maxZoom + 1))];
    if (!tree || !(tree.data instanceof Int32Array) || typeof tree.range !== 'function') return null;
    const ids = tree.range(encode(lngX(minLng)), encode(latY(maxLat)), encode(lngX(maxLng)), encode(latY(minLat)));
    const data = tree.data;
    const items: MapCluster[] = new Array(ids.length);
    for (let n = 0; n < ids.length; n++) {
      const k = ids[n] * 7;
      const count = data[k + 5];
      if (count > 1) {
        const props = index.clusterProps[data[k + 6]];
        const id = groupId(props.m, zoom);
        items[n] = this.groups.get(id) ?? this.group(id, count, props, [xLng(decode(data[k])), yLat(decode(data[k + 1]))]);
      } else {
        items[n] = itemOf(index.props[data[k + 3]].p!);
      }
    }
    FAST_PATH.answered += 1;
    return items;
  }

  private group(id: number, count: number, props: GroupProps, coordinates: number[]): MapCluster {
    let group: MapCluster = {
      type: 'group',
      id,
      count,
      routeType: null,
      route: null,
      classRank: null,
      course: 0,
      on: props.o > 0,
      date: isoTimes.of(props.t),
      depotNumber: null,
      averageSpeed: Math.round((props.s / count) * 10) / 10,
      center: [round6(coordinates[1]), round6(coordinates[0])],
    };
    const before = this.earlier?.get(id);
    if (before && sameGroup(before, group)) group = before;
    this.groups.set(id, group);
    return group;
  }
}

/** The stream item of a vehicle, made once and shared by every view (and filtered index) showing it. */
function itemOf(p: VehiclePoint): MapCluster {
  p.item ??= {
    type: 'vehicle',
    id: p.id,
    count: 1,
    routeType: p.info?.routeType ?? null,
    route: p.info?.routeShortName ?? null,
    classRank: p.info?.classRank ?? null,
    course: p.course,
    on: p.on,
    date: isoTimes.of(p.time),
    depotNumber: p.info?.depotNumber ?? null,
    averageSpeed: Math.round(p.speed * 10) / 10,
    center: [p.lat, p.lon],
  };
  return p.item;
}

/** What fastClusters reads of supercluster 9's index (not its public interface). */
interface SuperclusterInternals {
  stride: number;
  trees: ({ data: unknown; range(minX: number, minY: number, maxX: number, maxY: number): number[] } | undefined)[];
  props: GroupProps[];
  clusterProps: GroupProps[];
}

/** Whether fastClusters is tried, and how often it answered (the test comparing it with getClusters reads both). */
export const FAST_PATH = { enabled: true, answered: 0 };

// supercluster 9's coordinate encoding (index.js: lngX, latY, xLng, yLat, encode, decode)
const SCALE = 0x40000000;
const encode = (c: number) => (c - 0.5) * SCALE;
const decode = (v: number) => v / SCALE + 0.5;
const lngX = (lng: number) => lng / 360 + 0.5;
function latY(lat: number): number {
  const sin = Math.sin((lat * Math.PI) / 180);
  const y = 0.5 - (0.25 * Math.log((1 + sin) / (1 - sin))) / Math.PI;
  return y < 0 ? 0 : y > 1 ? 1 : y;
}
const xLng = (x: number) => (x - 0.5) * 360;
const yLat = (y: number) => (360 * Math.atan(Math.exp(((180 - y * 360) * Math.PI) / 180))) / Math.PI - 90;

/**
 * ISO 8601 texts of epoch times, remembered: fixes come in whole seconds, so thousands of vehicles and groups
 * share a few hundred distinct times, and toISOString is the dearest part of labelling them.
 */
export class IsoTimes {
  private texts = new Map<number, string>();

  of(time: number): string {
    let text = this.texts.get(time);
    if (text === undefined) {
      text = new Date(time).toISOString();
      // Fixes of the last minutes are what is asked for: an old batch is dropped whole rather than one by one.
      if (this.texts.size >= 100_000) this.texts = new Map();
      this.texts.set(time, text);
    }
    return text;
  }
}

const isoTimes = new IsoTimes();
