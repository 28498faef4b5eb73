import { ChangesInForce } from './changesInForce';
import type { EngineSettings, PassageRecord, VehicleState } from './engineTypes';
import { ExceptionBoard } from './exceptions';
import type { LearnedTimes } from './predictions';
import type { DaySchedule } from './schedule';

/** What the engine's stages share: the days held, every vehicle's state, who works which run, what was done. */
export class EngineState {
  days: DaySchedule[] = [];
  readonly vehicles = new Map<number, VehicleState>();
  /** Run key → the vehicle working it. */
  readonly taken = new Map<string, number>();
  /** Route → the vehicles on its runs: the partners of an exchange of exits. */
  readonly onRoute = new Map<number, Set<VehicleState>>();
  readonly performed = new Set<string>();
  /** Runs whose `run_not_performed` is raised: the rest are not looked at again each tick. */
  readonly missed = new Set<string>();
  readonly startedBlocks = new Set<string>();
  /** `route|direction|stop` → the last departure there: the vehicle ahead for headways. */
  readonly lastPass = new Map<string, { vehicleId: number; time: number }>();
  passagesOut: PassageRecord[] = [];
  /** The vehicle of the fix in hand left a stop: it may have swapped exits (looked at once the fix is through). */
  departed: VehicleState | null = null;
  readonly exceptions = new ExceptionBoard();
  readonly changes = new ChangesInForce();

  constructor(
    public settings: EngineSettings,
    readonly tzOffsetMinutes: number,
    public learned: LearnedTimes,
    /** Runs ending before this are not reported as not performed (the engine was not watching). */
    readonly watchingSince: number,
  ) {}

  /** The vehicle's state, made at its first fix. */
  vehicle(vehicleId: number): VehicleState {
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
        exchange: null,
      };
      this.vehicles.set(vehicleId, v);
    }
    return v;
  }

  /** The vehicle works its run: it holds the run and is among its route's vehicles. */
  ride(v: VehicleState): void {
    const run = v.run!;
    this.taken.set(run.key, v.vehicleId);
    let riding = this.onRoute.get(run.routeId);
    if (!riding) this.onRoute.set(run.routeId, (riding = new Set()));
    riding.add(v);
  }

  /** The vehicle leaves its run (finished, dropped or replaced by a better match). */
  letGo(v: VehicleState): void {
    if (!v.run) return;
    if (this.taken.get(v.run.key) === v.vehicleId) this.taken.delete(v.run.key);
    this.onRoute.get(v.run.routeId)?.delete(v);
  }

  /** The vehicle is on no run: its run's exceptions end. */
  release(v: VehicleState, at: number): void {
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
    for (const kind of ['late', 'early', 'off_route', 'no_signal', 'bunching', 'gap'] as const)
      this.exceptions.clear(`${kind}|v${v.vehicleId}`, at);
  }
}
