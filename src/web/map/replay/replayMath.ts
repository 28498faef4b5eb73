import type { TrackPoint } from '../../../shared/map';

/**
 * Pure time mapping of the track replay: a track sorted by time, the position at any moment between its
 * first and last fix (linear interpolation between fixes), and the replay clock's advance at a speed.
 */
export interface Track {
  points: readonly TrackPoint[];
  /** Epoch ms of each point, ascending. */
  times: readonly number[];
  start: number;
  end: number;
}

export interface TrackPosition {
  lat: number;
  lon: number;
  course: number;
  speed: number;
  /** Index of the fix at or before the moment. */
  index: number;
}

export const REPLAY_SPEEDS = [1, 4, 16, 64] as const;
export type ReplaySpeed = (typeof REPLAY_SPEEDS)[number];

/** The points with a valid time, sorted by time; null when there are none. */
export function buildTrack(points: readonly TrackPoint[]): Track | null {
  const valid = points
    .map((point) => ({ point, time: new Date(point.tm).getTime() }))
    .filter(({ point, time }) => Number.isFinite(time) && Number.isFinite(point.lat) && Number.isFinite(point.lon))
    .sort((a, b) => a.time - b.time);
  if (valid.length === 0) return null;
  return {
    points: valid.map((v) => v.point),
    times: valid.map((v) => v.time),
    start: valid[0].time,
    end: valid[valid.length - 1].time,
  };
}

/** Index of the last time ≤ t (0 before the start). */
export function indexAt(times: readonly number[], t: number): number {
  let lo = 0;
  let hi = times.length - 1;
  if (t <= times[0]) return 0;
  if (t >= times[hi]) return hi;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (times[mid] <= t) lo = mid;
    else hi = mid;
  }
  return lo;
}

export function positionAt(track: Track, t: number): TrackPosition {
  const index = indexAt(track.times, t);
  const a = track.points[index];
  const b = track.points[index + 1];
  if (!b || t <= track.times[index]) return { lat: a.lat, lon: a.lon, course: a.course, speed: a.speed, index };
  const span = track.times[index + 1] - track.times[index];
  const f = span > 0 ? Math.min(1, Math.max(0, (t - track.times[index]) / span)) : 0;
  return {
    lat: a.lat + (b.lat - a.lat) * f,
    lon: a.lon + (b.lon - a.lon) * f,
    course: a.course,
    speed: a.speed + (b.speed - a.speed) * f,
    index,
  };
}

/** The replay clock after `elapsedMs` of wall time at `speed`; it stops at the end. */
export function advance(track: Pick<Track, 'start' | 'end'>, t: number, elapsedMs: number, speed: number): number {
  return Math.min(track.end, Math.max(track.start, t + elapsedMs * speed));
}
