import { bearing, metresBetween, type LatLon, type Polyline } from './polyline';

/** One scheduled race of a vehicle: absolute stop times (epoch ms) and the stops' distances along its line. */
export interface Race {
  routeId: number;
  tripId: number | null;
  line: Polyline;
  times: Float64Array;
  dists: Float64Array;
  /** The stops of `times` (passenger flow counts at them), the schedule's race number and direction (0 'A', 1 'B'). */
  stopIds?: number[];
  raceNum?: number;
  direction?: 0 | 1;
  /** The run of the timetable it is (the ground truth names it): service date, schedule variant, exit, shift, the stops' order numbers. */
  run?: { serviceDate: string; variantId: number; graph: number; smena: string; sequences: number[] };
  /**
   * When the vehicle really comes to and leaves each stop (epoch ms, variation.ts); without them it keeps the
   * timetable: half a minute at each stop (less on a very short hop), then even motion to the next.
   */
  arrivals?: Float64Array;
  departures?: Float64Array;
}

/** A race with the times it is really driven at. */
export type DrivenRace = Race & { arrivals: Float64Array; departures: Float64Array };

export type Leg =
  | { kind: 'race'; start: number; end: number; race: DrivenRace }
  /** Standing still: at a terminus between races, or parked at the depot (reports rarely). */
  | { kind: 'stay'; start: number; end: number; at: LatLon; course: number; parked: boolean }
  /** Driving without passengers in a straight line (depot ↔ terminus, terminus ↔ terminus). */
  | { kind: 'deadhead'; start: number; end: number; from: LatLon; to: LatLon; course: number };

export interface VehicleState {
  lat: number;
  lon: number;
  /** km/h */
  speed: number;
  course: number;
  parked: boolean;
  routeId: number | null;
  tripId: number | null;
}

/** Time at a stop before moving on when the timetable is kept: half a minute, or less on a very short hop. */
const DWELL_MS = 30_000;
const DEADHEAD_KMH = 25;
const MINUTE = 60_000;
/** Longer breaks than this are spent at the depot rather than at the terminus. */
const DEPOT_BREAK_MS = 90 * MINUTE;

export const deadheadMs = (from: LatLon, to: LatLon) =>
  Math.min(25 * MINUTE, Math.max(2 * MINUTE, (metresBetween(from, to) / 1000 / DEADHEAD_KMH) * 3_600_000));

/**
 * A vehicle's day as contiguous legs: out of the depot to the first terminus, the races with layovers between,
 * home to the depot for long breaks and at the end. Built once per day; `stateAt` is a binary search.
 */
export class VehiclePlan {
  readonly legs: Leg[] = [];

  constructor(
    readonly vehicleId: number,
    readonly depot: LatLon | null,
    races: Race[],
  ) {
    const sorted = races.map(driven).sort((a, b) => a.arrivals[0] - b.arrivals[0]);
    const legs = this.legs;
    // a race kept by the timetable dwells at its first stop within the race, a realised one leaves it at once
    const starts = sorted.map((race) => race.arrivals[0]);
    const raceEnd = (race: DrivenRace) => race.arrivals[race.arrivals.length - 1];
    const travel = (from: LatLon, to: LatLon, arriveBy: number, notBefore: number) => {
      if (metresBetween(from, to) < 30) return notBefore;
      const start = Math.max(notBefore, arriveBy - deadheadMs(from, to));
      legs.push({ kind: 'deadhead', start, end: arriveBy, from, to, course: bearing(from, to) });
      return arriveBy;
    };
    const stay = (at: LatLon, start: number, end: number, course: number, parked: boolean) => {
      if (end > start) legs.push({ kind: 'stay', start, end, at, course, parked });
    };

    sorted.forEach((race, i) => {
      const first = race.line.at(race.dists[0]);
      const start = starts[i];
      if (i === 0) {
        // Out of the depot, then a couple of minutes at the terminus before departure.
        const ready = start - 2 * MINUTE;
        if (depot) travel(depot, first, ready, ready - 25 * MINUTE);
        stay(first, ready, start, first.course, false);
      } else {
        const previous = sorted[i - 1];
        const end = raceEnd(previous);
        const last = previous.line.at(previous.dists[previous.dists.length - 1]);
        if (depot && start - end > DEPOT_BREAK_MS) {
          const home = travel(last, depot, end + deadheadMs(last, depot), end);
          const leave = start - 2 * MINUTE - deadheadMs(depot, first);
          stay(depot, home, leave, 0, true);
          travel(depot, first, start - 2 * MINUTE, leave);
          stay(first, start - 2 * MINUTE, start, first.course, false);
        } else {
          const departAt = travel(last, first, start, end) === end ? start : start - deadheadMs(last, first);
          stay(last, end, Math.max(end, departAt), last.course, false);
        }
      }
      // it came to the first stop when the leg before ended (the stay there, or the drive to it)
      const before = legs[legs.length - 1];
      race.arrivals[0] = before && before.end === start ? (before.kind === 'stay' ? before.start : before.end) : start;
      legs.push({ kind: 'race', start, end: raceEnd(race), race });
    });
    const lastRace = sorted[sorted.length - 1];
    if (lastRace && depot) {
      const end = raceEnd(lastRace);
      const last = lastRace.line.at(lastRace.dists[lastRace.dists.length - 1]);
      travel(last, depot, end + deadheadMs(last, depot), end);
    }
    legs.sort((a, b) => a.start - b.start);
  }

  get start(): number {
    return this.legs.length ? this.legs[0].start : Infinity;
  }

  get end(): number {
    return this.legs.length ? this.legs[this.legs.length - 1].end : -Infinity;
  }

  /** Where the vehicle is at `t`; parked at its depot outside its duty; null when it has neither. */
  stateAt(t: number): VehicleState | null {
    const legs = this.legs;
    if (legs.length === 0 || t < legs[0].start || t > legs[legs.length - 1].end) {
      return this.depot ? { ...this.depot, speed: 0, course: 0, parked: true, routeId: null, tripId: null } : null;
    }
    let lo = 0;
    let hi = legs.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (legs[mid].start <= t) lo = mid;
      else hi = mid - 1;
    }
    const leg = legs[lo];
    if (leg.kind === 'stay') return { ...leg.at, speed: 0, course: leg.course, parked: leg.parked, routeId: null, tripId: null };
    if (leg.kind === 'deadhead') {
      const span = leg.end - leg.start;
      const f = span > 0 ? Math.min(1, (t - leg.start) / span) : 1;
      return {
        lat: leg.from.lat + f * (leg.to.lat - leg.from.lat),
        lon: leg.from.lon + f * (leg.to.lon - leg.from.lon),
        speed: span > 0 ? (metresBetween(leg.from, leg.to) / span) * 3600 : 0,
        course: leg.course,
        parked: false,
        routeId: null,
        tripId: null,
      };
    }
    return raceState(leg.race, t);
  }
}

/** The race with its actual times: its own, or the timetable's (a dwell at each stop, then on to the next). */
function driven(race: Race): DrivenRace {
  if (race.arrivals && race.departures) return race as DrivenRace;
  const { times } = race;
  const n = times.length;
  const departures = Float64Array.from(times, (t, k) => (k < n - 1 ? t + Math.min(DWELL_MS, (times[k + 1] - t) * 0.3) : t));
  return { ...race, arrivals: Float64Array.from(times), departures };
}

/** Between stop k and k+1: standing at k from its arrival to its departure, then even motion along the line to k+1. */
function raceState(race: DrivenRace, t: number): VehicleState {
  const { arrivals, departures, dists, line } = race;
  let lo = 0;
  let hi = arrivals.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (arrivals[mid] <= t) lo = mid;
    else hi = mid - 1;
  }
  const k = lo;
  const base = { routeId: race.routeId, tripId: race.tripId, parked: false };
  if (k >= arrivals.length - 1) return { ...line.at(dists[dists.length - 1]), speed: 0, ...base };
  const moving = arrivals[k + 1] - departures[k];
  if (t < departures[k] || moving <= 0) {
    const point = line.at(dists[k]);
    // At a stop the bus faces the way it is about to go.
    return { ...point, course: line.at(dists[k] + 1).course, speed: 0, ...base };
  }
  const f = (t - departures[k]) / moving;
  const distance = dists[k] + f * (dists[k + 1] - dists[k]);
  return { ...line.at(distance), speed: ((dists[k + 1] - dists[k]) / moving) * 3600, ...base };
}
