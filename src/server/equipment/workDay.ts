import { metresBetween, type LatLon, type Polyline } from '../simulator/polyline';

/** A track point as the work-day rollup reads it (time in epoch ms, speed in km/h). */
export interface WorkPoint {
  tm: number;
  lat: number;
  lon: number;
  speed: number;
}

/** A race the schedule planned for the vehicle that day. */
export interface PlannedRace {
  start: number;
  end: number;
  from: LatLon;
  to: LatLon;
  /** Its line, for deviations (null: no usable trajectory, not judged). */
  line: Polyline | null;
}

export interface WorkDay {
  firstAt: number;
  lastAt: number;
  onlineS: number;
  km: number;
  movingS: number;
  standingS: number;
  tripsDone: number;
  tripsPlanned: number;
  deviations: number;
}

export interface WorkDayRules {
  /** maxCenterDeviation (/system/navigation), metres. */
  maxDeviationM: number;
  /** Points further apart than this are a break in the data, not time on line. */
  gapS: number;
  /** At or above this a vehicle is moving. */
  movingKmh: number;
  /** A terminus is reached within this distance. */
  arrivalM: number;
  /** Jumps implying more than this are GNSS errors: left out of the mileage. */
  maxKmh: number;
}

export const WORK_DAY_RULES: Omit<WorkDayRules, 'maxDeviationM'> = { gapS: 300, movingKmh: 3, arrivalM: 300, maxKmh: 200 };

/** Metres from `p` to the line. */
export function offsetFromLine(line: Polyline, p: LatLon): number {
  return metresBetween(p, line.at(line.project(p)));
}

/**
 * A vehicle's day from its track and its planned races (SCREENS.md "/vehicle-work-data"):
 * - first and last data: the first and last point;
 * - time on line: the time between consecutive points no further apart than `gapS`; moving when the
 *   earlier point's speed is at least `movingKmh`, standing otherwise (so moving + standing = on line);
 * - mileage: the distance between those points (jumps faster than `maxKmh` left out);
 * - trips made: planned races for which the vehicle was at the start terminus between 10 min before and
 *   15 min after the start and then at the end terminus before 30 min after the planned end;
 * - deviations: while a race runs, episodes of moving points farther than maxCenterDeviation from its line
 *   (consecutive points off the line are one deviation).
 */
export function workDayOf(input: readonly WorkPoint[], races: readonly PlannedRace[], rules: WorkDayRules): WorkDay | null {
  if (!input.length) return null;
  const points = [...input].sort((a, b) => a.tm - b.tm);
  let onlineMs = 0;
  let movingMs = 0;
  let metres = 0;
  for (let i = 1; i < points.length; i++) {
    const a = points[i - 1];
    const b = points[i];
    const dt = b.tm - a.tm;
    if (dt <= 0 || dt > rules.gapS * 1000) continue;
    onlineMs += dt;
    if (a.speed >= rules.movingKmh) movingMs += dt;
    const d = metresBetween(a, b);
    if ((d / dt) * 3600 <= rules.maxKmh) metres += d;
  }
  let tripsDone = 0;
  let deviations = 0;
  for (const race of races) {
    const atStart = points.find(
      (p) => p.tm >= race.start - 600_000 && p.tm <= race.start + 900_000 && metresBetween(p, race.from) <= rules.arrivalM,
    );
    if (atStart && points.some((p) => p.tm > atStart.tm && p.tm <= race.end + 1_800_000 && metresBetween(p, race.to) <= rules.arrivalM))
      tripsDone += 1;
    if (!race.line) continue;
    let off = false;
    for (const p of points) {
      if (p.tm < race.start || p.tm > race.end) continue;
      if (p.speed < rules.movingKmh) continue;
      const away = offsetFromLine(race.line, p) > rules.maxDeviationM;
      if (away && !off) deviations += 1;
      off = away;
    }
  }
  const onlineS = Math.round(onlineMs / 1000);
  const movingS = Math.round(movingMs / 1000);
  return {
    firstAt: points[0].tm,
    lastAt: points[points.length - 1].tm,
    onlineS,
    km: Math.round(metres) / 1000,
    movingS,
    standingS: onlineS - movingS,
    tripsDone,
    tripsPlanned: races.length,
    deviations,
  };
}
