import { operatorMinuteOfDay } from '../platform/operatorDay';
import { evaluateVehicle, updateDeviation } from './adherence';
import { EngineState } from './engineState';
import type {
  DayChanges,
  DispatchException,
  EngineSettings,
  ExceptionEvent,
  Fix,
  PassageRecord,
  RunChange,
  VehicleState,
} from './engineTypes';
import { assignedRuns, bestCandidate, exchangeExits, place } from './matching';
import { stopRadii } from './passages';
import { LearnedTimes, predictArrivals, type StopPrediction } from './predictions';
import { advance, leaveAtLastStop } from './runProgress';
import type { DaySchedule, Run } from './schedule';
import { applyTimeRules } from './timeRules';

export const PREDICTION_HORIZON_MS = 3_600_000;

/**
 * The live timetable's engine (DESIGN.md "The live timetable"): one state per vehicle and stages over it,
 * TheTransitClock's shape. A fix goes through matching (its task's runs first, else the best fit of position and
 * time), progress along the run's trajectory, stop passages, adherence, headways and exceptions; `tick` keeps
 * the time-driven parts current (deviation between stops, no signal, exits not started, runs not performed).
 * No database here: the service feeds it and stores what it drains.
 */
export class DispatchEngine {
  private readonly core: EngineState;
  /** Counts the service changes read: what is built of them (the TripUpdates feed) is made again. */
  changesRevision = 0;

  constructor(
    settings: EngineSettings,
    tzOffsetMinutes: number,
    learned: LearnedTimes = new LearnedTimes(),
    /** Runs ending before this are not reported as not performed (the engine was not watching). */
    watchingSince = -Infinity,
  ) {
    this.core = new EngineState(settings, tzOffsetMinutes, learned, watchingSince);
  }

  get learned(): LearnedTimes {
    return this.core.learned;
  }

  set learned(learned: LearnedTimes) {
    this.core.learned = learned;
  }

  setSettings(settings: EngineSettings): void {
    this.core.settings = settings;
  }

  get thresholds(): Readonly<EngineSettings> {
    return this.core.settings;
  }

  exception(key: string): DispatchException | undefined {
    return this.core.exceptions.get(key);
  }

  /** The service days in force (yesterday's runs past midnight and today's). */
  setDays(days: DaySchedule[]): void {
    const core = this.core;
    core.days = days;
    this.releaseOn(core.changes.apply(days), Date.now());
    this.rebindRuns(Date.now());
    const keep = new Set(days.map((d) => d.serviceDate));
    for (const set of [core.performed, core.startedBlocks]) for (const key of set) if (!keep.has(key.slice(0, 10))) set.delete(key);
    for (const ex of core.exceptions.values()) {
      const subject = ex.blockKey ?? ex.runKey;
      if (subject && !keep.has(subject.slice(0, 10))) core.exceptions.clear(ex.key, Date.now());
    }
  }

  /** The vehicles on runs taken out of the days are let go. */
  private releaseOn(runs: readonly Run[], at: number): void {
    for (const run of runs) for (const v of this.core.vehicles.values()) if (v.run === run) this.core.release(v, at);
  }

  /**
   * The days read again (an import or a handbook edit changed the timetable): a vehicle on a run the new days still
   * hold with the same stops goes on with it where it is; one whose run is gone or changed its stops is let go and
   * matched afresh at its next fix.
   */
  private rebindRuns(at: number): void {
    const core = this.core;
    const dayOf = (run: Run) => core.days.find((d) => d.serviceDate === run.serviceDate);
    for (const v of core.vehicles.values()) {
      // the last passages name their runs as the new days hold them: a run of the old days would keep its whole day in memory
      v.passages = v.passages.flatMap((p) => {
        const run = dayOf(p.run)?.runByKey.get(p.run.key);
        return run === p.run ? [p] : run ? [{ ...p, run }] : [];
      });
      if (!v.run) continue;
      const day = dayOf(v.run);
      const run = day?.runByKey.get(v.run.key);
      if (run === v.run) continue;
      if (!day || !run || run.stopIds.join() !== v.run.stopIds.join()) {
        core.release(v, at);
        continue;
      }
      core.letGo(v);
      v.run = run;
      v.day = day;
      v.radii = stopRadii(run, core.settings.stopRadiusMeters);
      core.ride(v);
    }
  }

  /** What the stored passages say was done before a restart: runs with passages, blocks that started. */
  restore(performedRuns: Iterable<string>, startedBlocks: Iterable<string>): void {
    for (const key of performedRuns) this.core.performed.add(key);
    for (const key of startedBlocks) this.core.startedBlocks.add(key);
  }

  /**
   * The service changes in force (run key → change): a cancelled run is not expected (never matched, never
   * reported not performed, an exit whose runs are all cancelled not reported not started); a moved run's
   * scheduled times are shifted, so its adherence is judged against the new start.
   */
  setServiceChanges(changes: ReadonlyMap<string, RunChange>, dayChanges: DayChanges = { handovers: [], added: [] }): void {
    const now = Date.now();
    this.changesRevision += 1;
    const core = this.core;
    const touched = new Set([...core.changes.handovers, ...dayChanges.handovers].map((h) => h.blockKey));
    core.changes.set(changes, dayChanges);
    this.releaseOn(core.changes.apply(core.days), now);
    // an exit handed over (or given back): who works it now is the assignments' word, not a former match
    for (const v of core.vehicles.values()) {
      if (!v.run || !touched.has(v.run.blockKey) || v.matchedBy === 'fit') continue;
      if (!assignedRuns(core, v.vehicleId, now).some((a) => a.run === v.run)) core.release(v, now);
    }
    for (const v of core.vehicles.values())
      if (v.run && v.matchedBy === 'fit' && core.changes.handedAwayBy(v.vehicleId)?.has(v.run.blockKey)) core.release(v, now);
    // a vehicle waiting for a run now cancelled is no longer on it (one already driving it goes on to its end)
    for (const v of core.vehicles.values()) if (v.run && !v.started && core.changes.isCancelled(v.run.key)) core.release(v, now);
    for (const key of [...core.missed]) {
      if (!core.changes.isCancelled(key)) continue;
      core.missed.delete(key);
      core.exceptions.clear(`run_not_performed|${key}`, now);
    }
  }

  isCancelled(runKey: string): boolean {
    return this.core.changes.isCancelled(runKey);
  }

  /** The run keys cancelled today (those of the days held). */
  cancelledRuns(): string[] {
    return this.core.changes.cancelledRuns();
  }

  /** The run's timetable as loaded, before a move. */
  plannedTimes(run: Run): { start: number; end: number } {
    return this.core.changes.plannedTimes(run);
  }

  /** The indexes of a run's stops closed for it (no passage expected, none predicted). */
  closedStops(runKey: string): ReadonlySet<number> {
    return this.core.changes.closedStops(runKey);
  }

  /**
   * The stops of a route's direction closed at `now` by the changes in force: closed stops, and the stops a detour
   * skips on `stopIds` (a direction's line).
   */
  closedStopsNow(routeId: number, direction: number, stopIds: readonly number[], now: number): Set<number> {
    return this.core.changes.closedStopsNow(routeId, direction, stopIds, now);
  }

  /** The run follows a detour's path somewhere. */
  isDetoured(runKey: string): boolean {
    return this.core.changes.isDetoured(runKey);
  }

  /** The added runs of the days held. */
  addedRunList(): Run[] {
    return this.core.changes.addedRunList();
  }

  /**
   * A driver's message from the terminal: an exception on the board for DRIVER_MESSAGE_MS (the vehicle's run
   * named when it has one), keyed by the message.
   */
  driverMessage(id: number, vehicleId: number, text: string, at: number): void {
    const run = this.core.vehicles.get(vehicleId)?.run ?? null;
    this.core.exceptions.raise(
      {
        kind: 'driver_message',
        vehicleId,
        routeId: run?.routeId ?? null,
        blockKey: run?.blockKey ?? null,
        runKey: run?.key ?? null,
        value: null,
        text,
      },
      at,
      `driver_message|m${id}`,
    );
  }

  get schedules(): readonly DaySchedule[] {
    return this.core.days;
  }

  state(vehicleId: number): VehicleState | undefined {
    return this.core.vehicles.get(vehicleId);
  }

  states(): IterableIterator<VehicleState> {
    return this.core.vehicles.values();
  }

  exceptions(): IterableIterator<DispatchException> {
    return this.core.exceptions.values();
  }

  /** Passages and exception events since the last drain. */
  drain(): { passages: PassageRecord[]; events: ExceptionEvent[] } {
    const out = { passages: this.core.passagesOut, events: this.core.exceptions.drain() };
    this.core.passagesOut = [];
    return out;
  }

  /** One position of one vehicle through every stage. */
  onFix(vehicleId: number, fix: Fix): void {
    const core = this.core;
    const v = core.vehicle(vehicleId);
    if (v.last && fix.time <= v.last.time) return;
    if (!fix.valid) {
      // a receiver without a fix still reports: the vehicle has a signal, not a position
      if (v.last) v.last = { ...v.last, time: fix.time };
      core.exceptions.clear(`no_signal|v${vehicleId}`, fix.time);
      return;
    }
    v.last = fix;
    core.exceptions.clear(`no_signal|v${vehicleId}`, fix.time);

    if (v.run && !advance(core, v, fix) && !leaveAtLastStop(core, v, fix)) {
      v.offRouteSince ??= fix.time;
      const offFor = fix.time - v.offRouteSince;
      // Off the current run: another may fit better (a vehicle sent to another exit, a wrong first guess).
      const other = bestCandidate(core, v, fix);
      if (other && other.run !== v.run && (!v.started || offFor >= core.settings.offRouteSeconds * 1000)) place(core, v, other, fix);
      else if (!v.started && offFor >= core.settings.offRouteSeconds * 1000) core.release(v, fix.time);
    } else if (!v.run) {
      const candidate = bestCandidate(core, v, fix);
      if (candidate) place(core, v, candidate, fix);
    }
    if (core.departed === v) exchangeExits(core, v);
    core.departed = null;
    updateDeviation(v, fix.time);
    evaluateVehicle(core, v, fix.time);
  }

  /** Time-driven rules; the service calls it every few seconds. */
  tick(now: number): void {
    applyTimeRules(this.core, now);
  }

  /** Predicted arrivals at the stops ahead of a vehicle within the horizon (the rest of its run, then its block's next runs). */
  predictions(vehicleId: number, now: number, horizonMs = PREDICTION_HORIZON_MS): StopPrediction[] {
    const core = this.core;
    const v = core.vehicles.get(vehicleId);
    if (!v?.run || !v.point) return [];
    const run = v.run;
    const block = v.day?.blocks.get(run.blockKey);
    const following = block ? block.runs.slice(run.index + 1) : [];
    const all = predictArrivals(
      {
        run,
        next: v.cursor.next,
        dist: v.point.dist,
        dwellingSince: v.cursor.atStop ? (v.cursor.atStop.arrival ?? v.point.time) : null,
        deviation: v.deviation ?? 0,
      },
      following,
      core.learned,
      now,
      horizonMs,
      (t) => Math.floor(operatorMinuteOfDay(t, core.tzOffsetMinutes) / 60),
    );
    return core.changes.anyClosed ? all.filter((p) => !core.changes.closedStops(p.run.key).has(p.stopIndex)) : all;
  }
}
