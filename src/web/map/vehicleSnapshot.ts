import { clusterKey, type MapCluster } from '../../shared/map';

/**
 * The vehicles and groups in view, keyed by kind and id. The stream client hands over the whole picture for
 * the subscription each time it changes; merging keeps the previous object of an item that did not change (so the canvas can
 * tell what moved) and drops the items the picture no longer has. Several events between two redraws
 * collapse into the last one.
 */
export type Snapshot = ReadonlyMap<string, MapCluster>;

export { clusterKey };

function same(a: MapCluster, b: MapCluster): boolean {
  return (
    a.center[0] === b.center[0] &&
    a.center[1] === b.center[1] &&
    a.course === b.course &&
    a.on === b.on &&
    a.count === b.count &&
    a.classRank === b.classRank &&
    a.date === b.date &&
    a.route === b.route
  );
}

export interface MergeResult {
  snapshot: Snapshot;
  /** Items that are new or moved or changed, and items removed. */
  changed: number;
}

export function mergeSnapshot(previous: Snapshot, items: readonly MapCluster[]): MergeResult {
  const next = new Map<string, MapCluster>();
  let changed = 0;
  for (const item of items) {
    const key = clusterKey(item);
    const before = previous.get(key);
    const kept = before && same(before, item) ? before : item;
    if (kept !== before) changed++;
    next.set(key, kept);
  }
  for (const key of previous.keys()) if (!next.has(key)) changed++;
  return { snapshot: next, changed };
}

/** Vehicles a picture shows: single vehicles plus the members of the groups. */
export function vehicleTotal(items: Iterable<MapCluster>): number {
  let total = 0;
  for (const item of items) total += item.type === 'group' ? Math.max(1, item.count) : 1;
  return total;
}
