import type { Option } from '../api';
import type { VideoStatus } from './statuses';

/** Shapes of the video API both sides read (src/server/video/, src/web/video/, src/client/video/, the field app). */

/** GET /api/v1/video/online/{requestId}/{camera} (field-app.md section 7). */
export interface VideoStreamAddress {
  /** Where the stream comes from, without any credential (demo://… or the media server's address). */
  url: string;
  /** What the browser plays: the server's own HLS address for this stream. */
  playUrl: string;
}

/** A vehicle's recorder and cameras, as the video screens list them. */
export interface VideoVehicle {
  vehicleId: number;
  depotNumber: number | null;
  stateNumber: string | null;
  model: string | null;
  dvrId: number;
  /** Through the recorder's media server (its four fields set), else the built-in demo source. */
  source: 'mediaServer' | 'demo';
  cameras: { index: number; title: string }[];
  online: boolean;
}

/** POST /api/v1/video/requests. */
export interface ArchiveRequestInput {
  vehicleId: number;
  cameras: number[];
  /** ISO 8601 times. */
  from: string;
  to: string;
}

/** One archive request as the API gives it. */
export interface ArchiveRequest {
  id: number;
  userId: number;
  username: string;
  vehicleId: number;
  depotNumber: number | null;
  stateNumber: string | null;
  cameras: number[];
  from: string;
  to: string;
  status: VideoStatus;
  /** The status shown (performed reads as viewed once played). */
  shownStatus: number;
  reason: string | null;
  progress: number;
  sizeBytes: number | null;
  createdAt: string;
  viewedAt: string | null;
}

/** GET /api/v1/video/requests/{id}/play/{camera}: the recorded playlist and its clock. */
export interface ArchivePlayback {
  playUrl: string;
  /** Pieces of the recording in playing order: offset in the playlist (s), clock start (ISO), length (s). */
  timeline: { offset: number; start: string; duration: number }[];
}

/** GET /api/v1/video/archive-monitoring: per recorder and camera, hours held in the last days. */
export interface ArchiveCoverage {
  vehicleId: number;
  depotNumber: number | null;
  stateNumber: string | null;
  dvrId: number;
  source: 'mediaServer' | 'demo';
  /** The recorder's last contact: the vehicle's last position (ISO) or null when never seen. */
  lastContact: string | null;
  /** When the recorder stopped writing its archive, if it did (ISO). */
  stoppedAt: string | null;
  cameras: { index: number; title: string; hours: string }[];
}

/** A page of a list: rows skipped, rows given (the lists' own defaults apply when absent). */
export interface VideoPage {
  skipCount: number;
  recordCount: number;
}

/** GET /api/v1/video/vehicles: what the vehicle search narrows by. */
export interface VideoVehicleSearch {
  /** Garage or state number, in part. */
  q?: string;
  depot?: number;
  /** The route the vehicle works today. */
  route?: number;
  type?: number;
}

/** A vehicle the search found, with the route it works today. */
export interface VideoVehicleRow extends VideoVehicle {
  routeName: string | null;
}

/** GET /api/v1/video/vehicles: vehicles online first. */
export interface VideoVehicleList {
  list: VideoVehicleRow[];
  count: number;
}

/** GET /api/v1/video/vehicle-filters: the vehicle search's choices. */
export interface VideoVehicleFilters {
  depots: Option[];
  routes: Option[];
  types: Option[];
}

/** GET /api/v1/video/archive-monitoring: the last `days`, by text, only the recorders that stopped. */
export interface ArchiveMonitoringQuery {
  days: number;
  q?: string;
  stopped?: boolean;
}

/** GET /api/v1/video/archive-monitoring: `hours` hours from `start` per camera, the recorders that stopped first. */
export interface ArchiveMonitoring {
  start: string;
  hours: number;
  count: number;
  /** Recorders that stopped writing, whatever the filter. */
  stopped: number;
  list: ArchiveCoverage[];
}
