import { Type, type Static, type TSchema } from 'typebox';

/**
 * Same-day service control (the contract of /dispatch/changes and /dispatch/messages; server route schemas and the
 * console's payload types, one declaration). Rights: code 44 reads both keys; code 46 «Изменения движения и
 * оповещения» creates and updates on /dispatch/changes; code 47 «Сообщения водителям» on /dispatch/messages.
 */
export const DISPATCH_CHANGES_PATH = '/dispatch/changes';
export const DISPATCH_MESSAGES_PATH = '/dispatch/messages';

export const DISPATCH_CONTROL_API = {
  /** The day's service changes, active and revoked. */
  changes: '/api/v1/dispatch/changes',
  /** Today's runs of a route or of a vehicle's exits, with their changes: what a change is made on. */
  changeRuns: '/api/v1/dispatch/changes/runs',
  /** Hands an exit over to another vehicle from now (a breakdown): the other vehicle works its runs from then. */
  handover: '/api/v1/dispatch/changes/handover',
  /** Adds a run to the day: its stop times copied from the route's run of that direction closest in time. */
  addRun: '/api/v1/dispatch/changes/added-runs',
  /** Closes a stop of a route, or of every route through it, for a period of today. */
  closeStop: '/api/v1/dispatch/changes/closed-stops',
  /** A detour of a route for a period of today: a path between two of its stops, the stops between closed. */
  detour: '/api/v1/dispatch/changes/detours',
  /** A route's stops in order per direction (the day's most frequent run of each): what a closure or detour names. */
  routeStops: '/api/v1/dispatch/changes/route-stops',
  /** Revokes a change: a cancelled run is restored, a moved start goes back to the timetable, a handed-over exit
   *  back to its vehicle, an added run removed. */
  revokeChange: '/api/v1/dispatch/changes/:id/revoke',
  /** Messages to drivers of a day, each with its state per vehicle; POST sends one. */
  messages: '/api/v1/dispatch/messages',
  /** The canned texts (a small handbook). */
  canned: '/api/v1/dispatch/messages/canned',
  cannedItem: '/api/v1/dispatch/messages/canned/:id',
  /** The drivers' messages of the day (the inbox). */
  inbox: '/api/v1/dispatch/messages/inbox',
} as const;

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
const Id = Type.String({ pattern: '^[1-9][0-9]{0,8}$' });
const DateText = Type.String({ pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$', description: 'the service date, YYYY-MM-DD' });

export const ChangeKind = Type.Union([
  Type.Literal('cancel'),
  Type.Literal('shift'),
  Type.Literal('handover'),
  Type.Literal('add'),
  Type.Literal('close_stop'),
  Type.Literal('detour'),
]);
export type ChangeKind = Static<typeof ChangeKind>;
/** The changes made on a run itself (POST changes); a handover and an added run have their own calls. */
export const RunChangeKind = Type.Union([Type.Literal('cancel'), Type.Literal('shift')]);
export type RunChangeKind = Static<typeof RunChangeKind>;

/** A start moved by at most this many minutes either way. */
export const SHIFT_MAX_MINUTES = 180;
export const REASON_MAX = 300;

/** A point of a detour's path: [latitude, longitude]. */
export const PathPoint = Type.Tuple([Type.Number({ minimum: -90, maximum: 90 }), Type.Number({ minimum: -180, maximum: 180 })]);
export type PathPoint = Static<typeof PathPoint>;
export const PATH_MAX_POINTS = 2000;

export const ServiceChange = Type.Object({
  id: Type.Integer(),
  serviceDate: Type.String(),
  /** The run changed; none for a closed stop and a detour (they concern every run through them in their period). */
  runKey: Nullable(Type.String()),
  /** None for a stop closed on every route through it. */
  routeId: Nullable(Type.Integer()),
  routeName: Nullable(Type.String()),
  graph: Nullable(Type.Integer()),
  smena: Nullable(Type.String()),
  raceNum: Nullable(Type.Integer()),
  /** The run's scheduled start in the timetable (before any move). */
  plannedStart: Nullable(Type.String()),
  kind: ChangeKind,
  shiftMinutes: Nullable(Type.Integer()),
  /** A handover: the vehicle taking the exit, the one giving it up and from when; an added run: its vehicle, if any. */
  vehicleId: Nullable(Type.Integer()),
  vehicleName: Nullable(Type.String()),
  fromVehicleId: Nullable(Type.Integer()),
  fromVehicleName: Nullable(Type.String()),
  effectiveAt: Nullable(Type.String()),
  /** An added run: its direction (0 forth, 1 back); a detour: its direction, none for both. */
  direction: Nullable(Type.Integer()),
  /** A closed stop; a detour: the stop it leaves the line at, and the one it joins it again at. */
  stopId: Nullable(Type.Integer()),
  stopName: Nullable(Type.String()),
  toStopId: Nullable(Type.Integer()),
  toStopName: Nullable(Type.String()),
  /** A closed stop's and a detour's period. */
  activeFrom: Nullable(Type.String()),
  activeTo: Nullable(Type.String()),
  /** A detour's path, from its first stop to its last. */
  path: Nullable(Type.Array(PathPoint)),
  reason: Type.String(),
  author: Nullable(Type.String()),
  createdAt: Type.String(),
  revokedAt: Nullable(Type.String()),
  revokedBy: Nullable(Type.String()),
  revokeReason: Nullable(Type.String()),
});
export type ServiceChange = Static<typeof ServiceChange>;

export const ChangesQuery = Type.Object({ date: Type.Optional(DateText) }, { additionalProperties: false });
export type ChangesQuery = Static<typeof ChangesQuery>;
export const ChangesList = Type.Object({ date: Type.String(), list: Type.Array(ServiceChange), count: Type.Integer() });
export type ChangesList = Static<typeof ChangesList>;

export const ChangeBody = Type.Object(
  {
    runKey: Type.String({ minLength: 1, maxLength: 120 }),
    kind: RunChangeKind,
    /** For a move: minutes, positive later. */
    shiftMinutes: Type.Optional(Type.Integer()),
    reason: Type.String({ maxLength: REASON_MAX }),
  },
  { additionalProperties: false },
);
export type ChangeBody = Static<typeof ChangeBody>;

export const HandoverBody = Type.Object(
  {
    /** A run of the exit, its current or next one: the exit is handed over from now on. */
    runKey: Type.String({ minLength: 1, maxLength: 120 }),
    vehicleId: Type.Integer({ minimum: 1 }),
    reason: Type.String({ maxLength: REASON_MAX }),
    /** The vehicle works another exit now or later today: handed over all the same (it is released there). */
    confirm: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type HandoverBody = Static<typeof HandoverBody>;

/** A run is added starting at most this far from now. */
export const ADD_WITHIN_MINUTES = 12 * 60;

export const AddRunBody = Type.Object(
  {
    routeId: Type.Integer({ minimum: 1 }),
    direction: Type.Union([Type.Literal(0), Type.Literal(1)]),
    /** The first departure, `HH:MM` of the operator's day (today; past midnight is tomorrow's). */
    start: Type.String({ pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$' }),
    vehicleId: Type.Optional(Type.Integer({ minimum: 1 })),
    reason: Type.String({ maxLength: REASON_MAX }),
  },
  { additionalProperties: false },
);
export type AddRunBody = Static<typeof AddRunBody>;

/** A period: ISO date and time of its start and end; it ends after it starts, at most a day later, not in the past. */
const Moment = Type.String({ minLength: 10, maxLength: 40 });
const PeriodFields = { activeFrom: Moment, activeTo: Moment };
export const PERIOD_MAX_HOURS = 24;

export const CloseStopBody = Type.Object(
  {
    stopId: Type.Integer({ minimum: 1 }),
    /** None: closed on every route through it. */
    routeId: Type.Optional(Type.Integer({ minimum: 1 })),
    ...PeriodFields,
    reason: Type.String({ maxLength: REASON_MAX }),
  },
  { additionalProperties: false },
);
export type CloseStopBody = Static<typeof CloseStopBody>;

export const DetourBody = Type.Object(
  {
    routeId: Type.Integer({ minimum: 1 }),
    /** None: both directions. */
    direction: Type.Optional(Type.Union([Type.Literal(0), Type.Literal(1)])),
    /** The stop the detour leaves the line at, and the one it joins it again at (later on the run). */
    fromStopId: Type.Integer({ minimum: 1 }),
    toStopId: Type.Integer({ minimum: 1 }),
    path: Type.Array(PathPoint, { maxItems: PATH_MAX_POINTS }),
    ...PeriodFields,
    reason: Type.String({ maxLength: REASON_MAX }),
  },
  { additionalProperties: false },
);
export type DetourBody = Static<typeof DetourBody>;

export const RouteStopsQuery = Type.Object({ route: Id }, { additionalProperties: false });
export type RouteStopsQuery = Static<typeof RouteStopsQuery>;
export const RouteStops = Type.Object({
  directions: Type.Array(
    Type.Object({
      direction: Type.Integer(),
      stops: Type.Array(Type.Object({ stopId: Type.Integer(), name: Nullable(Type.String()), lat: Type.Number(), lon: Type.Number() })),
    }),
  ),
});
export type RouteStops = Static<typeof RouteStops>;

export const RevokeBody = Type.Object({ reason: Type.Optional(Type.String({ maxLength: REASON_MAX })) }, { additionalProperties: false });
export type RevokeBody = Static<typeof RevokeBody>;

export const ChangeRunsQuery = Type.Object({ route: Type.Optional(Id), vehicle: Type.Optional(Id) }, { additionalProperties: false });
export type ChangeRunsQuery = Static<typeof ChangeRunsQuery>;

export const ChangeRun = Type.Object({
  runKey: Type.String(),
  routeId: Type.Integer(),
  routeName: Nullable(Type.String()),
  graph: Type.Integer(),
  smena: Type.String(),
  raceNum: Type.Integer(),
  direction: Type.Integer(),
  /** The timetable's start and end (a move not applied). */
  plannedStart: Type.String(),
  plannedEnd: Type.String(),
  /** The vehicle working the run now, else the exit's task. */
  vehicleId: Nullable(Type.Integer()),
  depotNumber: Nullable(Type.Integer()),
  cancelled: Type.Boolean(),
  shiftMinutes: Nullable(Type.Integer()),
  /** Added to the day (/dispatch/changes), not in the timetable. */
  added: Type.Boolean(),
});
export type ChangeRun = Static<typeof ChangeRun>;
export const ChangeRunList = Type.Object({ list: Type.Array(ChangeRun), count: Type.Integer() });
export type ChangeRunList = Static<typeof ChangeRunList>;

/** A message's state on one vehicle's terminal. */
export const DeliveryState = Type.Union([
  Type.Literal('queued'),
  Type.Literal('sent'),
  Type.Literal('delivered'),
  Type.Literal('read'),
  Type.Literal('expired'),
]);
export type DeliveryState = Static<typeof DeliveryState>;
export const DELIVERY_STATES = ['queued', 'sent', 'delivered', 'read', 'expired'] as const satisfies readonly DeliveryState[];

export const TargetKind = Type.Union([
  Type.Literal('vehicle'),
  Type.Literal('exit'),
  Type.Literal('route'),
  Type.Literal('depot'),
  Type.Literal('all'),
]);
export type TargetKind = Static<typeof TargetKind>;

export const MESSAGE_MAX = 200;
export const TTL_DEFAULT_MINUTES = 30;
export const TTL_MAX_MINUTES = 24 * 60;

export const SendMessageBody = Type.Object(
  {
    text: Type.String({ maxLength: MESSAGE_MAX }),
    target: TargetKind,
    /** The vehicle, route (also for an exit) or depot (none for all). */
    targetId: Type.Optional(Type.Integer()),
    /** An exit: its number on the route `targetId` (the vehicle working it today gets the message). */
    graph: Type.Optional(Type.Integer({ minimum: 1 })),
    /** Minutes a message may take to reach the terminal; past it, undelivered, it expires. */
    ttlMinutes: Type.Optional(Type.Integer()),
  },
  { additionalProperties: false },
);
export type SendMessageBody = Static<typeof SendMessageBody>;

export const Delivery = Type.Object({
  vehicleId: Type.Integer(),
  depotNumber: Nullable(Type.Integer()),
  state: DeliveryState,
  sentAt: Nullable(Type.String()),
  deliveredAt: Nullable(Type.String()),
  readAt: Nullable(Type.String()),
});
export type Delivery = Static<typeof Delivery>;

export const DriverMessage = Type.Object({
  id: Type.Integer(),
  text: Type.String(),
  target: TargetKind,
  targetId: Nullable(Type.Integer()),
  targetName: Nullable(Type.String()),
  author: Nullable(Type.String()),
  createdAt: Type.String(),
  expiresAt: Type.String(),
  /** By state: how many vehicles. */
  counts: Type.Record(Type.String(), Type.Integer()),
  deliveries: Type.Array(Delivery),
});
export type DriverMessage = Static<typeof DriverMessage>;

export const MessagesQuery = Type.Object({ date: Type.Optional(DateText) }, { additionalProperties: false });
export type MessagesQuery = Static<typeof MessagesQuery>;
export const MessageList = Type.Object({ date: Type.String(), list: Type.Array(DriverMessage), count: Type.Integer() });
export type MessageList = Static<typeof MessageList>;

export const CannedText = Type.Object({ id: Type.Integer(), text: Type.String() });
export type CannedText = Static<typeof CannedText>;
export const CannedList = Type.Object({ list: Type.Array(CannedText) });
export type CannedList = Static<typeof CannedList>;
export const CannedBody = Type.Object({ text: Type.String({ maxLength: MESSAGE_MAX }) }, { additionalProperties: false });
export type CannedBody = Static<typeof CannedBody>;

export const InboxMessage = Type.Object({
  id: Type.Integer(),
  vehicleId: Type.Integer(),
  depotNumber: Nullable(Type.Integer()),
  routeName: Nullable(Type.String()),
  text: Type.String(),
  receivedAt: Type.String(),
});
export type InboxMessage = Static<typeof InboxMessage>;
export const InboxList = Type.Object({ list: Type.Array(InboxMessage), count: Type.Integer() });
export type InboxList = Static<typeof InboxList>;

export const ControlIdParams = Type.Object({ id: Id }, { additionalProperties: false });
export type ControlIdParams = Static<typeof ControlIdParams>;
