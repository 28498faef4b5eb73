import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { mapConfig, type MapConfig } from './config';
import { FleetDirectory } from './fleetDirectory';
import routeLayer from './routeLayer';
import stopLayer from './stopLayer';
import filtersRoutes from './filtersRoutes';
import onlineRoutes from './onlineRoutes';
import branchAgencyRoute from './branchAgencyRoute';
import searchRoutes from './searchRoutes';
import incidentRoutes from './incidentRoutes';

/** What the geo stream, the GTFS-RT feed and the simulator reach as `app.map`. */
export interface MapArea {
  config: MapConfig;
  /** Vehicle → depot number, class, today's route: in memory, refreshed every minute. */
  directory: FleetDirectory;
}

declare module 'fastify' {
  interface FastifyInstance {
    map: MapArea;
  }
}

/** The live map's REST calls (console spec §7 Map, field-app spec §7 Map) and the vehicle directory. */
async function mapPlugin(app: FastifyInstance): Promise<void> {
  const config = mapConfig();
  const log = app.log.child({ area: 'map' });
  const directory = new FleetDirectory(app.db, config.tzOffsetMinutes, log);
  app.decorate('map', { config, directory });
  // a GTFS import finished in another process: its routes reach this map at once too
  app.bus.subscribe('cache', (change) => {
    if (change.kind === 'directory' && change.name === 'map.vehicles')
      void directory.refresh().catch((err) => log.warn({ err }, 'vehicle directory refresh failed'));
  });

  app.addHook('onReady', async () => {
    // In the background: a large fleet must not hold the listener back; the first reader awaits the same load.
    void directory.refresh().catch((err) => log.warn({ err }, 'vehicle directory load failed'));
    directory.start(config.directoryRefreshMs);
  });
  app.addHook('preClose', async () => directory.stop());

  await app.register(routeLayer);
  await app.register(stopLayer);
  await app.register(filtersRoutes);
  await app.register(onlineRoutes);
  await app.register(branchAgencyRoute);
  await app.register(searchRoutes);
  await app.register(incidentRoutes);
}

export default fp(mapPlugin, { name: 'map', dependencies: ['access', 'telemetry'] });
