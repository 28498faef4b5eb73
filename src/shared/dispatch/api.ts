import { Type, type Static, type TSchema } from 'typebox';

/**
 * The live timetable's contract (server route schemas and the console's payload types, one declaration).
 * Rights: code 44, «Просмотр диспетчерских данных», read on the dispatch keys (DISPATCH_RIGHTS_PATH).
 */
export const DISPATCH_RIGHTS_PATH = '/dispatch/board';

export const DISPATCH_API = {
  /** Every vehicle the engine follows: its run, progress, adherence, headway, last passages, exceptions, predictions. */
  vehicles: '/api/v1/dispatch/vehicles',
} as const;

export const ExceptionKind = Type.Union([
  Type.Literal('late'), Type.Literal('early'), Type.Literal('bunching'), Type.Literal('gap'), Type.Literal('off_route'),
  Type.Literal('no_signal'), Type.Literal('exit_not_started'), Type.Literal('run_not_performed'),
]);
export type ExceptionKind = Static<typeof ExceptionKind>;

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/** Times are ISO 8601 (UTC) strings; deviations and headways whole seconds (positive: late, longer). */
export const DispatchRun = Type.Object({
  key: Type.String({ description: 'service date|schedule variant|exit|shift|race' }),
  serviceDate: Type.String(),
  routeId: Type.Integer(),
  direction: Type.Integer(),
  graph: Type.Integer({ description: 'exit (выход)' }),
  smena: Type.String({ description: 'shift (смена)' }),
  raceNum: Type.Integer(),
  tripId: Nullable(Type.Integer()),
  scheduledStart: Type.String(),
  scheduledEnd: Type.String(),
});
export type DispatchRun = Static<typeof DispatchRun>;

export const DispatchPassage = Type.Object({
  stopId: Type.Integer(),
  stopSequence: Type.Integer(),
  scheduled: Type.String(),
  arrival: Nullable(Type.String()),
  departure: Nullable(Type.String()),
  interpolated: Type.Boolean(),
});
export type DispatchPassage = Static<typeof DispatchPassage>;

export const DispatchPrediction = Type.Object({
  stopId: Type.Integer(),
  stopSequence: Type.Integer(),
  runKey: Type.String(),
  scheduled: Type.String(),
  predicted: Type.String({ description: 'learned segment and dwell times' }),
  baseline: Type.String({ description: 'timetable plus the current deviation' }),
});
export type DispatchPrediction = Static<typeof DispatchPrediction>;

export const DispatchVehicle = Type.Object({
  vehicleId: Type.Integer(),
  /** in_service: on a run or waiting at its first stop; layover: between runs of its exit; off: no run matched. */
  status: Type.Union([Type.Literal('in_service'), Type.Literal('layover'), Type.Literal('off')]),
  /** How the run was found: the vehicle's task, a replacement, or the best fit of position and time. */
  matchedBy: Nullable(Type.Union([Type.Literal('task'), Type.Literal('replacement'), Type.Literal('fit')])),
  /** A vehicle with a task found working another exit. */
  otherExit: Type.Boolean(),
  run: Nullable(DispatchRun),
  /** Metres along the run's trajectory, and off it. */
  distance: Nullable(Type.Number()),
  offset: Nullable(Type.Number()),
  nextStopSequence: Nullable(Type.Integer()),
  deviation: Nullable(Type.Integer({ description: 'seconds behind the timetable (negative: ahead)' })),
  headway: Nullable(Type.Integer({ description: 'seconds behind the vehicle ahead on the same route and direction' })),
  scheduledHeadway: Nullable(Type.Integer()),
  lastFix: Nullable(Type.String()),
  passages: Type.Array(DispatchPassage),
  predictions: Type.Array(DispatchPrediction),
  exceptions: Type.Array(Type.Object({ kind: ExceptionKind, since: Type.String(), value: Nullable(Type.Number()) })),
});
export type DispatchVehicle = Static<typeof DispatchVehicle>;

export const DispatchVehicleQuery = Type.Object({
  vehicle: Type.Optional(Type.String({ pattern: '^[1-9][0-9]{0,8}$', description: 'one vehicle id' })),
  route: Type.Optional(Type.String({ pattern: '^[1-9][0-9]{0,8}$', description: 'vehicles on runs of one route' })),
}, { additionalProperties: false });
export type DispatchVehicleQuery = Static<typeof DispatchVehicleQuery>;

export const DispatchVehicleList = Type.Object({ list: Type.Array(DispatchVehicle), count: Type.Integer() });
export type DispatchVehicleList = Static<typeof DispatchVehicleList>;
