import { evaluateVehicle, updateDeviation, updateHeadways } from './adherence';
import type { EngineState } from './engineState';
import { DRIVER_MESSAGE_MS } from './exceptions';

/** A vehicle silent this long is let go of its run. */
const FORGET_MS = 2 * 3_600_000;

/**
 * The time-driven rules (the engine's tick): vehicles silent too long, deviation and headways kept current between
 * fixes, drivers' messages expired, exits not started, runs not performed.
 */
export function applyTimeRules(state: EngineState, now: number): void {
  const s = state.settings;
  for (const v of state.vehicles.values()) {
    if (!v.run || !v.last) continue;
    const silent = now - v.last.time;
    if (silent >= FORGET_MS) {
      state.release(v, now);
      continue;
    }
    if (silent >= s.noSignalSeconds * 1000) {
      state.exceptions.raise(
        {
          kind: 'no_signal',
          vehicleId: v.vehicleId,
          routeId: v.run.routeId,
          runKey: v.run.key,
          blockKey: v.run.blockKey,
          value: Math.round(silent / 1000),
        },
        now - silent,
      );
    }
    updateDeviation(v, now);
    evaluateVehicle(state, v, now);
  }
  updateHeadways(state, now);
  for (const e of [...state.exceptions.values()])
    if (e.kind === 'driver_message' && now - e.since >= DRIVER_MESSAGE_MS) state.exceptions.clear(e.key, now);
  checkExitsAndRuns(state, now);
}

/** Exits not started and runs not performed, by the days' assignments. */
function checkExitsAndRuns(state: EngineState, now: number): void {
  const s = state.settings;
  for (const day of state.days) {
    for (const [vehicleId, list] of day.assignments) {
      for (const a of list) {
        const block = day.blocks.get(a.blockKey)!;
        const key = `exit_not_started|${block.key}`;
        // an exit starts with its first run not cancelled; one whose runs are all cancelled is not expected
        const first = block.runs.find((run) => !state.changes.isCancelled(run.key));
        const due = (first?.start ?? block.start) + s.exitStartSeconds * 1000;
        // a vehicle already out on the exit (set off, or on a later run: a process started mid-day, whose stored
        // passages do not cover the hours it was down) has started it before its first passage is seen
        const on = state.vehicles.get(vehicleId);
        const out = on?.run?.blockKey === block.key && (on.started || on.run.key !== first?.key);
        if (!first || a.replacement || out || state.startedBlocks.has(block.key) || now >= block.end || now < due)
          state.exceptions.clear(key, now);
        else
          state.exceptions.raise(
            {
              kind: 'exit_not_started',
              vehicleId,
              routeId: block.routeId,
              blockKey: block.key,
              runKey: first.key,
              value: Math.round((now - first.start) / 1000),
            },
            due,
            key,
          );
        for (const run of block.runs) {
          if (state.changes.isCancelled(run.key)) continue;
          const missedAt = run.end + s.runMissedSeconds * 1000;
          if (state.performed.has(run.key)) {
            if (state.missed.delete(run.key)) state.exceptions.clear(`run_not_performed|${run.key}`, now);
          } else if (now >= missedAt && run.end >= state.watchingSince && !state.missed.has(run.key)) {
            state.missed.add(run.key);
            state.exceptions.raise(
              {
                kind: 'run_not_performed',
                vehicleId: a.replacement || a.to > run.start ? vehicleId : null,
                routeId: run.routeId,
                blockKey: block.key,
                runKey: run.key,
                value: null,
              },
              missedAt,
              `run_not_performed|${run.key}`,
            );
          }
        }
      }
    }
  }
}
