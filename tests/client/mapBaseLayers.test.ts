import { describe, expect, it } from 'vitest';
import { DEFAULT_MAP } from '../../src/shared/constants';
import type { BranchAgency, MapCluster } from '../../src/shared/map';
import { baseMapOptions, MAP_ZOOM } from '../../src/web/map/base/baseMapOptions';
import { depotMarkers, positioned, shownRouteStops, type RouteStop } from '../../src/web/map/layers/layerContent';
import {
  FINGER_REST_MS,
  MOVING_MS,
  VEHICLE_REDRAW_MOVING_MS,
  VEHICLE_REDRAW_MS,
  VehicleRedrawThrottle,
  type ThrottleClock,
  type VehiclePicture,
} from '../../src/web/map/live/vehicleThrottle';

/** A clock whose time moves only when the test says so; due timers run in order. */
function manualClock() {
  let now = 1000;
  let next = 1;
  const timers = new Map<number, { at: number; run: () => void }>();
  const clock: ThrottleClock = {
    now: () => now,
    setTimeout: (run, ms) => {
      timers.set(next, { at: now + ms, run });
      return next++;
    },
    clearTimeout: (handle) => {
      timers.delete(handle as number);
    },
  };
  const advance = (ms: number) => {
    const end = now + ms;
    for (;;) {
      const due = [...timers.entries()].filter(([, t]) => t.at <= end).sort((a, b) => a[1].at - b[1].at)[0];
      if (!due) break;
      timers.delete(due[0]);
      now = due[1].at;
      due[1].run();
    }
    now = end;
  };
  return { clock, advance, now: () => now };
}

const item = (id: number, lat: number): MapCluster => ({
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
});

function throttled() {
  const time = manualClock();
  const draws: { at: number; picture: VehiclePicture }[] = [];
  const throttle = new VehicleRedrawThrottle((picture) => draws.push({ at: time.now(), picture }), time.clock);
  return { ...time, draws, throttle };
}

describe('live vehicles: merged and throttled before the layer draws them', () => {
  it('draws the first picture at once, then collapses a burst into its last picture, one redraw per interval', () => {
    const { throttle, draws, advance } = throttled();
    throttle.push('t1', [item(1, 59.9)]);
    advance(0);
    expect(draws.map((d) => d.picture.time)).toEqual(['t1']);
    for (let i = 2; i <= 6; i++) {
      throttle.push(`t${i}`, [item(1, 59.9 + i / 100)]);
      advance(30);
    }
    expect(draws).toHaveLength(1);
    advance(VEHICLE_REDRAW_MS);
    expect(draws.map((d) => d.picture.time)).toEqual(['t1', 't6']);
    expect(draws[1].at - draws[0].at).toBe(VEHICLE_REDRAW_MS);
    expect(draws[1].picture.items[0].center[0]).toBeCloseTo(59.96);
  });

  it('redraws at most once a second while the map moves, and soon after it stops', () => {
    const { throttle, draws, advance } = throttled();
    throttle.push('t1', [item(1, 59.9)]);
    advance(0);
    // panning: a move every frame for two seconds, the stream sending four pictures a second
    for (let frame = 1; frame <= 120; frame++) {
      throttle.moved();
      if (frame % 15 === 0) throttle.push(`p${frame}`, [item(1, 59.9 + frame / 1000)]);
      advance(16);
    }
    const intervals = draws.slice(1).map((d, i) => d.at - draws[i].at);
    expect(intervals.length).toBeGreaterThan(0);
    for (const interval of intervals) expect(interval).toBeGreaterThanOrEqual(VEHICLE_REDRAW_MOVING_MS);
    // the map stops: the held picture is drawn within the quiet time plus one check
    throttle.push('after', [item(1, 60)]);
    const stopped = draws.length;
    advance(MOVING_MS + VEHICLE_REDRAW_MS);
    expect(draws.length).toBe(stopped + 1);
    expect(draws.at(-1)?.picture.time).toBe('after');
  });

  it('draws nothing while a finger drags the map, then the last picture as soon as the move ends', () => {
    const { throttle, draws, advance } = throttled();
    throttle.push('t1', [item(1, 59.9)]);
    advance(0);
    throttle.hold();
    // a three-second drag: a move every frame, four pictures a second
    for (let frame = 1; frame <= 180; frame++) {
      throttle.moved();
      if (frame % 15 === 0) throttle.push(`p${frame}`, [item(1, 59.9 + frame / 1000)]);
      advance(16);
    }
    expect(draws.map((d) => d.picture.time)).toEqual(['t1']);
    throttle.release();
    expect(draws.map((d) => d.picture.time)).toEqual(['t1', 'p180']);
    expect(draws[1].picture.items[0].center[0]).toBeCloseTo(60.08);
    // released, the map moving again without a finger: once a second as before
    throttle.push('later', [item(1, 60.1)]);
    for (let frame = 1; frame <= 30; frame++) {
      throttle.moved();
      advance(16);
    }
    expect(draws).toHaveLength(2);
    advance(VEHICLE_REDRAW_MOVING_MS);
    expect(draws.map((d) => d.picture.time)).toEqual(['t1', 'p180', 'later']);
  });

  it('draws while the finger rests on the map, and nothing more at its release', () => {
    const { throttle, draws, advance } = throttled();
    throttle.push('t1', [item(1, 59.9)]);
    advance(0);
    throttle.hold();
    throttle.moved();
    throttle.push('t2', [item(1, 59.95)]);
    // a slow drag's pause is not a rest
    advance(MOVING_MS * 2);
    expect(draws).toHaveLength(1);
    advance(FINGER_REST_MS);
    expect(draws.map((d) => d.picture.time)).toEqual(['t1', 't2']);
    throttle.release();
    expect(draws).toHaveLength(2);
  });

  it('keeps the drawn items when a picture changes nothing (the layer then skips the redraw)', () => {
    const { throttle, draws, advance } = throttled();
    const object = item(1, 59.9);
    throttle.push('t1', [object, item(2, 59.8)]);
    advance(0);
    throttle.push('t2', [item(1, 59.9), item(2, 59.8)]);
    advance(VEHICLE_REDRAW_MS);
    expect(draws[1].picture.time).toBe('t2');
    expect(draws[1].picture.items).toBe(draws[0].picture.items);
    expect(draws[1].picture.snapshot.get('v1')).toBe(object);
    throttle.push('t3', [item(1, 59.9)]);
    advance(VEHICLE_REDRAW_MS);
    expect(draws[2].picture.items).not.toBe(draws[1].picture.items);
    expect(draws[2].picture.items.map((i) => i.id)).toEqual([1]);
  });

  it('clears at once when nothing is to be shown, and draws nothing after it stops', () => {
    const { throttle, draws, advance } = throttled();
    throttle.push('t1', [item(1, 59.9)]);
    advance(0);
    throttle.clear('t2');
    expect(draws.at(-1)?.picture.items).toEqual([]);
    throttle.push('t3', [item(3, 59.9)]);
    throttle.stop();
    advance(5000);
    expect(draws.map((d) => d.picture.time)).toEqual(['t1', 't2']);
  });
});

describe('what the layers draw', () => {
  const stops: RouteStop[] = [
    { id: 1, name: 'A', at: [59.9, 30.1], terminal: true },
    { id: 2, name: 'B', at: [59.91, 30.2], terminal: false },
    { id: 3, name: 'C', at: [59.92, 30.3], terminal: true },
  ];

  it('a route shows only its terminal stops when minimised', () => {
    expect(shownRouteStops(stops, true).map((s) => s.id)).toEqual([1, 3]);
    expect(shownRouteStops(stops, false).map((s) => s.id)).toEqual([1, 2, 3]);
  });

  it('depots: enterprises and branches, or departments as points; places without coordinates are left out', () => {
    const data: BranchAgency = {
      agencies: [
        { id: 1, title: 'Парк 1', address: null, phone: null, lat: 59.9, lon: 30.3 },
        { id: 2, title: 'Без места', address: null, phone: null, lat: null, lon: null },
      ],
      depots: [{ id: 7, title: 'Филиал', address: null, phone: null, agency_id: 1, lat: 59.8, lon: 30.2 }],
      departments: [{ id: 9, title: 'Площадка', address: null, phone: null, color: '#ff0000', lat: 59.7, lon: 30.1 }],
    };
    expect(depotMarkers(data, false).map((m) => [m.kind, m.depot.id, m.at])).toEqual([
      ['agency', 1, [59.9, 30.3]],
      ['branch', 7, [59.8, 30.2]],
    ]);
    expect(depotMarkers(data, true).map((m) => [m.kind, m.depot.id])).toEqual([['department', 9]]);
  });

  it('items without a usable position are not drawn', () => {
    const rows = [{ id: 1, lat: 59.9, lon: 30.3 }, { id: 2, lat: null, lon: 30 }, { id: 3, lat: Number.NaN, lon: 30 }, { id: 4 }];
    expect(positioned(rows).map((r) => r.id)).toEqual([1]);
  });
});

describe('the base map', () => {
  it('opens on the spec’s default centre and zoom (section 9) within the zoom limits', () => {
    const options = baseMapOptions({});
    expect(options.center).toEqual([59.95355, 30.30991]);
    expect(options.center).toEqual([DEFAULT_MAP.lat, DEFAULT_MAP.lon]);
    expect(options.zoom).toBe(11);
    expect([options.minZoom, options.maxZoom]).toEqual([MAP_ZOOM.min, MAP_ZOOM.max]);
    expect(options.dragging && options.zoomControl && options.attributionControl && options.doubleClickZoom).toBe(true);
  });

  it('opens where asked; a still picture takes no gesture and shows no control', () => {
    expect(baseMapOptions({ center: [55.75, 37.62], zoom: 15 })).toMatchObject({ center: [55.75, 37.62], zoom: 15 });
    const still = baseMapOptions({ still: true });
    for (const key of [
      'dragging',
      'zoomControl',
      'scrollWheelZoom',
      'doubleClickZoom',
      'touchZoom',
      'boxZoom',
      'keyboard',
      'attributionControl',
    ] as const) {
      expect(still[key], key).toBe(false);
    }
    expect(baseMapOptions({ doubleClickZoom: false })).toMatchObject({ doubleClickZoom: false, dragging: true });
  });
});
