import type { DayType, Run } from './schedule';

/**
 * Run and dwell times learned from the stored passages (dispatch.segment_time, dispatch.dwell_time): medians per
 * stop pair (run: departure from one stop to arrival at the next) and per stop (dwell: arrival to departure),
 * by day type and operator hour; hour 24 holds the whole day's median, the fallback for an hour without data.
 */
export class LearnedTimes {
  private readonly runs = new Map<string, number>();
  private readonly dwells = new Map<string, number>();

  setRun(from: number, to: number, dayType: DayType, hour: number, seconds: number): void {
    this.runs.set(`${from}|${to}|${dayType}|${hour}`, seconds * 1000);
  }

  setDwell(stop: number, dayType: DayType, hour: number, seconds: number): void {
    this.dwells.set(`${stop}|${dayType}|${hour}`, seconds * 1000);
  }

  /** Milliseconds from departing `from` to arriving at `to`, or null when never seen. */
  run(from: number, to: number, dayType: DayType, hour: number): number | null {
    return this.runs.get(`${from}|${to}|${dayType}|${hour}`) ?? this.runs.get(`${from}|${to}|${dayType}|24`) ?? null;
  }

  dwell(stop: number, dayType: DayType, hour: number): number | null {
    return this.dwells.get(`${stop}|${dayType}|${hour}`) ?? this.dwells.get(`${stop}|${dayType}|24`) ?? null;
  }

  get size(): number {
    return this.runs.size;
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
      // the stop the vehicle stands at has its arrival behind it: only its departure counts
      if (i > first || dwellingSince === null) {
        out.push({ run: r, stopIndex: i, scheduled: r.times[i], predicted: at, baseline: Math.max(now, r.times[i] + deviationMs) });
      }
      t = Math.max(at, (i === first && dwellingSince !== null ? dwellingSince : at) + dwell(r, i, at));
      if (i === 0) t = Math.max(t, r.times[0]);
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
