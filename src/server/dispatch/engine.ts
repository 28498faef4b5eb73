import { operatorMinuteOfDay } from '../platform/operatorDay';
import type { LatLon } from '../simulator/polyline';
import type {
  DayChanges,
  DispatchException,
  EngineSettings,
  ExceptionEvent,
  Fix,
  MatchSource,
  PassageRecord,
  RunChange,
  VehicleState,
} from './engineTypes';
import { AGAINST_DEGREES, angleBetween, Trajectory, type Projection } from './geometry';
import { atStopWhenPlaced, detectPassages, STILL_MS, stopRadii, type RunPoint } from './passages';
import { LearnedTimes, predictArrivals, travelTime, type StopPrediction } from './predictions';
import { scheduledHeadway, scheduledTimeAt, type Assignment, type DaySchedule, type Run } from './schedule';

/** A run on a detour: the detour's path stands for its trajectory between the distances of two of its stops. */
interface RunDetour {
  path: Trajectory;
  fromDist: number;
  toDist: number;
}

/** A driver's message stays on the board this long. */
export const DRIVER_MESSAGE_MS = 3_600_000;

/** A run is looked for this long before its first departure and after its last arrival. */
const EARLY_WINDOW_MS = 40 * 60_000;
const LATE_WINDOW_MS = 120 * 60_000;
/** How far ahead of or behind its timetable a vehicle may be to be matched to a run at all. */
const MATCH_EARLY_MS = 20 * 60_000;
const MATCH_LATE_MS = 100 * 60_000;
/** A new fix is looked for this far behind the last point (GPS noise) and at most this fast ahead of it. */
const BACK_M = 60;
const MAX_SPEED_MS = 30;
/** Moving: below this the receiver's course is noise. */
const MOVING_KMH = 3;

/** A vehicle silent this long is let go of its run. */
const FORGET_MS = 2 * 3_600_000;
const KEPT_PASSAGES = 80;
/** Hysteresis of the deviation and headway exceptions: cleared this far inside the threshold. */
const CLEAR_MARGIN_S = 30;
const CLEAR_MARGIN_PERCENT = 10;
export const PREDICTION_HORIZON_MS = 3_600_000;

/** Where a fix falls on a run and how far off its timetable (ms, waiting at the first stop counted a quarter). */
interface FitResult {
  dist: number;
  offset: number;
  lateness: number;
}

/** A vehicle this far off its task's timetable looks for a partner it may have swapped exits with, and the swap must gain this much (s). */
const EXCHANGE_S = 180;
const EXCHANGE_GAIN_S = 240;
/** …and each of the two must gain at least this much (s). */
const EXCHANGE_EACH_S = 60;

interface Candidate {
  run: Run;
  day: DaySchedule;
  dist: number;
  offset: number;
  score: number;
  matchedBy: MatchSource;
}

/**
 * The live timetable's engine (DESIGN.md "The live timetable"): one state per vehicle and stages over it,
 * TheTransitClock's shape. A fix goes through matching (its task's runs first, else the best fit of position and
 * time), progress along the run's trajectory, stop passages, adherence, headways and exceptions; `tick` keeps
 * the time-driven parts current (deviation between stops, no signal, exits not started, runs not performed).
 * No database here: the service feeds it and stores what it drains.
 */
export class DispatchEngine {
  private days: DaySchedule[] = [];
  private readonly vehicles = new Map<number, VehicleState>();
  /** Run key → the vehicle working it. */
  private readonly taken = new Map<string, number>();
  /** Route → the vehicles on its runs: the partners of an exchange of exits. */
  private readonly onRoute = new Map<number, Set<VehicleState>>();
  private readonly performed = new Set<string>();
  /** Runs whose `run_not_performed` is raised: the rest are not looked at again each tick. */
  private readonly missed = new Set<string>();
  private readonly startedBlocks = new Set<string>();
  /** `route|direction|stop` → the last departure there: the vehicle ahead for headways. */
  private readonly lastPass = new Map<string, { vehicleId: number; time: number }>();
  private readonly active = new Map<string, DispatchException>();
  private passagesOut: PassageRecord[] = [];
  /** The vehicle of the fix in hand left a stop: it may have swapped exits (looked at once the fix is through). */
  private departed: VehicleState | null = null;
  private eventsOut: ExceptionEvent[] = [];
  /** The day's service changes by run key, and each moved run's timetable as loaded (to move it again or back). */
  private changes: ReadonlyMap<string, RunChange> = new Map();
  private readonly baseTimes = new WeakMap<Run, { times: Float64Array; start: number; end: number }>();
  private dayChanges: DayChanges = { handovers: [], added: [] };
  /** The added runs in the days held, by key, and the index entry each was put in (emptied when removed). */
  private readonly addedRuns = new Map<string, { run: Run; day: DaySchedule; entry: Run[] }>();
  /** Each day's assignments as loaded (tasks and the handbook's replacements), before handovers and added runs. */
  private readonly baseAssignments = new WeakMap<DaySchedule, Map<number, Assignment[]>>();
  /** Vehicle → the blocks it handed over and from when: not matched to them again. */
  private handedAway = new Map<number, Map<string, number>>();
  /** Run key → the indexes of its stops closed for it (closed stops, the stops a detour skips). */
  private closedAt = new Map<string, Set<number>>();
  /** Run key → its detour; the trajectory index entries of the detours' paths (emptied when they change). */
  private detoured = new Map<string, RunDetour>();
  private detourEntries: Run[][] = [];
  /** Counts the service changes read: what is built of them (the TripUpdates feed) is made again. */
  changesRevision = 0;

  constructor(
    private settings: EngineSettings,
    private readonly tzOffsetMinutes: number,
    public learned: LearnedTimes = new LearnedTimes(),
    /** Runs ending before this are not reported as not performed (the engine was not watching). */
    private watchingSince = -Infinity,
  ) {}

  setSettings(settings: EngineSettings): void {
    this.settings = settings;
  }

  get thresholds(): Readonly<EngineSettings> {
    return this.settings;
  }

  exception(key: string): DispatchException | undefined {
    return this.active.get(key);
  }

  /** The service days in force (yesterday's runs past midnight and today's). */
  setDays(days: DaySchedule[]): void {
    this.days = days;
    this.applyAdded(Date.now());
    this.applyChanges();
    this.applyAssignments();
    this.applyClosures();
    this.rebindRuns(Date.now());
    const keep = new Set(days.map((d) => d.serviceDate));
    for (const set of [this.performed, this.startedBlocks]) for (const key of set) if (!keep.has(key.slice(0, 10))) set.delete(key);
    for (const [key, ex] of this.active) {
      const subject = ex.blockKey ?? ex.runKey;
      if (subject && !keep.has(subject.slice(0, 10))) this.clear(key, Date.now());
    }
  }

  /**
   * The days read again (an import or a handbook edit changed the timetable): a vehicle on a run the new days still
   * hold with the same stops goes on with it where it is; one whose run is gone or changed its stops is let go and
   * matched afresh at its next fix.
   */
  private rebindRuns(at: number): void {
    for (const v of this.vehicles.values()) {
      if (!v.run) continue;
      const day = this.days.find((d) => d.serviceDate === v.run!.serviceDate);
      const run = day?.runByKey.get(v.run.key);
      if (run === v.run) continue;
      if (!day || !run || run.stopIds.join() !== v.run.stopIds.join()) {
        this.release(v, at);
        continue;
      }
      this.letGo(v);
      v.run = run;
      v.day = day;
      v.radii = stopRadii(run, this.settings.stopRadiusMeters);
      this.ride(v);
    }
  }

  /** What the stored passages say was done before a restart: runs with passages, blocks that started. */
  restore(performedRuns: Iterable<string>, startedBlocks: Iterable<string>): void {
    for (const key of performedRuns) this.performed.add(key);
    for (const key of startedBlocks) this.startedBlocks.add(key);
  }

  /**
   * The service changes in force (run key → change): a cancelled run is not expected (never matched, never
   * reported not performed, an exit whose runs are all cancelled not reported not started); a moved run's
   * scheduled times are shifted, so its adherence is judged against the new start.
   */
  setServiceChanges(changes: ReadonlyMap<string, RunChange>, dayChanges: DayChanges = { handovers: [], added: [] }): void {
    const now = Date.now();
    this.changesRevision += 1;
    const touched = new Set([...this.dayChanges.handovers, ...dayChanges.handovers].map((h) => h.blockKey));
    this.changes = changes;
    this.dayChanges = dayChanges;
    this.applyAdded(now);
    this.applyChanges();
    this.applyAssignments();
    this.applyClosures();
    // an exit handed over (or given back): who works it now is the assignments' word, not a former match
    for (const v of this.vehicles.values()) {
      if (!v.run || !touched.has(v.run.blockKey) || v.matchedBy === 'fit') continue;
      if (!this.assignedRuns(v.vehicleId, now).some((a) => a.run === v.run)) this.release(v, now);
    }
    for (const v of this.vehicles.values())
      if (v.run && v.matchedBy === 'fit' && this.handedAway.get(v.vehicleId)?.has(v.run.blockKey)) this.release(v, now);
    // a vehicle waiting for a run now cancelled is no longer on it (one already driving it goes on to its end)
    for (const v of this.vehicles.values()) if (v.run && !v.started && this.isCancelled(v.run.key)) this.release(v, now);
    for (const key of [...this.missed]) {
      if (!this.isCancelled(key)) continue;
      this.missed.delete(key);
      this.clear(`run_not_performed|${key}`, now);
    }
  }

  isCancelled(runKey: string): boolean {
    return this.changes.get(runKey)?.cancelled === true;
  }

  /** The run keys cancelled today (those of the days held). */
  cancelledRuns(): string[] {
    return [...this.changes].filter(([, change]) => change.cancelled).map(([key]) => key);
  }

  /** The run's timetable as loaded, before a move. */
  plannedTimes(run: Run): { start: number; end: number } {
    const base = this.baseTimes.get(run);
    return base ? { start: base.start, end: base.end } : { start: run.start, end: run.end };
  }

  /** The added runs the changes name put into their days (their stop times the template's, moved), the others taken out. */
  private applyAdded(now: number): void {
    const wanted = new Map(this.dayChanges.added.map((a) => [a.key, a]));
    for (const [key, held] of this.addedRuns) {
      if (wanted.has(key) && this.days.includes(held.day)) continue;
      this.addedRuns.delete(key);
      for (const v of this.vehicles.values()) if (v.run === held.run) this.release(v, now);
      if (!this.days.includes(held.day)) continue;
      const { day, run, entry } = held;
      day.runs.splice(day.runs.indexOf(run), 1);
      day.blocks.delete(run.blockKey);
      day.runByKey.delete(run.key);
      // the trajectory index keeps the entry; an empty one is passed over
      entry.length = 0;
    }
    for (const spec of wanted.values()) {
      if (this.addedRuns.has(spec.key)) continue;
      const day = this.days.find((d) => d.serviceDate === spec.key.slice(0, 10));
      const template = day?.runByKey.get(spec.templateKey);
      if (!day || !template || template.added) continue;
      const base = this.baseTimes.get(template) ?? { times: template.times, start: template.start };
      const times = Float64Array.from(base.times, (t) => t + spec.start - base.start);
      const parts = spec.key.split('|');
      const run: Run = {
        ...template,
        key: spec.key,
        blockKey: parts.slice(0, 4).join('|'),
        graph: Number(parts[2]),
        smena: parts[3],
        raceNum: Number(parts[4]),
        times,
        start: times[0],
        end: times[times.length - 1],
        index: 0,
        added: true,
      };
      const entry = [run];
      day.runs.push(run);
      day.runByKey.set(run.key, run);
      day.blocks.set(run.blockKey, {
        key: run.blockKey,
        serviceDate: run.serviceDate,
        routeId: run.routeId,
        variantId: run.variantId,
        graph: run.graph,
        smena: run.smena,
        runs: [run],
        start: run.start,
        end: run.end,
      });
      day.index.add(run.shape, entry);
      this.addedRuns.set(spec.key, { run, day, entry });
    }
  }

  /**
   * Each day's assignments: as loaded, plus an added run's vehicle on it, and each handover in time order: the
   * exit's assignments cut at its time, the new vehicle's from then on (a replacement, as the handbook's are).
   */
  private applyAssignments(): void {
    const copy = (from: Map<number, Assignment[]>) => new Map([...from].map(([id, list]) => [id, list.map((a) => ({ ...a }))]));
    const handovers = [...this.dayChanges.handovers].sort((a, b) => a.at - b.at);
    this.handedAway = new Map();
    for (const h of handovers) {
      if (h.fromVehicleId === null) continue;
      const map = this.handedAway.get(h.fromVehicleId) ?? new Map<string, number>();
      map.set(h.blockKey, h.at);
      this.handedAway.set(h.fromVehicleId, map);
    }
    for (const day of this.days) {
      let base = this.baseAssignments.get(day);
      if (!base) this.baseAssignments.set(day, (base = copy(day.assignments)));
      const out = copy(base);
      const add = (vehicleId: number, a: Assignment) => out.set(vehicleId, [...(out.get(vehicleId) ?? []), a]);
      for (const spec of this.dayChanges.added) {
        const held = this.addedRuns.get(spec.key);
        if (spec.vehicleId !== null && held?.day === day)
          add(spec.vehicleId, { blockKey: held.run.blockKey, from: -Infinity, to: Infinity, replacement: false });
      }
      for (const h of handovers) {
        if (!day.blocks.has(h.blockKey)) continue;
        for (const [id, list] of out) {
          const kept = list.filter((a) => a.blockKey !== h.blockKey || a.from < h.at);
          for (const a of kept) if (a.blockKey === h.blockKey) a.to = Math.min(a.to, h.at);
          if (kept.length) out.set(id, kept);
          else out.delete(id);
        }
        add(h.vehicleId, { blockKey: h.blockKey, from: h.at, to: Infinity, replacement: true });
      }
      day.assignments.clear();
      for (const [id, list] of out) {
        list.sort((a, b) => day.blocks.get(a.blockKey)!.start - day.blocks.get(b.blockKey)!.start);
        day.assignments.set(id, list);
      }
    }
  }

  /**
   * Which stops of which runs are closed (a closed stop's period holds the run's time there; a detour's holds the
   * run's time at the stop it leaves the line), and the runs on a detour, whose paths go into the trajectory index
   * so that a vehicle on a detour is found there.
   */
  private applyClosures(): void {
    const closures = this.dayChanges.closures ?? [];
    const detours = this.dayChanges.detours ?? [];
    this.closedAt = new Map();
    this.detoured = new Map();
    for (const entry of this.detourEntries) entry.length = 0;
    this.detourEntries = [];
    const close = (run: Run, i: number) => {
      const set = this.closedAt.get(run.key) ?? new Set<number>();
      set.add(i);
      this.closedAt.set(run.key, set);
    };
    const paths = detours.map((d) => new Trajectory(d.path));
    for (const day of this.days) {
      const onDetour = detours.map(() => [] as Run[]);
      for (const run of day.runs) {
        for (const c of closures) {
          if (c.routeId !== null && c.routeId !== run.routeId) continue;
          run.stopIds.forEach((id, i) => {
            if (id === c.stopId && run.times[i] >= c.from && run.times[i] < c.to) close(run, i);
          });
        }
        detours.forEach((d, k) => {
          if (d.routeId !== run.routeId || (d.direction !== null && d.direction !== run.direction) || this.detoured.has(run.key)) return;
          const a = run.stopIds.indexOf(d.fromStopId);
          const b = a < 0 ? -1 : run.stopIds.indexOf(d.toStopId, a + 1);
          if (b < 0 || run.times[a] < d.from || run.times[a] >= d.to) return;
          for (let i = a + 1; i < b; i++) close(run, i);
          this.detoured.set(run.key, { path: paths[k], fromDist: run.dists[a], toDist: run.dists[b] });
          onDetour[k].push(run);
        });
      }
      onDetour.forEach((runs, k) => {
        if (!runs.length) return;
        day.index.add(paths[k], runs);
        this.detourEntries.push(runs);
      });
    }
  }

  /** The indexes of a run's stops closed for it (no passage expected, none predicted). */
  closedStops(runKey: string): ReadonlySet<number> {
    return this.closedAt.get(runKey) ?? NONE;
  }

  /**
   * The stops of a route's direction closed at `now` by the changes in force: closed stops, and the stops a detour
   * skips on `stopIds` (a direction's line).
   */
  closedStopsNow(routeId: number, direction: number, stopIds: readonly number[], now: number): Set<number> {
    const out = new Set<number>();
    for (const c of this.dayChanges.closures ?? [])
      if ((c.routeId === null || c.routeId === routeId) && c.from <= now && now < c.to) out.add(c.stopId);
    for (const d of this.dayChanges.detours ?? []) {
      if (d.routeId !== routeId || (d.direction !== null && d.direction !== direction) || now < d.from || now >= d.to) continue;
      const a = stopIds.indexOf(d.fromStopId);
      const b = a < 0 ? -1 : stopIds.indexOf(d.toStopId, a + 1);
      for (let i = a + 1; i < b; i++) out.add(stopIds[i]);
    }
    return out;
  }

  /** The run follows a detour's path somewhere. */
  isDetoured(runKey: string): boolean {
    return this.detoured.has(runKey);
  }

  /**
   * A fix placed on a run: on its trajectory within the window, or on its detour's path where the window reaches
   * the detour, at the share of the path travelled between the two stops (the skipped stops are closed, so their
   * distances only order the way).
   */
  private project(run: Run, fix: LatLon, from: number, to: number, course: number | null): Projection {
    const base = run.shape.project(fix, from, to, course);
    const d = this.detoured.get(run.key);
    if (!d || base.offset <= this.settings.offRouteMeters || to < d.fromDist || from > d.toDist) return base;
    const p = d.path.project(fix, 0, Infinity, course);
    if (p.offset >= base.offset) return base;
    const share = d.path.length > 0 ? p.dist / d.path.length : 0;
    return { dist: d.fromDist + share * (d.toDist - d.fromDist), offset: p.offset, course: p.course };
  }

  /** The added runs of the days held. */
  addedRunList(): Run[] {
    return [...this.addedRuns.values()].map((a) => a.run);
  }

  private applyChanges(): void {
    for (const day of this.days) {
      const moved = new Set<string>();
      for (const run of day.runs) {
        const shift = this.changes.get(run.key)?.shiftMs ?? 0;
        let base = this.baseTimes.get(run);
        if (!base) {
          if (shift === 0) continue;
          base = { times: Float64Array.from(run.times), start: run.start, end: run.end };
          this.baseTimes.set(run, base);
        }
        for (let i = 0; i < run.times.length; i += 1) run.times[i] = base.times[i] + shift;
        run.start = base.start + shift;
        run.end = base.end + shift;
        moved.add(run.blockKey);
      }
      for (const key of moved) {
        const block = day.blocks.get(key);
        if (!block) continue;
        block.start = Math.min(...block.runs.map((r) => r.start));
        block.end = Math.max(...block.runs.map((r) => r.end));
      }
    }
  }

  /**
   * A driver's message from the terminal: an exception on the board for DRIVER_MESSAGE_MS (the vehicle's run
   * named when it has one), keyed by the message.
   */
  driverMessage(id: number, vehicleId: number, text: string, at: number): void {
    const run = this.vehicles.get(vehicleId)?.run ?? null;
    this.raise(
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
    return this.days;
  }

  state(vehicleId: number): VehicleState | undefined {
    return this.vehicles.get(vehicleId);
  }

  states(): IterableIterator<VehicleState> {
    return this.vehicles.values();
  }

  exceptions(): IterableIterator<DispatchException> {
    return this.active.values();
  }

  /** Passages and exception events since the last drain. */
  drain(): { passages: PassageRecord[]; events: ExceptionEvent[] } {
    const out = { passages: this.passagesOut, events: this.eventsOut };
    this.passagesOut = [];
    this.eventsOut = [];
    return out;
  }

  private vehicle(vehicleId: number): VehicleState {
    let v = this.vehicles.get(vehicleId);
    if (!v) {
      v = {
        vehicleId,
        last: null,
        run: null,
        day: null,
        matchedBy: null,
        otherExit: false,
        started: false,
        point: null,
        offset: null,
        cursor: { next: 0, atStop: null },
        radii: null,
        offRouteSince: null,
        deviation: null,
        headway: null,
        scheduledHeadway: null,
        passages: [],
        completed: new Map(),
      };
      this.vehicles.set(vehicleId, v);
    }
    return v;
  }

  /** One position of one vehicle through every stage. */
  onFix(vehicleId: number, fix: Fix): void {
    const v = this.vehicle(vehicleId);
    if (v.last && fix.time <= v.last.time) return;
    if (!fix.valid) {
      // a receiver without a fix still reports: the vehicle has a signal, not a position
      if (v.last) v.last = { ...v.last, time: fix.time };
      this.clear(`no_signal|v${vehicleId}`, fix.time);
      return;
    }
    v.last = fix;
    this.clear(`no_signal|v${vehicleId}`, fix.time);

    if (v.run && !this.advance(v, fix) && !this.leaveAtLastStop(v, fix)) {
      v.offRouteSince ??= fix.time;
      const offFor = fix.time - v.offRouteSince;
      // Off the current run: another may fit better (a vehicle sent to another exit, a wrong first guess).
      const other = this.bestCandidate(v, fix);
      if (other && other.run !== v.run && (!v.started || offFor >= this.settings.offRouteSeconds * 1000)) this.place(v, other, fix);
      else if (!v.started && offFor >= this.settings.offRouteSeconds * 1000) this.release(v, fix.time);
    } else if (!v.run) {
      const candidate = this.bestCandidate(v, fix);
      if (candidate) this.place(v, candidate, fix);
    }
    if (this.departed === v) this.exchangeExits(v);
    this.departed = null;
    this.updateDeviation(v, fix.time);
    this.evaluateVehicle(v, fix.time);
  }

  /** Time-driven rules; the service calls it every few seconds. */
  tick(now: number): void {
    const s = this.settings;
    for (const v of this.vehicles.values()) {
      if (!v.run || !v.last) continue;
      const silent = now - v.last.time;
      if (silent >= FORGET_MS) {
        this.release(v, now);
        continue;
      }
      if (silent >= s.noSignalSeconds * 1000) {
        this.raise(
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
      this.updateDeviation(v, now);
      this.evaluateVehicle(v, now);
    }
    this.updateHeadways(now);
    for (const e of [...this.active.values()])
      if (e.kind === 'driver_message' && now - e.since >= DRIVER_MESSAGE_MS) this.clear(e.key, now);
    for (const day of this.days) {
      for (const [vehicleId, list] of day.assignments) {
        for (const a of list) {
          const block = day.blocks.get(a.blockKey)!;
          const key = `exit_not_started|${block.key}`;
          // an exit starts with its first run not cancelled; one whose runs are all cancelled is not expected
          const first = block.runs.find((run) => !this.isCancelled(run.key));
          const due = (first?.start ?? block.start) + s.exitStartSeconds * 1000;
          // a vehicle already out on the exit (set off, or on a later run: a process started mid-day, whose stored
          // passages do not cover the hours it was down) has started it before its first passage is seen
          const on = this.vehicles.get(vehicleId);
          const out = on?.run?.blockKey === block.key && (on.started || on.run.key !== first?.key);
          if (!first || a.replacement || out || this.startedBlocks.has(block.key) || now >= block.end || now < due) this.clear(key, now);
          else
            this.raise(
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
            if (this.isCancelled(run.key)) continue;
            const missedAt = run.end + s.runMissedSeconds * 1000;
            if (this.performed.has(run.key)) {
              if (this.missed.delete(run.key)) this.clear(`run_not_performed|${run.key}`, now);
            } else if (now >= missedAt && run.end >= this.watchingSince && !this.missed.has(run.key)) {
              this.missed.add(run.key);
              this.raise(
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

  // ---- matching ----

  /** The runs a vehicle's tasks give it at time t, with how it got them. */
  private assignedRuns(vehicleId: number, t: number): { day: DaySchedule; run: Run; matchedBy: MatchSource }[] {
    const out: { day: DaySchedule; run: Run; matchedBy: MatchSource }[] = [];
    for (const day of this.days) {
      for (const a of day.assignments.get(vehicleId) ?? []) {
        if (!covers(a, t)) continue;
        for (const run of day.blocks.get(a.blockKey)!.runs) out.push({ day, run, matchedBy: a.replacement ? 'replacement' : 'task' });
      }
    }
    return out;
  }

  private hasTask(vehicleId: number): boolean {
    return this.days.some((day) => day.assignments.has(vehicleId));
  }

  /** How well a fix fits a run: null when it is off the run, at its end, or outside its time. */
  private fit(run: Run, fix: Fix, projection?: Projection): FitResult | null {
    if (this.isCancelled(run.key)) return null;
    if (fix.time < run.start - EARLY_WINDOW_MS || fix.time > run.end + LATE_WINDOW_MS) return null;
    const n = run.dists.length;
    const moving = fix.speed >= MOVING_KMH;
    const p =
      projection && !this.detoured.has(run.key) ? projection : this.project(run, fix, 0, run.dists[n - 1], moving ? fix.course : null);
    if (p.offset > this.settings.offRouteMeters) return null;
    // a vehicle moving against the run's direction there is on the other side of the street, not on this run
    if (moving && angleBetween(fix.course, p.course) > AGAINST_DEGREES) return null;
    const radius = Math.min(this.settings.stopRadiusMeters, (run.dists[n - 1] - run.dists[0]) / 4);
    if (p.dist >= run.dists[n - 1] - radius) return null;
    const lateness = fix.time - scheduledTimeAt(run, p.dist);
    if (lateness < -MATCH_EARLY_MS || lateness > MATCH_LATE_MS) return null;
    // waiting at the first stop before departure is what a vehicle does: it costs less than running early
    const waiting = p.dist <= run.dists[0] + radius && lateness < 0;
    return { dist: p.dist, offset: p.offset, lateness: waiting ? lateness / 4 : lateness };
  }

  private score(offset: number, lateness: number): number {
    return offset / 30 + Math.abs(lateness) / 300_000;
  }

  /**
   * The run a fix fits best: among the vehicle's own task's runs (never one before the last it finished, the next
   * in turn preferred), else among the day's runs near the position that no other vehicle works (best fit of
   * position and time).
   */
  bestCandidate(v: VehicleState, fix: Fix): Candidate | null {
    let best: Candidate | null = null;
    const lastDone = (blockKey: string) => v.completed.get(blockKey) ?? -1;
    for (const { day, run, matchedBy } of this.assignedRuns(v.vehicleId, fix.time)) {
      const done = lastDone(run.blockKey);
      if (run.index <= done || v.completed.has(run.key)) continue;
      const f = this.fit(run, fix);
      if (!f) continue;
      // the next run in turn is the likeliest: after the last it finished, or the first nobody worked yet
      const firstOpen = done >= 0 ? done + 1 : this.firstUnperformed(day, run.blockKey);
      const skipped = Math.max(0, run.index - firstOpen);
      const score = this.score(f.offset, f.lateness) + skipped * 1.5;
      if (!best || score < best.score) best = { run, day, dist: f.dist, offset: f.offset, score, matchedBy };
    }
    if (best) return best;
    const moving = fix.speed >= MOVING_KMH ? fix.course : null;
    const handed = this.handedAway.get(v.vehicleId);
    for (const day of this.days) {
      for (const runs of day.index.near(fix)) {
        if (!runs.length) continue;
        const shape = runs[0].shape;
        const projection = shape.project(fix, 0, Infinity, moving);
        if (projection.offset > this.settings.offRouteMeters && !runs.some((r) => this.detoured.has(r.key))) continue;
        for (const run of runs) {
          const holder = this.taken.get(run.key);
          if ((holder !== undefined && holder !== v.vehicleId) || v.completed.has(run.key)) continue;
          // an exit handed over from this vehicle (it broke down) is not taken back by where it stands
          const away = handed?.get(run.blockKey);
          if (away !== undefined && fix.time >= away) continue;
          const f = this.fit(run, fix, projection);
          if (!f) continue;
          const score = this.score(f.offset, f.lateness);
          if (!best || score < best.score) best = { run, day, dist: f.dist, offset: f.offset, score, matchedBy: 'fit' };
        }
      }
    }
    return best;
  }

  private firstUnperformed(day: DaySchedule, blockKey: string): number {
    const runs = day.blocks.get(blockKey)!.runs;
    const i = runs.findIndex((run) => !this.performed.has(run.key));
    return i < 0 ? runs.length : i;
  }

  /** Puts the vehicle on a run at the fix's place on it. */
  private place(v: VehicleState, c: Candidate, fix: Fix): void {
    if (v.run) this.letGo(v);
    const { run } = c;
    v.run = run;
    v.day = c.day;
    v.matchedBy = c.matchedBy;
    v.otherExit = c.matchedBy === 'fit' && this.hasTask(v.vehicleId);
    v.radii = stopRadii(run, this.settings.stopRadiusMeters);
    v.offRouteSince = null;
    v.offset = c.offset;
    v.point = { time: fix.time, dist: c.dist, speed: fix.speed / 3.6 };
    let next = 0;
    while (next < run.dists.length - 1 && c.dist > run.dists[next] + v.radii[next]) next += 1;
    const inside = Math.abs(c.dist - run.dists[next]) <= v.radii[next];
    v.cursor = { next, atStop: inside ? atStopWhenPlaced(next, v.point) : null };
    v.started = next > 0;
    this.ride(v);
  }

  /** The vehicle works its run: it holds the run and is among its route's vehicles. */
  private ride(v: VehicleState): void {
    const run = v.run!;
    this.taken.set(run.key, v.vehicleId);
    let riding = this.onRoute.get(run.routeId);
    if (!riding) this.onRoute.set(run.routeId, (riding = new Set()));
    riding.add(v);
  }

  /** The vehicle leaves its run (finished, dropped or replaced by a better match). */
  private letGo(v: VehicleState): void {
    if (!v.run) return;
    if (this.taken.get(v.run.key) === v.vehicleId) this.taken.delete(v.run.key);
    this.onRoute.get(v.run.routeId)?.delete(v);
  }

  /**
   * Two vehicles of a route each far off the timetable of its own task's run, each on time for the other's: they
   * were sent to each other's exits (a dispatcher's swap the tasks do not show). Looked at when a vehicle so far
   * off leaves a stop; both are then followed on the exit they work, as found by fit.
   */
  private exchangeExits(v: VehicleState): void {
    const mine = v.run;
    if (!mine || !v.last || v.matchedBy === 'fit' || v.deviation === null || Math.abs(v.deviation) < EXCHANGE_S) return;
    let best: { w: VehicleState; onTheirs: FitResult; onMine: FitResult; gain: number } | null = null;
    for (const w of this.onRoute.get(mine.routeId) ?? []) {
      const theirs = w.run;
      if (
        w === v ||
        !theirs ||
        !w.last ||
        theirs.blockKey === mine.blockKey ||
        w.matchedBy === 'fit' ||
        w.deviation === null ||
        Math.abs(w.deviation) < EXCHANGE_S
      )
        continue;
      const onTheirs = this.fit(theirs, v.last);
      const onMine = onTheirs && this.fit(mine, w.last);
      if (!onTheirs || !onMine) continue;
      // each must fit the other's run better than its own: one far early and one late in a bunch only add up
      const mineGain = Math.abs(v.deviation) - Math.abs(onTheirs.lateness) / 1000;
      const theirGain = Math.abs(w.deviation) - Math.abs(onMine.lateness) / 1000;
      const gain = mineGain + theirGain;
      if (mineGain < EXCHANGE_EACH_S || theirGain < EXCHANGE_EACH_S) continue;
      if (gain >= EXCHANGE_GAIN_S && (!best || gain > best.gain)) best = { w, onTheirs, onMine, gain };
    }
    if (!best) return;
    const { w, onTheirs, onMine } = best;
    const [theirs, theirDay, myDay] = [w.run!, w.day!, v.day!];
    this.place(v, { run: theirs, day: theirDay, ...onTheirs, score: 0, matchedBy: 'fit' }, v.last);
    this.place(w, { run: mine, day: myDay, ...onMine, score: 0, matchedBy: 'fit' }, w.last!);
    this.updateDeviation(w, w.last!.time);
    this.evaluateVehicle(w, w.last!.time);
  }

  private release(v: VehicleState, at: number): void {
    this.letGo(v);
    v.run = null;
    v.day = null;
    v.matchedBy = null;
    v.otherExit = false;
    v.started = false;
    v.point = null;
    v.offset = null;
    v.deviation = null;
    v.offRouteSince = null;
    for (const kind of ['late', 'early', 'off_route', 'no_signal', 'bunching', 'gap'] as const) this.clear(`${kind}|v${v.vehicleId}`, at);
  }

  /** Progress along the current run; false when the fix is off it. */
  private advance(v: VehicleState, fix: Fix): boolean {
    const run = v.run!;
    const prev = v.point!;
    const dt = Math.max(0, fix.time - prev.time);
    const course = fix.speed >= MOVING_KMH ? fix.course : null;
    const projection = this.project(run, fix, prev.dist - BACK_M, prev.dist + Math.max(300, (dt / 1000) * MAX_SPEED_MS), course);
    if (projection.offset > this.settings.offRouteMeters) return false;
    v.offRouteSince = null;
    this.clear(`off_route|v${v.vehicleId}`, fix.time);
    v.offset = projection.offset;
    // noise backwards is not the vehicle reversing
    const point: RunPoint = { time: fix.time, dist: Math.max(prev.dist, projection.dist), speed: fix.speed / 3.6 };
    const found = detectPassages(run, v.radii!, v.cursor, prev, point);
    v.point = point;
    for (const p of found) this.onPassage(v, { vehicleId: v.vehicleId, run, ...p });
    if (v.cursor.next >= run.stopIds.length) this.finishRun(v, fix);
    return true;
  }

  /**
   * Off the run within the last stop's radius (a terminus stand off the line, away to the depot): the run ends
   * there, arrived when it stood or, moving in, when it would have reached the stop.
   */
  private leaveAtLastStop(v: VehicleState, fix: Fix): boolean {
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
    this.onPassage(v, { vehicleId: v.vehicleId, run, stopIndex: last, arrival, departure: null, interpolated: false });
    this.finishRun(v, fix);
    return true;
  }

  private onPassage(v: VehicleState, p: PassageRecord): void {
    const run = p.run;
    // a closed stop expects no passage: a vehicle driving by is neither stored there nor judged there
    if (this.closedStops(run.key).has(p.stopIndex) && p.stopIndex < run.stopIds.length - 1) return;
    this.passagesOut.push(p);
    v.passages.push(p);
    if (v.passages.length > KEPT_PASSAGES) v.passages.splice(0, v.passages.length - KEPT_PASSAGES);
    if (!this.performed.has(run.key)) {
      this.performed.add(run.key);
      if (this.missed.delete(run.key)) this.clear(`run_not_performed|${run.key}`, p.departure ?? p.arrival ?? Date.now());
    }
    if (p.stopIndex === 0 && p.departure !== null) v.started = true;
    if (p.departure !== null || p.stopIndex > 0) {
      v.started = true;
      if (!this.startedBlocks.has(run.blockKey)) {
        this.startedBlocks.add(run.blockKey);
        this.clear(`exit_not_started|${run.blockKey}`, p.departure ?? p.arrival ?? Date.now());
      }
    }
    const time = p.departure ?? p.arrival;
    if (time === null) return;
    v.deviation = Math.round((time - run.times[p.stopIndex]) / 1000);
    if (p.departure !== null) this.departed = v;
    // headway: the last departure of another vehicle of the route and direction from this stop
    const key = `${run.routeId}|${run.direction}|${run.stopIds[p.stopIndex]}`;
    const ahead = this.lastPass.get(key);
    if (!ahead || time > ahead.time) this.lastPass.set(key, { vehicleId: v.vehicleId, time });
    const measured = ahead !== undefined && ahead.vehicleId !== v.vehicleId && time >= ahead.time;
    if (measured) {
      v.headway = Math.round((time - ahead.time) / 1000);
      const scheduled = v.day ? scheduledHeadway(v.day, run, p.stopIndex) : null;
      v.scheduledHeadway = scheduled === null ? null : Math.round(scheduled / 1000);
    }
    // a leader still on the trajectory ahead says what the headway is now (it may have stopped since it left here)
    const leader = p.departure !== null && v.run === run && v.point ? this.leaderOf(v) : null;
    if (leader) this.estimateHeadway(v, leader, v.point!.time);
    if (measured || leader) this.evaluateHeadway(v, time);
  }

  /** The last stop reached: the next run of the block follows at once (its first stop is where the vehicle stands). */
  private finishRun(v: VehicleState, fix: Fix): void {
    const run = v.run!;
    v.completed.set(run.key, run.index);
    v.completed.set(run.blockKey, Math.max(run.index, v.completed.get(run.blockKey) ?? -1));
    this.letGo(v);
    const block = v.day?.blocks.get(run.blockKey);
    const following = block?.runs[run.index + 1];
    // a cancelled next run is not waited for: the vehicle is matched again by where it goes
    const stillMine =
      following &&
      !this.isCancelled(following.key) &&
      (v.matchedBy === 'fit' || this.assignedRuns(v.vehicleId, following.start).some((a) => a.run === following));
    v.run = null;
    v.started = false;
    if (following && stillMine && v.day) {
      const f = this.fit(following, fix);
      this.place(
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
      this.release(v, fix.time);
    }
  }

  // ---- adherence and exceptions ----

  /** Seconds behind the timetable at `now`: between stops by the scheduled time at the vehicle's place, kept
   *  current without fixes (a vehicle that has not reached a stop due a while ago is at least that late). */
  private updateDeviation(v: VehicleState, now: number): void {
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

  private evaluateVehicle(v: VehicleState, now: number): void {
    const s = this.settings;
    const base = { vehicleId: v.vehicleId, routeId: v.run?.routeId ?? null, runKey: v.run?.key ?? null, blockKey: v.run?.blockKey ?? null };
    const d = v.deviation;
    const inService = v.run !== null && (v.started || now > v.run.start);
    if (inService && d !== null && d > s.lateSeconds) this.raise({ kind: 'late', ...base, value: d }, now);
    else if (!inService || d === null || d < s.lateSeconds - CLEAR_MARGIN_S) this.clear(`late|v${v.vehicleId}`, now);
    if (inService && d !== null && d < -s.earlySeconds) this.raise({ kind: 'early', ...base, value: d }, now);
    else if (!inService || d === null || d > -s.earlySeconds + CLEAR_MARGIN_S) this.clear(`early|v${v.vehicleId}`, now);
    if (v.run && v.started && v.offRouteSince !== null && now - v.offRouteSince >= s.offRouteSeconds * 1000) {
      this.raise({ kind: 'off_route', ...base, value: v.last ? Math.round(v.run.shape.project(v.last).offset) : null }, v.offRouteSince);
    }
  }

  /**
   * Headways kept current between stops: the vehicles out on one trajectory (a route's direction) in order along
   * it, each follower's headway is when it will reach its leader's place less when the leader was last there.
   */
  private updateHeadways(now: number): void {
    const byShape = new Map<Trajectory, VehicleState[]>();
    for (const v of this.vehicles.values()) {
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
        this.estimateHeadway(list[i], list[i - 1].point!, now);
        this.evaluateHeadway(list[i], now);
      }
    }
  }

  /** The nearest vehicle ahead on the same trajectory, out on its run. */
  private leaderOf(v: VehicleState): RunPoint | null {
    let leader: RunPoint | null = null;
    for (const w of this.onRoute.get(v.run!.routeId) ?? []) {
      if (w === v || !w.started || !w.point || w.run?.shape !== v.run!.shape || w.point.dist <= v.point!.dist) continue;
      if (!leader || w.point.dist < leader.dist) leader = w.point;
    }
    return leader;
  }

  /**
   * A follower's headway from where it is: when it will reach its leader's place (its dwell at the stop it stands
   * at, then the learned run and dwell times, else the timetable's) less when the leader was there.
   */
  private estimateHeadway(v: VehicleState, leader: RunPoint, now: number): void {
    const run = v.run!;
    const point = v.point!;
    const hour = Math.floor(operatorMinuteOfDay(now, this.tzOffsetMinutes) / 60);
    const at = v.cursor.atStop;
    const dwell = at ? (this.learned.dwell(run.stopIds[v.cursor.next], run.dayType, hour) ?? 0) : 0;
    const leaves = at ? Math.max(now, (at.arrival ?? point.time) + dwell) : point.time;
    const reach = Math.max(now, leaves + travelTime(run, point.dist, leader.dist, this.learned, hour));
    v.headway = Math.round((reach - leader.time) / 1000);
    const scheduled = v.day ? scheduledHeadway(v.day, run, Math.min(v.cursor.next, run.stopIds.length - 1)) : null;
    v.scheduledHeadway = scheduled === null ? null : Math.round(scheduled / 1000);
  }

  private evaluateHeadway(v: VehicleState, at: number): void {
    const s = this.settings;
    const base = {
      vehicleId: v.vehicleId,
      routeId: v.run?.routeId ?? null,
      runKey: v.run?.key ?? null,
      blockKey: v.run?.blockKey ?? null,
      value: v.headway,
    };
    if (v.headway === null || !v.scheduledHeadway) return;
    const share = (v.headway / v.scheduledHeadway) * 100;
    if (share < s.bunchingPercent) this.raise({ kind: 'bunching', ...base }, at);
    else if (share >= s.bunchingPercent + CLEAR_MARGIN_PERCENT) this.clear(`bunching|v${v.vehicleId}`, at);
    if (share > s.gapPercent) this.raise({ kind: 'gap', ...base }, at);
    else if (share <= s.gapPercent - CLEAR_MARGIN_PERCENT) this.clear(`gap|v${v.vehicleId}`, at);
  }

  private raise(fields: Omit<DispatchException, 'key' | 'since'>, since: number, key = `${fields.kind}|v${fields.vehicleId}`): void {
    const current = this.active.get(key);
    if (current) {
      current.value = fields.value;
      return;
    }
    const exception = { key, since, ...fields };
    this.active.set(key, exception);
    this.eventsOut.push({ type: 'raised', at: since, exception });
  }

  private clear(key: string, at: number): void {
    const current = this.active.get(key);
    if (!current) return;
    this.active.delete(key);
    this.eventsOut.push({ type: 'cleared', at, exception: current });
  }

  // ---- predictions ----

  /** Predicted arrivals at the stops ahead of a vehicle within the horizon (the rest of its run, then its block's next runs). */
  predictions(vehicleId: number, now: number, horizonMs = PREDICTION_HORIZON_MS): StopPrediction[] {
    const v = this.vehicles.get(vehicleId);
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
      this.learned,
      now,
      horizonMs,
      (t) => Math.floor(operatorMinuteOfDay(t, this.tzOffsetMinutes) / 60),
    );
    return this.closedAt.size ? all.filter((p) => !this.closedStops(p.run.key).has(p.stopIndex)) : all;
  }
}

const NONE: ReadonlySet<number> = new Set();

const covers = (a: Assignment, t: number) => t >= a.from - EARLY_WINDOW_MS && t < a.to;
