import type GtfsRealtimeBindings from 'gtfs-realtime-bindings';
import { VEHICLE_STALE_MS } from '../../shared/map';
import type { DispatchEngine } from '../dispatch/engine';
import type { VehicleState } from '../dispatch/engineTypes';
import type { DaySchedule, Run } from '../dispatch/schedule';
import { operatorMidnight, operatorMinuteOfDay } from '../platform/operatorDay';
import type { RunTrips } from './export/runTrips';
import { formatGtfsDate, formatGtfsTime } from './feed/gtfsValues';
import { rt, type TripDescriptor } from './realtimeFeed';

/** A stop ahead as the feed gives it: predicted arrival and departure (epoch seconds) and their delays (s). */
export type StopUpdate = GtfsRealtimeBindings.transit_realtime.TripUpdate.IStopTimeUpdate;

/** A vehicle's run as a trip update: the trip, the vehicle's deviation, when it was last seen, the stops ahead. */
export interface LiveTripUpdate {
  vehicleId: number;
  trip: TripDescriptor;
  delay: number | null;
  timestamp: number;
  stops: StopUpdate[];
}

/** The static ids the feeds name runs by (RunTrips; the bench gives its own). */
export type RunIds = Pick<RunTrips, 'ensureFresh' | 'routeId' | 'stopId' | 'tripId'>;

/**
 * Predictions reach past the run's scheduled end by the vehicle's lateness and this, so its last stops are
 * predicted too (the engine walks the block's next runs up to the horizon: each minute more is work thrown away).
 */
const RUN_END_SLACK_MS = 10 * 60_000;

/** What a vehicle's trip update is made from: its last fix, its place on its run, the service changes read. */
interface Stamp {
  fix: number;
  run: Run;
  next: number;
  arrived: number | null;
  deviation: number | null;
  changes: number;
}

const sameStamp = (a: Stamp, b: Stamp) =>
  a.fix === b.fix &&
  a.run === b.run &&
  a.next === b.next &&
  a.arrived === b.arrived &&
  a.deviation === b.deviation &&
  a.changes === b.changes;

/**
 * What the GTFS-Realtime feeds read of the live timetable (src/server/dispatch), in the static feed's ids: the
 * trip a vehicle's matched run is, the predicted times of the stops ahead of it, and the runs the engine reports
 * not performed. Reads the engine's state as it is; no database but the ids (RunTrips).
 */
export class LiveRuns {
  private heldDays: readonly DaySchedule[] = [];
  private heldVariants: number[] = [];
  /** Each run's descriptor, made once (a feed names thousands of runs a second). */
  private readonly descriptors = new WeakMap<Run, TripDescriptor>();
  /**
   * Each vehicle's last trip update and what it was made from: a vehicle without a new fix, a service change or
   * new learned times since gives the same update (the same object, so its encoding is kept too).
   */
  private made = new Map<number, { stamp: Stamp; update: LiveTripUpdate }>();
  private madeWith: { learned: unknown; days: readonly DaySchedule[] } | null = null;

  constructor(
    private readonly engine: DispatchEngine,
    private readonly ids: RunIds,
    private readonly tzOffsetMinutes: number,
  ) {}

  /** The static ids of the races of the days the engine holds (read again when those change). */
  ensureFresh(now: number): Promise<void> {
    const days = this.engine.schedules;
    if (days !== this.heldDays) {
      this.heldDays = days;
      this.heldVariants = [...new Set(days.flatMap((d) => d.runs.map((r) => r.variantId)))];
    }
    return this.ids.ensureFresh(this.heldVariants, now);
  }

  /**
   * A run as a trip: the static feed's trip (when it has the race), route, direction, service date and first
   * departure (`HH:MM:SS`, past 24 after midnight), as stop_times.txt has them.
   */
  descriptor(run: Run): TripDescriptor {
    // a run added to the day (/dispatch/changes) is no trip of the static feed: a new trip id, ADDED
    const tripId = run.added ? `added-${run.serviceDate}-${run.smena.slice(1)}` : this.ids.tripId(run);
    const known = this.descriptors.get(run);
    if (known && known.tripId === tripId) return known;
    const start = Math.round((this.engine.plannedTimes(run).start - operatorMidnight(run.serviceDate, this.tzOffsetMinutes)) / 1000);
    const made: TripDescriptor = {
      ...(tripId ? { tripId } : {}),
      routeId: this.ids.routeId(run.routeId),
      directionId: run.direction,
      startDate: formatGtfsDate(run.serviceDate),
      startTime: formatGtfsTime(start),
      ...(run.added ? { scheduleRelationship: rt.TripDescriptor.ScheduleRelationship.ADDED } : {}),
    };
    this.descriptors.set(run, made);
    return made;
  }

  /** The trip of the run the engine matched the vehicle to; null without one. */
  tripOf(vehicleId: number): TripDescriptor | null {
    const run = this.engine.state(vehicleId)?.run;
    return run ? this.descriptor(run) : null;
  }

  /**
   * One update per run worked by a vehicle seen within VEHICLE_STALE_MS (in service, or on its layover before
   * the run): the stops of the run still ahead with predicted arrival and departure. Runs the static feed does
   * not have are left out (a consumer could not place them), but for those added to the day (ADDED); two vehicles on
   * one run give the one that set out.
   * The predictions are made as of the vehicle's last fix (TheTransitClock's way: a prediction a position), so
   * a vehicle that has not reported since the last feed keeps its update: a feed of a large fleet polled every
   * second makes only the updates of the vehicles that reported meanwhile. One at a time, so the feed can be
   * built in slices.
   */
  *updates(now: number): Generator<LiveTripUpdate> {
    const basis = { learned: this.engine.learned, days: this.engine.schedules };
    if (this.madeWith?.learned !== basis.learned || this.madeWith.days !== basis.days) this.made.clear();
    this.madeWith = basis;
    // the vehicles of this feed: one no longer in it is forgotten
    const made = new Map<number, { stamp: Stamp; update: LiveTripUpdate }>();
    const byRun = new Map<string, VehicleState>();
    for (const v of this.engine.states()) {
      if (
        !v.run ||
        !v.point ||
        !v.last ||
        now - v.last.time >= VEHICLE_STALE_MS ||
        (!v.run.added && !this.ids.tripId(v.run)) ||
        this.engine.isCancelled(v.run.key)
      )
        continue;
      const other = byRun.get(v.run.key);
      if (!other || (v.started && !other.started)) byRun.set(v.run.key, v);
    }
    for (const [key, v] of byRun) {
      // between two slices the engine may have moved the vehicle on
      if (v.run?.key !== key || !v.point || !v.last) continue;
      const stamp: Stamp = {
        fix: v.last.time,
        run: v.run,
        next: v.cursor.next,
        arrived: v.cursor.atStop ? (v.cursor.atStop.arrival ?? v.point.time) : null,
        deviation: v.deviation,
        changes: this.engine.changesRevision,
      };
      let entry = this.made.get(v.vehicleId);
      if (!entry || !sameStamp(entry.stamp, stamp)) {
        entry = {
          stamp,
          update: {
            vehicleId: v.vehicleId,
            trip: this.descriptor(v.run),
            delay: v.deviation,
            timestamp: Math.floor(v.last.time / 1000),
            stops: this.stopsAhead(v, v.last.time),
          },
        };
      }
      made.set(v.vehicleId, entry);
      yield entry.update;
    }
    this.made = made;
  }

  /**
   * The runs the dispatchers cancelled (/dispatch/changes) and those the engine reports not performed
   * (`run_not_performed`) that the static feed has, as cancelled trips.
   */
  cancelled(): TripDescriptor[] {
    const out: TripDescriptor[] = [];
    const keys = new Set(this.engine.cancelledRuns());
    for (const e of this.engine.exceptions()) if (e.kind === 'run_not_performed' && e.runKey) keys.add(e.runKey);
    for (const key of keys) {
      const run = this.engine.schedules.find((d) => d.serviceDate === key.slice(0, 10))?.runByKey.get(key);
      if (run && this.ids.tripId(run))
        out.push({ ...this.descriptor(run), scheduleRelationship: rt.TripDescriptor.ScheduleRelationship.CANCELED });
    }
    return out;
  }

  /**
   * The engine's learned predictions for the rest of the run: arrival, and departure after the stop's learned
   * dwell (the engine's own walk: never before the scheduled departure at the first stop; none at the last,
   * where the run ends). The stop the vehicle stands at has only its departure.
   */
  private stopsAhead(v: VehicleState, now: number): StopUpdate[] {
    const run = v.run!;
    const last = run.stopIds.length - 1;
    const horizon = Math.max(0, run.end + Math.max(0, v.deviation ?? 0) * 1000 - now) + RUN_END_SLACK_MS;
    const departAfter = (i: number, since: number, at: number) => {
      const dwell =
        this.engine.learned.dwell(run.stopIds[i], run.dayType, Math.floor(operatorMinuteOfDay(at, this.tzOffsetMinutes) / 60)) ?? 0;
      return Math.max(at, since + dwell, i === 0 ? run.times[0] : -Infinity);
    };
    const row = (i: number, arrival: number | null, departure: number): StopUpdate => {
      const update: StopUpdate = { stopSequence: run.sequences[i], stopId: this.ids.stopId(run.stopIds[i]) };
      if (arrival !== null) update.arrival = { time: Math.round(arrival / 1000), delay: Math.round((arrival - run.times[i]) / 1000) };
      if (i < last) update.departure = { time: Math.round(departure / 1000), delay: Math.round((departure - run.times[i]) / 1000) };
      return update;
    };
    const rows: StopUpdate[] = [];
    const next = v.cursor.next;
    // (the last stop has no departure: reaching it ends the run)
    if (next < last && (v.cursor.atStop || next === 0)) {
      const since = v.cursor.atStop ? (v.cursor.atStop.arrival ?? v.point!.time) : now;
      rows.push(row(next, null, departAfter(next, since, now)));
    }
    for (const p of this.engine.predictions(v.vehicleId, now, horizon)) {
      if (p.run !== run) break;
      rows.push(row(p.stopIndex, p.predicted, p.departure));
    }
    // the stops ahead closed for the run (closed stops, a detour's skipped ones): no vehicle calls there
    const closed = [...this.engine.closedStops(run.key)].filter((i) => i >= next);
    if (!closed.length) return rows;
    for (const i of closed)
      rows.push({
        stopSequence: run.sequences[i],
        stopId: this.ids.stopId(run.stopIds[i]),
        scheduleRelationship: rt.TripUpdate.StopTimeUpdate.ScheduleRelationship.SKIPPED,
      });
    return rows.sort((a, b) => (a.stopSequence ?? 0) - (b.stopSequence ?? 0));
  }
}
