import type { ExceptionKind } from '../../shared/dispatch/api';
import type { DispatchSettings } from '../../shared/dispatch/settings';
import type { LatLon } from '../simulator/polyline';
import type { Position } from '../telemetry/types';
import type { PassageCursor, RunPoint } from './passages';
import type { DaySchedule, Run } from './schedule';

/** The thresholds in force: the dispatch settings and the navigation settings' allowed deviation from the route. */
export interface EngineSettings extends DispatchSettings {
  offRouteMeters: number;
}

/** One position as the engine takes it: the telemetry pipeline's, without what only the track keeps. */
export type Fix = Pick<Position, 'time' | 'lat' | 'lon' | 'speed' | 'course' | 'valid'>;

export type MatchSource = 'task' | 'replacement' | 'fit';

/** A stop passage ready to store (dispatch.stop_passage). */
export interface PassageRecord {
  vehicleId: number;
  run: Run;
  stopIndex: number;
  arrival: number | null;
  departure: number | null;
  interpolated: boolean;
}

export interface DispatchException {
  key: string;
  kind: ExceptionKind;
  vehicleId: number | null;
  routeId: number | null;
  blockKey: string | null;
  runKey: string | null;
  since: number;
  /** Seconds of deviation or headway, metres off the route, seconds of silence; null where nothing is measured. */
  value: number | null;
  /** A dispatcher's acknowledgement of this occurrence: marked, the exception stays while it lasts. */
  ack?: ExceptionAck;
  /** A driver's message: its text. */
  text?: string;
}

/** A run's service changes in force (dispatch.service_change): cancelled, and its start moved (ms, positive later). */
export interface RunChange {
  cancelled: boolean;
  shiftMs: number;
}

/** An exit handed over to another vehicle from a time on (dispatch.service_change kind 'handover'). */
export interface Handover {
  blockKey: string;
  vehicleId: number;
  /** The vehicle giving it up: not matched to the exit again from then. */
  fromVehicleId: number | null;
  at: number;
}

/** A run added to the day (kind 'add'): its key, the run whose stop times it copies, its first departure, its vehicle. */
export interface AddedRun {
  key: string;
  templateKey: string;
  start: number;
  vehicleId: number | null;
}

/** A stop closed for a period (kind 'close_stop'): on one route, or on every route through it (`routeId` null). */
export interface StopClosure {
  routeId: number | null;
  stopId: number;
  from: number;
  to: number;
}

/**
 * A detour (kind 'detour'): the route's runs of a direction (null: both) due at `fromStopId` within the period
 * leave their trajectory there for `path` and join it again at `toStopId`; the stops between are closed for them.
 */
export interface Detour {
  routeId: number;
  direction: 0 | 1 | null;
  fromStopId: number;
  toStopId: number;
  from: number;
  to: number;
  path: readonly LatLon[];
}

/** The day's service changes beyond a run's own: handovers of exits, added runs, closed stops and detours. */
export interface DayChanges {
  handovers: readonly Handover[];
  added: readonly AddedRun[];
  closures?: readonly StopClosure[];
  detours?: readonly Detour[];
}

export interface ExceptionAck {
  at: number;
  userId: number | null;
  username: string | null;
  comment: string;
}

export interface ExceptionEvent {
  type: 'raised' | 'cleared';
  at: number;
  exception: DispatchException;
}

/** Everything the engine knows of one vehicle. */
export interface VehicleState {
  vehicleId: number;
  last: Fix | null;
  run: Run | null;
  day: DaySchedule | null;
  matchedBy: MatchSource | null;
  otherExit: boolean;
  /** Departed the run's first stop. */
  started: boolean;
  /** Its last point on the run, and its distance off the trajectory there. */
  point: RunPoint | null;
  offset: number | null;
  cursor: PassageCursor;
  radii: Float64Array | null;
  offRouteSince: number | null;
  /** Seconds behind the timetable (negative: ahead). */
  deviation: number | null;
  headway: number | null;
  scheduledHeadway: number | null;
  /** Its last stop passages, oldest first (the current run's and a few before). */
  passages: PassageRecord[];
  /** Runs it finished today: the block goes on from the last of them. */
  completed: Map<string, number>;
  /** The vehicle it would exchange exits with, and at how many of its departures in a row that held (matching.ts). */
  exchange: { partner: number; seen: number } | null;
}
