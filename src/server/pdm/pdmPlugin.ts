import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { DayPartitions } from '../db/dayPartitions';
import { PeriodicJob } from '../jobs/periodicJob';
import { NodeIndex } from './nodeIndex';
import { ReadingWriter } from './readingWriter';
import { SensorIngest } from './sensorIngest';
import { SensorSimulator } from './sensorSimulator';
import sensorsIngestRoute from './sensorsIngestRoute';
import treeRoutes from './treeRoutes';
import screenRoutes from './screenRoutes';
import importRoutes from './importRoutes';
import { pdmConfig } from './config';
import { PDM_SOURCES } from './pdmReports';

declare module 'fastify' {
  interface FastifyInstance {
    /** On-board sensor data: the channel → node index, the readings writer, the ingestion every source uses. */
    pdm: { nodes: NodeIndex; writer: ReadingWriter; ingest: SensorIngest; simulator: SensorSimulator | null };
  }
}

/**
 * PDM: sensor readings in (EGTS sensor subrecords through app.telemetry.sensorSink, HTTP, the demo
 * simulator, the import manager), node states with the silence sweep, the tree editor's API, the special
 * parts of the report screens. Reports are declarations served by the reports plugin (pdmReports.ts).
 */
async function pdmPlugin(app: FastifyInstance): Promise<void> {
  app.reports.register(app, PDM_SOURCES);
  const log = app.log.child({ area: 'pdm' });
  const config = pdmConfig();
  const nodes = new NodeIndex(app.db, log);
  // Raw readings and minute rollups by day, kept PDM_RETENTION_DAYS; the hour rollups are kept.
  const partitions = ['pdm.reading', 'pdm.reading_minute'].map(
    (table) => new DayPartitions(app.db, { table, retentionDays: config.retentionDays }, log),
  );
  const writer = new ReadingWriter(app.db, nodes, log, { flushMs: config.flushMs, partitions });
  const ingest = new SensorIngest(nodes, writer, app.telemetry.latest);
  // The demo fleet's sensors run with the simulator (SIMULATOR; on with the demo data).
  const simulator = app.simulator
    ? new SensorSimulator(
        () => nodes.assigned(),
        (batches) => ingest.ingest(batches),
        log,
        { everyMs: config.simulatorEveryMs, lease: app.leases.lease('simulator') },
      )
    : null;
  app.decorate('pdm', { nodes, writer, ingest, simulator });
  app.telemetry.sensorSink = (batches) => ingest.ingest(batches);

  // Silence: nodes past their time-out go to 'no_data'; retention: the coming days made, whole days past it dropped.
  // One process of several runs each (their leases).
  const sweep = new PeriodicJob(() => writer.sweepSilence(), log, 'PDM silence sweep failed', app.leases.lease('pdm.sweep'));
  const retentionLease = app.leases.lease('pdm.partitions');
  const retention = new PeriodicJob(
    async () => {
      const fence = retentionLease.fence();
      for (const table of partitions) await table.maintain(Date.now(), fence);
    },
    log,
    'PDM partition maintenance failed',
    retentionLease,
  );
  // a tree changed in another process: the channel → node index is read again here
  app.bus.subscribe('cache', (change) => {
    if (change.kind === 'directory' && change.name === 'pdm.nodes')
      void nodes.refresh().catch((err) => log.warn({ err }, 'PDM node index refresh failed'));
  });
  app.addHook('onReady', async () => {
    await nodes.refresh();
    nodes.start(30_000);
    writer.start();
    sweep.start(config.sweepMs);
    retention.start(3_600_000);
  });
  if (simulator) app.addHook('onListen', async () => simulator.start());
  app.addHook('preClose', async () => {
    await Promise.all([simulator?.stop(), sweep.stop(), retention.stop(), nodes.stop()]);
    app.telemetry.sensorSink = null;
    await writer.close();
  });

  await app.register(sensorsIngestRoute);
  await app.register(treeRoutes);
  await app.register(screenRoutes);
  await app.register(importRoutes);
}

export default fp(pdmPlugin, { name: 'pdm', dependencies: ['access', 'reports', 'journals', 'telemetry', 'simulator'] });
