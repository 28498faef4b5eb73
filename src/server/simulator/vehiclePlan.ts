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
}

export type Leg =
  | { kind: 'race'; start: number; end: number; race: Race }
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

/** Time at a stop before moving on: half a minute, or less on a very short hop. */
const DWELL_MS = 30_000;
const DEADHEAD_KMH = 25;
const MINUTE = 60_000;
/** Longer breaks than this are spent at the depot rather than at the terminus. */
const DEPOT_BREAK_MS = 90 * MINUTE;

const deadheadMs = (from: LatLon, to: LatLon) => Math.min(25 * MINUTE, Math.max(2 * MINUTE, (metresBetween(from, to) / 1000 / DEADHEAD_KMH) * 3_600_000));

/**
 * A vehicle's day as contiguous legs: out of the depot to the first terminus, the races with layovers between,
 * home to the depot for long breaks and at the end. Built once per day; `stateAt` is a binary search.
 */
export class VehiclePlan {
  readonly legs: Leg[] = [];

  constructor(readonly vehicleId: number, readonly depot: LatLon | null, races: Race[]) {
    const sorted = [...races].sort((a, b) => a.times[0] - b.times[0]);
    const legs = this.legs;
    const raceStart = (race: Race) => race.times[0];
    const raceEnd = (race: Race) => race.times[race.times.length - 1];
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
      const start = raceStart(race);
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
        lat: leg.from.lat + f * (leg.to.lat - leg.from.lat), lon: leg.from.lon + f * (leg.to.lon - leg.from.lon),
        speed: span > 0 ? (metresBetween(leg.from, leg.to) / span) * 3600 : 0, course: leg.course, parked: false, routeId: null, tripId: null,
      };
    }
    return raceState(leg.race, t);
  }
}

/** Between stop k and k+1: a dwell at k, then even motion along the line to k+1. */
function raceState(race: Race, t: number): VehicleState {
  const { times, dists, line } = race;
  let lo = 0;
  let hi = times.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (times[mid] <= t) lo = mid;
    else hi = mid - 1;
  }
  const k = lo;
  const base = { routeId: race.routeId, tripId: race.tripId, parked: false };
  if (k >= times.length - 1) return { ...line.at(dists[dists.length - 1]), speed: 0, ...base };
  const hop = times[k + 1] - times[k];
  const dwell = Math.min(DWELL_MS, hop * 0.3);
  const moving = hop - dwell;
  if (t < times[k] + dwell || moving <= 0) {
    const point = line.at(dists[k]);
    // At a stop the bus faces the way it is about to go.
    return { ...point, course: line.at(dists[k] + 1).course, speed: 0, ...base };
  }
  const f = (t - times[k] - dwell) / moving;
  const distance = dists[k] + f * (dists[k + 1] - dists[k]);
  return { ...line.at(distance), speed: ((dists[k + 1] - dists[k]) / moving) * 3600, ...base };
}
