import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { DayPartitions } from '../db/dayPartitions';
import { PeriodicJob } from '../jobs/periodicJob';
import { telemetryConfig, type TelemetryConfig } from './config';
import { DeviceIndex } from './deviceIndex';
import { EgtsServer } from './egts/server';
import { FleetLinks } from './egts/fleetLinks';
import { TerminalLinks } from './egts/terminalLinks';
import type { SensorBatch } from './egts/sensors';
import { LatestPositions } from './latestPositions';
import { TelemetryPipeline } from './pipeline';
import { PositionShare } from './positionShare';
import { RecentFixes } from './recentFixes';
import type { TrackPoint } from '../../shared/map';
import { trackOf } from './trackStore';
import { SpoolAdoption } from './spoolAdoption';
import type { SpoolGuard } from './spoolLock';
import { TrackSpool, type TrackSpoolOptions } from './trackSpool';
import { TrackWriter, type TrackWriterOptions } from './trackWriter';
import { JournalBatcher, VehicleEvents } from './vehicleEvents';
import positionsRoute from './http/positionsRoute';
import periodRoute from './http/periodRoute';

/** What the rest of the server reaches as `app.telemetry`: the live state, its changes, the tracks. */
export interface Telemetry {
  config: TelemetryConfig;
  /** `ingest(positions)` for every source (the simulator too); `on('positions', ...)` for the geo stream. */
  pipeline: TelemetryPipeline;
  /** Positions to and from the other server processes (over the bus). */
  share: PositionShare;
  latest: LatestPositions;
  devices: DeviceIndex;
  /** Connections and disconnections of vehicles: `onVehicleEvent(sink)`. */
  events: VehicleEvents;
  track: {
    writer: TrackWriter;
    /** Writes dead siblings' spools to the database (null for a temporary spool, or TRACK_SPOOL_ADOPT=false). */
    adoption: SpoolAdoption | null;
    /** Points of one vehicle for a period, including those not yet flushed. */
    of(vehicleId: number, from: Date, to: Date, limit?: number): Promise<TrackPoint[]>;
    /** The track's day partitions: made ahead, dropped past TRACK_RETENTION_DAYS (hourly). */
    partitions: DayPartitions;
  };
  /** Terminals reachable for EGTS commands (connections and the simulator's terminals), and their confirmations. */
  commands: TerminalLinks;
  /** The same for the whole fleet: this process's terminals and, over the bus, the other processes'. */
  fleetLinks: FleetLinks;
  /** The EGTS listener once started. */
  egts: EgtsServer | null;
  /** Where EGTS sensor subrecords go (PDM sets it); resolves true once they are stored. */
  sensorSink: ((batches: SensorBatch[]) => Promise<boolean>) | null;
  /** Starts the EGTS listener (onReady does when EGTS_PORT > 0); resolves to the bound port. */
  startEgts(port?: number, host?: string): Promise<number>;
}

declare module 'fastify' {
  interface FastifyInstance {
    telemetry: Telemetry;
  }
}

const HOUR_MS = 3_600_000;
/** Held while a process judges and takes a spool folder's lock (its own at start, a dead sibling's). */
const SPOOL_LOCK = 'select pg_advisory_xact_lock(7346002)';

/** The database a spool's positions belong to, as its lock says: server, port and name (no credentials). */
function databaseIdentity(databaseUrl: string | undefined, dataDir: string | undefined): string {
  if (!databaseUrl) return `pglite:${dataDir ?? 'memory'}`;
  try {
    const url = new URL(databaseUrl);
    const host = url.hostname === 'localhost' ? '127.0.0.1' : url.hostname;
    return `postgres://${host}:${url.port || '5432'}${url.pathname}`;
  } catch {
    return 'postgres';
  }
}

async function telemetryPlugin(app: FastifyInstance): Promise<void> {
  const config = telemetryConfig();
  const log = app.log.child({ area: 'telemetry' });
  const latest = new LatestPositions();
  const devices = new DeviceIndex(app.db, log);
  const events = new VehicleEvents();
  // Without a data folder (tests) the spool lives in a temporary folder removed at close.
  const spoolDir =
    config.trackSpoolDir ?? (app.config.dataDir ? join(app.config.dataDir, 'track-spool') : await mkdtemp(join(tmpdir(), 'track-spool-')));
  const temporarySpool = !config.trackSpoolDir && !app.config.dataDir;
  const partitions = new DayPartitions(app.db, { table: 'app.track', retentionDays: config.trackRetentionDays }, log);
  const guard: SpoolGuard = (work) =>
    app.db.withLimit(10_000).transaction(async (tx) => {
      await tx.query(SPOOL_LOCK);
      return work();
    });
  const spoolOptions: TrackSpoolOptions = {
    syncIntervalMs: config.trackSpoolSyncMs,
    maxRowsInMemory: config.trackMaxBufferedRows,
    guard,
    database: databaseIdentity(app.config.databaseUrl, app.config.dataDir),
  };
  const spool = new TrackSpool(spoolDir, spoolOptions, log);
  const writerOptions: TrackWriterOptions = {
    flushIntervalMs: config.trackFlushIntervalMs,
    flushRows: config.trackFlushRows,
    statementRows: config.trackStatementRows ?? (app.db.engine === 'pglite' ? 1000 : 5000),
    partitions,
  };
  const writer = new TrackWriter(app.db, spool, writerOptions, log);
  // A temporary spool (tests) has no siblings of this installation next to it.
  const adoption =
    config.trackSpoolAdopt && !temporarySpool
      ? new SpoolAdoption(app.db, spoolDir, { intervalMs: config.trackSpoolAdoptMs, spool: spoolOptions, writer: writerOptions }, log)
      : null;
  const pipeline = new TelemetryPipeline(latest, new RecentFixes(), writer, {
    futureToleranceMs: config.futureToleranceMs,
    maxSpeedKmh: config.maxSpeedKmh,
    maxAgeMs: config.trackRetentionDays * 86_400_000,
  });

  const commands = new TerminalLinks();
  const telemetry: Telemetry = {
    config,
    pipeline,
    share: new PositionShare(app.bus, pipeline),
    latest,
    devices,
    events,
    egts: null,
    commands,
    fleetLinks: new FleetLinks(commands, app.bus),
    sensorSink: null,
    track: {
      writer,
      adoption,
      async of(vehicleId, from, to, limit) {
        await writer.flush();
        return trackOf(app.db, vehicleId, from, to, limit);
      },
      partitions,
    },
    async startEgts(port = config.egtsPort, host = config.egtsHost) {
      if (telemetry.egts) return telemetry.egts.port ?? port;
      const server = new EgtsServer(
        {
          ingest: (positions) => pipeline.ingest(positions),
          vehicleOf: (peer) => devices.vehicleOf(peer),
          emitEvent: (event) => events.emit(event),
          commands: telemetry.commands,
          ingestSensors: (batches) => telemetry.sensorSink?.(batches) ?? Promise.resolve(true),
          maxFrameBytes: config.egtsMaxFrameBytes,
        },
        {
          maxConnections: config.egtsMaxConnections,
          idleTimeoutMs: config.egtsIdleTimeoutMs,
          maxPendingWriteBytes: config.egtsMaxPendingWriteBytes,
          proxyProtocol: config.egtsProxyProtocol,
        },
        log,
      );
      telemetry.egts = server;
      return server.listen(port, host);
    },
  };
  app.decorate('telemetry', telemetry);

  // one process of several makes and drops the days (a writer makes the day it needs by itself)
  const maintenanceLease = app.leases.lease('telemetry.partitions');
  const maintenance = new PeriodicJob(
    () => partitions.maintain(Date.now(), maintenanceLease.fence()),
    log,
    'track partition maintenance failed',
    maintenanceLease,
  );
  const closers: (() => Promise<void>)[] = [];
  app.addHook('onReady', async () => {
    await devices.refresh();
    devices.start(config.deviceRefreshMs);
    const restored = await latest.load(app.db, Date.now() - config.trackRetentionDays * 86_400_000);
    telemetry.share.start();
    telemetry.fleetLinks.start();
    // Positions acknowledged by the previous run but not yet in the database go in first.
    await spool.open();
    writer.start();
    void writer.flush();
    // Then, now and every few seconds, what dead siblings acknowledged and did not write.
    adoption?.start();
    void adoption?.round();
    // The vehicle events journal (/journal/eventsts) records every connection and disconnection.
    if (app.hasDecorator('eventsWriter')) {
      const journal = new JournalBatcher((batch) => app.eventsWriter.vehicleEvents(batch), log);
      events.onVehicleEvent(journal.sink);
      closers.push(() => journal.close());
    }
    // The coming days' partitions at once (a start after days down), then hourly: made ahead, dropped past the retention.
    maintenance.start(HOUR_MS, 0);
    log.debug({ devices: devices.size, restored }, 'telemetry ready');
    if (config.egtsEnabled && config.egtsPort > 0) {
      // A taken port must not take the whole console down with it (maps, handbooks, HTTP ingestion still work).
      await telemetry.startEgts().catch((err: unknown) => {
        telemetry.egts = null;
        log.error({ err, port: config.egtsPort }, 'EGTS listener not started');
      });
    }
  });
  // preClose: terminals are let go and the last positions written while the database is still open.
  app.addHook('preClose', async () => {
    await maintenance.stop();
    devices.stop();
    telemetry.share.stop();
    telemetry.fleetLinks.stop();
    await telemetry.egts?.close();
    await adoption?.stop();
    await writer.close();
    if (temporarySpool) await rm(spoolDir, { recursive: true, force: true });
    for (const close of closers) await close();
  });

  await app.register(positionsRoute);
  await app.register(periodRoute);
}

export default fp(telemetryPlugin, { name: 'telemetry', dependencies: ['access', 'journals'] });
