import { Random } from '../db/demo/random';
import { unit } from './incidentModel';
import { metresBetween } from './polyline';
import { deadheadMs, type Race } from './vehiclePlan';

/**
 * How the demo fleet strays from its timetable (docs/simulator.md "Variation"): the same on every run of a day
 * (seeded by the date, the vehicle and the run), so the live timetable's engine can be measured against it.
 * What repeats from day to day — the traffic of the hour, each segment's own speed and rush-hour sensitivity,
 * each stop's usual dwell — is what a learning engine can pick up; what does not — a day's weather, a run's
 * luck, a segment's moment, a late pull-out, a skipped run — is what it cannot.
 */

const MINUTE = 60_000;

/** Travel time against the timetable by the operator's hour (the demo's timetable runs one speed all day). */
const TRAFFIC: readonly (readonly [hour: number, factor: number])[] = [
  [0, 0.86],
  [5, 0.86],
  [6.5, 1.0],
  [8, 1.14],
  [9.5, 1.06],
  [11, 0.97],
  [15, 1.0],
  [17.5, 1.13],
  [19.5, 1.0],
  [21, 0.92],
  [24, 0.86],
];

/** The traffic factor at an operator hour (fractional), linear between the points above. */
export function trafficAt(hour: number): number {
  const h = ((hour % 24) + 24) % 24;
  for (let i = 1; i < TRAFFIC.length; i++) {
    const [h1, f1] = TRAFFIC[i];
    if (h <= h1) {
      const [h0, f0] = TRAFFIC[i - 1];
      return f0 + ((h - h0) / (h1 - h0)) * (f1 - f0);
    }
  }
  return TRAFFIC[TRAFFIC.length - 1][1];
}

const pairKey = (from: number, to: number) => Math.imul(from, 0x9e3779b1) ^ to;

/** A segment's own pace (0.85–1.15 of the timetable) and how much of the hour's traffic it feels (0.4–1.6). */
export function segmentFactor(from: number, to: number, hour: number): number {
  const key = pairKey(from, to);
  const pace = 0.85 + 0.3 * unit(key, 21);
  const sensitivity = 0.4 + 1.2 * unit(key, 22);
  return pace * (1 + (trafficAt(hour) - 1) * sensitivity);
}

/** A stop's usual dwell in seconds: most stops short, a few busy ones long; longer in the rush hours, short at night. */
export function usualDwellSeconds(stopId: number, hour: number): number {
  const base = 8 + 32 * unit(stopId, 23) ** 2;
  return base * Math.max(0.5, 1 + (trafficAt(hour) - 1) * 3);
}

/** Chances and spreads of what does not repeat. */
const PULL_OUT_LATE = 0.06;
/** A vehicle coming out later than this joins its timetable at the first run it can make (the ones before are not worked). */
const JOIN_LATE_MS = 20 * MINUTE;
const SKIP_RUN = 0.012;
const DAY_SIGMA = 0.02;
const RUN_SIGMA = 0.04;
const SEGMENT_SIGMA = 0.08;
const DWELL_SIGMA = 0.4;
/** Nobody to board or alight: the vehicle passes without stopping (more often at night). */
const NO_STOP = 0.08;
const NO_STOP_NIGHT = 0.3;
/** Drivers running this far ahead of the timetable wait at the stop. */
const HOLD_MS = 90_000;
/** The shortest break at a terminus before the next run. */
const MIN_LAYOVER_MS = 3 * MINUTE;
/** Speeds between stops: the timetable's pace is read at most this fast, and nobody drives faster than the cap (m/s). */
const NOMINAL_MAX_MS = 11.1;
const SPEED_CAP_MS = 16.7;

const hourAt = (t: number, tzOffsetMinutes: number) => ((((t / MINUTE + tzOffsetMinutes) % 1440) + 1440) % 1440) / 60;
const serviceDateOf = (race: Race) => race.run?.serviceDate ?? new Date(race.times[0]).toISOString().slice(0, 10);
const raceSeed = (race: Race, vehicleId: number) =>
  race.run
    ? `${race.run.serviceDate}|${race.run.variantId}|${race.run.graph}|${race.run.smena}|${race.raceNum ?? 0}|${vehicleId}`
    : `${race.routeId}|${race.times[0]}|${vehicleId}`;
const stopOf = (race: Race, i: number) => race.stopIds?.[i] ?? race.routeId * 1000 + i;

/** The day's own luck (weather, events): one factor for every run of a date. */
function dayFactor(date: string): number {
  return Math.exp(DAY_SIGMA * new Random(`sim/day/${date}`).normal());
}

/** A race as driven from `departure`: each segment's travel and each stop's dwell drawn, never leaving a stop far ahead of time. */
function driveRace(race: Race, departure: number, random: Random, tzOffsetMinutes: number): Race {
  const { times, dists } = race;
  const n = times.length;
  const arrivals = new Float64Array(n);
  const departures = new Float64Array(n);
  arrivals[0] = departure;
  departures[0] = departure;
  const luck = dayFactor(serviceDateOf(race)) * Math.exp(RUN_SIGMA * random.normal());
  for (let k = 1; k < n; k++) {
    const hop = times[k] - times[k - 1];
    const metres = dists[k] - dists[k - 1];
    const hour = hourAt(departures[k - 1], tzOffsetMinutes);
    const nominal = Math.max(hop - Math.min(20_000, hop * 0.3), (metres / NOMINAL_MAX_MS) * 1000);
    const factor = segmentFactor(stopOf(race, k - 1), stopOf(race, k), hour) * luck * Math.exp(SEGMENT_SIGMA * random.normal());
    arrivals[k] = departures[k - 1] + Math.max((metres / SPEED_CAP_MS) * 1000, nominal * factor);
    if (k === n - 1) {
      departures[k] = arrivals[k];
      break;
    }
    const night = trafficAt(hour) < 0.9;
    const stops = !random.chance(night ? NO_STOP_NIGHT : NO_STOP);
    const dwell = stops ? usualDwellSeconds(stopOf(race, k), hour) * Math.exp(DWELL_SIGMA * random.normal()) * 1000 : 0;
    departures[k] = Math.max(arrivals[k] + dwell, times[k] - HOLD_MS);
  }
  return { ...race, arrivals, departures };
}

/**
 * One vehicle's races as it really works them: a late pull-out now and then (a little late: it runs late and
 * recovers at the termini; very late: it joins its timetable at the first run it can make), a run skipped now
 * and then, each run from its scheduled departure or as soon as the vehicle is back at the terminus and has had
 * its break. Races not worked are left out. Each service date is drawn on its own, so a night race carried into
 * the next day's plan is driven the same.
 */
export function realiseRaces(vehicleId: number, races: readonly Race[], tzOffsetMinutes: number): Race[] {
  const sorted = [...races].sort((a, b) => a.times[0] - b.times[0]);
  const out: Race[] = [];
  let ready = -Infinity;
  let previous: Race | null = null;
  let date: string | null = null;
  let pullOut = -Infinity;
  let late = 0;
  for (const race of sorted) {
    if (serviceDateOf(race) !== date) {
      date = serviceDateOf(race);
      const day = new Random(`sim/pull-out/${date}|${vehicleId}`);
      late = day.chance(PULL_OUT_LATE) ? (2 + Math.min(68, 12 * -Math.log(1 - day.next()))) * MINUTE : 0;
      pullOut = race.times[0] + late;
      ready = Math.max(ready, pullOut);
    }
    const random = new Random(`sim/run/${raceSeed(race, vehicleId)}`);
    if (random.chance(SKIP_RUN) || (late > JOIN_LATE_MS && race.times[0] < pullOut - 5 * MINUTE)) continue;
    if (previous) {
      const from = previous.line.at(previous.dists[previous.dists.length - 1]);
      const to = race.line.at(race.dists[0]);
      const away = metresBetween(from, to) < 30 ? 0 : deadheadMs(from, to);
      ready = Math.max(ready, previous.arrivals![previous.arrivals!.length - 1] + MIN_LAYOVER_MS + away);
    }
    previous = driveRace(race, Math.max(race.times[0], ready), random, tzOffsetMinutes);
    out.push(previous);
  }
  return out;
}
