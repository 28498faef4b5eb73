import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { parseGeoSubscription } from '../../shared/map';
import { canAccess } from '../../shared/permissions';
import { MAP_READ } from '../map/queryParams';
import { geoConfig, type GeoConfig } from './config';
import { GeoHub } from './geoHub';
import geoRoutes from './geoRoutes';

export interface GeoArea {
  config: GeoConfig;
  hub: GeoHub;
  /** Ends the streams whose session ended or lost the map right (run every GEO_SESSION_CHECK_S). */
  checkSessions(): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    geo: GeoArea;
  }
}

/** Live vehicle clusters pushed to map viewers as server-sent events (DESIGN.md "Live data"). */
async function geoPlugin(app: FastifyInstance): Promise<void> {
  const config = geoConfig();
  const { latest, pipeline } = app.telemetry;
  const hub = new GeoHub(
    { positions: () => latest.entries(), vehicle: (id) => app.map.directory.get(id) },
    { rebuildMs: config.rebuildMs, refreshMs: 30_000, radius: config.clusterRadius, maxZoom: config.clusterMaxZoom },
  );

  app.map.directory.onChange(() => hub.positionsChanged());
  // this process's positions and, over the bus, the other processes' (telemetry's PositionShare)
  pipeline.on('positions', () => hub.positionsChanged());
  // A stream's PUT may reach another process behind the load balancer: that one asks, the holder answers.
  app.bus.respond('geo.move', ({ streamId, userId, q }) => {
    if (!hub.holds(streamId)) return null;
    const subscription = typeof q === 'string' ? parseGeoSubscription(q) : null;
    if (!subscription) return null;
    const outcome = hub.update(streamId, userId, subscription);
    return outcome === 'not_found' ? null : outcome;
  });

  const timers: NodeJS.Timeout[] = [];
  let checking = false;
  /** A stream outlives its request: a logout, a block or a lost map right must end it too. */
  const checkSessions = async () => {
    if (checking) return;
    checking = true;
    try {
      for (const stream of [...hub.all()]) {
        const user = await app.sessions.resolve(stream.owner.token, false).catch(() => undefined);
        if (user === undefined) continue; // database trouble: judge again next round
        if (!user || user.id !== stream.owner.userId || !canAccess(user, MAP_READ.access.path, MAP_READ.access.action))
          hub.close(stream.id);
      }
    } finally {
      checking = false;
    }
  };
  app.decorate('geo', { config, hub, checkSessions });

  app.addHook('onReady', async () => {
    hub.start();
    timers.push(
      setInterval(() => {
        for (const stream of hub.all()) stream.sink.heartbeat();
      }, config.heartbeatMs),
    );
    timers.push(setInterval(() => void checkSessions(), config.sessionCheckMs));
    for (const timer of timers) timer.unref();
  });
  app.addHook('preClose', async () => {
    for (const timer of timers) clearInterval(timer);
    hub.stop();
  });

  await app.register(geoRoutes, { hub, config });
}

export default fp(geoPlugin, { name: 'geo', dependencies: ['access', 'telemetry', 'map'] });
