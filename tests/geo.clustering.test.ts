import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import type { MapCluster } from '../src/shared/map';
import { applyGeoDelta, clusterKey, parseGeoSubscription, serializeGeoSubscription, type GeoDelta } from '../src/shared/map';
import { ClusterIndex, FAST_PATH } from '../src/server/geo/clusterIndex';
import { FleetPoints, fleetPoints } from '../src/server/geo/fleetPoints';
import { GeoHub, type EventSink } from '../src/server/geo/geoHub';
import { SseSink, sseFrame } from '../src/server/geo/sseSink';
import type { VehicleInfo } from '../src/server/map/fleetDirectory';
import type { LatestPosition } from '../src/server/telemetry/types';

const NOW = Date.UTC(2026, 0, 15, 9, 0, 0);
const OPTIONS = { radius: 50, maxZoom: 15, rebuildMs: 1000, refreshMs: 30_000 };
const fix = (lat: number, lon: number, speed = 20, secondsAgo = 5): LatestPosition => ({
  lat,
  lon,
  speed,
  course: 90,
  time: NOW - secondsAgo * 1000,
  valid: true,
  receivedAt: NOW,
});
const info = (id: number): VehicleInfo => ({
  id,
  depotNumber: 1000 + id,
  gosNomer: null,
  model: null,
  depotId: 1,
  vehicleTypeId: 1,
  classRank: 3,
  routeId: 7,
  routeShortName: '7',
  routeType: 'А',
});

/** Three buses at one stop, one across town. */
function fleet(): Map<number, LatestPosition> {
  return new Map([
    [1, fix(59.93, 30.31, 10)],
    [2, fix(59.9301, 30.3101, 20)],
    [3, fix(59.9302, 30.3099, 30)],
    [4, fix(59.99, 30.45, 40)],
  ]);
}
const CITY: [number, number, number, number] = [59.8, 30.1, 60.1, 30.6];

class FakeSink implements EventSink {
  events: { name: string; data: unknown }[] = [];
  isClosed = false;
  waiting = false;
  send(frame: string | Buffer) {
    const [, name, data] = /^event: (\w+)\ndata: (.*)\n\n$/s.exec(frame.toString())!;
    this.events.push({ name, data: JSON.parse(data) });
    return true;
  }
  heartbeat() {}
  close() {
    this.isClosed = true;
  }
  /** The picture after each 'points' or 'delta' frame, deltas applied as the console's client applies them. */
  points(): MapCluster[][] {
    let picture = new Map<string, MapCluster>();
    let version = 0;
    const pictures: MapCluster[][] = [];
    for (const { name, data } of this.events) {
      if (name === 'points') {
        const points = data as { items: MapCluster[]; v: number };
        picture = new Map(points.items.map((i) => [clusterKey(i), i]));
        version = points.v;
      } else if (name === 'delta') {
        const delta = data as GeoDelta;
        expect(delta.base).toBe(version);
        expect(applyGeoDelta(picture, delta)).toBe(true);
        version = delta.v;
      } else continue;
      pictures.push([...picture.values()]);
    }
    return pictures;
  }
  frames(): string[] {
    return this.events.map((e) => e.name).filter((name) => name !== 'hello');
  }
  last<T>(): T {
    return this.events.at(-1)!.data as T;
  }
}

describe('clustering', () => {
  const index = new ClusterIndex(fleetPoints(fleet(), info, NOW), OPTIONS);

  it('groups nearby vehicles at city zoom with count, average speed and centre', () => {
    const items = index.clusters({ bounds: CITY, zoom: 10 });
    const group = items.find((i) => i.type === 'group')!;
    expect(group).toMatchObject({ type: 'group', count: 3, averageSpeed: 20, on: true, route: null, depotNumber: null, classRank: null });
    expect(group.center[0]).toBeCloseTo(59.9301, 3);
    expect(group.center[1]).toBeCloseTo(30.31, 3);
    expect(group.date).toBe(new Date(NOW - 5000).toISOString());
    expect(items.find((i) => i.type === 'vehicle')).toEqual({
      type: 'vehicle',
      id: 4,
      count: 1,
      routeType: 'А',
      route: '7',
      classRank: 3,
      course: 90,
      on: true,
      date: new Date(NOW - 5000).toISOString(),
      depotNumber: 1004,
      averageSpeed: 40,
      center: [59.99, 30.45],
    });
  });

  it('shows every vehicle on its own above the cluster zoom, and only what is in view', () => {
    expect(
      index
        .clusters({ bounds: CITY, zoom: 16 })
        .map((i) => i.id)
        .sort(),
    ).toEqual([1, 2, 3, 4]);
    expect(
      index
        .clusters({ bounds: [59.92, 30.3, 59.94, 30.32], zoom: 16 })
        .map((i) => i.id)
        .sort(),
    ).toEqual([1, 2, 3]);
  });

  it('marks vehicles silent for five minutes as off', () => {
    const stale = new Map([[1, fix(59.93, 30.31, 0, 301)]]);
    expect(new ClusterIndex(fleetPoints(stale, info, NOW), OPTIONS).clusters({ bounds: CITY, zoom: 12 })[0].on).toBe(false);
  });

  it("reads supercluster's arrays directly with the same result as getClusters", () => {
    // a city of 3,000 vehicles, deterministic
    let seed = 42;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const city = new Map<number, LatestPosition>();
    for (let id = 1; id <= 3000; id++)
      city.set(id, fix(59.93 + (next() - 0.5) * 0.3, 30.31 + (next() - 0.5) * 0.6, next() * 50, Math.floor(next() * 400)));
    const big = new ClusterIndex(fleetPoints(city, info, NOW), OPTIONS);
    const views: [number, number, number, number][] = [CITY, [59.9, 30.2, 59.95, 30.3], [59.0, 29.0, 61.0, 32.0], [-89, -180, 89, 180]];
    const answered = FAST_PATH.answered;
    for (const zoom of [0, 3, 9, 11, 12, 13, 15, 16, 18]) {
      for (const bounds of views) {
        FAST_PATH.enabled = true;
        const fast = big.clusters({ bounds, zoom });
        FAST_PATH.enabled = false;
        const slow = big.clusters({ bounds, zoom });
        FAST_PATH.enabled = true;
        expect(fast).toEqual(slow);
      }
    }
    // it did answer (a supercluster whose layout differs would leave every query to getClusters)
    expect(FAST_PATH.answered - answered).toBe(9 * views.length);
    expect(big.clusters({ bounds: [-89, -180, 89, 180], zoom: 12 }).reduce((n, i) => n + i.count, 0)).toBe(3000);
  });

  it('keeps the points and items of vehicles that did not change from one rebuild to the next', () => {
    const positions = fleet();
    const kept = new FleetPoints();
    const firstPoints = [...kept.update(positions, info, NOW)];
    const first = new ClusterIndex(firstPoints, OPTIONS);
    const before = new Map(first.clusters({ bounds: CITY, zoom: 16 }).map((i) => [i.id, i]));
    positions.set(2, fix(59.9305, 30.3105, 25, 0)); // moved
    positions.delete(3); // gone from the fleet
    const relabelled = (id: number): VehicleInfo => (id === 4 ? { ...info(id), routeShortName: '8' } : info(id));
    const secondPoints = kept.update(positions, relabelled, NOW + 1000);
    expect(secondPoints.map((p) => p.id)).toEqual([1, 2, 4]);
    expect(secondPoints[0]).toBe(firstPoints[0]);
    const after = new Map(new ClusterIndex(secondPoints, OPTIONS, first).clusters({ bounds: CITY, zoom: 16 }).map((i) => [i.id, i]));
    expect(after.get(1)).toBe(before.get(1)); // the same object: nothing to send
    expect(after.get(2)).not.toBe(before.get(2));
    expect(after.get(2)).toMatchObject({ center: [59.9305, 30.3105], averageSpeed: 25 });
    expect(after.get(4)).toMatchObject({ route: '8' });
    expect(after.has(3)).toBe(false);
    // a directory reload with the same labels (new objects) keeps the items
    expect(
      new ClusterIndex(
        kept.update(positions, (id) => ({ ...relabelled(id) }), NOW + 2000),
        OPTIONS,
      )
        .clusters({ bounds: CITY, zoom: 16 })
        .find((i) => i.id === 1),
    ).toBe(before.get(1));
    // five minutes without a fix: off, a new item
    expect(
      new ClusterIndex(kept.update(positions, relabelled, NOW + 6 * 60_000), OPTIONS)
        .clusters({ bounds: CITY, zoom: 16 })
        .find((i) => i.id === 1),
    ).toMatchObject({ on: false });
  });

  it('round-trips the subscription of the contract and refuses malformed ones', () => {
    const q = serializeGeoSubscription({ bounds: [59.8, 30.1, 60.1, 30.6], zoom: 12, vehicles: [3, 1] });
    expect(parseGeoSubscription(q)).toEqual({ bounds: [59.8, 30.1, 60.1, 30.6], zoom: 12, vehicles: [3, 1] });
    for (const bad of ['', '1,2,3;4;', '60,30,59,31;10;', '59,30,60,31;x;', '59,30,60,31;10;a', '59,30,60,31;30;'])
      expect(parseGeoSubscription(bad)).toBeNull();
  });
});

describe('geo hub', () => {
  const setup = () => {
    const positions = fleet();
    let now = NOW;
    const hub = new GeoHub({ positions: () => positions.entries(), vehicle: (id) => info(id) }, OPTIONS, () => now);
    return { hub, positions, tick: (ms: number) => (now += ms) };
  };

  it('says hello, sends the picture at once, and then only when the view changed', () => {
    const { hub, positions, tick } = setup();
    const sink = new FakeSink();
    const stream = hub.open({ userId: 1, token: 't' }, { bounds: [59.92, 30.3, 59.94, 30.32], zoom: 16, vehicles: [] }, sink);
    expect(sink.events[0]).toEqual({ name: 'hello', data: { streamId: stream.id } });
    expect(sink.points()).toHaveLength(1);
    expect(
      sink
        .points()[0]
        .map((i) => i.id)
        .sort(),
    ).toEqual([1, 2, 3]);

    tick(1000);
    hub.rebuild();
    expect(sink.points()).toHaveLength(1); // nothing moved

    positions.set(4, fix(59.995, 30.46, 40, 0)); // out of view
    tick(1000);
    hub.rebuild();
    expect(sink.points()).toHaveLength(1);

    positions.set(2, fix(59.931, 30.311, 25, 0)); // in view
    tick(1000);
    hub.rebuild();
    expect(sink.points()).toHaveLength(2);
    expect(sink.points()[1].find((i) => i.id === 2)?.center).toEqual([59.931, 30.311]);
    // only what changed travels: the moved vehicle
    expect(sink.frames()).toEqual(['points', 'delta']);
    // [id, lat, lon, course, speed, on, age]: its labels are not sent again
    expect(sink.last<GeoDelta>()).toMatchObject({ base: 1, v: 2, gone: [], groups: [], vehicles: [[2, 59.931, 30.311, 90, 25, 1, 3000]] });
    expect(
      sink
        .points()[1]
        .map((i) => i.id)
        .sort(),
    ).toEqual([1, 2, 3]);
    expect(sink.points()[1].find((i) => i.id === 2)).toEqual({
      type: 'vehicle',
      id: 2,
      count: 1,
      routeType: 'А',
      route: '7',
      classRank: 3,
      course: 90,
      on: true,
      date: new Date(NOW).toISOString(),
      depotNumber: 1002,
      averageSpeed: 25,
      center: [59.931, 30.311],
    });

    positions.set(3, fix(59.95, 30.35, 30, 0)); // leaves the view
    tick(1000);
    hub.rebuild();
    expect(sink.last<GeoDelta>()).toMatchObject({ base: 2, v: 3, gone: ['v3'], vehicles: [], groups: [] });
    expect(
      sink
        .points()[2]
        .map((i) => i.id)
        .sort(),
    ).toEqual([1, 2]);
    hub.stop();
  });

  it("keeps a group's id while its members stay, and sends a group that changed as a delta", () => {
    const { hub, positions, tick } = setup();
    const sink = new FakeSink();
    hub.open({ userId: 1, token: 't' }, { bounds: CITY, zoom: 10, vehicles: [] }, sink);
    const [group] = sink.points()[0].filter((i) => i.type === 'group');
    expect(group.count).toBe(3);

    positions.set(4, fix(59.991, 30.451, 40, 0)); // the lone vehicle moves: the group is untouched
    tick(1000);
    hub.rebuild();
    expect(sink.last<GeoDelta>()).toMatchObject({ groups: [], vehicles: [[4, 59.991, 30.451, 90, 40, 1, 1000]] });

    positions.set(2, fix(59.9302, 30.3102, 50, 0)); // a member reports: the same group, a new average speed
    tick(1000);
    hub.rebuild();
    const delta = sink.last<GeoDelta>();
    expect(delta).toMatchObject({ vehicles: [], gone: [] });
    expect(delta.groups).toHaveLength(1);
    const [id, count, , , averageSpeed, on, age] = delta.groups[0];
    expect([id, count, averageSpeed, on, age]).toEqual([group.id, 3, 30, 1, 2000]);
    expect(
      sink
        .points()
        .at(-1)!
        .find((i) => i.type === 'group'),
    ).toMatchObject({ id: group.id, count: 3, averageSpeed: 30, date: new Date(NOW).toISOString() });
    hub.stop();
  });

  it('sends the whole picture again when the previous frame is still waiting for a slow client', () => {
    const { hub, positions, tick } = setup();
    const sink = new FakeSink();
    hub.open({ userId: 1, token: 't' }, { bounds: [59.92, 30.3, 59.94, 30.32], zoom: 16, vehicles: [] }, sink);
    sink.waiting = true;
    positions.set(2, fix(59.931, 30.311, 25, 0));
    tick(1000);
    hub.rebuild();
    expect(sink.frames()).toEqual(['points', 'points']);
    expect(
      sink
        .points()[1]
        .map((i) => i.id)
        .sort(),
    ).toEqual([1, 2, 3]);
    sink.waiting = false;
    positions.set(1, fix(59.9305, 30.3105, 25, 0));
    tick(1000);
    hub.rebuild();
    expect(sink.frames()).toEqual(['points', 'points', 'delta']);
    hub.stop();
  });

  it('lets only the owner move a stream, pushing the new view at once', () => {
    const { hub } = setup();
    const sink = new FakeSink();
    const stream = hub.open({ userId: 1, token: 't' }, { bounds: CITY, zoom: 10, vehicles: [] }, sink);
    expect(hub.update(stream.id, 2, { bounds: CITY, zoom: 16, vehicles: [] })).toBe('forbidden');
    expect(hub.update('no-such-stream', 1, { bounds: CITY, zoom: 16, vehicles: [] })).toBe('not_found');
    expect(hub.update(stream.id, 1, { bounds: CITY, zoom: 16, vehicles: [4, 2] })).toBe('ok');
    expect(
      sink
        .points()
        .at(-1)!
        .map((i) => i.id)
        .sort(),
    ).toEqual([2, 4]);
    expect(hub.streamsOf(1)).toBe(1);
    hub.close(stream.id);
    expect(sink.isClosed).toBe(true);
    expect(hub.size).toBe(0);
  });

  it('clusters a filtered fleet among itself only', () => {
    const { hub } = setup();
    const sink = new FakeSink();
    hub.open({ userId: 1, token: 't' }, { bounds: CITY, zoom: 10, vehicles: [1, 2] }, sink);
    expect(sink.points()[0]).toEqual([expect.objectContaining({ type: 'group', count: 2, averageSpeed: 15 })]);
    hub.stop();
  });
});

describe('server-sent event sink', () => {
  it('keeps only the latest frame while the client has not drained', () => {
    const written: string[] = [];
    // write() answers false once the response's buffer is past its high-water mark (HTTP/1.1 and HTTP/2 alike)
    let accepting = false;
    const raw = Object.assign(new EventEmitter(), {
      destroyed: false,
      write(chunk: string | Buffer) {
        written.push(chunk.toString());
        return accepting;
      },
      end() {},
    });
    const sink = new SseSink(raw as unknown as ServerResponse);
    expect(sink.send(sseFrame('points', '1'))).toBe(true);
    expect(sink.send(sseFrame('points', '2'))).toBe(false);
    expect(sink.send(Buffer.from(sseFrame('points', '3')))).toBe(false);
    sink.heartbeat();
    expect(written).toEqual(['event: points\ndata: 1\n\n']);
    accepting = true;
    raw.emit('drain');
    expect(written).toEqual(['event: points\ndata: 1\n\n', 'event: points\ndata: 3\n\n']);
    expect(sink.send(sseFrame('points', '4'))).toBe(true);
    expect(sink.skipped).toBe(1);
  });
});
