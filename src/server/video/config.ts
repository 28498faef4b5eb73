import { VEHICLE_STALE_MS } from '../../shared/map';
import { flag, group, number, type Environment } from '../configuration/variables';

/** The video area's settings from the environment (README, "Configuration"). */
export interface VideoConfig {
  /** This process may run the archive-request worker, under its lease (VIDEO_WORKER, default on). */
  worker: boolean;
  /** How often the worker moves the requests on, ms. */
  tickMs: number;
  /** How long connecting to a recorder takes before its answer is known, ms. */
  connectMs: number;
  /** Seconds of recording a demo recorder hands over per second of download. */
  downloadRate: number;
  /** Requests connecting or downloading at once (one per recorder at a time in any case). */
  maxDownloads: number;
  /** A vehicle is online while its last position is younger than this, ms (the map's rule). */
  onlineWindowMs: number;
  /** Hours of recording a demo recorder holds. */
  demoArchiveHours: number;
  /** Time limit of a request to a recorder's media server, ms. */
  upstreamTimeoutMs: number;
}

export const videoVariables = group('Video archive', {
  worker: flag('VIDEO_WORKER', {
    default: true,
    meaning:
      'this process may run the archive-request worker: with several processes the one holding its lease (`video.worker`) runs it, and another takes over when that one dies; `false` keeps it from ever running here',
  }),
  tickMs: number('VIDEO_WORKER_TICK_MS', { default: 1000, positive: true, unit: 'ms', meaning: 'how often the worker moves requests on' }),
  connectMs: number('VIDEO_CONNECT_MS', { default: 2000, positive: true, unit: 'ms', meaning: 'how long connecting to a recorder takes' }),
  downloadRate: number('VIDEO_DOWNLOAD_RATE', {
    default: 30,
    positive: true,
    meaning: 'seconds of recording a demo recorder hands over per second',
  }),
  maxDownloads: number('VIDEO_MAX_DOWNLOADS', {
    default: 50,
    positive: true,
    meaning: 'requests connecting or downloading at once (a recorder serves one at a time in any case)',
  }),
  onlineWindowMs: number('VIDEO_ONLINE_WINDOW_MS', {
    default: VEHICLE_STALE_MS,
    positive: true,
    unit: 'ms',
    meaning: "a vehicle counts as online (its archive requests go on) while its last position is this young: the map's rule",
  }),
  demoArchiveHours: number('VIDEO_DEMO_ARCHIVE_HOURS', { default: 72, positive: true, unit: 'h', meaning: 'hours a demo recorder holds' }),
  upstreamTimeoutMs: number('VIDEO_UPSTREAM_TIMEOUT_MS', {
    default: 5000,
    positive: true,
    unit: 'ms',
    meaning: "time limit of a request to a recorder's media server",
  }),
});

export function videoConfig(env: Environment = process.env): VideoConfig {
  return videoVariables.read(env);
}
