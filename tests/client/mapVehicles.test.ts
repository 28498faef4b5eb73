import { describe, expect, it } from 'vitest';
import { VEHICLE_CLASS_COLORS } from '../../src/shared/constants';
import type { MapCluster } from '../../src/shared/map';
import { clusterKey, mergeSnapshot, vehicleTotal, type Snapshot } from '../../src/web/map/vehicleSnapshot';
import { OFF_COLOR, UNKNOWN_CLASS_COLOR, VEHICLE_LEGEND, groupRadius, vehicleColor } from '../../src/web/map/vehicleStyle';

const item = (id: number, lat: number, extra: Partial<MapCluster> = {}): MapCluster => ({
  type: 'vehicle',
  id,
  count: 1,
  routeType: 'А',
  route: '1',
  classRank: 1,
  course: 0,
  on: true,
  date: '2024-05-01T10:00:00Z',
  depotNumber: id,
  averageSpeed: 0,
  center: [lat, 30],
  ...extra,
});

describe('vehicle updates merged by id', () => {
  it('keeps unchanged items, replaces moved ones and drops the ones no longer in the picture', () => {
    const first = mergeSnapshot(new Map(), [item(1, 59.9), item(2, 59.91), item(3, 59.92)]);
    expect(first.changed).toBe(3);
    const before: Snapshot = first.snapshot;
    const second = mergeSnapshot(before, [item(1, 59.9), item(2, 59.95), item(4, 59.99)]);
    expect(second.changed).toBe(3); // 2 moved, 4 new, 3 gone
    expect(second.snapshot.get('v1')).toBe(before.get('v1'));
    expect(second.snapshot.get('v2')?.center).toEqual([59.95, 30]);
    expect([...second.snapshot.keys()]).toEqual(['v1', 'v2', 'v4']);
    expect(mergeSnapshot(second.snapshot, [item(1, 59.9), item(2, 59.95), item(4, 59.99)]).changed).toBe(0);
  });

  it('keeps the last of duplicate ids and tells a vehicle from a group of the same id', () => {
    const { snapshot } = mergeSnapshot(new Map(), [item(5, 1), item(5, 2), item(5, 3, { type: 'group', count: 12 })]);
    expect(snapshot.size).toBe(2);
    expect(snapshot.get(clusterKey({ type: 'vehicle', id: 5 }))?.center[0]).toBe(2);
    expect(vehicleTotal(snapshot.values())).toBe(13);
  });

  it('notices a change of state without a move', () => {
    const { snapshot } = mergeSnapshot(new Map(), [item(1, 59.9)]);
    expect(mergeSnapshot(snapshot, [item(1, 59.9, { on: false })]).changed).toBe(1);
    expect(mergeSnapshot(snapshot, [item(1, 59.9, { course: 45 })]).changed).toBe(1);
  });
});

describe('vehicle class colour', () => {
  it('colours ranks 1..4 amber, orange, dark red, dark grey', () => {
    expect([1, 2, 3, 4].map((rank) => vehicleColor(rank, true))).toEqual([...VEHICLE_CLASS_COLORS]);
    expect(VEHICLE_CLASS_COLORS).toEqual(['#ffbf00', '#ff8c00', '#8b0000', '#424242']);
  });

  it('greys out a vehicle that is off, and has a colour for an unknown class', () => {
    expect(vehicleColor(3, false)).toBe(OFF_COLOR);
    for (const rank of [null, undefined, 0, 5, 1.5]) expect(vehicleColor(rank, true)).toBe(UNKNOWN_CLASS_COLOR);
  });

  it('draws bigger groups bigger, within bounds', () => {
    expect(groupRadius(1)).toBeLessThan(groupRadius(100));
    expect(groupRadius(1_000_000)).toBeLessThanOrEqual(26);
  });
});

describe('the map legend', () => {
  it('names every colour vehicleColor gives: the four classes, no class, off', () => {
    const colours = [1, 2, 3, 4].map((rank) => vehicleColor(rank, true));
    expect(VEHICLE_LEGEND.map((entry) => entry.color)).toEqual([...colours, vehicleColor(null, true), vehicleColor(2, false)]);
    expect(VEHICLE_LEGEND.slice(0, 4).map((entry) => entry.values?.code)).toEqual(['МК', 'СК', 'БК', 'ОБК']);
    expect(new Set(VEHICLE_LEGEND.map((entry) => entry.color)).size).toBe(VEHICLE_LEGEND.length);
  });
});
