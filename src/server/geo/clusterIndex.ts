import Supercluster from 'supercluster';
import type { GeoSubscription, MapCluster } from '../../shared/map';
import type { VehicleInfo } from '../map/fleetDirectory';

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
  item: MapCluster | undefined;
}

interface PointProps { i: number }
/** Aggregates of a group: speed sum, count of vehicles on, newest fix time. */
interface GroupProps { s: number; o: number; t: number }

export interface ClusterOptions {
  radius: number;
  maxZoom: number;
}

/** Share of the viewport added on each side: vehicles just outside stay put during a small pan. */
const VIEW_MARGIN = 0.1;
const round6 = (value: number) => Math.round(value * 1e6) / 1e6;

/**
 * The vehicles clustered at every zoom (supercluster: a KD-tree per zoom, built once, queried per viewport in
 * well under a millisecond for thousands of points). Immutable: a rebuild makes a new one.
 */
export class ClusterIndex {
  private readonly index: Supercluster<PointProps, GroupProps>;
  /**
   * Group items made so far (cluster ids are unique across zooms): viewers of overlapping views at one zoom
   * share them, so a rebuild pays for each group once however many streams see it.
   */
  private readonly groups = new Map<number, MapCluster>();
  private readonly isoTimes = new IsoTimes();

  constructor(readonly points: readonly VehiclePoint[], options: ClusterOptions) {
    this.index = new Supercluster<PointProps, GroupProps>({
      radius: options.radius,
      maxZoom: options.maxZoom,
      map: (props) => {
        const p = points[props.i];
        return { s: p.speed, o: p.on ? 1 : 0, t: p.time };
      },
      reduce: (acc, props) => {
        acc.s += props.s;
        acc.o += props.o;
        if (props.t > acc.t) acc.t = props.t;
      },
    });
    this.index.load(points.map((p, i) => ({ type: 'Feature', geometry: { type: 'Point', coordinates: [p.lon, p.lat] }, properties: { i } })));
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
    const features = this.index.getClusters(bbox, Math.round(subscription.zoom));
    const items: MapCluster[] = new Array(features.length);
    for (let k = 0; k < features.length; k++) {
      const { properties, geometry } = features[k];
      if ('cluster' in properties && properties.cluster) {
        let group = this.groups.get(properties.cluster_id);
        if (!group) {
          const count = properties.point_count;
          group = {
            type: 'group', id: properties.cluster_id, count, routeType: null, route: null, classRank: null, course: 0,
            on: properties.o > 0, date: this.isoTimes.of(properties.t), depotNumber: null,
            averageSpeed: Math.round((properties.s / count) * 10) / 10,
            center: [round6(geometry.coordinates[1]), round6(geometry.coordinates[0])],
          };
          this.groups.set(properties.cluster_id, group);
        }
        items[k] = group;
      } else {
        items[k] = this.itemOf(this.points[(properties as PointProps).i]);
      }
    }
    return items;
  }

  /** The stream item of a vehicle, made once per rebuild and shared by every view (and filtered index) showing it. */
  private itemOf(p: VehiclePoint): MapCluster {
    p.item ??= {
      type: 'vehicle', id: p.id, count: 1,
      routeType: p.info?.routeType ?? null, route: p.info?.routeShortName ?? null, classRank: p.info?.classRank ?? null,
      course: p.course, on: p.on, date: this.isoTimes.of(p.time), depotNumber: p.info?.depotNumber ?? null,
      averageSpeed: Math.round(p.speed * 10) / 10, center: [p.lat, p.lon],
    };
    return p.item;
  }
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
  private readonly texts = new Map<number, string>();

  of(time: number): string {
    let text = this.texts.get(time);
    if (text === undefined) {
      text = new Date(time).toISOString();
      if (this.texts.size < 100_000) this.texts.set(time, text);
    }
    return text;
  }
}
