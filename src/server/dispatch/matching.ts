import { AGAINST_DEGREES, angleBetween, type Projection } from './geometry';
import { evaluateVehicle, updateDeviation } from './adherence';
import type { EngineState } from './engineState';
import type { Fix, MatchSource, VehicleState } from './engineTypes';
import { atStopWhenPlaced, stopRadii } from './passages';
import { scheduledTimeAt, type Assignment, type DaySchedule, type Run } from './schedule';

/** A run is looked for this long before its first departure and after its last arrival. */
const EARLY_WINDOW_MS = 40 * 60_000;
const LATE_WINDOW_MS = 120 * 60_000;
/** How far ahead of or behind its timetable a vehicle may be to be matched to a run at all. */
const MATCH_EARLY_MS = 20 * 60_000;
const MATCH_LATE_MS = 100 * 60_000;
/** Moving: below this the receiver's course is noise. */
export const MOVING_KMH = 3;

/** Where a fix falls on a run and how far off its timetable (ms, waiting at the first stop counted a quarter). */
interface FitResult {
  dist: number;
  offset: number;
  lateness: number;
}

/**
 * When two vehicles are taken to have exchanged exits: at once when each is far off its task's timetable, or when
 * each is nearer the other's run by a little at several of the vehicle's departures in a row (neighbouring exits a
 * minute or two apart, where one reading is within the noise of traffic).
 */
interface ExchangeRule {
  /** Off its own run's timetable at least (s)… */
  offS: number;
  /** …each nearer the other's timetable by at least (s), the two together by at least (s)… */
  eachS: number;
  gainS: number;
  /** …at this many departures in a row. */
  seen: number;
}
/** A vehicle found by fit on a run is taken to work it when this near its timetable (s). */
const SHARED_ON_TIME_S = 120;
const AT_ONCE: ExchangeRule = { offS: 180, eachS: 60, gainS: 240, seen: 1 };
const IN_A_ROW: ExchangeRule = { offS: 45, eachS: 30, gainS: 90, seen: 3 };

interface Candidate {
  run: Run;
  day: DaySchedule;
  dist: number;
  offset: number;
  score: number;
  matchedBy: MatchSource;
}

/** A candidate found by fit, with how far behind the run's timetable it is at the fix (ms). */
type FitCandidate = Candidate & Pick<FitResult, 'lateness'>;

const covers = (a: Assignment, t: number) => t >= a.from - EARLY_WINDOW_MS && t < a.to;

/** The runs a vehicle's tasks give it at time t, with how it got them. */
export function assignedRuns(state: EngineState, vehicleId: number, t: number): { day: DaySchedule; run: Run; matchedBy: MatchSource }[] {
  const out: { day: DaySchedule; run: Run; matchedBy: MatchSource }[] = [];
  for (const day of state.days) {
    for (const a of day.assignments.get(vehicleId) ?? []) {
      if (!covers(a, t)) continue;
      for (const run of day.blocks.get(a.blockKey)!.runs) out.push({ day, run, matchedBy: a.replacement ? 'replacement' : 'task' });
    }
  }
  return out;
}

function hasTask(state: EngineState, vehicleId: number): boolean {
  return state.days.some((day) => day.assignments.has(vehicleId));
}

/** How well a fix fits a run: null when it is off the run, at its end, or outside its time. */
export function fit(state: EngineState, run: Run, fix: Fix, projection?: Projection): FitResult | null {
  if (state.changes.isCancelled(run.key)) return null;
  if (fix.time < run.start - EARLY_WINDOW_MS || fix.time > run.end + LATE_WINDOW_MS) return null;
  const n = run.dists.length;
  const moving = fix.speed >= MOVING_KMH;
  const p =
    projection && !state.changes.isDetoured(run.key)
      ? projection
      : state.changes.project(run, fix, 0, run.dists[n - 1], moving ? fix.course : null, state.settings.offRouteMeters);
  if (p.offset > state.settings.offRouteMeters) return null;
  // a vehicle moving against the run's direction there is on the other side of the street, not on this run
  if (moving && angleBetween(fix.course, p.course) > AGAINST_DEGREES) return null;
  const radius = Math.min(state.settings.stopRadiusMeters, (run.dists[n - 1] - run.dists[0]) / 4);
  if (p.dist >= run.dists[n - 1] - radius) return null;
  const lateness = fix.time - scheduledTimeAt(run, p.dist);
  if (lateness < -MATCH_EARLY_MS || lateness > MATCH_LATE_MS) return null;
  // waiting at the first stop before departure is what a vehicle does: it costs less than running early
  const waiting = p.dist <= run.dists[0] + radius && lateness < 0;
  return { dist: p.dist, offset: p.offset, lateness: waiting ? lateness / 4 : lateness };
}

function fitScore(offset: number, lateness: number): number {
  return offset / 30 + Math.abs(lateness) / 300_000;
}

/**
 * The run a fix fits best: among the vehicle's own task's runs (never one before the last it finished, the next
 * in turn preferred), else among the day's runs near the position that no other vehicle works (best fit of
 * position and time).
 */
export function bestCandidate(state: EngineState, v: VehicleState, fix: Fix): Candidate | null {
  let best: Candidate | null = null;
  const lastDone = (blockKey: string) => v.completed.get(blockKey) ?? -1;
  for (const { day, run, matchedBy } of assignedRuns(state, v.vehicleId, fix.time)) {
    const done = lastDone(run.blockKey);
    if (run.index <= done || v.completed.has(run.key)) continue;
    const f = fit(state, run, fix);
    if (!f) continue;
    // the next run in turn is the likeliest: after the last it finished, or the first nobody worked yet
    const firstOpen = done >= 0 ? done + 1 : firstUnperformed(state, day, run.blockKey);
    const skipped = Math.max(0, run.index - firstOpen);
    const score = fitScore(f.offset, f.lateness) + skipped * 1.5;
    if (!best || score < best.score) best = { run, day, ...f, score, matchedBy };
  }
  return best ?? bestFit(state, v, fix);
}

/** The run nobody else works near the fix that it fits best (position and time), of one route when told. */
function bestFit(state: EngineState, v: VehicleState, fix: Fix, routeId?: number): FitCandidate | null {
  let best: FitCandidate | null = null;
  const moving = fix.speed >= MOVING_KMH ? fix.course : null;
  const handed = state.changes.handedAwayBy(v.vehicleId);
  for (const day of state.days) {
    for (const runs of day.index.near(fix)) {
      if (!runs.length) continue;
      const shape = runs[0].shape;
      const projection = shape.project(fix, 0, Infinity, moving);
      if (projection.offset > state.settings.offRouteMeters && !runs.some((r) => state.changes.isDetoured(r.key))) continue;
      for (const run of runs) {
        const holder = state.taken.get(run.key);
        if ((holder !== undefined && holder !== v.vehicleId) || v.completed.has(run.key)) continue;
        if (routeId !== undefined && run.routeId !== routeId) continue;
        // an exit handed over from this vehicle (it broke down) is not taken back by where it stands
        const away = handed?.get(run.blockKey);
        if (away !== undefined && fix.time >= away) continue;
        const f = fit(state, run, fix, projection);
        if (!f) continue;
        const score = fitScore(f.offset, f.lateness);
        if (!best || score < best.score) best = { run, day, ...f, score, matchedBy: 'fit' };
      }
    }
  }
  return best;
}

function firstUnperformed(state: EngineState, day: DaySchedule, blockKey: string): number {
  const runs = day.blocks.get(blockKey)!.runs;
  const i = runs.findIndex((run) => !state.performed.has(run.key));
  return i < 0 ? runs.length : i;
}

/** Puts the vehicle on a run at the fix's place on it. */
export function place(state: EngineState, v: VehicleState, c: Candidate, fix: Fix): void {
  if (v.run) state.letGo(v);
  const { run } = c;
  v.run = run;
  v.day = c.day;
  v.matchedBy = c.matchedBy;
  v.otherExit = c.matchedBy === 'fit' && hasTask(state, v.vehicleId);
  v.radii = stopRadii(run, state.settings.stopRadiusMeters);
  v.offRouteSince = null;
  v.offset = c.offset;
  v.point = { time: fix.time, dist: c.dist, speed: fix.speed / 3.6 };
  let next = 0;
  while (next < run.dists.length - 1 && c.dist > run.dists[next] + v.radii[next]) next += 1;
  const inside = Math.abs(c.dist - run.dists[next]) <= v.radii[next];
  v.cursor = { next, atStop: inside ? atStopWhenPlaced(next, v.point) : null };
  v.started = next > 0;
  state.ride(v);
}

/**
 * A vehicle far off its task's run that another vehicle, found there by fit, works too: that one was sent to this
 * exit, and this one to another of the route (the exits of a day's exchange need not be neighbours). It is looked
 * for on the route's runs nobody works, and moved when one is nearer its timetable by the exchange's margin.
 */
function leaveSharedRun(state: EngineState, v: VehicleState): boolean {
  const mine = v.run!;
  // the other works the run: it set off on it and keeps its time (not a vehicle on its way from the depot crossing it)
  const worksIt = (w: VehicleState) =>
    w !== v && w.run === mine && w.matchedBy === 'fit' && w.started && Math.abs(w.deviation ?? Infinity) <= SHARED_ON_TIME_S;
  if (![...(state.onRoute.get(mine.routeId) ?? [])].some(worksIt)) return false;
  const other = bestFit(state, v, v.last!, mine.routeId);
  if (!other || other.run === mine || Math.abs(v.deviation!) - Math.abs(other.lateness) / 1000 < AT_ONCE.gainS) return false;
  place(state, v, other, v.last!);
  return true;
}

/**
 * Two vehicles of a route each off the timetable of its own task's run, each on time for the other's: they were
 * sent to each other's exits (a dispatcher's exchange the tasks do not show). Looked at when a vehicle so far off
 * leaves a stop; once the rule holds (ExchangeRule), both are followed on the exit they work, as found by fit.
 */
export function exchangeExits(state: EngineState, v: VehicleState): void {
  // a vehicle followed by fit already works the exit it was found on
  const off = v.run && v.last && v.matchedBy !== 'fit' && v.deviation !== null ? Math.abs(v.deviation) : 0;
  const found = off >= IN_A_ROW.offS && !(off >= AT_ONCE.offS && leaveSharedRun(state, v)) ? exchangePartner(state, v) : null;
  if (!found) {
    v.exchange = null;
    return;
  }
  const { w, onTheirs, onMine, rule } = found;
  const seen = v.exchange?.partner === w.vehicleId ? v.exchange.seen + 1 : 1;
  v.exchange = { partner: w.vehicleId, seen };
  if (seen < rule.seen) return;
  v.exchange = w.exchange = null;
  const [mine, theirs, theirDay, myDay] = [v.run!, w.run!, w.day!, v.day!];
  place(state, v, { run: theirs, day: theirDay, ...onTheirs, score: 0, matchedBy: 'fit' }, v.last!);
  place(state, w, { run: mine, day: myDay, ...onMine, score: 0, matchedBy: 'fit' }, w.last!);
  updateDeviation(w, w.last!.time);
  evaluateVehicle(state, w, w.last!.time);
}

/** A pair's figures (s) against a rule: the nearer of the two to its own timetable, the smaller gain, both gains. */
const meets = (rule: ExchangeRule, off: number, each: number, gain: number) => off >= rule.offS && each >= rule.eachS && gain >= rule.gainS;

/** The vehicle of the route on another task's exit that this one (on its task's run, off it) fits best exchanged with, and by which rule. */
function exchangePartner(state: EngineState, v: VehicleState) {
  const [mine, last, deviation] = [v.run!, v.last!, v.deviation!];
  let best: { w: VehicleState; onTheirs: FitResult; onMine: FitResult; gain: number; rule: ExchangeRule } | null = null;
  for (const w of state.onRoute.get(mine.routeId) ?? []) {
    const theirs = w.run;
    if (
      w === v ||
      !theirs ||
      !w.last ||
      theirs.blockKey === mine.blockKey ||
      w.matchedBy === 'fit' ||
      w.deviation === null ||
      Math.abs(w.deviation) < IN_A_ROW.offS
    )
      continue;
    const onTheirs = fit(state, theirs, last);
    const onMine = onTheirs && fit(state, mine, w.last);
    if (!onTheirs || !onMine) continue;
    // each must fit the other's run better than its own: one far early and one late in a bunch only add up
    const mineGain = Math.abs(deviation) - Math.abs(onTheirs.lateness) / 1000;
    const theirGain = Math.abs(w.deviation) - Math.abs(onMine.lateness) / 1000;
    const [off, each, gain] = [Math.min(Math.abs(deviation), Math.abs(w.deviation)), Math.min(mineGain, theirGain), mineGain + theirGain];
    if (!meets(IN_A_ROW, off, each, gain) || (best && gain <= best.gain)) continue;
    best = { w, onTheirs, onMine, gain, rule: meets(AT_ONCE, off, each, gain) ? AT_ONCE : IN_A_ROW };
  }
  return best;
}
