/**
 * Clustering benchmark: the geo stream's per-viewport work for 5,000 and 50,000 vehicles spread over
 * St Petersburg — the index build (once per rebuild) and one viewport's clusters at a few zooms (once per
 * distinct view per rebuild), p50/p95/max. As in the geo hub, the points are kept from one build to the next
 * (FleetPoints) and each build follows a second of reports: a fifth of the fleet (BENCH_MOVED) has moved.
 *
 *   npx tsx scripts/bench/clustering.ts
 *   BENCH_SIZES=50000 BENCH_BUILDS=100 npx tsx scripts/bench/clustering.ts
 *
 * Target: a viewport query under 5 ms for 50,000 points.
 *
 * Each figure is given as wall time and as CPU time of the process (process.cpuUsage): on a shared, busy machine
 * the wall time also counts the moments the process was not scheduled at all; the CPU time is what the work costs
 * (more than the wall time when the garbage collector's helper threads ran meanwhile). How many of the runs a
 * garbage-collection pause fell into, and the wall time's p95 less those pauses, follow in brackets.
 */
import { PerformanceObserver } from 'node:perf_hooks';
import { ClusterIndex } from '../../src/server/geo/clusterIndex';
import { FleetPoints } from '../../src/server/geo/fleetPoints';
import type { VehicleInfo } from '../../src/server/map/fleetDirectory';
import type { LatestPosition } from '../../src/server/telemetry/types';

const SIZES = (process.env.BENCH_SIZES ?? '5000,50000').split(',').map(Number);
const QUERIES = Number(process.env.BENCH_QUERIES ?? 200);
const BUILDS = Number(process.env.BENCH_BUILDS ?? 40);
/** Builds run first and not counted: the code's first runs are interpreted and compiled (shown apart). */
const WARMUP = Number(process.env.BENCH_WARMUP ?? 3);
const MOVED = Number(process.env.BENCH_MOVED ?? 0.2);
const CENTRE = { lat: 59.93, lon: 30.31 };

/** Deterministic pseudo-random numbers (mulberry32): the same city every run. */
function random(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Vehicles on a city's shape: dense in the centre, thinner outwards (a normal-ish spread of ~8 km). */
function city(n: number): Map<number, LatestPosition> {
  const next = random(n);
  const now = Date.now();
  const fleet = new Map<number, LatestPosition>();
  for (let id = 1; id <= n; id++) {
    const r = Math.sqrt(-2 * Math.log(1 - next())) * 6; // km
    const a = next() * 2 * Math.PI;
    fleet.set(id, {
      lat: CENTRE.lat + (r * Math.sin(a)) / 111.2,
      lon: CENTRE.lon + (r * Math.cos(a)) / 55.6,
      speed: next() * 50,
      course: Math.floor(next() * 360),
      time: now - Math.floor(next() * 60_000),
      valid: true,
      receivedAt: now,
    });
  }
  return fleet;
}

/** The vehicle directory (the hub reads it by id, no allocation). */
const directory = new Map<number, VehicleInfo>();
const info = (id: number): VehicleInfo => {
  let vehicle = directory.get(id);
  if (!vehicle) {
    vehicle = {
      id,
      depotNumber: 10_000 + id,
      gosNomer: null,
      model: null,
      depotId: 1,
      vehicleTypeId: 1,
      classRank: 1 + (id % 4),
      routeId: id % 150,
      routeShortName: String(id % 150),
      routeType: 'А',
    };
    directory.set(id, vehicle);
  }
  return vehicle;
};

/** A second of reports: a share of the fleet moved 20-40 m (the pipeline replaces each reporting vehicle's state). */
function move(fleet: Map<number, LatestPosition>, share: number, next: () => number): void {
  const now = Date.now();
  for (const [id, p] of fleet) {
    if (next() >= share) continue;
    const metres = 20 + next() * 20;
    const course = Math.floor(next() * 360);
    fleet.set(id, {
      lat: p.lat + (metres * Math.cos((course * Math.PI) / 180)) / 111_200,
      lon: p.lon + (metres * Math.sin((course * Math.PI) / 180)) / 55_600,
      speed: next() * 50,
      course,
      time: now,
      valid: true,
      receivedAt: now,
    });
  }
}

interface Timings {
  wall: number[];
  cpu: number[];
  spans: [number, number][];
}
const timings = (): Timings => ({ wall: [], cpu: [], spans: [] });

/** Runs `work`, adding its wall and CPU milliseconds (and when it ran, to tell garbage collection apart) to the lists. */
function timed<T>(work: () => T, into: Timings): T {
  const c = process.cpuUsage();
  const w = performance.now();
  const result = work();
  const end = performance.now();
  into.wall.push(end - w);
  into.spans.push([w, end]);
  const d = process.cpuUsage(c);
  into.cpu.push((d.user + d.system) / 1000);
  return result;
}

/** The garbage collector's pauses (start, end) on the same clock as performance.now(). */
const pauses: [number, number][] = [];
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) pauses.push([entry.startTime, entry.startTime + entry.duration]);
}).observe({ entryTypes: ['gc'] });
const pausedWithin = ([from, to]: [number, number]) =>
  pauses.reduce((sum, [a, b]) => sum + Math.max(0, Math.min(b, to) - Math.max(a, from)), 0);

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const fmt = (ms: number) => ms.toFixed(ms < 10 ? 3 : 1);

/** Viewports of a 1600×900 screen centred on the city at each zoom. */
function viewport(zoom: number): [number, number, number, number] {
  const degPerPx = 360 / (256 * 2 ** zoom);
  const halfLon = (1600 / 2) * degPerPx;
  const halfLat = (900 / 2) * degPerPx * Math.cos((CENTRE.lat * Math.PI) / 180);
  return [CENTRE.lat - halfLat, CENTRE.lon - halfLon, CENTRE.lat + halfLat, CENTRE.lon + halfLon];
}

/** A viewport panned by up to half its size: viewers do not all look at the same spot. */
function panned(bounds: [number, number, number, number], next: () => number): [number, number, number, number] {
  const dLat = (bounds[2] - bounds[0]) * (next() - 0.5);
  const dLon = (bounds[3] - bounds[1]) * (next() - 0.5);
  return [bounds[0] + dLat, bounds[1] + dLon, bounds[2] + dLat, bounds[3] + dLon];
}

const ZOOMS = [11, 12, 13, 15, 17];
const [load1] = (await import('node:os')).loadavg();
console.log(
  `clustering benchmark: ${BUILDS} builds after ${WARMUP} warm-up ones, ${Math.round(MOVED * 100)} % of the fleet moved before each; per build and zoom one cold query (the first after a rebuild) and ${Math.ceil(QUERIES / BUILDS)} panned ones (viewport moved by up to half its size); node ${process.version}, load average ${load1.toFixed(1)}`,
);
for (const n of SIZES) {
  const fleet = city(n);
  const next = random(7);
  const points = new FleetPoints();
  let previous: ClusterIndex | undefined;
  const builds = timings();
  const cold = new Map(ZOOMS.map((z) => [z, timings()]));
  const warm = new Map(ZOOMS.map((z) => [z, timings()]));
  const items = new Map<number, number>();
  const first: string[] = [];
  for (let i = -WARMUP; i < BUILDS; i++) {
    if (i > -WARMUP) move(fleet, MOVED, next);
    if (i === 0) {
      // what the warm-up builds measured is kept apart
      first.push(...ZOOMS.map((zoom) => `zoom ${zoom} ${cold.get(zoom)!.wall.map(fmt).join('/')}`));
      for (const list of [builds, ...cold.values(), ...warm.values()])
        for (const key of ['wall', 'cpu', 'spans'] as const) list[key].length = 0;
    }
    const index: ClusterIndex = timed(
      () => new ClusterIndex(points.update(fleet.entries(), info, Date.now()), { radius: 50, maxZoom: 15 }, previous),
      builds,
    );
    previous = index;
    for (const zoom of ZOOMS) {
      const bounds = viewport(zoom);
      items.set(
        zoom,
        timed(() => index.clusters({ bounds, zoom }).length, cold.get(zoom)!),
      );
      for (let q = 0; q < Math.ceil(QUERIES / BUILDS); q++) {
        const view = panned(bounds, next);
        timed(() => index.clusters({ bounds: view, zoom }), warm.get(zoom)!);
      }
    }
  }
  await new Promise((resolve) => setTimeout(resolve, 100)); // the observer's entries come in later tasks
  const describe = ({ wall, cpu, spans }: Timings) => {
    const work = spans.map((span, i) => wall[i] - pausedWithin(span)).sort((a, b) => a - b);
    const paused = spans.filter((span) => pausedWithin(span) > 0).length;
    wall.sort((a, b) => a - b);
    cpu.sort((a, b) => a - b);
    return (
      `p50 ${fmt(percentile(wall, 50))}/${fmt(percentile(cpu, 50))}, p95 ${fmt(percentile(wall, 95))}/${fmt(percentile(cpu, 95))}, max ${fmt(wall.at(-1)!)}/${fmt(cpu.at(-1)!)}` +
      ` (GC paused ${paused} of ${spans.length}; wall less GC p95 ${fmt(percentile(work, 95))})`
    );
  };
  console.log(`\n${n.toLocaleString('en')} vehicles — index build (points kept + supercluster), ms wall/CPU: ${describe(builds)}`);
  if (WARMUP > 0) console.log(`  cold queries of the ${WARMUP} warm-up builds (not counted below), ms wall: ${first.join('; ')}`);
  for (const zoom of ZOOMS) {
    console.log(
      `  zoom ${String(zoom).padStart(2)}: ${String(items.get(zoom)).padStart(5)} items in a 1600×900 view; ms wall/CPU: cold ${describe(cold.get(zoom)!)}; panned ${describe(warm.get(zoom)!)}`,
    );
  }
}
