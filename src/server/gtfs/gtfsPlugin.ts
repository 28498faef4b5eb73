import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { GTFS_API, GTFS_RIGHTS_PATH, StaticFeedQuery } from '../../shared/gtfs/api';
import { canAccess } from '../../shared/permissions';
import { bearerToken } from '../http/access';
import { fail } from '../http/errors';
import { MAP_READ } from '../map/queryParams';
import { operatorDate } from '../map/operatorDay';
import { gtfsConfig } from './config';
import { LiveTrips } from './export/liveTrips';
import { staticFeed } from './export/staticFeed';
import importRoutes from './importRoutes';
import { buildVehiclePositions, encodeFeed, feedAsJson, type FeedSource } from './vehiclePositionsFeed';

/** Static feeds made at once: each reads the whole timetable, so more only queue on the database. */
const STATIC_FEEDS_AT_ONCE = 2;

const sameSecret = (given: string, expected: string) => {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
};

/**
 * GTFS: the static network in (imports) and out (the static feed, with the ids the live feed uses), and the
 * live fleet out for journey planners (GTFS-Realtime VehiclePositions at /api/v1/gtfs-rt/vehicle-positions).
 */
async function gtfsPlugin(app: FastifyInstance): Promise<void> {
  // Its own context: the zip upload's content types stay with these routes.
  const config = gtfsConfig();
  await app.register(importRoutes, { maxBytes: config.importMaxBytes });
  const live = new LiveTrips(app.db, app.map.config.tzOffsetMinutes);
  const source: FeedSource = {
    positions: () => app.telemetry.latest.entries(),
    vehicle: (id) => app.map.directory.get(id),
    tripOf: (id, now) => live.tripOf(id, now),
    routeKey: (id) => live.routeId(id),
  };
  let cached: { at: number; bytes: Buffer; json: Record<string, unknown> | null; message: ReturnType<typeof buildVehiclePositions> } | null = null;

  const feed = async () => {
    const now = Date.now();
    if (!cached || now - cached.at >= config.cacheMs) {
      await app.map.directory.ensureLoaded();
      // The static feed's ids: a failed read keeps the last ones (or our own ids) rather than failing the feed.
      await live.ensureFresh(now).catch((error: unknown) => app.log.warn({ err: error }, 'GTFS-Realtime: trip ids not read'));
      const message = buildVehiclePositions(source, now);
      cached = { at: now, bytes: Buffer.from(encodeFeed(message)), json: null, message };
    }
    return cached;
  };

  app.get<{ Querystring: { format?: 'json' | 'pb' } }>('/api/v1/gtfs-rt/vehicle-positions', {
    config: config.public ? { access: 'public', module: 'map', passive: true } : { ...MAP_READ, passive: true },
    schema: {
      tags: ['map'],
      summary: `GTFS-Realtime VehiclePositions (application/x-protobuf; ?format=json — JSON для людей): ТС с отметкой свежее 5 мин, маршрут по сегодняшнему наряду, скорость в м/с. ${config.public ? 'Открыт без входа (GTFS_RT_PUBLIC=true)' : 'Требует права карты'}`,
      ...(config.public ? { security: [] } : {}),
      querystring: { type: 'object', properties: { format: { type: 'string', enum: ['json', 'pb'] } } },
    },
  }, async (request, reply) => {
    const current = await feed();
    reply.header('cache-control', `public, max-age=${Math.max(1, Math.round(config.cacheMs / 1000))}`);
    if (request.query.format === 'json') {
      current.json ??= feedAsJson(current.message);
      return current.json;
    }
    return reply.type('application/x-protobuf').send(current.bytes);
  });

  const feedConfig = config.static;
  const tzOffset = app.map.config.tzOffsetMinutes;
  let staticRunning = 0;
  app.get<{ Querystring: StaticFeedQuery }>(GTFS_API.staticFeed, {
    // Public, or a consumer's key, or a session with the external-system settings right: checked below, as
    // the access plugin knows only one rule per route.
    config: { access: 'public', heavy: true },
    schema: {
      tags: ['gtfs'],
      summary: `Сеть из справочников как фид GTFS (zip): остановки, маршруты, рейсы, расписание, календари, трассы; идентификаторы те же, что в GTFS-Realtime. ${
        feedConfig.public ? 'Открыт без входа (GTFS_STATIC_PUBLIC=true)' : `Требует ${feedConfig.key ? 'ключа (?key=, GTFS_STATIC_KEY) или ' : ''}права «Настройки справочников» (код 6)`}`,
      ...(feedConfig.public ? { security: [] } : {}),
      querystring: StaticFeedQuery,
    },
    onRequest: async (request) => {
      if (feedConfig.public) return;
      const given = request.query.key ?? request.headers['x-gtfs-key'];
      if (typeof given === 'string' && given) {
        if (feedConfig.key && sameSecret(given, feedConfig.key)) return;
        throw fail(403, 'forbidden');
      }
      const token = bearerToken(request);
      request.user = token ? await app.sessions.resolve(token, true) : null;
      if (!request.user) throw fail(401, 'unauthorized');
      if (!canAccess(request.user, GTFS_RIGHTS_PATH, 'read')) throw fail(403, 'forbidden');
    },
  }, async (_request, reply) => {
    if (staticRunning >= STATIC_FEEDS_AT_ONCE) throw fail(429, 'too_many_heavy_requests');
    staticRunning++;
    let released = false;
    const release = () => {
      if (!released) staticRunning--;
      released = true;
    };
    try {
      const now = new Date();
      const { zip } = await staticFeed(app.db.longRunning(), {
        today: operatorDate(now.getTime(), tzOffset), now, timezone: feedConfig.timezone, periodDays: feedConfig.periodDays,
        publisherName: feedConfig.publisherName, publisherUrl: feedConfig.publisherUrl, lang: feedConfig.lang,
      });
      zip.once('end', release).once('error', release);
      reply.raw.once('close', release);
      reply.header('content-disposition', 'attachment; filename="gtfs.zip"');
      if (feedConfig.public) reply.header('cache-control', 'public, max-age=600');
      return reply.type('application/zip').send(zip);
    } catch (error) {
      release();
      throw error;
    }
  });
}

export default fp(gtfsPlugin, { name: 'gtfs', dependencies: ['access', 'telemetry', 'map'] });
