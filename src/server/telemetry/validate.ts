import type { Position } from './types';

/** EGTS time starts at 2010-01-01 00:00:00 UTC; nothing real is older. */
const EARLIEST_MS = Date.UTC(2010, 0, 1);
/** Receivers without a fix often report exactly (0, 0): "null island" is never a bus stop. */
const NULL_ISLAND = 1e-6;

export interface ValidationLimits {
  futureToleranceMs: number;
  maxSpeedKmh: number;
  /** Fixes older than the track retention would be deleted at the next sweep: refused instead. */
  maxAgeMs: number;
}

/** What is wrong with a position, field by field; empty when it may enter the pipeline. */
export function positionProblems(p: Position, now: number, limits: ValidationLimits): { field: keyof Position; message: string }[] {
  const problems: { field: keyof Position; message: string }[] = [];
  const finite = (value: number) => typeof value === 'number' && Number.isFinite(value);
  if (!Number.isInteger(p.vehicleId) || p.vehicleId <= 0) problems.push({ field: 'vehicleId', message: 'unknown vehicle' });
  if (!finite(p.time)) problems.push({ field: 'time', message: 'time is not a valid date' });
  else if (p.time > now + limits.futureToleranceMs)
    problems.push({ field: 'time', message: `time is more than ${Math.round(limits.futureToleranceMs / 1000)} s in the future` });
  else if (p.time < Math.max(EARLIEST_MS, now - limits.maxAgeMs))
    problems.push({ field: 'time', message: 'time is older than the track retention' });
  if (!finite(p.lat) || p.lat < -90 || p.lat > 90) problems.push({ field: 'lat', message: 'lat must be between -90 and 90' });
  if (!finite(p.lon) || p.lon < -180 || p.lon > 180) problems.push({ field: 'lon', message: 'lon must be between -180 and 180' });
  if (finite(p.lat) && finite(p.lon) && Math.abs(p.lat) < NULL_ISLAND && Math.abs(p.lon) < NULL_ISLAND) {
    problems.push({ field: 'lat', message: 'position (0, 0) is not a fix' });
  }
  if (!finite(p.speed) || p.speed < 0 || p.speed > limits.maxSpeedKmh)
    problems.push({ field: 'speed', message: `speed must be between 0 and ${limits.maxSpeedKmh} km/h` });
  if (!Number.isInteger(p.course) || p.course < 0 || p.course > 359)
    problems.push({ field: 'course', message: 'course must be an integer between 0 and 359' });
  return problems;
}
