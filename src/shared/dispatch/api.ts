import { Type, type Static, type TSchema } from 'typebox';
import { isoDate } from '../format';

/**
 * The live timetable's contract (server route schemas and the console's payload types, one declaration).
 * Rights: code 44, «Просмотр диспетчерских данных», read on the dispatch keys (DISPATCH_RIGHTS_PATH, the line
 * diagram's and the plan and fact's own keys); code 45, «Квитирование исключений», update on the board.
 */
export const DISPATCH_RIGHTS_PATH = '/dispatch/board';
export const DISPATCH_LINES_PATH = '/dispatch/lines';
export const DISPATCH_EXITS_PATH = '/dispatch/exits';

/**
 * The dispatcher's day changes at 03:00, not at midnight: the runs still out after midnight belong to the day
 * before, so until then the plan and fact opens on that day.
 */
export const SERVICE_DAY_CHANGEOVER_MINUTES = 180;
export const serviceDayAt = (now: number): string => isoDate(now - SERVICE_DAY_CHANGEOVER_MINUTES * 60_000);

export const DISPATCH_API = {
  /** Every vehicle the engine follows: its run, progress, adherence, headway, last passages, exceptions, predictions. */
  vehicles: '/api/v1/dispatch/vehicles',
  /** One vehicle as its card shows it: run, driver, deviation, headway, next stops with their names and times. */
  vehicleCard: '/api/v1/dispatch/vehicles/:id/card',
  /** Each vehicle's adherence class, for the map's colours. */
  adherence: '/api/v1/dispatch/adherence',
  /** The exceptions of the moment with counters by kind (the board). */
  exceptions: '/api/v1/dispatch/exceptions',
  /** Acknowledges an exception with a comment (code 45, journaled). */
  acknowledge: '/api/v1/dispatch/exceptions/acknowledge',
  /** A stop's predicted arrivals for the next hour, per route. */
  arrivals: '/api/v1/dispatch/stops/:id/arrivals',
  /** A route's stops per direction with distances, and the vehicles on it (the line diagram). */
  line: '/api/v1/dispatch/routes/:id/line',
  /** A day's exits of a route or depot: each run's plan and fact from the stored passages. */
  exits: '/api/v1/dispatch/exits',
  /** The filters' choices: the routes of today's timetable and the depots. */
  options: '/api/v1/dispatch/options',
} as const;

export const ExceptionKind = Type.Union([
  Type.Literal('late'),
  Type.Literal('early'),
  Type.Literal('bunching'),
  Type.Literal('gap'),
  Type.Literal('off_route'),
  Type.Literal('no_signal'),
  Type.Literal('exit_not_started'),
  Type.Literal('run_not_performed'),
  Type.Literal('driver_message'),
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

export const DispatchVehicleQuery = Type.Object(
  {
    vehicle: Type.Optional(Type.String({ pattern: '^[1-9][0-9]{0,8}$', description: 'one vehicle id' })),
    route: Type.Optional(Type.String({ pattern: '^[1-9][0-9]{0,8}$', description: 'vehicles on runs of one route' })),
  },
  { additionalProperties: false },
);
export type DispatchVehicleQuery = Static<typeof DispatchVehicleQuery>;

export const DispatchVehicleList = Type.Object({ list: Type.Array(DispatchVehicle), count: Type.Integer() });
export type DispatchVehicleList = Static<typeof DispatchVehicleList>;

/** Where a vehicle stands against its timetable by the thresholds of the navigation settings; none: no run. */
export const Adherence = Type.Union([Type.Literal('early'), Type.Literal('on_time'), Type.Literal('late'), Type.Literal('none')]);
export type Adherence = Static<typeof Adherence>;
export const ADHERENCE_CLASSES = ['late', 'on_time', 'early', 'none'] as const satisfies readonly Adherence[];
export const EXCEPTION_KINDS = [
  'late',
  'early',
  'bunching',
  'gap',
  'off_route',
  'no_signal',
  'exit_not_started',
  'run_not_performed',
  'driver_message',
] as const satisfies readonly ExceptionKind[];

const Id = Type.String({ pattern: '^[1-9][0-9]{0,8}$' });
export const DispatchIdParams = Type.Object({ id: Id }, { additionalProperties: false });
export type DispatchIdParams = Static<typeof DispatchIdParams>;

export const AdherenceList = Type.Object({
  lateSeconds: Type.Integer(),
  earlySeconds: Type.Integer(),
  list: Type.Array(
    Type.Object({
      vehicleId: Type.Integer(),
      routeId: Nullable(Type.Integer()),
      deviation: Nullable(Type.Integer()),
      adherence: Adherence,
    }),
  ),
});
export type AdherenceList = Static<typeof AdherenceList>;

/** Who a vehicle is to a dispatcher: its numbers. */
const VehicleNames = {
  vehicleId: Nullable(Type.Integer()),
  depotNumber: Nullable(Type.Integer()),
  stateNumber: Nullable(Type.String()),
};

/** The run a row is about: route, exit (выход), shift, race. */
const RunNames = {
  routeId: Nullable(Type.Integer()),
  routeName: Nullable(Type.String()),
  graph: Nullable(Type.Integer()),
  smena: Nullable(Type.String()),
  raceNum: Nullable(Type.Integer()),
  driver: Nullable(Type.String()),
};

export const Acknowledgement = Type.Object({ at: Type.String(), username: Nullable(Type.String()), comment: Type.String() });
export type Acknowledgement = Static<typeof Acknowledgement>;

export const BoardException = Type.Object({
  key: Type.String({ description: "the exception's key while it lasts: kind and subject" }),
  kind: ExceptionKind,
  since: Type.String(),
  ...VehicleNames,
  ...RunNames,
  depotId: Nullable(Type.Integer()),
  /** Seconds behind the timetable for late and early (the vehicle's current deviation otherwise). */
  deviation: Nullable(Type.Integer()),
  /** What the kind measures: seconds of deviation or headway, metres off the route, seconds of silence. */
  value: Nullable(Type.Number()),
  /** A driver's message: its text. */
  note: Nullable(Type.String()),
  acknowledged: Nullable(Acknowledgement),
});
export type BoardException = Static<typeof BoardException>;

const IdList = Type.String({ pattern: '^[1-9][0-9]{0,8}(,[1-9][0-9]{0,8}){0,49}$' });
export const BoardQuery = Type.Object(
  {
    depot: Type.Optional(IdList),
    route: Type.Optional(IdList),
    kind: Type.Optional(
      Type.String({
        pattern: `^(${EXCEPTION_KINDS.join('|')})(,(${EXCEPTION_KINDS.join('|')})){0,8}$`,
        description: 'kinds, comma-separated',
      }),
    ),
  },
  { additionalProperties: false },
);
export type BoardQuery = Static<typeof BoardQuery>;

export const BoardList = Type.Object({
  list: Type.Array(BoardException),
  count: Type.Integer(),
  /** By kind, over the depot and route filters (not the kind filter): all, and those not acknowledged. */
  counters: Type.Array(Type.Object({ kind: ExceptionKind, count: Type.Integer(), open: Type.Integer() })),
});
export type BoardList = Static<typeof BoardList>;

export const ACK_COMMENT_MAX = 500;
export const AcknowledgeBody = Type.Object(
  {
    key: Type.String({ minLength: 1, maxLength: 200 }),
    /** The exception's `since`: an acknowledgement names one occurrence, not a later one of the same key. */
    since: Type.String({ minLength: 1, maxLength: 40 }),
    comment: Type.String({ maxLength: ACK_COMMENT_MAX }),
  },
  { additionalProperties: false },
);
export type AcknowledgeBody = Static<typeof AcknowledgeBody>;

export const NextStop = Type.Object({
  stopId: Type.Integer(),
  name: Nullable(Type.String()),
  raceNum: Type.Integer(),
  scheduled: Type.String(),
  predicted: Type.String(),
});
export type NextStop = Static<typeof NextStop>;

export const VehicleCard = Type.Object({
  ...VehicleNames,
  vehicleId: Type.Integer(),
  ...RunNames,
  status: Type.Union([Type.Literal('in_service'), Type.Literal('layover'), Type.Literal('off')]),
  direction: Nullable(Type.Integer()),
  scheduledStart: Nullable(Type.String()),
  scheduledEnd: Nullable(Type.String()),
  deviation: Nullable(Type.Integer()),
  adherence: Adherence,
  headway: Nullable(Type.Integer()),
  scheduledHeadway: Nullable(Type.Integer()),
  lastFix: Nullable(Type.String()),
  nextStops: Type.Array(NextStop),
  exceptions: Type.Array(ExceptionKind),
});
export type VehicleCard = Static<typeof VehicleCard>;

export const StopArrival = Type.Object({
  ...VehicleNames,
  vehicleId: Type.Integer(),
  graph: Type.Integer(),
  raceNum: Type.Integer(),
  scheduled: Type.String(),
  predicted: Type.String(),
  deviation: Nullable(Type.Integer()),
});
export type StopArrival = Static<typeof StopArrival>;

export const StopArrivals = Type.Object({
  stopId: Type.Integer(),
  name: Nullable(Type.String()),
  at: Type.String({ description: 'when the prediction was made' }),
  routes: Type.Array(
    Type.Object({
      routeId: Type.Integer(),
      routeName: Nullable(Type.String()),
      direction: Type.Integer(),
      arrivals: Type.Array(StopArrival),
    }),
  ),
});
export type StopArrivals = Static<typeof StopArrivals>;

export const LineStop = Type.Object({
  stopId: Type.Integer(),
  name: Nullable(Type.String()),
  distance: Type.Number({ description: 'metres from the first stop' }),
  /** Closed now (/dispatch/changes: a closed stop, or skipped by a detour). */
  closed: Type.Boolean(),
});
export type LineStop = Static<typeof LineStop>;

export const LineVehicle = Type.Object({
  ...VehicleNames,
  vehicleId: Type.Integer(),
  direction: Type.Integer(),
  status: Type.Union([Type.Literal('in_service'), Type.Literal('layover')]),
  /** Metres from the direction's first stop, placed between the stops the vehicle is between. */
  distance: Type.Number(),
  progress: Type.Number({ description: '0 at the first stop, 1 at the last' }),
  graph: Type.Integer(),
  smena: Type.String(),
  raceNum: Type.Integer(),
  deviation: Nullable(Type.Integer()),
  adherence: Adherence,
  headway: Nullable(Type.Integer()),
  scheduledHeadway: Nullable(Type.Integer()),
});
export type LineVehicle = Static<typeof LineVehicle>;

export const RouteLine = Type.Object({
  routeId: Type.Integer(),
  routeName: Nullable(Type.String()),
  /** One per direction the day's timetable runs: the stops of its most frequent run. */
  directions: Type.Array(Type.Object({ direction: Type.Integer(), length: Type.Number(), stops: Type.Array(LineStop) })),
  vehicles: Type.Array(LineVehicle),
});
export type RouteLine = Static<typeof RouteLine>;

export const RunStatus = Type.Union([
  Type.Literal('performed'),
  Type.Literal('partial'),
  Type.Literal('in_progress'),
  Type.Literal('not_performed'),
  /** No passages, and the live timetable was not running when it was due to end (before its first start, a stop). */
  Type.Literal('not_watched'),
  Type.Literal('planned'),
  Type.Literal('cancelled'),
]);
export type RunStatus = Static<typeof RunStatus>;
export const RUN_STATUSES = [
  'performed',
  'partial',
  'in_progress',
  'not_performed',
  'not_watched',
  'planned',
  'cancelled',
] as const satisfies readonly RunStatus[];

export const ExitsQuery = Type.Object(
  {
    date: Type.String({ pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$', description: 'the service date, YYYY-MM-DD' }),
    route: Type.Optional(Id),
    depot: Type.Optional(Id),
  },
  { additionalProperties: false },
);
export type ExitsQuery = Static<typeof ExitsQuery>;

/**
 * Why a run was not performed (or only partly), from what the product knows: the dispatchers cancelled it, its
 * exit was handed over and the new vehicle did not run it, the exit has no vehicle, the vehicle ended early (the
 * stops passed say how far it got), it worked another exit meanwhile, it reported away from the run, it was silent
 * then though seen earlier that day, or it did not come out at all.
 */
export const NOT_PERFORMED_REASONS = [
  'cancelled',
  'handed_over',
  'no_vehicle',
  'ended_early',
  'other_exit',
  'off_route',
  'no_signal',
  'not_out',
] as const;
export const NotPerformedReason = Type.Enum(NOT_PERFORMED_REASONS);
export type NotPerformedReason = Static<typeof NotPerformedReason>;

export const ExitRun = Type.Object({
  routeId: Type.Integer(),
  routeName: Nullable(Type.String()),
  graph: Type.Integer(),
  smena: Type.String(),
  raceNum: Type.Integer(),
  direction: Type.Integer(),
  /** The vehicle of the exit's task, and the one whose passages the run has (another when replaced). */
  plannedVehicle: Nullable(Type.Integer()),
  vehicleId: Nullable(Type.Integer()),
  depotNumber: Nullable(Type.Integer()),
  driver: Nullable(Type.String()),
  plannedStart: Type.String(),
  plannedEnd: Type.String(),
  actualStart: Nullable(Type.String({ description: 'departure from the first stop (the first passage where it was missed)' })),
  actualEnd: Nullable(Type.String({ description: 'arrival at the last stop' })),
  startDeviation: Nullable(Type.Integer({ description: 'seconds, positive: late' })),
  endDeviation: Nullable(Type.Integer()),
  stops: Type.Integer({ description: 'stops of the run' }),
  passed: Type.Integer({ description: 'stops with a passage' }),
  status: RunStatus,
  /** The day's service changes on the run (/dispatch/changes): cancelled with this reason, its start moved by minutes. */
  cancelReason: Nullable(Type.String()),
  shiftMinutes: Nullable(Type.Integer()),
  /** Added to the day (not in the timetable); its exit handed over to `vehicleId` before it ran. */
  added: Type.Boolean(),
  handedOver: Type.Boolean(),
  /** Why it was not performed (statuses not_performed, partial, cancelled); null otherwise. */
  reason: Nullable(NotPerformedReason),
});
export type ExitRun = Static<typeof ExitRun>;

export const ExitsList = Type.Object({
  date: Type.String(),
  list: Type.Array(ExitRun),
  count: Type.Integer(),
  totals: Type.Object({
    planned: Type.Integer(),
    performed: Type.Integer(),
    partial: Type.Integer(),
    notPerformed: Type.Integer(),
    notWatched: Type.Integer(),
    cancelled: Type.Integer(),
  }),
});
export type ExitsList = Static<typeof ExitsList>;

export const DispatchOptions = Type.Object({
  routes: Type.Array(Type.Object({ id: Type.Integer(), name: Type.String(), depotId: Nullable(Type.Integer()) })),
  depots: Type.Array(Type.Object({ id: Type.Integer(), name: Type.String() })),
  /** The vehicles the engine follows or the days' tasks name, by garage number: the recipients of a message. */
  vehicles: Type.Array(Type.Object({ id: Type.Integer(), name: Type.String() })),
});
export type DispatchOptions = Static<typeof DispatchOptions>;
