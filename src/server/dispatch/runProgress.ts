import { estimateHeadway, evaluateHeadway, leaderOf } from './adherence';
import type { EngineState } from './engineState';
import type { Fix, PassageRecord, VehicleState } from './engineTypes';
import { assignedRuns, fit, MOVING_KMH, place } from './matching';
import { detectPassages, STILL_MS, type RunPoint } from './passages';
import { scheduledHeadway } from './schedule';

/** A new fix is looked for this far behind the last point (GPS noise) and at most this fast ahead of it. */
const BACK_M = 60;
const MAX_SPEED_MS = 30;
const KEPT_PASSAGES = 80;

/** Progress along the current run; false when the fix is off it. */
export function advance(state: EngineState, v: VehicleState, fix: Fix): boolean {
  const run = v.run!;
  const prev = v.point!;
  const dt = Math.max(0, fix.time - prev.time);
  const course = fix.speed >= MOVING_KMH ? fix.course : null;
  const projection = state.changes.project(
    run,
    fix,
    prev.dist - BACK_M,
    prev.dist + Math.max(300, (dt / 1000) * MAX_SPEED_MS),
    course,
    state.settings.offRouteMeters,
  );
  if (projection.offset > state.settings.offRouteMeters) return false;
  v.offRouteSince = null;
  state.exceptions.clear(`off_route|v${v.vehicleId}`, fix.time);
  v.offset = projection.offset;
  // noise backwards is not the vehicle reversing
  const point: RunPoint = { time: fix.time, dist: Math.max(prev.dist, projection.dist), speed: fix.speed / 3.6 };
  const found = detectPassages(run, v.radii!, v.cursor, prev, point);
  v.point = point;
  for (const p of found) onPassage(state, v, { vehicleId: v.vehicleId, run, ...p });
  if (v.cursor.next >= run.stopIds.length) finishRun(state, v, fix);
  return true;
}

/**
 * Off the run within the last stop's radius (a terminus stand off the line, away to the depot): the run ends
 * there, arrived when it stood or, moving in, when it would have reached the stop.
 */
export function leaveAtLastStop(state: EngineState, v: VehicleState, fix: Fix): boolean {
  const run = v.run!;
  const at = v.cursor.atStop;
  const last = run.dists.length - 1;
  if (!at || v.cursor.next !== last) return false;
  const { inside } = at;
  const arrival =
    at.arrival ??
    (inside.speed >= STILL_MS
      ? Math.min(fix.time, inside.time + (Math.max(0, run.dists[last] - inside.dist) / inside.speed) * 1000)
      : inside.time);
  v.cursor = { next: last + 1, atStop: null };
  onPassage(state, v, { vehicleId: v.vehicleId, run, stopIndex: last, arrival, departure: null, interpolated: false });
  finishRun(state, v, fix);
  return true;
}

function onPassage(state: EngineState, v: VehicleState, p: PassageRecord): void {
  const run = p.run;
  // a closed stop expects no passage: a vehicle driving by is neither stored there nor judged there
  if (state.changes.closedStops(run.key).has(p.stopIndex) && p.stopIndex < run.stopIds.length - 1) return;
  state.passagesOut.push(p);
  v.passages.push(p);
  if (v.passages.length > KEPT_PASSAGES) v.passages.splice(0, v.passages.length - KEPT_PASSAGES);
  if (!state.performed.has(run.key)) {
    state.performed.add(run.key);
    if (state.missed.delete(run.key)) state.exceptions.clear(`run_not_performed|${run.key}`, p.departure ?? p.arrival ?? Date.now());
  }
  if (p.stopIndex === 0 && p.departure !== null) v.started = true;
  if (p.departure !== null || p.stopIndex > 0) {
    v.started = true;
    if (!state.startedBlocks.has(run.blockKey)) {
      state.startedBlocks.add(run.blockKey);
      state.exceptions.clear(`exit_not_started|${run.blockKey}`, p.departure ?? p.arrival ?? Date.now());
    }
  }
  const time = p.departure ?? p.arrival;
  if (time === null) return;
  v.deviation = Math.round((time - run.times[p.stopIndex]) / 1000);
  if (p.departure !== null) state.departed = v;
  // headway: the last departure of another vehicle of the route and direction from this stop
  const key = `${run.routeId}|${run.direction}|${run.stopIds[p.stopIndex]}`;
  const ahead = state.lastPass.get(key);
  if (!ahead || time > ahead.time) state.lastPass.set(key, { vehicleId: v.vehicleId, time });
  const measured = ahead !== undefined && ahead.vehicleId !== v.vehicleId && time >= ahead.time;
  if (measured) {
    v.headway = Math.round((time - ahead.time) / 1000);
    const scheduled = v.day ? scheduledHeadway(v.day, run, p.stopIndex) : null;
    v.scheduledHeadway = scheduled === null ? null : Math.round(scheduled / 1000);
  }
  // a leader still on the trajectory ahead says what the headway is now (it may have stopped since it left here)
  const leader = p.departure !== null && v.run === run && v.point ? leaderOf(state, v) : null;
  if (leader) estimateHeadway(state, v, leader, v.point!.time);
  if (measured || leader) evaluateHeadway(state, v, time);
}

/** The last stop reached: the next run of the block follows at once (its first stop is where the vehicle stands). */
function finishRun(state: EngineState, v: VehicleState, fix: Fix): void {
  const run = v.run!;
  v.completed.set(run.key, run.index);
  v.completed.set(run.blockKey, Math.max(run.index, v.completed.get(run.blockKey) ?? -1));
  state.letGo(v);
  const block = v.day?.blocks.get(run.blockKey);
  const following = block?.runs[run.index + 1];
  // a cancelled next run is not waited for: the vehicle is matched again by where it goes
  const stillMine =
    following &&
    !state.changes.isCancelled(following.key) &&
    (v.matchedBy === 'fit' || assignedRuns(state, v.vehicleId, following.start).some((a) => a.run === following));
  v.run = null;
  v.started = false;
  if (following && stillMine && v.day) {
    const f = fit(state, following, fix);
    place(
      state,
      v,
      {
        run: following,
        day: v.day,
        dist: f?.dist ?? following.dists[0],
        offset: f?.offset ?? v.offset ?? 0,
        score: 0,
        matchedBy: v.matchedBy!,
      },
      fix,
    );
  } else {
    state.release(v, fix.time);
  }
}
