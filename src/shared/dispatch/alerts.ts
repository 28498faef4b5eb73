import { Type, type Static, type TSchema } from 'typebox';

/**
 * Service alerts for passengers (the contract of /dispatch/alerts «Оповещения»; server route schemas and the
 * console's payload types, one declaration). Rights: code 44 reads; code 46 «Изменения движения и оповещения»
 * creates (writes and deletes drafts) and updates (publishes and ends) on /dispatch/alerts. A published alert whose
 * period covers the moment is in the GTFS-Realtime Alerts feed (GTFS_API.alerts).
 */
export const DISPATCH_ALERTS_PATH = '/dispatch/alerts';

export const DISPATCH_ALERTS_API = {
  /** The alerts of a state (default the current ones: drafts and published); POST writes a draft. */
  alerts: '/api/v1/dispatch/alerts',
  /** PUT edits a draft; DELETE deletes a draft. */
  alert: '/api/v1/dispatch/alerts/:id',
  publish: '/api/v1/dispatch/alerts/:id/publish',
  end: '/api/v1/dispatch/alerts/:id/end',
  /** Stops by name for the alert's stop picker. */
  stops: '/api/v1/dispatch/alerts/stops',
  /** Every route of the network for the alert's route picker. */
  routes: '/api/v1/dispatch/alerts/routes',
} as const;

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/** GTFS-Realtime Alert.Cause, by name. */
export const ALERT_CAUSES = [
  'UNKNOWN_CAUSE',
  'OTHER_CAUSE',
  'TECHNICAL_PROBLEM',
  'STRIKE',
  'DEMONSTRATION',
  'ACCIDENT',
  'HOLIDAY',
  'WEATHER',
  'MAINTENANCE',
  'CONSTRUCTION',
  'POLICE_ACTIVITY',
  'MEDICAL_EMERGENCY',
] as const;
export type AlertCause = (typeof ALERT_CAUSES)[number];

/** GTFS-Realtime Alert.Effect, by name. */
export const ALERT_EFFECTS = [
  'NO_SERVICE',
  'REDUCED_SERVICE',
  'SIGNIFICANT_DELAYS',
  'DETOUR',
  'ADDITIONAL_SERVICE',
  'MODIFIED_SERVICE',
  'OTHER_EFFECT',
  'UNKNOWN_EFFECT',
  'STOP_MOVED',
  'NO_EFFECT',
  'ACCESSIBILITY_ISSUE',
] as const;
export type AlertEffect = (typeof ALERT_EFFECTS)[number];

export const ALERT_STATES = ['draft', 'published', 'ended'] as const;
export type AlertState = (typeof ALERT_STATES)[number];

export const HEADER_MAX = 200;
export const DESCRIPTION_MAX = 2000;
export const ROUTES_MAX = 100;
export const STOPS_MAX = 200;
/** Ended alerts listed at most (newest first). */
export const LIST_MAX = 500;

export const AlertCauseSchema = Type.Enum(ALERT_CAUSES);
export const AlertEffectSchema = Type.Enum(ALERT_EFFECTS);
export const AlertStateSchema = Type.Enum(ALERT_STATES);

const Named = Type.Object({ id: Type.Integer(), name: Type.String() });

export const ServiceAlert = Type.Object({
  id: Type.Integer(),
  state: AlertStateSchema,
  /** Published and its period covers the moment: what the GTFS-Realtime Alerts feed gives at the moment. */
  inFeed: Type.Boolean(),
  cause: AlertCauseSchema,
  effect: AlertEffectSchema,
  header: Type.String(),
  description: Type.String(),
  activeFrom: Type.String(),
  activeTo: Nullable(Type.String()),
  wholeNetwork: Type.Boolean(),
  routes: Type.Array(Named),
  stops: Type.Array(Named),
  author: Nullable(Type.String()),
  createdAt: Type.String(),
  updatedAt: Nullable(Type.String()),
  updatedBy: Nullable(Type.String()),
  publishedAt: Nullable(Type.String()),
  publishedBy: Nullable(Type.String()),
  endedAt: Nullable(Type.String()),
  endedBy: Nullable(Type.String()),
});
export type ServiceAlert = Static<typeof ServiceAlert>;

/**
 * `current`: drafts and published; `all`: every state (ended ones the newest LIST_MAX); `in_force`: the published
 * ones whose period covers the moment (what the GTFS-Realtime feed gives, what the board shows).
 */
export const AlertsFilter = Type.Enum([...ALERT_STATES, 'current', 'all', 'in_force']);
export type AlertsFilter = Static<typeof AlertsFilter>;
export const AlertsQuery = Type.Object({ state: Type.Optional(AlertsFilter) }, { additionalProperties: false });
export type AlertsQuery = Static<typeof AlertsQuery>;
export const AlertList = Type.Object({ list: Type.Array(ServiceAlert), count: Type.Integer() });
export type AlertList = Static<typeof AlertList>;

/** A moment as ISO 8601 with its offset (the console sends toISOString()). */
const Moment = Type.String({ minLength: 10, maxLength: 40 });

export const AlertBody = Type.Object(
  {
    cause: AlertCauseSchema,
    effect: AlertEffectSchema,
    header: Type.String({ maxLength: HEADER_MAX }),
    description: Type.Optional(Type.String({ maxLength: DESCRIPTION_MAX })),
    /** Default: the moment it is written. */
    activeFrom: Type.Optional(Moment),
    /** None: until ended. */
    activeTo: Type.Optional(Nullable(Moment)),
    /** The whole network (then no routes nor stops), else the routes and stops concerned (our ids). */
    wholeNetwork: Type.Optional(Type.Boolean()),
    routeIds: Type.Optional(Type.Array(Type.Integer({ minimum: 1, maximum: 2_147_483_647 }), { maxItems: ROUTES_MAX })),
    stopIds: Type.Optional(Type.Array(Type.Integer({ minimum: 1, maximum: 2_147_483_647 }), { maxItems: STOPS_MAX })),
  },
  { additionalProperties: false },
);
export type AlertBody = Static<typeof AlertBody>;

export const AlertIdParams = Type.Object({ id: Type.String({ pattern: '^[1-9][0-9]{0,8}$' }) }, { additionalProperties: false });
export type AlertIdParams = Static<typeof AlertIdParams>;

export const AlertStopsQuery = Type.Object(
  { q: Type.Optional(Type.String({ maxLength: 100 })), ids: Type.Optional(Type.String({ pattern: '^[0-9]{1,9}(,[0-9]{1,9}){0,199}$' })) },
  { additionalProperties: false },
);
export type AlertStopsQuery = Static<typeof AlertStopsQuery>;
export const AlertStopList = Type.Object({ list: Type.Array(Named) });
export type AlertStopList = Static<typeof AlertStopList>;

export const AlertRouteList = Type.Object({ list: Type.Array(Named) });
export type AlertRouteList = Static<typeof AlertRouteList>;
