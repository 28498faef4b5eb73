/**
 * GTFS-Realtime TripUpdates of a whole fleet: the time to build the feed from the live timetable's engine and
 * encode it (protobuf, and the JSON form for people), and its size, beside VehiclePositions of the same fleet
 * (its trips from the same engine) as the baseline, in the same run.
 *
 *   npx tsx scripts/bench/tripUpdates.ts
 *   BENCH_SIZES=500,2000,5000 BENCH_REPEATS=30 npx tsx scripts/bench/tripUpdates.ts
 *
 * Target: a whole-fleet TripUpdates under 300 ms.
 *
 * The engine's state is synthetic and made the way the server makes it: a city of straight routes of 25 stops
 * 400 m apart (both directions), 20 exits a route every 6 minutes from 06:00, each exit's vehicle tasked and fed
 * one position on its run at 10:00 up to 4 minutes off its timetable; learned run and dwell times for every
 * stop pair and hour, so each prediction reads them. Its stop ids, route ids and trip ids are looked up in maps
 * as the server's (RunTrips) are. Before each feed the vehicles that report within its second report again
 * (all of them up to 5,000 vehicles, reporting every second; a fifth beyond, reporting every 5 s): the feed
 * makes only their updates anew, as the server's does when polled every second.
 */
import { Random } from '../../src/server/db/demo/random';
import { DispatchEngine } from '../../src/server/dispatch/engine';
import { LearnedTimes } from '../../src/server/dispatch/predictions';
import { buildDaySchedule, type ScheduleRows } from '../../src/server/dispatch/schedule';
import { raceKey } from '../../src/server/gtfs/export/exportPlan';
import { LiveRuns, type LiveTripUpdate, type RunIds } from '../../src/server/gtfs/liveRuns';
import { encodeFeed, feedAsJson, type FeedMessage } from '../../src/server/gtfs/realtimeFeed';
import { buildTripUpdates, type EncodedEntity } from '../../src/server/gtfs/tripUpdatesFeed';
import { buildVehiclePositions } from '../../src/server/gtfs/vehiclePositionsFeed';
import type { VehicleInfo } from '../../src/server/map/fleetDirectory';
import type { LatLon } from '../../src/server/simulator/polyline';
import type { LatestPosition } from '../../src/server/telemetry/types';
import { DISPATCH_DEFAULTS } from '../../src/shared/dispatch/settings';

const SIZES = (process.env.BENCH_SIZES ?? '500,2000,5000').split(',').map(Number);
const REPEATS = Number(process.env.BENCH_REPEATS ?? 20);
const EXITS_PER_ROUTE = 20;
const STOPS = 25;
const SPACING_M = 400;
const TZ = 180;
const DATE = '2026-03-03';
const MIDNIGHT = Date.parse(`${DATE}T00:00:00Z`) - TZ * 60_000;
const NOW = MIDNIGHT + 10 * 3_600_000;
const M_LAT = 1 / 110_574;
const M_LON = 1 / (111_320 * Math.cos((55.75 * Math.PI) / 180));

/** Route r runs along its own parallel line, a kilometre north of the one before. */
const at = (route: number, m: number): LatLon => ({ lat: 55.6 + route * 1000 * M_LAT, lon: 37.4 + m * M_LON });

function city(vehicles: number): { engine: DispatchEngine; ids: RunIds; latest: Map<number, LatestPosition> } {
  const routes = Math.ceil(vehicles / EXITS_PER_ROUTE);
  const stops = new Map<number, LatLon>();
  const trips: ScheduleRows['trips'] = [];
  const races: ScheduleRows['races'] = [];
  const tasks: ScheduleRows['tasks'] = [];
  const learned = new LearnedTimes();
  for (let r = 0; r < routes; r++) {
    const a = Array.from({ length: STOPS }, (_, i) => r * 100 + i + 1);
    a.forEach((id, i) => stops.set(id, at(r, i * SPACING_M)));
    const b = [...a].reverse();
    trips.push({ id: r * 2 + 1, routeId: r + 1, raceType: 'A', points: [at(r, -50), at(r, (STOPS - 1) * SPACING_M + 50)], stopIds: a });
    trips.push({ id: r * 2 + 2, routeId: r + 1, raceType: 'B', points: [at(r, (STOPS - 1) * SPACING_M + 50), at(r, -50)], stopIds: b });
    for (const line of [a, b]) {
      for (let i = 1; i < STOPS; i++) for (let hour = 0; hour <= 24; hour++) learned.setRun(line[i - 1], line[i], 0, hour, 115);
      for (const stop of line) for (let hour = 0; hour <= 24; hour++) learned.setDwell(stop, 0, hour, 20);
    }
    for (let g = 1; g <= EXITS_PER_ROUTE && r * EXITS_PER_ROUTE + g <= vehicles; g++) {
      let first = 6 * 60 + (g - 1) * 6;
      for (let race = 1; first < 23 * 60; race++) {
        const ids = race % 2 ? a : b;
        races.push({
          variantId: r + 1,
          routeId: r + 1,
          graph: g,
          smena: '1',
          raceType: race % 2 ? 'A' : 'B',
          raceNum: race,
          stopIds: ids,
          orders: ids.map((_, i) => i + 1),
          minutes: ids.map((_, i) => first + i * 2),
        });
        first += (STOPS - 1) * 2 + 8;
      }
      tasks.push({ vehicleId: r * EXITS_PER_ROUTE + g, variantId: r + 1, graph: g, smena: '1' });
    }
  }
  const day = buildDaySchedule({ serviceDate: DATE, dow: 2, midnight: MIDNIGHT, stops, trips, races, tasks, replacements: [] });
  const engine = new DispatchEngine({ ...DISPATCH_DEFAULTS, offRouteMeters: 100 }, TZ, learned, MIDNIGHT);
  engine.setDays([day]);
  const random = new Random(vehicles);
  const latest = new Map<number, LatestPosition>();
  for (const task of tasks) {
    // where its timetable has the vehicle a few minutes ago or ahead: mid-run, late or early
    const block = day.blocks.get(`${DATE}|${task.variantId}|${task.graph}|1`)!;
    const due = NOW - random.int(-120, 240) * 1000;
    const run = block.runs.find((x) => x.start <= due && due < x.end) ?? block.runs[0];
    let i = 0;
    while (i < run.times.length - 2 && run.times[i + 1] <= due) i++;
    const share = Math.min(1, Math.max(0, (due - run.times[i]) / (run.times[i + 1] - run.times[i])));
    const p = run.shape.at(run.dists[i] + share * (run.dists[i + 1] - run.dists[i]));
    const fix = { time: NOW - random.int(0, 20_000), lat: p.lat, lon: p.lon, speed: 25, course: run.direction ? 270 : 90, valid: true };
    engine.onFix(task.vehicleId, fix);
    latest.set(task.vehicleId, { ...fix, receivedAt: fix.time });
  }
  const trip = new Map(
    day.runs.map((x) => [
      raceKey(x.variantId, x.graph, x.smena, x.raceNum),
      `${x.routeId}-${x.variantId}-${x.raceType}${x.graph}-${x.raceNum}`,
    ]),
  );
  const ids: RunIds = {
    ensureFresh: async () => undefined,
    routeId: (id) => String(id),
    stopId: (id) => String(id),
    tripId: (race) => trip.get(raceKey(race.variantId, race.graph, race.smena, race.raceNum)),
  };
  return { engine, ids, latest };
}

const median = (values: number[]) => [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)];
const p95 = (values: number[]) => [...values].sort((x, y) => x - y)[Math.min(values.length - 1, Math.floor(values.length * 0.95))];

interface Figures {
  wall: number[];
  cpu: number[];
  held: number[];
}
const figures = (): Figures => ({ wall: [], cpu: [], held: [] });

const cpuNow = () => {
  const used = process.cpuUsage();
  return (used.user + used.system) / 1000;
};

/**
 * Times the build with the protobuf encoding, and that plus the JSON form made into text (as sent), of a feed:
 * wall time; the process's CPU time (on a busy machine the wall time also counts the moments it was not run);
 * and the longest stretch the event loop was held, in CPU time (TripUpdates is built in slices and lets the loop
 * turn between them, `pause`; the rest is one stretch).
 */
async function measure(
  build: (pause: () => Promise<void>) => Promise<{ message: FeedMessage; bytes: Uint8Array }>,
  between: () => void = () => undefined,
): Promise<{ pb: Figures; json: Figures; pbBytes: number; jsonBytes: number; entities: number }> {
  const pb = figures();
  const json = figures();
  let pbBytes = 0;
  let jsonBytes = 0;
  let entities = 0;
  for (let k = 0; k < REPEATS + 2; k++) {
    for (const [into, asJson] of [
      [pb, false],
      [json, true],
    ] as const) {
      let held = 0;
      let mark = cpuNow();
      const pause = async () => {
        held = Math.max(held, cpuNow() - mark);
        await new Promise((resolve) => setImmediate(resolve));
        mark = cpuNow();
      };
      between();
      const cpu = cpuNow();
      const t0 = performance.now();
      const { message, bytes } = await build(pause);
      if (asJson) jsonBytes = Buffer.byteLength(JSON.stringify(feedAsJson(message)));
      else pbBytes = bytes.length;
      const wall = performance.now() - t0;
      held = Math.max(held, cpuNow() - mark);
      entities = message.entity.length;
      // the first two runs compile the code: not counted
      if (k < 2) continue;
      into.wall.push(wall);
      into.cpu.push(cpuNow() - cpu);
      into.held.push(held);
    }
  }
  return { pb, json, pbBytes, jsonBytes, entities };
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(0)} KB`;
const ms = (f: Figures) =>
  `wall p50 ${median(f.wall).toFixed(0)} ms, p95 ${p95(f.wall).toFixed(0)} ms, CPU p50 ${median(f.cpu).toFixed(0)} ms; loop held at most ${median(f.held).toFixed(0)} ms (CPU, p50)`;

const directory = new Map<number, VehicleInfo>();
const vehicle = (id: number): VehicleInfo => {
  let info = directory.get(id);
  if (!info)
    directory.set(
      id,
      (info = {
        id,
        depotNumber: 10_000 + id,
        gosNomer: `А${id}ВС77`,
        model: null,
        depotId: null,
        vehicleTypeId: null,
        classRank: null,
        routeId: null,
        routeShortName: null,
        routeType: null,
      }),
    );
  return info;
};

console.log(`TripUpdates bench: ${REPEATS} builds a size, load ${(await import('node:os')).loadavg()[0].toFixed(1)}`);
for (const size of SIZES) {
  const { engine, ids, latest } = city(size);
  const live = new LiveRuns(engine, ids, TZ);
  const encoded = new WeakMap<LiveTripUpdate, EncodedEntity>();
  // the vehicles that report between two feeds (one a second) report again, where they were
  const reportS = size > 5000 ? 5 : 1;
  const fleet = [...latest.keys()];
  let clock = NOW;
  let next = 0;
  const report = () => {
    clock += 1000;
    for (let k = 0; k < fleet.length / reportS; k++, next = (next + 1) % fleet.length)
      engine.onFix(fleet[next], { ...latest.get(fleet[next])!, time: clock });
  };
  const updates = await measure(
    (pause) => buildTripUpdates({ updates: (now) => live.updates(now), cancelled: () => live.cancelled(), vehicle, encoded }, NOW, pause),
    report,
  );
  const positions = await measure(async () => {
    const message = buildVehiclePositions({ positions: () => latest.entries(), vehicle, tripOf: (id) => live.tripOf(id) }, NOW);
    return { message, bytes: encodeFeed(message) };
  });
  const stops = [...live.updates(NOW)].reduce((n, u) => n + u.stops.length, 0);
  console.log(`\n${size} vehicles in service: ${updates.entities} trip updates, ${stops} stop time updates`);
  console.log(`  TripUpdates       protobuf ${kb(updates.pbBytes)}: ${ms(updates.pb)}`);
  console.log(`                    JSON ${kb(updates.jsonBytes)}: ${ms(updates.json)}`);
  console.log(`  VehiclePositions  protobuf ${kb(positions.pbBytes)}: ${ms(positions.pb)}  (baseline)`);
  console.log(`                    JSON ${kb(positions.jsonBytes)}: ${ms(positions.json)}`);
}
