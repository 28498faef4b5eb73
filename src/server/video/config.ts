import { VEHICLE_STALE_MS } from '../../shared/map';

/** The video area's settings from the environment (README, "Configuration"). */
export interface VideoConfig {
  /** Run the archive-request worker in this process (VIDEO_WORKER, default on). */
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

export function videoConfig(env: NodeJS.ProcessEnv = process.env): VideoConfig {
  const num = (name: string, fallback: number) => {
    const value = Number(env[name]);
    return env[name] !== undefined && Number.isFinite(value) && value > 0 ? value : fallback;
  };
  return {
    worker: env.VIDEO_WORKER !== 'false',
    tickMs: num('VIDEO_WORKER_TICK_MS', 1000),
    connectMs: num('VIDEO_CONNECT_MS', 2000),
    downloadRate: num('VIDEO_DOWNLOAD_RATE', 30),
    maxDownloads: num('VIDEO_MAX_DOWNLOADS', 50),
    onlineWindowMs: num('VIDEO_ONLINE_WINDOW_MS', VEHICLE_STALE_MS),
    demoArchiveHours: num('VIDEO_DEMO_ARCHIVE_HOURS', 72),
    upstreamTimeoutMs: num('VIDEO_UPSTREAM_TIMEOUT_MS', 5000),
  };
}
