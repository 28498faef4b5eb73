import type { LatLon } from '../simulator/polyline';
import { Trajectory, type Projection } from './geometry';
import type { DayChanges, Handover, RunChange } from './engineTypes';
import type { Assignment, DaySchedule, Run } from './schedule';

/** A run on a detour: the detour's path stands for its trajectory between the distances of two of its stops. */
interface RunDetour {
  path: Trajectory;
  fromDist: number;
  toDist: number;
}

const NONE: ReadonlySet<number> = new Set();

/**
 * The service changes in force and what they make of the days held: cancelled and moved runs, added runs put into
 * their days, exits handed over (the days' assignments), closed stops and detours.
 */
export class ChangesInForce {
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

  /** The changes read (run key → change; the day's other changes). */
  set(changes: ReadonlyMap<string, RunChange>, dayChanges: DayChanges): void {
    this.changes = changes;
    this.dayChanges = dayChanges;
  }

  get handovers(): readonly Handover[] {
    return this.dayChanges.handovers;
  }

  /** The changes applied to the days held (read again or changed); the added runs taken out of them are returned. */
  apply(days: readonly DaySchedule[]): Run[] {
    const removed = this.applyAdded(days);
    this.applyChanges(days);
    this.applyAssignments(days);
    this.applyClosures(days);
    return removed;
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
  private applyAdded(days: readonly DaySchedule[]): Run[] {
    const wanted = new Map(this.dayChanges.added.map((a) => [a.key, a]));
    const removed: Run[] = [];
    for (const [key, held] of this.addedRuns) {
      if (wanted.has(key) && days.includes(held.day)) continue;
      this.addedRuns.delete(key);
      removed.push(held.run);
      if (!days.includes(held.day)) continue;
      const { day, run, entry } = held;
      day.runs.splice(day.runs.indexOf(run), 1);
      day.blocks.delete(run.blockKey);
      day.runByKey.delete(run.key);
      // the trajectory index keeps the entry; an empty one is passed over
      entry.length = 0;
    }
    for (const spec of wanted.values()) {
      if (this.addedRuns.has(spec.key)) continue;
      const day = days.find((d) => d.serviceDate === spec.key.slice(0, 10));
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
    return removed;
  }

  private applyChanges(days: readonly DaySchedule[]): void {
    for (const day of days) {
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
   * Each day's assignments: as loaded, plus an added run's vehicle on it, and each handover in time order: the
   * exit's assignments cut at its time, the new vehicle's from then on (a replacement, as the handbook's are).
   */
  private applyAssignments(days: readonly DaySchedule[]): void {
    const copy = (from: Map<number, Assignment[]>) => new Map([...from].map(([id, list]) => [id, list.map((a) => ({ ...a }))]));
    const handovers = [...this.dayChanges.handovers].sort((a, b) => a.at - b.at);
    this.handedAway = new Map();
    for (const h of handovers) {
      if (h.fromVehicleId === null) continue;
      const map = this.handedAway.get(h.fromVehicleId) ?? new Map<string, number>();
      map.set(h.blockKey, h.at);
      this.handedAway.set(h.fromVehicleId, map);
    }
    for (const day of days) {
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
  private applyClosures(days: readonly DaySchedule[]): void {
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
    for (const day of days) {
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
   * distances only order the way). A fix within `offRouteMeters` of the trajectory stays on it.
   */
  project(run: Run, fix: LatLon, from: number, to: number, course: number | null, offRouteMeters: number): Projection {
    const base = run.shape.project(fix, from, to, course);
    const d = this.detoured.get(run.key);
    if (!d || base.offset <= offRouteMeters || to < d.fromDist || from > d.toDist) return base;
    const p = d.path.project(fix, 0, Infinity, course);
    if (p.offset >= base.offset) return base;
    const share = d.path.length > 0 ? p.dist / d.path.length : 0;
    return { dist: d.fromDist + share * (d.toDist - d.fromDist), offset: p.offset, course: p.course };
  }

  /** The added runs of the days held. */
  addedRunList(): Run[] {
    return [...this.addedRuns.values()].map((a) => a.run);
  }

  /** The blocks a vehicle handed over and from when. */
  handedAwayBy(vehicleId: number): ReadonlyMap<string, number> | undefined {
    return this.handedAway.get(vehicleId);
  }

  /** Some stop of some run is closed. */
  get anyClosed(): boolean {
    return this.closedAt.size > 0;
  }
}
