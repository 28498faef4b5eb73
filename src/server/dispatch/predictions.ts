import type { DayType, Run } from './schedule';

/** Hours 0–23 of each day type, and hour 24: the day type's whole-day median. */
const HOURS = 25;
const DAY_TYPES = 3;
/** Stop ids below this (2^26) pair into one exact number key: a feed's trip makes thousands of lookups a second. */
const PAIR = 2 ** 26;

/** A key's medians (ms) by day type and hour; NaN where none was learned. */
const emptyHours = () => new Float64Array(DAY_TYPES * HOURS).fill(NaN);

/**
 * Run and dwell times learned from the stored passages (dispatch.segment_time, dispatch.dwell_time): medians per
 * stop pair (run: departure from one stop to arrival at the next) and per stop (dwell: arrival to departure),
 * by day type and operator hour; hour 24 holds the whole day's median, the fallback for an hour without data.
 * Kept by number keys in typed arrays, not text keys: a whole fleet's predictions look them up hundreds of
 * thousands of times, and each text key was garbage to collect.
 */
export class LearnedTimes {
  private readonly runs = new Map<number, Float64Array>();
  private readonly dwells = new Map<number, Float64Array>();
  private runCount = 0;

  private static set(map: Map<number, Float64Array>, key: number, dayType: DayType, hour: number, seconds: number): boolean {
    let hours = map.get(key);
    if (!hours) map.set(key, (hours = emptyHours()));
    const added = Number.isNaN(hours[dayType * HOURS + hour]);
    hours[dayType * HOURS + hour] = seconds * 1000;
    return added;
  }

  private static get(hours: Float64Array | undefined, dayType: DayType, hour: number): number | null {
    if (!hours) return null;
    const exact = hours[dayType * HOURS + hour];
    if (exact === exact) return exact;
    const day = hours[dayType * HOURS + HOURS - 1];
    return day === day ? day : null;
  }

  setRun(from: number, to: number, dayType: DayType, hour: number, seconds: number): void {
    if (LearnedTimes.set(this.runs, from * PAIR + to, dayType, hour, seconds)) this.runCount += 1;
  }

  setDwell(stop: number, dayType: DayType, hour: number, seconds: number): void {
    LearnedTimes.set(this.dwells, stop, dayType, hour, seconds);
  }

  /** Milliseconds from departing `from` to arriving at `to`, or null when never seen. */
  run(from: number, to: number, dayType: DayType, hour: number): number | null {
    return LearnedTimes.get(this.runs.get(from * PAIR + to), dayType, hour);
  }

  dwell(stop: number, dayType: DayType, hour: number): number | null {
    return LearnedTimes.get(this.dwells.get(stop), dayType, hour);
  }

  /** Run times learned (stop pair, day type, hour). */
  get size(): number {
    return this.runCount;
  }
}

/** Where the vehicle stands on its run when the prediction is made. */
export interface RunPosition {
  run: Run;
  /** The first stop not yet departed. */
  next: number;
  dist: number;
  /** Within the radius of stop `next` since this time (null: on the way to it). */
  dwellingSince: number | null;
  /** Seconds behind the timetable now (the baseline's offset). */
  deviation: number;
}

export interface StopPrediction {
  run: Run;
  stopIndex: number;
  scheduled: number;
  /** From the learned times (the schedule's own segment times where none are learned). */
  predicted: number;
  /** When it leaves the stop: the predicted arrival and the learned dwell, never before a run's first departure. */
  departure: number;
  /** Timetable plus the current deviation: the figure the learned one is measured against. */
  baseline: number;
}

/**
 * Arrival predictions at the stops ahead: the rest of the current run, then the runs after it in its block
 * while within `horizonMs`. Segment by segment from where the vehicle is: the share of the current segment
 * still to go, then learned run and dwell times by the hour each segment is entered (TheTransitClock's way);
 * a vehicle never leaves a run's first stop before its scheduled departure.
 */
export function predictArrivals(
  position: RunPosition,
  following: readonly Run[],
  learned: LearnedTimes,
  now: number,
  horizonMs: number,
  hourOf: (t: number) => number,
): StopPrediction[] {
  const out: StopPrediction[] = [];
  const deviationMs = position.deviation * 1000;
  const segment = (run: Run, i: number, at: number) =>
    learned.run(run.stopIds[i - 1], run.stopIds[i], run.dayType, hourOf(at)) ?? Math.max(0, run.times[i] - run.times[i - 1]);
  const dwell = (run: Run, i: number, at: number) => learned.dwell(run.stopIds[i], run.dayType, hourOf(at)) ?? 0;

  const { run, next } = position;
  if (next >= run.stopIds.length) return out;
  let arrival: number;
  if (position.dwellingSince !== null || next === 0) {
    arrival = now;
  } else {
    const share = (run.dists[next] - position.dist) / Math.max(1, run.dists[next] - run.dists[next - 1]);
    arrival = now + Math.min(1, Math.max(0, share)) * segment(run, next, now);
  }
  let t = arrival;
  const walk = (r: Run, first: number, arriveAt: number, dwellingSince: number | null): number => {
    let at = arriveAt;
    for (let i = first; i < r.stopIds.length; i++) {
      if (i > first) at = t + segment(r, i, t);
      if (at - now > horizonMs) return Infinity;
      t = Math.max(at, (i === first && dwellingSince !== null ? dwellingSince : at) + dwell(r, i, at));
      if (i === 0) t = Math.max(t, r.times[0]);
      // the stop the vehicle stands at has its arrival behind it: only its departure counts
      if (i > first || dwellingSince === null) {
        out.push({
          run: r,
          stopIndex: i,
          scheduled: r.times[i],
          predicted: at,
          departure: t,
          baseline: Math.max(now, r.times[i] + deviationMs),
        });
      }
    }
    return t;
  };
  let end = walk(run, next, arrival, position.dwellingSince ?? (next === 0 ? now : null));
  for (const later of following) {
    if (!Number.isFinite(end)) break;
    end = walk(later, 0, Math.max(end, now), null);
  }
  return out;
}

/**
 * Milliseconds to run from `from` to `to` metres along a run (from < to): each segment's learned run time by
 * the share of it covered (the timetable's segment time where none is learned), and the learned dwell at each
 * stop called at on the way.
 */
export function travelTime(run: Run, from: number, to: number, learned: LearnedTimes, hour: number): number {
  const { dists, times, stopIds, dayType } = run;
  let total = 0;
  for (let k = 1; k < dists.length && dists[k - 1] < to; k++) {
    const a = Math.max(from, dists[k - 1]);
    const b = Math.min(to, dists[k]);
    if (b <= a) continue;
    const learnedRun = learned.run(stopIds[k - 1], stopIds[k], dayType, hour);
    const span = dists[k] - dists[k - 1];
    if (span > 0) total += ((learnedRun ?? Math.max(0, times[k] - times[k - 1])) * (b - a)) / span;
    // the timetable's segment times hold the dwells; the learned ones run from a departure to the next arrival
    if (learnedRun !== null && dists[k] < to) total += learned.dwell(stopIds[k], dayType, hour) ?? 0;
  }
  return total;
}
