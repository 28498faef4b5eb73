import { operatorMinuteOfDay } from '../platform/operatorDay';
import type { EngineState } from './engineState';
import type { VehicleState } from './engineTypes';
import type { Trajectory } from './geometry';
import type { RunPoint } from './passages';
import { travelTime } from './predictions';
import { scheduledHeadway, scheduledTimeAt } from './schedule';

/** Hysteresis of the deviation and headway exceptions: cleared this far inside the threshold. */
const CLEAR_MARGIN_S = 30;
const CLEAR_MARGIN_PERCENT = 10;

/** Seconds behind the timetable at `now`: between stops by the scheduled time at the vehicle's place, kept
 *  current without fixes (a vehicle that has not reached a stop due a while ago is at least that late). */
export function updateDeviation(v: VehicleState, now: number): void {
  const run = v.run;
  if (!run || !v.point) {
    v.deviation = null;
    return;
  }
  const i = v.cursor.next;
  let late: number;
  if (!v.started) late = Math.max(0, now - run.times[0]);
  else if (v.cursor.atStop) late = Math.max(0, now - run.times[i]);
  else late = v.point.time - scheduledTimeAt(run, v.point.dist);
  if (i < run.times.length && now > run.times[i] && !v.cursor.atStop) late = Math.max(late, now - run.times[i]);
  v.deviation = Math.round(late / 1000);
}

export function evaluateVehicle(state: EngineState, v: VehicleState, now: number): void {
  const s = state.settings;
  const base = { vehicleId: v.vehicleId, routeId: v.run?.routeId ?? null, runKey: v.run?.key ?? null, blockKey: v.run?.blockKey ?? null };
  const d = v.deviation;
  const inService = v.run !== null && (v.started || now > v.run.start);
  if (inService && d !== null && d > s.lateSeconds) state.exceptions.raise({ kind: 'late', ...base, value: d }, now);
  else if (!inService || d === null || d < s.lateSeconds - CLEAR_MARGIN_S) state.exceptions.clear(`late|v${v.vehicleId}`, now);
  if (inService && d !== null && d < -s.earlySeconds) state.exceptions.raise({ kind: 'early', ...base, value: d }, now);
  else if (!inService || d === null || d > -s.earlySeconds + CLEAR_MARGIN_S) state.exceptions.clear(`early|v${v.vehicleId}`, now);
  if (v.run && v.started && v.offRouteSince !== null && now - v.offRouteSince >= s.offRouteSeconds * 1000) {
    state.exceptions.raise(
      { kind: 'off_route', ...base, value: v.last ? Math.round(v.run.shape.project(v.last).offset) : null },
      v.offRouteSince,
    );
  }
}

/**
 * Headways kept current between stops: the vehicles out on one trajectory (a route's direction) in order along
 * it, each follower's headway is when it will reach its leader's place less when the leader was last there.
 */
export function updateHeadways(state: EngineState, now: number): void {
  const byShape = new Map<Trajectory, VehicleState[]>();
  for (const v of state.vehicles.values()) {
    if (!v.run || !v.point || !v.started) continue;
    const list = byShape.get(v.run.shape);
    if (list) list.push(v);
    else byShape.set(v.run.shape, [v]);
  }
  for (const list of byShape.values()) {
    if (list.length < 2) continue;
    list.sort((a, b) => b.point!.dist - a.point!.dist);
    for (let i = 1; i < list.length; i++) {
      // side by side there is no order between them
      if (list[i - 1].point!.dist <= list[i].point!.dist) continue;
      estimateHeadway(state, list[i], list[i - 1].point!, now);
      evaluateHeadway(state, list[i], now);
    }
  }
}

/** The nearest vehicle ahead on the same trajectory, out on its run. */
export function leaderOf(state: EngineState, v: VehicleState): RunPoint | null {
  let leader: RunPoint | null = null;
  for (const w of state.onRoute.get(v.run!.routeId) ?? []) {
    if (w === v || !w.started || !w.point || w.run?.shape !== v.run!.shape || w.point.dist <= v.point!.dist) continue;
    if (!leader || w.point.dist < leader.dist) leader = w.point;
  }
  return leader;
}

/**
 * A follower's headway from where it is: when it will reach its leader's place (its dwell at the stop it stands
 * at, then the learned run and dwell times, else the timetable's) less when the leader was there.
 */
export function estimateHeadway(state: EngineState, v: VehicleState, leader: RunPoint, now: number): void {
  const run = v.run!;
  const point = v.point!;
  const hour = Math.floor(operatorMinuteOfDay(now, state.tzOffsetMinutes) / 60);
  const at = v.cursor.atStop;
  const dwell = at ? (state.learned.dwell(run.stopIds[v.cursor.next], run.dayType, hour) ?? 0) : 0;
  const leaves = at ? Math.max(now, (at.arrival ?? point.time) + dwell) : point.time;
  const reach = Math.max(now, leaves + travelTime(run, point.dist, leader.dist, state.learned, hour));
  v.headway = Math.round((reach - leader.time) / 1000);
  const scheduled = v.day ? scheduledHeadway(v.day, run, Math.min(v.cursor.next, run.stopIds.length - 1)) : null;
  v.scheduledHeadway = scheduled === null ? null : Math.round(scheduled / 1000);
}

export function evaluateHeadway(state: EngineState, v: VehicleState, at: number): void {
  const s = state.settings;
  const base = {
    vehicleId: v.vehicleId,
    routeId: v.run?.routeId ?? null,
    runKey: v.run?.key ?? null,
    blockKey: v.run?.blockKey ?? null,
    value: v.headway,
  };
  if (v.headway === null || !v.scheduledHeadway) return;
  const share = (v.headway / v.scheduledHeadway) * 100;
  if (share < s.bunchingPercent) state.exceptions.raise({ kind: 'bunching', ...base }, at);
  else if (share >= s.bunchingPercent + CLEAR_MARGIN_PERCENT) state.exceptions.clear(`bunching|v${v.vehicleId}`, at);
  if (share > s.gapPercent) state.exceptions.raise({ kind: 'gap', ...base }, at);
  else if (share <= s.gapPercent - CLEAR_MARGIN_PERCENT) state.exceptions.clear(`gap|v${v.vehicleId}`, at);
}
