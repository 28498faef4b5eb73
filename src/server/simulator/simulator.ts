import type { FastifyBaseLogger } from 'fastify';
import type { Queryable } from '../db/types';
import type { IncidentSender, RawIncident } from '../adas/incidentIngest';
import { readTimetableVersion, sameTimetable, type TimetableVersion } from '../platform/timetableVersion';
import { operatorDate, operatorMidnight, operatorMinuteOfDay as operatorMinute } from '../platform/operatorDay';
import type { Position } from '../telemetry/types';
import type { TerminalConnections } from './terminalConnections';
import type { SimulatorConfig } from './config';
import { planDay } from './dayPlan';
import { hourFactor, pickGrade, pickType, routeFactor, speedFactor, vehicleFactor, workOf } from './incidentModel';
import { loadNetwork, type SimNetwork } from './network';
import { reportOf, silentAt, terminalOf } from './terminalReports';
import { truthRows, writeTruth } from './truth';
import type { VehiclePlan, VehicleState } from './vehiclePlan';

export interface SimulatorDeps {
  db: Queryable;
  /** The telemetry pipeline's ingest: simulated positions take the same path as real ones. */
  ingest: (positions: Position[]) => unknown;
  /** Driver-assistance incidents in, as a unit sends them (app.adas.ingest): the ids stored. */
  incidents?: (incidents: RawIncident[], sender: IncidentSender) => Promise<number[]>;
  /** The terminals' connections and disconnections (the vehicle events journal), as the EGTS listener would see them. */
  connections?: TerminalConnections;
  log: FastifyBaseLogger;
}

/** The simulator sends the reports that fell due this often. */
const TICK_MS = 250;
/**
 * How often the simulator looks whether what its plans were made from changed (a GTFS import, a dispatcher's tasks),
 * and records the runs ended.
 */
const CHECK_MS = 60_000;
/** After a stall (a busy event loop), the terminals' reports of at most this long are sent late rather than lost. */
const CATCH_UP_S = 60;
/** A parked vehicle reports at most this rarely. */
const PARKED_MAX_S = 180;
/** Days of ground truth kept. */
const TRUTH_DAYS = 7;

/**
 * Drives the fleet along its routes by today's schedule and assignments (DESIGN.md "Live data", docs/simulator.md):
 * every vehicle's day is planned once (see VehiclePlan), then each report is a binary search and an interpolation.
 * Reports are spread evenly over the interval so the pipeline sees a steady trickle, not a burst. The day is
 * planned again when its network, timetable or assignments change (a GTFS import brings a new network).
 */
export class Simulator {
  private network: SimNetwork | null = null;
  private plans: VehiclePlan[] = [];
  private planOf = new Map<number, VehiclePlan>();
  /** Each plan's terminal: its reporting interval, the second it reports at, and how many intervals apart when parked. */
  private terminals: { intervalS: number; phaseS: number; parkedEvery: number }[] = [];
  /** The last second whose reports were sent. */
  private reportedUpTo: number | null = null;
  /** Runs ending after this (epoch ms) are not recorded in the ground truth yet. */
  private truthFrom: number | null = null;
  private recording: Promise<unknown> | null = null;
  private day: string | null = null;
  private versions: TimetableVersion | null = null;
  private checkedAt = 0;
  private loading: Promise<unknown> | null = null;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  readonly stats = { reports: 0, incidents: 0, plans: 0, lastLoadMs: 0 };

  constructor(
    private readonly deps: SimulatorDeps,
    private readonly config: SimulatorConfig,
    private readonly now: () => number = Date.now,
  ) {}

  get vehicles(): readonly VehiclePlan[] {
    return this.plans;
  }

  /** Where a simulated vehicle is at `t` (its trip and route too): the GTFS-RT feed names the trip from it. */
  stateOf(vehicleId: number, t = this.now()): VehicleState | null {
    return this.planOf.get(vehicleId)?.stateAt(t) ?? null;
  }

  /** Loads the network (once) and the plans of the current operator day. */
  async prepare(): Promise<void> {
    this.network ??= await loadNetwork(this.deps.db);
    await this.loadDay(operatorDate(this.now(), this.config.tzOffsetMinutes));
  }

  /**
   * Prepares in the background, then ticks: the server's start does not wait for the schedule to load. Started
   * again after a stop (a process that takes the simulator's lease back), it plans the day afresh.
   */
  start(): void {
    this.stopped = false;
    const started = this.prepare().catch((err) => this.deps.log.error({ err }, 'simulator could not load the schedule'));
    this.loading = started.then(() => undefined);
    void started.then(() => {
      this.loading = null;
      if (this.stopped) return;
      this.timer = setInterval(() => this.tick(), TICK_MS);
      this.timer.unref();
      this.deps.log.info({ vehicles: this.plans.length, ms: Math.round(this.stats.lastLoadMs) }, 'simulator running');
    });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.loading?.catch(() => undefined);
    await this.recording?.catch(() => undefined);
    await this.recordTruth().catch((err) => this.deps.log.warn({ err }, 'simulator ground truth not written'));
  }

  /** A report of every planned vehicle at `t` (parked ones too, silent terminals too), ingested at once: for tests. */
  tickAll(t = this.now()): Position[] {
    const positions: Position[] = [];
    const second = Math.floor(t / 1000);
    for (const plan of this.plans) {
      const state = plan.stateAt(second * 1000);
      if (state) positions.push(reportOf(plan.vehicleId, state, second));
    }
    this.emit(positions);
    return positions;
  }

  /** The live beat: the reports due, a driver-assistance incident now and then, and the minute's upkeep. */
  tick(): void {
    const t = this.now();
    this.maybeReload(t);
    const positions = this.advance(t);
    const hour = Math.floor(operatorMinute(t, this.config.tzOffsetMinutes) / 60);
    const chance = (this.config.incidentsPerHour * hourFactor(hour) * TICK_MS) / 3_600_000;
    if (positions.length && Math.random() < chance) void this.emitIncident(positions, t);
  }

  /**
   * Sends the reports the fleet's terminals make from the last second sent to `t`, in time order: each terminal
   * at its own interval and phase, none while it is silent, a parked vehicle only every few intervals. The same
   * reports whatever the beat (terminalReports.ts), so a fast-forwarded day is the day the live one would be.
   */
  advance(t = this.now()): Position[] {
    const to = Math.floor(t / 1000);
    const from = Math.max(this.reportedUpTo ?? to - 1, to - CATCH_UP_S);
    if (to <= from) return [];
    this.reportedUpTo = to;
    this.truthFrom ??= to * 1000;
    const positions: Position[] = [];
    for (let i = 0; i < this.plans.length; i++) {
      const { vehicleId } = this.plans[i];
      const { intervalS, phaseS, parkedEvery } = this.terminals[i];
      // the first second after `from` the terminal reports at
      let s = from + 1 + ((((phaseS - from - 1) % intervalS) + intervalS) % intervalS);
      for (; s <= to; s += intervalS) {
        if (silentAt(vehicleId, s)) continue;
        const state = this.plans[i].stateAt(s * 1000);
        if (!state || (state.parked && ((s - phaseS) / intervalS) % parkedEvery !== 0)) continue;
        positions.push(reportOf(vehicleId, state, s));
      }
    }
    if (to - from > 1) positions.sort((a, b) => a.time - b.time);
    this.emit(positions);
    this.deps.connections?.reported(positions, to * 1000);
    return positions;
  }

  /**
   * Records the runs the fleet finished since the last call (or since it started driving) up to `t` in the
   * ground truth (simulator.truth_run, truth.ts): which run each vehicle really worked and when it came to and
   * left each stop. The number of runs recorded.
   */
  async recordTruth(t = this.now()): Promise<number> {
    const from = this.truthFrom;
    if (from === null || t <= from) return 0;
    this.truthFrom = t;
    const rows = truthRows(this.plans, from, t);
    await writeTruth(this.deps.db, rows);
    return rows.length;
  }

  /**
   * A driver-assistance incident at one of the moving vehicles of `positions`, by the demo's incident model
   * (incidentModel.ts): the worse vehicles and routes and the faster vehicles are likelier, the type follows
   * the speed and hour. It goes in as a unit's incident (validated, deduplicated, the bell for grade 3).
   */
  async emitIncident(positions: readonly Position[], t = this.now()): Promise<number[]> {
    const types = this.network?.incidentTypes ?? [];
    const moving = positions.filter((p) => p.speed > 5);
    const candidates = moving.length ? moving : positions;
    if (!this.deps.incidents || types.length === 0 || candidates.length === 0) return [];
    const weights = candidates.map(
      (p) => vehicleFactor(p.vehicleId) * routeFactor(this.stateOf(p.vehicleId, t)?.routeId ?? null) * speedFactor(p.speed),
    );
    let roll = Math.random() * weights.reduce((sum, w) => sum + w, 0);
    const p = candidates.find((_, i) => (roll -= weights[i]) < 0) ?? candidates[candidates.length - 1];
    const hour = Math.floor(operatorMinute(t, this.config.tzOffsetMinutes) / 60);
    const incidentType = pickType(types, p.speed, hour, Math.random);
    const placeOf = (vehicleId: number, time: number) => {
      const state = this.stateOf(vehicleId, time);
      return state && { routeId: state.routeId, tripId: state.tripId };
    };
    try {
      const ids = await this.deps.incidents(
        [
          {
            depot_number: this.network?.depotNumberOf.get(p.vehicleId),
            incident_type: incidentType,
            tm: Math.floor(t / 1000) * 1000,
            speed: Math.round(p.speed * 10) / 10,
            lat: p.lat,
            lon: p.lon,
            grade: pickGrade(incidentType, p.speed, Math.random),
          },
        ],
        { sourceId: null, allowedDevices: null, placeOf },
      );
      this.stats.incidents += ids.length;
      return ids;
    } catch (err) {
      this.deps.log.warn({ err }, 'simulated incident not written');
      return [];
    }
  }

  private emit(positions: Position[]): void {
    if (positions.length === 0) return;
    this.stats.reports += positions.length;
    this.deps.ingest(positions);
  }

  /**
   * A new operator day, or a change of what the day was planned from (looked at every minute, when the runs
   * ended meanwhile are recorded too): the new plans load in the background while the old ones keep running.
   */
  private maybeReload(t: number): void {
    if (this.loading || !this.network || this.stopped) return;
    const date = operatorDate(t, this.config.tzOffsetMinutes);
    const newDay = date !== this.day;
    if (!newDay && t - this.checkedAt < CHECK_MS) return;
    this.checkedAt = t;
    this.recording ??= this.recordTruth(t)
      .catch((err) => this.deps.log.warn({ err }, 'simulator ground truth not written'))
      .finally(() => {
        this.recording = null;
      });
    this.loading = (newDay ? this.loadDay(date) : this.refresh())
      .catch((err) => this.deps.log.error({ err, date }, 'simulator could not plan the day'))
      .finally(() => {
        this.loading = null;
      });
  }

  /**
   * Plans the current day again if its network, timetable or assignments changed since it was planned (the
   * network itself is read again after an import or a change of stops or trips). True when it did.
   */
  async refresh(): Promise<boolean> {
    const date = this.day ?? operatorDate(this.now(), this.config.tzOffsetMinutes);
    const now = await readTimetableVersion(this.deps.db, date);
    if (sameTimetable(this.versions, now)) return false;
    if (!this.network || now.network !== this.versions?.network) this.network = await loadNetwork(this.deps.db);
    await this.loadDay(date, now);
    return true;
  }

  /** The day's work (trips and kilometres per vehicle and route) for the incident rates (adas.route_work). */
  private async writeWork(date: string): Promise<void> {
    const midnight = operatorMidnight(date, this.config.tzOffsetMinutes);
    const work = workOf(this.plans, midnight, midnight + 86_400_000);
    if (!work.length) return;
    await this.deps.db.query(
      `insert into adas.route_work (day, vehicle_id, route_id, trips, km)
       select $1::date, x.vehicle_id, x.route_id, x.trips, x.km from jsonb_to_recordset($2::jsonb) as x(vehicle_id int, route_id int, trips int, km real)
       on conflict (day, vehicle_id, route_id) do update set trips = excluded.trips, km = excluded.km`,
      [date, JSON.stringify(work)],
    );
  }

  /** Plans `date`; `versions` are what it is planned from (read before planning, so a change meanwhile is seen next time). */
  private async loadDay(date: string, versions?: TimetableVersion): Promise<void> {
    const started = performance.now();
    const from = versions ?? (await readTimetableVersion(this.deps.db, date));
    const plans = await planDay(this.deps.db, this.network!, date, this.config.tzOffsetMinutes);
    // the runs ended under the old plans are theirs to record
    if (this.truthFrom !== null) await this.recordTruth();
    this.plans = plans;
    this.planOf = new Map(plans.map((plan) => [plan.vehicleId, plan]));
    this.terminals = plans.map((plan) => {
      const terminal = terminalOf(plan.vehicleId, this.config.intervals);
      return { ...terminal, parkedEvery: Math.max(1, Math.min(this.config.parkedEvery, Math.floor(PARKED_MAX_S / terminal.intervalS))) };
    });
    if (date !== this.day)
      await this.deps.db.query('delete from simulator.truth_run where service_date < $1::date - $2::int', [date, TRUTH_DAYS]);
    await this.writeWork(date);
    this.day = date;
    this.versions = from;
    this.checkedAt = this.now();
    this.stats.plans = this.plans.length;
    this.stats.lastLoadMs = performance.now() - started;
  }
}
