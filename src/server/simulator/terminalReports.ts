import { Random } from '../db/demo/random';
import type { Position } from '../telemetry/types';
import { unit } from './incidentModel';
import { M_PER_DEG_LAT, M_PER_DEG_LON_EQUATOR } from './polyline';
import type { VehicleState } from './vehiclePlan';

/**
 * What the demo fleet's terminals send (docs/simulator.md "Variation"): each reports at its own fixed interval
 * (a mix: every second, every 10 s, every 30 s) from its own phase, falls silent now and then (a tunnel, the
 * mobile network), and its receiver adds a few metres of noise with an occasional outlier far off. Each report
 * is a function of the vehicle and the second: the same whenever and however often it is asked.
 */

/** The reporting intervals in seconds and their shares of the fleet, `seconds:percent` (SIMULATOR_INTERVALS). */
export type IntervalMix = readonly (readonly [seconds: number, percent: number])[];

export const DEFAULT_INTERVALS: IntervalMix = [
  [1, 15],
  [10, 55],
  [30, 30],
];

/** `1:15,10:55,30:30` → the mix; anything unreadable gives the default. */
export function parseIntervals(text: string | undefined): IntervalMix {
  if (!text) return DEFAULT_INTERVALS;
  const mix = text.split(',').map((part) => part.split(':').map(Number) as [number, number]);
  const valid = mix.length > 0 && mix.every(([s, p]) => Number.isInteger(s) && s >= 1 && s <= 3600 && Number.isFinite(p) && p > 0);
  return valid ? mix : DEFAULT_INTERVALS;
}

/** A vehicle's terminal: its interval and the second of the interval it reports at. */
export function terminalOf(vehicleId: number, mix: IntervalMix): { intervalS: number; phaseS: number } {
  const total = mix.reduce((sum, [, p]) => sum + p, 0);
  let roll = unit(vehicleId, 31) * total;
  let intervalS = mix[mix.length - 1][0];
  for (const [s, p] of mix) {
    if ((roll -= p) < 0) {
      intervalS = s;
      break;
    }
  }
  return { intervalS, phaseS: Math.floor(unit(vehicleId, 32) * intervalS) };
}

/** An hour of a vehicle's reporting holds a silence with this chance: from a minute to a quarter of an hour, most short. */
const GAP_PER_HOUR = 0.06;
const GAP_MIN_S = 60;
const GAP_SPREAD_S = 840;

/** Whether the vehicle's terminal is silent at second `s` (epoch seconds). */
export function silentAt(vehicleId: number, s: number): boolean {
  const hour = Math.floor(s / 3600);
  // a silence starting late in the hour before may run into this one
  for (const h of [hour, hour - 1]) {
    const key = Math.imul(vehicleId, 0x2545f491) ^ h;
    if (unit(key, 33) >= GAP_PER_HOUR) continue;
    const start = h * 3600 + Math.floor(unit(key, 34) * 3600);
    const length = GAP_MIN_S + GAP_SPREAD_S * unit(key, 35) ** 2;
    if (s >= start && s < start + length) return true;
  }
  return false;
}

/** Receiver noise: a few metres (normal, at most 10 m), and one fix in 250 an outlier 100–400 m off. */
const NOISE_SIGMA_M = 3;
const NOISE_MAX_M = 10;
const OUTLIER = 0.004;

const reportKey = (vehicleId: number, s: number) => Math.imul(vehicleId, 0x27d4eb2f) ^ s;

/** Whether the vehicle's report at second `s` is an outlier. */
export const outlierAt = (vehicleId: number, s: number) => unit(reportKey(vehicleId, s), 36) < OUTLIER;

/** The report a vehicle's terminal sends at whole second `s` (epoch seconds) from its true state. */
export function reportOf(vehicleId: number, state: VehicleState, s: number): Position {
  const random = new Random(reportKey(vehicleId, s));
  const clip = (m: number) => Math.max(-NOISE_MAX_M, Math.min(NOISE_MAX_M, m));
  let north = clip(NOISE_SIGMA_M * random.normal());
  let east = clip(NOISE_SIGMA_M * random.normal());
  if (outlierAt(vehicleId, s)) {
    const metres = random.float(100, 400);
    const angle = random.float(0, 2 * Math.PI);
    north += metres * Math.cos(angle);
    east += metres * Math.sin(angle);
  }
  const moving = state.speed > 0.5;
  const lat = state.lat + north / M_PER_DEG_LAT;
  const lon = state.lon + east / (M_PER_DEG_LON_EQUATOR * Math.cos((state.lat * Math.PI) / 180));
  const speed = moving ? Math.min(120, state.speed * random.float(0.92, 1.08)) : 0;
  const course = (Math.round(state.course + (moving ? random.float(-2, 2) : 0)) + 360) % 360;
  return {
    vehicleId,
    time: s * 1000,
    lat: Math.round(lat * 1e6) / 1e6,
    lon: Math.round(lon * 1e6) / 1e6,
    speed: Math.round(speed * 10) / 10,
    course,
    valid: true,
    history: false,
  };
}
