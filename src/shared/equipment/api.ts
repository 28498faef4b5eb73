import { Type, type Static, type TSchema } from 'typebox';
import { COMMAND_STATUS_CODES, ROLLOUT_STATES } from './commandStatus';
import { GROUP_FILTER_LIST_MAX, GROUP_KINDS, GROUP_NAME_MAX, STATIC_GROUP_MAX } from './groups';
import { CONFIG_COMMENT_MAX, CONFIG_NAME_MAX, type ParameterValues } from './parameters';
import { CLOCK_ENTRY_PATTERN } from '../time';

/**
 * Remote configuration's contract (SCREENS.md "On-board equipment", code 32; server route schemas and the
 * console's payload types, one declaration). Rights: reading needs the read bit of MNT_CONFIGURATIONS_PATH
 * (configurations, rollouts) or MNT_GROUPS_PATH (vehicle groups); changes their create, update and delete bits;
 * starting a rollout is a create on the configurations, pausing, resuming and cancelling an update.
 */
export const MNT_CONFIGURATIONS_PATH = '/mnt-configuration/configurations';
export const MNT_GROUPS_PATH = '/mnt-configuration/vehicle-groups';

export const EQUIPMENT_API = {
  /** The terminal parameters a configuration sets (TERMINAL_PARAMETERS). */
  parameters: '/api/v1/mnt/parameters',
  /** Every configuration version with its vehicles and rollouts; POST makes a new configuration (version 1). */
  configurations: '/api/v1/mnt/configurations',
  /** GET one version; PUT edits one not rolled out yet; DELETE deletes one not rolled out yet. */
  configuration: '/api/v1/mnt/configurations/:id',
  /** POST a new version of a configuration. */
  versions: '/api/v1/mnt/configurations/:id/versions',
  /** The fleet's share on each configuration version. */
  fleetShare: '/api/v1/mnt/fleet-share',
  /** Vehicle groups; POST makes one. */
  groups: '/api/v1/mnt/groups',
  /** GET a group with its vehicles now; PUT edits it; DELETE deletes it. */
  group: '/api/v1/mnt/groups/:id',
  /** How many vehicles a group would have (nothing saved). */
  groupPreview: '/api/v1/mnt/groups/preview',
  /** The rollouts to a group, newest first. */
  groupRollouts: '/api/v1/mnt/groups/:id/rollouts',
  /** The choices of a dynamic group's filter. */
  filterOptions: '/api/v1/mnt/filter-options',
  /** The vehicles a static group is picked from. */
  vehicleOptions: '/api/v1/mnt/vehicle-options',
  /** POST starts a rollout. */
  rollouts: '/api/v1/mnt/rollouts',
  rollout: '/api/v1/mnt/rollouts/:id',
  /** A rollout's commands per terminal. */
  rolloutCommands: '/api/v1/mnt/rollouts/:id/commands',
  /** POST pause, resume or cancel (`:action`). */
  rolloutAction: '/api/v1/mnt/rollouts/:id/:action',
} as const;

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
const INT4_MAX = 2_147_483_647;
/** A row's id (int4 key). */
const Id = Type.Integer({ minimum: 1, maximum: INT4_MAX });
/** Times are ISO 8601 (UTC) strings. */
const Moment = Type.String();

/** Path parameters of a route with one id, `/:id` (decimal digits only: src/server/http/pathIds.ts). */
export const IdParams = Type.Object({ id: Id });
export type IdParams = Static<typeof IdParams>;

export const RolloutStateSchema = Type.Enum(ROLLOUT_STATES);
export const GroupKindSchema = Type.Enum(GROUP_KINDS);

/** A parameter's value: text (at most a host name's length), a 32-bit integer or a flag. */
const ParameterValue = Type.Union([
  Type.String({ maxLength: 253 }),
  Type.Integer({ minimum: -2_147_483_648, maximum: INT4_MAX }),
  Type.Boolean(),
]);
/**
 * A configuration's values by parameter key. Every property is a value (additionalProperties, not a key pattern:
 * a pattern would leave a key it does not match unchecked); which keys and ranges is validateParameters' job.
 */
export const ParameterValuesSchema = Type.Unsafe<ParameterValues>({
  type: 'object',
  maxProperties: 50,
  additionalProperties: ParameterValue,
});

const FilterIds = Type.Array(Type.Integer({ minimum: 0, maximum: INT4_MAX }), { maxItems: GROUP_FILTER_LIST_MAX, uniqueItems: true });
/**
 * A dynamic group's filter (after hawkBit's target filters), evaluated again whenever the group is read or rolled
 * out to, so that new vehicles join. Every list narrows (and); an empty or absent list does not.
 */
export const GroupFilter = Type.Object(
  {
    /** Carriers (agency). */
    agencies: Type.Optional(FilterIds),
    /** Branches (mgt.depot). */
    depots: Type.Optional(FilterIds),
    /** Terminal types (mgt.mnt_type). */
    terminalTypes: Type.Optional(FilterIds),
    /** Configuration versions a terminal runs now (mnt.configuration ids); 0 = none applied yet. */
    configurations: Type.Optional(FilterIds),
    models: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 50 }), { maxItems: GROUP_FILTER_LIST_MAX, uniqueItems: true })),
  },
  { additionalProperties: false },
);
export type GroupFilter = Static<typeof GroupFilter>;

/** A choice of a filter or a picker. */
const Choice = Type.Object({ id: Type.Integer(), name: Type.String() });

// ---- configurations ----

export const ConfigurationBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: CONFIG_NAME_MAX }),
    parameters: ParameterValuesSchema,
    comment: Type.Optional(Type.String({ maxLength: CONFIG_COMMENT_MAX })),
  },
  { additionalProperties: false },
);
export type ConfigurationBody = Static<typeof ConfigurationBody>;

export const ConfigurationChange = Type.Object(
  { parameters: ParameterValuesSchema, comment: Type.Optional(Type.String({ maxLength: CONFIG_COMMENT_MAX })) },
  { additionalProperties: false },
);
export type ConfigurationChange = Static<typeof ConfigurationChange>;

/** A new version: the parameters given, or this version's. */
export const VersionBody = Type.Object(
  { parameters: Type.Optional(ParameterValuesSchema), comment: Type.Optional(Type.String({ maxLength: CONFIG_COMMENT_MAX })) },
  { additionalProperties: false },
);
export type VersionBody = Static<typeof VersionBody>;

export const Configuration = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  version: Type.Integer(),
  parameters: ParameterValuesSchema,
  comment: Nullable(Type.String()),
  created_by: Nullable(Type.String()),
  created_at: Moment,
  /** Set by its first rollout: from then on it is not edited, a new version is made instead. */
  locked_at: Nullable(Moment),
});
export type Configuration = Static<typeof Configuration>;

/** A configuration in the list: with the vehicles running it and its rollouts. */
export const ConfigurationRow = Type.Object({
  ...Configuration.properties,
  vehicles: Type.Integer(),
  rollouts: Type.Integer(),
});
export type ConfigurationRow = Static<typeof ConfigurationRow>;

export const Created = Type.Object({ id: Type.Integer() });
export type Created = Static<typeof Created>;
export const VersionCreated = Type.Object({ id: Type.Integer(), version: Type.Integer() });
export type VersionCreated = Static<typeof VersionCreated>;

/** The fleet (vehicles with a terminal) per configuration version; configuration_id null: none applied. */
export const FleetShareRow = Type.Object({
  configuration_id: Nullable(Type.Integer()),
  label: Type.String(),
  vehicles: Type.Integer(),
  /** Per cent of the fleet, one decimal. */
  share: Type.Number(),
});
export type FleetShareRow = Static<typeof FleetShareRow>;

// ---- vehicle groups ----

export const GroupBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: GROUP_NAME_MAX }),
    kind: GroupKindSchema,
    /** A static group's vehicles. */
    vehicles: Type.Optional(Type.Array(Id, { maxItems: STATIC_GROUP_MAX, uniqueItems: true })),
    /** A dynamic group's filter. */
    filter: Type.Optional(GroupFilter),
  },
  { additionalProperties: false },
);
export type GroupBody = Static<typeof GroupBody>;

export const GroupPreviewBody = Type.Object(
  { kind: GroupBody.properties.kind, vehicles: GroupBody.properties.vehicles, filter: GroupBody.properties.filter },
  { additionalProperties: false },
);
export type GroupPreviewBody = Static<typeof GroupPreviewBody>;
export const GroupCount = Type.Object({ count: Type.Integer() });
export type GroupCount = Static<typeof GroupCount>;

export const Group = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  kind: GroupKindSchema,
  filter: Nullable(GroupFilter),
});
export type Group = Static<typeof Group>;

/** A group in the list: its vehicles counted now, and its last rollout. */
export const GroupRow = Type.Object({
  ...Group.properties,
  created_at: Moment,
  vehicles: Type.Integer(),
  last_rollout: Nullable(Type.Object({ id: Type.Integer(), state: RolloutStateSchema, configuration: Type.String() })),
});
export type GroupRow = Static<typeof GroupRow>;

export const GroupMember = Type.Object({
  id: Type.Integer(),
  depot_number: Type.Integer(),
  state_number: Nullable(Type.String()),
  depot_name: Nullable(Type.String()),
  /** The configuration version it runs («name vN»). */
  configuration: Nullable(Type.String()),
});
export type GroupMember = Static<typeof GroupMember>;

/** A group with its vehicles now (the first 500) and their number. */
export const GroupDetails = Type.Object({ ...Group.properties, count: Type.Integer(), vehicles: Type.Array(GroupMember) });
export type GroupDetails = Static<typeof GroupDetails>;

export const FilterOptions = Type.Object({
  agencies: Type.Array(Choice),
  depots: Type.Array(Choice),
  models: Type.Array(Type.String()),
  terminalTypes: Type.Array(Choice),
  /** Configuration versions, and 0 «Без конфигурации». */
  configurations: Type.Array(Choice),
});
export type FilterOptions = Static<typeof FilterOptions>;
/** A vehicle for a static group: «garage number · state number · branch». */
export const VehicleOptions = Type.Array(Choice);

// ---- rollouts ----

/** A window's end: minutes of the operator's day, or a clock text normalised like every time field ('25:00' is 00:00). */
const WindowEnd = Type.Union([
  Type.Integer({ minimum: 0, maximum: 1439 }),
  Type.String({ maxLength: 8, pattern: CLOCK_ENTRY_PATTERN }),
  Type.Null(),
]);

export const RolloutBody = Type.Object(
  {
    groupId: Id,
    configurationId: Id,
    /** Per cent of the group in the first phase (100: one phase). */
    firstShare: Type.Number({ exclusiveMinimum: 0, maximum: 100 }),
    /** Per cent of errors at which the rollout pauses. */
    errorThreshold: Type.Number({ minimum: 0, maximum: 100 }),
    /** The window commands go out in; both or neither. */
    windowFrom: Type.Optional(WindowEnd),
    windowTo: Type.Optional(WindowEnd),
    maxAttempts: Type.Optional(Type.Integer({ minimum: 1, maximum: 10 })),
  },
  { additionalProperties: false },
);
export type RolloutBody = Static<typeof RolloutBody>;
export const RolloutCreated = Type.Object({ id: Type.Integer(), commands: Type.Integer() });
export type RolloutCreated = Static<typeof RolloutCreated>;

const RolloutFields = {
  id: Type.Integer(),
  state: RolloutStateSchema,
  phase: Type.Integer(),
  first_share: Type.Number(),
  error_threshold: Type.Number(),
  /** Minutes of the operator's day; null: any time. */
  window_from: Nullable(Type.Integer()),
  window_to: Nullable(Type.Integer()),
  pause_reason: Nullable(Type.String()),
  created_by: Nullable(Type.String()),
  created_at: Moment,
  finished_at: Nullable(Moment),
  configuration_id: Type.Integer(),
  /** The configuration version («name vN»). */
  configuration: Type.String(),
};

/** A rollout in a group's history: its commands counted by status. */
export const RolloutRow = Type.Object({
  ...RolloutFields,
  counts: Type.Record(Type.String(), Type.Integer()),
  /** Commands in an error that are tried again. */
  retrying: Type.Integer(),
});
export type RolloutRow = Static<typeof RolloutRow>;

/** One rollout, its commands counted by phase and status. */
export const Rollout = Type.Object({
  ...RolloutFields,
  group_id: Nullable(Type.Integer()),
  group_name: Type.String(),
  max_attempts: Type.Integer(),
  threshold_overridden: Type.Boolean(),
  counts: Type.Array(Type.Object({ phase: Type.Integer(), status: Type.Integer(), count: Type.Integer(), retrying: Type.Integer() })),
});
export type Rollout = Static<typeof Rollout>;

export const CommandsQuery = Type.Object(
  {
    /** A command status (commandStatus.ts). */
    status: Type.Optional(Type.Integer({ enum: COMMAND_STATUS_CODES })),
    offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000 })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500 })),
  },
  { additionalProperties: false },
);
export type CommandsQuery = Static<typeof CommandsQuery>;

export const CommandRow = Type.Object({
  id: Type.Integer(),
  vehicle_id: Type.Integer(),
  depot_number: Nullable(Type.Integer()),
  state_number: Nullable(Type.String()),
  depot_name: Nullable(Type.String()),
  phase: Type.Integer(),
  status: Type.Integer(),
  /** Why it ended in an error (COMMAND_REASONS). */
  reason: Nullable(Type.String()),
  attempts: Type.Integer(),
  retry_at: Nullable(Moment),
  sent_at: Nullable(Moment),
  status_at: Moment,
});
export type CommandRow = Static<typeof CommandRow>;
export const CommandList = Type.Object({ total: Type.Integer(), list: Type.Array(CommandRow) });
export type CommandList = Static<typeof CommandList>;

export const ROLLOUT_ACTIONS = ['pause', 'resume', 'cancel'] as const;
export type RolloutAction = (typeof ROLLOUT_ACTIONS)[number];
export const RolloutChanged = Type.Object({ id: Type.Integer(), state: RolloutStateSchema });
export type RolloutChanged = Static<typeof RolloutChanged>;
