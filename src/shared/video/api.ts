import { Type, type Static, type TSchema } from 'typebox';
import type { VideoStatus } from './statuses';

/**
 * The video area's contract: the route schemas of src/server/video/ and the shapes src/web/video/,
 * src/client/video/ and the field app read, one declaration. Reading live video needs the read bit of
 * /video/online; archive requests the rights of /video/requests, /video/archive and /video/myrequests; the
 * archive monitoring the read bit of /video/vehicle-archive-monitoring.
 */

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
const INT4_MAX = 2_147_483_647;
/** A row's id (int4 key). */
const Id = Type.Integer({ minimum: 1, maximum: INT4_MAX });
/** A camera's number on its recorder. */
const CameraIndex = Type.Integer({ minimum: 0, maximum: 1000 });
/** Times are ISO 8601 (UTC) strings. */
const Moment = Type.String();
/** A time the client sends: ISO 8601, read by Date.parse (the route refuses what it cannot read). */
const IsoInput = Type.String({ minLength: 10, maxLength: 40, pattern: '^\\d{4}-\\d{2}-\\d{2}T', description: 'ISO 8601' });
/** Through the recorder's media server (its four fields set), else the built-in demo source. */
const Source = Type.Union([Type.Literal('mediaServer'), Type.Literal('demo')]);
const Choice = Type.Object({ id: Type.Integer(), name: Type.String() });
/** A search's text: the garage or state number, in part. */
const SearchText = Type.String({ maxLength: 100 });
const SkipCount = Type.Integer({ minimum: 0, maximum: INT4_MAX, default: 0 });
const RecordCount = Type.Integer({ minimum: 1, maximum: 200, default: 50 });

/** Path parameters of a route with one id, `/:id` (decimal digits only: src/server/http/pathIds.ts). */
export const VideoIdParams = Type.Object({ id: Id });
export type VideoIdParams = Static<typeof VideoIdParams>;

/** Path parameters of a request's camera, `/:id/…/:camera`. */
export const RequestCameraParams = Type.Object({ id: Id, camera: CameraIndex });
export type RequestCameraParams = Static<typeof RequestCameraParams>;

/** Path parameters of a live view's camera, `/online/:requestId/:camera`. */
export const LiveCameraParams = Type.Object({ requestId: Id, camera: CameraIndex });
export type LiveCameraParams = Static<typeof LiveCameraParams>;

/** POST /api/v1/video/empty: the vehicle whose live video is watched; the answer is the live request's id. */
export const LiveStartBody = Type.Object({ vehicleId: Id }, { additionalProperties: false });
export type LiveStartBody = Static<typeof LiveStartBody>;
export const LiveStarted = Type.Integer();

/** GET /api/v1/video/online/{requestId}/{camera} (field-app.md section 7). */
export const VideoStreamAddress = Type.Object({
  /** Where the stream comes from, without any credential (demo://… or the media server's address). */
  url: Type.String(),
  /** What the browser plays: the server's own HLS address for this stream. */
  playUrl: Type.String(),
});
export type VideoStreamAddress = Static<typeof VideoStreamAddress>;

const VideoVehicleProperties = {
  vehicleId: Type.Integer(),
  depotNumber: Nullable(Type.Integer()),
  stateNumber: Nullable(Type.String()),
  model: Nullable(Type.String()),
  dvrId: Type.Integer(),
  source: Source,
  cameras: Type.Array(Type.Object({ index: Type.Integer(), title: Type.String() })),
  online: Type.Boolean(),
};

/** A vehicle's recorder and cameras, as the video screens list them. */
export const VideoVehicle = Type.Object(VideoVehicleProperties);
export type VideoVehicle = Static<typeof VideoVehicle>;

/** POST /api/v1/video/requests. */
export const ArchiveRequestInput = Type.Object(
  {
    vehicleId: Id,
    cameras: Type.Array(CameraIndex, { minItems: 1, maxItems: 32, uniqueItems: true }),
    from: IsoInput,
    to: IsoInput,
  },
  { additionalProperties: false },
);
export type ArchiveRequestInput = Static<typeof ArchiveRequestInput>;

export const ArchiveRequestCreated = Type.Object({ id: Type.Integer() });
export type ArchiveRequestCreated = Static<typeof ArchiveRequestCreated>;

/** What a cancel, retry or delete moved the request to. */
export const ArchiveRequestMoved = Type.Object({ id: Type.Integer(), status: Type.Integer() });
export type ArchiveRequestMoved = Static<typeof ArchiveRequestMoved>;

/** One archive request as the API gives it. */
export const ArchiveRequest = Type.Object({
  id: Type.Integer(),
  userId: Type.Integer(),
  username: Type.String(),
  vehicleId: Type.Integer(),
  depotNumber: Nullable(Type.Integer()),
  stateNumber: Nullable(Type.String()),
  cameras: Type.Array(Type.Integer()),
  from: Moment,
  to: Moment,
  status: Type.Unsafe<VideoStatus>(Type.Integer()),
  /** The status shown (performed reads as viewed once played). */
  shownStatus: Type.Integer(),
  reason: Nullable(Type.String()),
  progress: Type.Number(),
  sizeBytes: Nullable(Type.Number()),
  createdAt: Moment,
  viewedAt: Nullable(Moment),
});
export type ArchiveRequest = Static<typeof ArchiveRequest>;

/** GET /api/v1/video/requests/{id}/play/{camera}: the recorded playlist and its clock. */
export const ArchivePlayback = Type.Object({
  playUrl: Type.String(),
  /** Pieces of the recording in playing order: offset in the playlist (s), clock start (ISO), length (s). */
  timeline: Type.Array(Type.Object({ offset: Type.Number(), start: Moment, duration: Type.Number() })),
});
export type ArchivePlayback = Static<typeof ArchivePlayback>;

/** GET /api/v1/video/archive-monitoring: per recorder and camera, hours held in the last days. */
export const ArchiveCoverage = Type.Object({
  vehicleId: Type.Integer(),
  depotNumber: Nullable(Type.Integer()),
  stateNumber: Nullable(Type.String()),
  dvrId: Type.Integer(),
  source: Source,
  /** The recorder's last contact: the vehicle's last position (ISO) or null when never seen. */
  lastContact: Nullable(Moment),
  /** When the recorder stopped writing its archive, if it did (ISO). */
  stoppedAt: Nullable(Moment),
  /** One character an hour: '1' held, '0' a gap, '?' unknown (a recorder behind a media server). */
  cameras: Type.Array(Type.Object({ index: Type.Integer(), title: Type.String(), hours: Type.String() })),
});
export type ArchiveCoverage = Static<typeof ArchiveCoverage>;

/** A page of a list: rows skipped, rows given (the lists' own defaults apply when absent). */
export interface VideoPage {
  skipCount: number;
  recordCount: number;
}

/** GET /api/v1/video/vehicles: what the vehicle search narrows by, and its page. */
export const VideoVehicleQuery = Type.Object(
  {
    q: Type.Optional(SearchText),
    depot: Type.Optional(Id),
    /** The route the vehicle works today. */
    route: Type.Optional(Id),
    type: Type.Optional(Id),
    skipCount: Type.Optional(SkipCount),
    recordCount: Type.Optional(RecordCount),
  },
  { additionalProperties: false },
);
/** What the vehicle search narrows by. */
export type VideoVehicleSearch = Omit<Static<typeof VideoVehicleQuery>, keyof VideoPage>;

/** A vehicle the search found, with the route it works today. */
export const VideoVehicleRow = Type.Object({ ...VideoVehicleProperties, routeName: Nullable(Type.String()) });
export type VideoVehicleRow = Static<typeof VideoVehicleRow>;

/** GET /api/v1/video/vehicles: vehicles online first. */
export const VideoVehicleList = Type.Object({ list: Type.Array(VideoVehicleRow), count: Type.Integer() });
export type VideoVehicleList = Static<typeof VideoVehicleList>;

/** GET /api/v1/video/vehicle-filters: the vehicle search's choices. */
export const VideoVehicleFilters = Type.Object({ depots: Type.Array(Choice), routes: Type.Array(Choice), types: Type.Array(Choice) });
export type VideoVehicleFilters = Static<typeof VideoVehicleFilters>;

/** GET /api/v1/video/archive-monitoring: the last `days`, by text, only the recorders that stopped, and its page. */
export const ArchiveMonitoringParams = Type.Object(
  {
    days: Type.Optional(Type.Integer({ minimum: 1, maximum: 14, default: 3 })),
    q: Type.Optional(SearchText),
    stopped: Type.Optional(Type.Boolean()),
    skipCount: Type.Optional(SkipCount),
    recordCount: Type.Optional(RecordCount),
  },
  { additionalProperties: false },
);
/** The monitoring's filters, as the screen sends them. */
export type ArchiveMonitoringQuery = Omit<Static<typeof ArchiveMonitoringParams>, keyof VideoPage | 'days'> & { days: number };

/** GET /api/v1/video/archive-monitoring: `hours` hours from `start` per camera, the recorders that stopped first. */
export const ArchiveMonitoring = Type.Object({
  start: Moment,
  hours: Type.Integer(),
  count: Type.Integer(),
  /** Recorders that stopped writing, whatever the filter. */
  stopped: Type.Integer(),
  list: Type.Array(ArchiveCoverage),
});
export type ArchiveMonitoring = Static<typeof ArchiveMonitoring>;

/** A query whose defaults the route's schema filled in. */
export type WithDefaults<T, K extends keyof T> = T & { [P in K]-?: NonNullable<T[P]> };

/** A stream's signed token in its HLS addresses (src/server/video/streamTokens.ts). */
const StreamToken = Type.String({ minLength: 10, maxLength: 1000, pattern: '^[A-Za-z0-9_.-]+$' });

/** /api/v1/video/stream/{token}/index.m3u8 and /upstream. */
export const StreamParams = Type.Object({ token: StreamToken });
export type StreamParams = Static<typeof StreamParams>;

/** /api/v1/video/stream/{token}/seg/{n}: a demo source's segment, by its number since the epoch. */
export const DemoSegmentParams = Type.Object({ token: StreamToken, n: Type.Integer({ minimum: 0, maximum: 1e13 }) });
export type DemoSegmentParams = Static<typeof DemoSegmentParams>;

/** /api/v1/video/stream/{token}/stored/{n}: a stored recording's segment, by its place in the recording. */
export const StoredSegmentParams = Type.Object({ token: StreamToken, n: Type.Integer({ minimum: 0, maximum: 1_000_000 }) });
export type StoredSegmentParams = Static<typeof StoredSegmentParams>;

/** /api/v1/video/stream/{token}/upstream: the media server's resource and the server's signature of it. */
export const UpstreamQuery = Type.Object(
  { u: Type.String({ maxLength: 4000, pattern: '^[A-Za-z0-9_-]+$' }), s: Type.String({ maxLength: 64 }) },
  { additionalProperties: false },
);
export type UpstreamQuery = Static<typeof UpstreamQuery>;
