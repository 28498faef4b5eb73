import type { LatLon } from '../simulator/polyline';
import { Trajectory, TrajectoryIndex } from './geometry';

/** Day types the learned times are kept by: workday, Saturday, Sunday or holiday. */
export type DayType = 0 | 1 | 2;

export const dayTypeOf = (dow: number): DayType => (dow === 0 ? 2 : dow === 6 ? 1 : 0);

/**
 * One race of an exit's shift on a service date, as the engine follows it: its stops (those with coordinates)
 * in order with their scheduled times and their distances along the run's trajectory.
 */
export interface Run {
  /** `date|variant|exit|shift|race`: unique across the days the engine holds. */
  key: string;
  blockKey: string;
  serviceDate: string;
  dayType: DayType;
  routeId: number;
  /** The schedule variant (mgt.rasp_variant). */
  variantId: number;
  graph: number;
  smena: string;
  raceNum: number;
  raceType: string;
  /** 0 for race type 'A', 1 for 'B' (docs/gtfs.md). */
  direction: 0 | 1;
  /** The trip (mgt.trip) whose trajectory the run follows; null when it runs the line through its stops. */
  tripId: number | null;
  shape: Trajectory;
  stopIds: number[];
  /** The stops' order numbers in the schedule (rasp_time."order"). */
  sequences: number[];
  dists: Float64Array;
  /** Scheduled time at each stop, epoch ms (the schedule has one time per stop: arrival and departure at once). */
  times: Float64Array;
  start: number;
  end: number;
  /** Position in its block. */
  index: number;
  /** Added to the day by a dispatcher (/dispatch/changes): its own block, not in the timetable. */
  added?: boolean;
}

/** An exit's shift on a service date (TheTransitClock's and GTFS's block): the runs one vehicle works in turn. */
export interface Block {
  key: string;
  serviceDate: string;
  routeId: number;
  variantId: number;
  graph: number;
  smena: string;
  runs: Run[];
  start: number;
  end: number;
}

/** A vehicle's task on a block from `from` to `to` (a replacement hands the block over at its start time). */
export interface Assignment {
  blockKey: string;
  from: number;
  to: number;
  replacement: boolean;
}

/** The day's timetable the engine matches against. */
export interface DaySchedule {
  serviceDate: string;
  dayType: DayType;
  midnight: number;
  runs: Run[];
  blocks: Map<string, Block>;
  runByKey: Map<string, Run>;
  /** Vehicle id → its assignments of the day, in time order. */
  assignments: Map<number, Assignment[]>;
  /** Runs by the trajectories near a point (one entry per distinct trajectory). */
  index: TrajectoryIndex<Run[]>;
  /**
   * Scheduled headways: at each stop of each run, when the run before it on the same route and direction was due
   * there (NaN: none before it). Indexed as the day's stop times are stored: each run's `times` is a view into
   * one buffer of the day, so a run's stop i is at `times.byteOffset / 8 + i`.
   */
  previousDue: Float64Array;
}

/** The rows the loader reads for a date (scheduleLoader.ts); tests build them by hand. */
export interface ScheduleRows {
  serviceDate: string;
  /** The day of week the date runs (a holiday runs another weekday's timetable). */
  dow: number;
  midnight: number;
  stops: Map<number, LatLon>;
  trips: { id: number; routeId: number; raceType: string; points: LatLon[] | null; stopIds: number[] }[];
  races: {
    variantId: number;
    routeId: number;
    graph: number;
    smena: string;
    raceType: string;
    raceNum: number;
    stopIds: number[];
    orders: number[];
    minutes: number[];
  }[];
  tasks: { vehicleId: number; variantId: number; graph: number; smena: string }[];
  replacements: { vehicleId: number; replaceVehicleId: number; variantId: number; graph: number; smena: string; startMinute: number }[];
}

const INDEX_CELL_M = 400;

/** Where a run's stop times start in its day's buffer of them (DaySchedule.previousDue is indexed the same way). */
const offsetOf = (run: Run) => run.times.byteOffset / Float64Array.BYTES_PER_ELEMENT;

/** The trip a race runs along: same race type and termini, the same stop count preferred. */
function tripFor(trips: ScheduleRows['trips'], raceType: string, stopIds: readonly number[]): ScheduleRows['trips'][number] | null {
  const first = stopIds[0];
  const last = stopIds[stopIds.length - 1];
  const candidates = trips.filter(
    (t) =>
      t.points &&
      t.raceType === raceType &&
      t.stopIds.includes(first) &&
      t.stopIds.includes(last) &&
      t.stopIds.indexOf(first) < t.stopIds.lastIndexOf(last),
  );
  const sameEnds = candidates.filter((t) => t.stopIds[0] === first && t.stopIds[t.stopIds.length - 1] === last);
  return sameEnds.find((t) => t.stopIds.length === stopIds.length) ?? sameEnds[0] ?? candidates[0] ?? null;
}

/** Each stop's distance along the line, projected in order so a loop places a stop on the right pass. */
function stopDistances(line: Trajectory, points: readonly LatLon[]): Float64Array {
  const dists = new Float64Array(points.length);
  let from = 0;
  points.forEach((p, i) => {
    from = line.project(p, from).dist;
    dists[i] = from;
  });
  return dists;
}

interface Shape {
  line: Trajectory;
  tripId: number | null;
  dists: Float64Array;
  stopIds: number[];
}

/** Builds the day's runs, blocks, assignments and indexes from the loaded rows. Pure. */
export function buildDaySchedule(rows: ScheduleRows): DaySchedule {
  const dayType = dayTypeOf(rows.dow);
  const tripsByRoute = new Map<number, ScheduleRows['trips']>();
  for (const trip of rows.trips) tripsByRoute.set(trip.routeId, [...(tripsByRoute.get(trip.routeId) ?? []), trip]);
  const shapes = new Map<string, Shape | null>();
  const blocks = new Map<string, Block>();
  const runs: Run[] = [];
  let latSum = 0;
  for (const p of rows.stops.values()) latSum += p.lat;
  const index = new TrajectoryIndex<Run[]>(INDEX_CELL_M, rows.stops.size ? latSum / rows.stops.size : 55.75);
  const runsOfShape = new Map<Shape, Run[]>();
  // A city's day holds tens of thousands of runs: their stop times share one buffer, and runs of one shape
  // share its stop list and, where equal, their stop order numbers.
  const stopCount = rows.races.reduce((sum, race) => sum + race.stopIds.length, 0);
  const timeBuffer = new Float64Array(stopCount);
  let timesUsed = 0;
  const sequenceLists = new Map<string, number[]>();

  for (const race of rows.races) {
    const keep = race.stopIds.map((_, i) => i).filter((i) => rows.stops.has(race.stopIds[i]));
    if (keep.length < 2) continue;
    const stopIds = keep.map((i) => race.stopIds[i]);
    const shapeKey = `${race.routeId}|${race.raceType}|${stopIds.join(',')}`;
    if (!shapes.has(shapeKey)) {
      const points = stopIds.map((id) => rows.stops.get(id)!);
      const trip = tripFor(tripsByRoute.get(race.routeId) ?? [], race.raceType, stopIds);
      const distinct = points.filter((p, i) => i === 0 || p.lat !== points[i - 1].lat || p.lon !== points[i - 1].lon);
      const line = trip?.points ? new Trajectory(trip.points) : distinct.length >= 2 ? new Trajectory(distinct) : null;
      shapes.set(shapeKey, line ? { line, tripId: trip?.points ? trip.id : null, dists: stopDistances(line, points), stopIds } : null);
    }
    const shape = shapes.get(shapeKey);
    if (!shape) continue;
    const blockKey = `${rows.serviceDate}|${race.variantId}|${race.graph}|${race.smena}`;
    const times = timeBuffer.subarray(timesUsed, (timesUsed += keep.length));
    keep.forEach((k, i) => (times[i] = rows.midnight + race.minutes[k] * 60_000));
    const sequences = keep.map((i) => race.orders[i]);
    const sequencesKey = `${shapeKey}|${sequences.join(',')}`;
    if (!sequenceLists.has(sequencesKey)) sequenceLists.set(sequencesKey, sequences);
    const run: Run = {
      key: `${blockKey}|${race.raceNum}`,
      blockKey,
      serviceDate: rows.serviceDate,
      dayType,
      routeId: race.routeId,
      variantId: race.variantId,
      graph: race.graph,
      smena: race.smena,
      raceNum: race.raceNum,
      raceType: race.raceType,
      direction: race.raceType === 'B' ? 1 : 0,
      tripId: shape.tripId,
      shape: shape.line,
      stopIds: shape.stopIds,
      sequences: sequenceLists.get(sequencesKey)!,
      dists: shape.dists,
      times,
      start: times[0],
      end: times[times.length - 1],
      index: 0,
    };
    runs.push(run);
    let block = blocks.get(blockKey);
    if (!block) {
      block = {
        key: blockKey,
        serviceDate: rows.serviceDate,
        routeId: race.routeId,
        variantId: race.variantId,
        graph: race.graph,
        smena: race.smena,
        runs: [],
        start: Infinity,
        end: -Infinity,
      };
      blocks.set(blockKey, block);
    }
    block.runs.push(run);
    const list = runsOfShape.get(shape);
    if (list) list.push(run);
    else runsOfShape.set(shape, [run]);
  }
  for (const block of blocks.values()) {
    block.runs.sort((a, b) => a.start - b.start || a.raceNum - b.raceNum);
    block.runs.forEach((run, i) => (run.index = i));
    block.start = block.runs[0].start;
    block.end = block.runs[block.runs.length - 1].end;
  }
  for (const [shape, list] of runsOfShape) {
    list.sort((a, b) => a.start - b.start);
    index.add(shape.line, list);
  }

  const assignments = new Map<number, Assignment[]>();
  const assign = (vehicleId: number, a: Assignment) => assignments.set(vehicleId, [...(assignments.get(vehicleId) ?? []), a]);
  const replacementOf = new Map(rows.replacements.map((r) => [`${r.variantId}|${r.graph}|${r.smena}|${r.vehicleId}`, r]));
  for (const task of rows.tasks) {
    const blockKey = `${rows.serviceDate}|${task.variantId}|${task.graph}|${task.smena}`;
    if (!blocks.has(blockKey)) continue;
    const replacement = replacementOf.get(`${task.variantId}|${task.graph}|${task.smena}|${task.vehicleId}`);
    const handOver = replacement ? rows.midnight + replacement.startMinute * 60_000 : Infinity;
    assign(task.vehicleId, { blockKey, from: -Infinity, to: handOver, replacement: false });
    if (replacement) assign(replacement.replaceVehicleId, { blockKey, from: handOver, to: Infinity, replacement: true });
  }
  for (const list of assignments.values()) list.sort((a, b) => blocks.get(a.blockKey)!.start - blocks.get(b.blockKey)!.start);

  // Each stop of each route's direction: its visits in time order (ties in the runs' order); a run's visits
  // there are headed by the visit just before its first one.
  const visits = new Map<string, number[]>();
  const runAt = new Int32Array(timesUsed);
  runs.forEach((run, r) => {
    const offset = offsetOf(run);
    runAt.fill(r, offset, offset + run.times.length);
    run.stopIds.forEach((stopId, i) => {
      const key = `${run.routeId}|${run.direction}|${stopId}`;
      const list = visits.get(key);
      if (list) list.push(offset + i);
      else visits.set(key, [offset + i]);
    });
  });
  const previousDue = new Float64Array(timesUsed).fill(Number.NaN);
  for (const list of visits.values()) {
    list.sort((a, b) => timeBuffer[a] - timeBuffer[b] || a - b);
    const before = new Map<number, number>();
    list.forEach((at, k) => {
      if (!before.has(runAt[at])) before.set(runAt[at], k > 0 ? timeBuffer[list[k - 1]] : Number.NaN);
      previousDue[at] = before.get(runAt[at])!;
    });
  }

  return {
    serviceDate: rows.serviceDate,
    dayType,
    midnight: rows.midnight,
    runs,
    blocks,
    runByKey: new Map(runs.map((r) => [r.key, r])),
    assignments,
    index,
    previousDue,
  };
}

/** Scheduled time at distance d along a run: its stops' times, linear between them. */
export function scheduledTimeAt(run: Run, d: number): number {
  const { dists, times } = run;
  if (d <= dists[0]) return times[0];
  const n = dists.length;
  if (d >= dists[n - 1]) return times[n - 1];
  let lo = 0;
  let hi = n - 1;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (dists[mid] <= d) lo = mid;
    else hi = mid;
  }
  const span = dists[hi] - dists[lo];
  return span > 0 ? times[lo] + ((d - dists[lo]) / span) * (times[hi] - times[lo]) : times[lo];
}

/** The scheduled headway at a run's stop: the time since the previous run of its route and direction was due there. */
export function scheduledHeadway(day: DaySchedule, run: Run, stopIndex: number): number | null {
  // an added run's times are not in the day's buffer: its scheduled headway is not known
  if (run.added) return null;
  const previous = day.previousDue[offsetOf(run) + stopIndex];
  return Number.isNaN(previous) ? null : run.times[stopIndex] - previous;
}
