import { Type, type Static } from 'typebox';

/**
 * The GTFS area's contract, read by the server (route schemas) and the console (payload types): one declaration,
 * so the two cannot drift. Rights: the external-system settings of the handbooks (code 6, `/system/eis`).
 */
export const GTFS_RIGHTS_PATH = '/system/eis';

export const GTFS_API = {
  imports: '/api/v1/gtfs/imports',
  importRun: '/api/v1/gtfs/imports/:id',
  cancel: '/api/v1/gtfs/imports/:id/cancel',
  /** The network as a GTFS feed, with the ids the GTFS-Realtime feeds use. */
  staticFeed: '/api/v1/gtfs/static.zip',
  /** GTFS-Realtime VehiclePositions: the fleet's positions, each with the trip the live timetable matched. */
  vehiclePositions: '/api/v1/gtfs-rt/vehicle-positions',
  /** GTFS-Realtime TripUpdates: the predicted times of the trips the fleet works (the live timetable, module `dispatch`). */
  tripUpdates: '/api/v1/gtfs-rt/trip-updates',
  /** GTFS-Realtime Alerts: the dispatchers' published service alerts in force (/dispatch/alerts). */
  alerts: '/api/v1/gtfs-rt/alerts',
} as const;

export const ImportRunParams = Type.Object({ id: Type.String({ pattern: '^[1-9][0-9]{0,8}$' }) }, { additionalProperties: false });
export type ImportRunParams = Static<typeof ImportRunParams>;

export const ImportUploadQuery = Type.Object({ file: Type.String({ minLength: 1, maxLength: 255 }) }, { additionalProperties: false });
export type ImportUploadQuery = Static<typeof ImportUploadQuery>;

const Stage = Type.Union([Type.Literal('upload'), Type.Literal('check'), Type.Literal('write'), Type.Literal('end')]);
const Status = Type.Union([
  Type.Literal('running'),
  Type.Literal('done'),
  Type.Literal('refused'),
  Type.Literal('cancelled'),
  Type.Literal('failed'),
]);

const Notice = Type.Object({
  code: Type.String(),
  severity: Type.Union([Type.Literal('error'), Type.Literal('warning')]),
  file: Type.Optional(Type.String()),
  line: Type.Optional(Type.Integer()),
  field: Type.Optional(Type.String()),
  value: Type.Optional(Type.String()),
});

const FileCounts = Type.Object({ file: Type.String(), read: Type.Integer(), written: Type.Integer(), skipped: Type.Integer() });

/** One import as the history and the progress poll show it; `report` once it has ended. */
export const ImportRun = Type.Object({
  id: Type.Integer(),
  started_at: Type.String(),
  finished_at: Type.Union([Type.String(), Type.Null()]),
  username: Type.Union([Type.String(), Type.Null()]),
  file: Type.String(),
  bytes: Type.Integer(),
  status: Status,
  stage: Stage,
  progress: Type.Number(),
  report: Type.Union([
    Type.Null(),
    Type.Object({
      files: Type.Array(FileCounts),
      notices: Type.Array(Notice),
      totals: Type.Record(Type.String(), Type.Integer()),
      timezone: Type.Optional(
        Type.Object({ feed: Type.String(), feedOffsetMinutes: Type.Integer(), operatorOffsetMinutes: Type.Integer() }),
      ),
      written: Type.Optional(Type.Record(Type.String(), Type.Integer())),
      message: Type.Optional(Type.String()),
    }),
  ]),
});
export type ImportRun = Static<typeof ImportRun>;
/** What an ended run reports: per file counts, notices, totals; `message` when it ended before its own end. */
export type ImportReport = NonNullable<ImportRun['report']>;

export const ImportRunList = Type.Object({ list: Type.Array(ImportRun), count: Type.Integer() });
export type ImportRunList = Static<typeof ImportRunList>;

/** The static feed's query: the consumer's key when the feed is behind one (GTFS_STATIC_KEY). */
export const StaticFeedQuery = Type.Object(
  { key: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })) },
  { additionalProperties: false },
);
export type StaticFeedQuery = Static<typeof StaticFeedQuery>;

/**
 * A GTFS-Realtime feed's query: protobuf by default, `format=json` the same feed as JSON for people. Other
 * parameters are let through: journey planners append their own (a cache breaker).
 */
export const RealtimeFeedQuery = Type.Object({ format: Type.Optional(Type.Union([Type.Literal('json'), Type.Literal('pb')])) });
export type RealtimeFeedQuery = Static<typeof RealtimeFeedQuery>;
