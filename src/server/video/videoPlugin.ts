import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { runWhileHeld } from '../jobs/leases';
import { ArchiveStore } from './archiveStore';
import { ArchiveWorker } from './archiveWorker';
import { videoConfig, type VideoConfig } from './config';
import { DemoMedia } from './demoMedia';
import { StreamTokens } from './streamTokens';
import { seedDemoRequests } from './demoRequests';
import liveRoutes from './liveRoutes';
import streamRoutes from './streamRoutes';
import requestRoutes from './requestRoutes';
import monitoringRoutes from './monitoringRoutes';
import { VIDEO_SOURCES } from './videoReports';

/** What the rest of the server (and the tests) reach as `app.video`. */
export interface Video {
  config: VideoConfig;
  media: DemoMedia;
  /** Signs stream addresses; ready once the server is. */
  tokens: StreamTokens;
  store: ArchiveStore;
  worker: ArchiveWorker;
  /** Whether the vehicle is online now: its last position is within the map's window (telemetry, the simulator). */
  online(vehicleId: number, now?: number): boolean;
  /** The vehicle's last position time (the recorder's last contact), epoch ms. */
  lastContact(vehicleId: number): number | undefined;
}

declare module 'fastify' {
  interface FastifyInstance {
    video: Video;
  }
}

/**
 * On-board video (SCREENS.md and DESIGN.md, "Video"): live streams from the built-in demo source or through
 * a recorder's media server, archive requests as jobs of a background worker, the archive, recorder
 * monitoring. The worker starts once the server is ready and resumes whatever a previous run left.
 */
async function videoPlugin(app: FastifyInstance): Promise<void> {
  app.reports.register(app, VIDEO_SOURCES);
  const config = videoConfig();
  const log = app.log.child({ area: 'video' });
  const media = DemoMedia.load();
  // Without a data folder (tests) fetched archives live in a temporary folder removed at close.
  const storeDir = app.config.dataDir ? join(app.config.dataDir, 'video-archive') : await mkdtemp(join(tmpdir(), 'video-archive-'));
  const store = new ArchiveStore(storeDir);
  const lastContact = (vehicleId: number) => app.telemetry.latest.get(vehicleId)?.time;
  const online = (vehicleId: number, now = Date.now()) => {
    const time = lastContact(vehicleId);
    return time !== undefined && now - time < config.onlineWindowMs;
  };
  const worker = new ArchiveWorker({
    db: app.db,
    config,
    media,
    store,
    online,
    log,
    events: app.eventsWriter,
    notifier: app.notifier,
    mediaServerArchiveUrl: async () => (await app.settings.get()).video.mediaServerArchiveUrl,
    archiveDays: async () => (await app.settings.get()).video.archiveDays,
  });
  const video = { config, media, store, worker, online, lastContact } as Video;
  app.decorate('video', video);

  // One process of several runs the worker (its lease); its requests' own leases fence what it writes.
  let stopWorker: () => Promise<void> = async () => {};
  app.addHook('onReady', async () => {
    video.tokens = await StreamTokens.open(app.db);
    if (app.config.demoData) await seedDemoRequests(app.db).catch((err) => log.warn({ err }, 'demo video requests not made'));
    if (config.worker) stopWorker = runWhileHeld(app.leases.lease('video.worker'), worker, log);
  });
  app.addHook('preClose', async () => {
    await stopWorker();
    await worker.stop();
    if (!app.config.dataDir) await rm(storeDir, { recursive: true, force: true });
  });

  await app.register(liveRoutes);
  await app.register(streamRoutes);
  await app.register(requestRoutes);
  await app.register(monitoringRoutes);
}

export default fp(videoPlugin, { name: 'video', dependencies: ['access', 'reports', 'journals', 'notifications', 'telemetry'] });
