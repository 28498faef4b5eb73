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
interface GroupProps { s: number; o: number; t: number; m: number; p: VehiclePoint | null }

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
  const feature = p.feature ??= {
    type: 'Feature', geometry: { type: 'Point', coordinates: [p.lon, p.lat] }, properties: { s: 0, o: 0, t: 0, m: p.id, p },
  };
  feature.geometry.coordinates[0] = p.lon;
  feature.geometry.coordinates[1] = p.lat;
  const props = feature.properties;
  props.s = p.speed;
  props.o = p.on ? 1 : 0;
  props.t = p.time;
  return feature;
}

function sameGroup(a: MapCluster, b: MapCluster): boolean {
  return a.count === b.count && a.center[0] === b.center[0] && a.center[1] === b.center[1] && a.on === b.on
    && a.date === b.date && a.averageSpeed === b.averageSpeed;
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

  constructor(readonly points: readonly VehiclePoint[], options: ClusterOptions, previous?: ClusterIndex) {
    this.earlier = previous?.groups;
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
      Math.max(-180, west - dLon), Math.max(-90, south - dLat), Math.min(180, east + dLon), Math.min(90, north + dLat),
    ];
    const zoom = Math.round(subscription.zoom);
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

  private group(id: number, count: number, props: GroupProps, coordinates: number[]): MapCluster {
    let group: MapCluster = {
      type: 'group', id, count, routeType: null, route: null, classRank: null, course: 0,
      on: props.o > 0, date: isoTimes.of(props.t), depotNumber: null,
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
    type: 'vehicle', id: p.id, count: 1,
    routeType: p.info?.routeType ?? null, route: p.info?.routeShortName ?? null, classRank: p.info?.classRank ?? null,
    course: p.course, on: p.on, date: isoTimes.of(p.time), depotNumber: p.info?.depotNumber ?? null,
    averageSpeed: Math.round(p.speed * 10) / 10, center: [p.lat, p.lon],
  };
  return p.item;
}

/**
 * A cheap fingerprint of what a viewer sees (FNV-1a over kind, count, position to ~1 m, course, state, speed):
 * an unchanged view is not sent again. Group ids are left out, they carry no meaning to the viewer.
 */
export function viewHash(items: readonly MapCluster[]): number {
  let h = 0x811c9dc5;
  const mix = (value: number) => {
    h ^= value | 0;
    h = Math.imul(h, 0x01000193);
  };
  mix(items.length);
  for (const item of items) {
    mix(item.type === 'vehicle' ? item.id : -item.count);
    mix(Math.round(item.center[0] * 1e5));
    mix(Math.round(item.center[1] * 1e5));
    mix(item.course);
    mix(item.on ? 1 : 0);
    mix(Math.round(item.averageSpeed));
  }
  return h >>> 0;
}

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
