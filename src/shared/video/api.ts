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
