import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import { GTFS_API, GTFS_RIGHTS_PATH, RealtimeFeedQuery, StaticFeedQuery } from '../../shared/gtfs/api';
import { isEnabled } from '../../shared/modules';
import { canAccess } from '../../shared/permissions';
import { bearerToken } from '../http/access';
import { fail } from '../http/errors';
import { MAP_READ } from '../map/queryParams';
import { operatorDate, operatorTzOffset } from '../platform/operatorDay';
import { gtfsConfig } from './config';
import { RunTrips } from './export/runTrips';
import { staticFeed } from './export/staticFeed';
import importRoutes from './importRoutes';
import { LiveRuns } from './liveRuns';
import { activeAlerts } from '../dispatch/serviceAlerts';
import { buildAlerts } from './alertsFeed';
import { loadFeedIds } from './export/feedIds';
import { encodeFeed, feedAsJson, type FeedMessage } from './realtimeFeed';
import { buildTripUpdates, type EncodedEntity } from './tripUpdatesFeed';
import type { LiveTripUpdate } from './liveRuns';
import { buildVehiclePositions } from './vehiclePositionsFeed';

/** Static feeds made at once: each reads the whole timetable, so more only queue on the database. */
const STATIC_FEEDS_AT_ONCE = 2;

const sameSecret = (given: string, expected: string) => {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
};

interface EncodedFeed {
  at: number;
  bytes: Buffer;
  json: Record<string, unknown> | null;
  message: FeedMessage;
}

/**
 * A feed made at most once per `cacheMs` (many pollers cost one encoding), its JSON form made on first demand;
 * made again at once when `revision` gives another value (what it is made of was written).
 */
function cachedFeed(
  cacheMs: number,
  build: (now: number) => Promise<{ message: FeedMessage; bytes: Buffer }>,
  revision: () => number = () => 0,
): () => Promise<EncodedFeed> {
  let cached: (EncodedFeed & { revision: number }) | null = null;
  let building: Promise<EncodedFeed> | null = null;
  return async () => {
    const now = Date.now();
    const current = revision();
    if (cached && cached.revision === current && now - cached.at < cacheMs) return cached;
    building ??= build(now)
      .then(({ message, bytes }) => {
        cached = { at: now, bytes, json: null, message, revision: current };
        return cached;
      })
      .finally(() => {
        building = null;
      });
    return building;
  };
}

/**
 * GTFS: the static network in (imports) and out (the static feed, with the ids the live feeds use), and the live
 * fleet out for journey planners: GTFS-Realtime VehiclePositions and, from the live timetable, TripUpdates.
 */
async function gtfsPlugin(app: FastifyInstance): Promise<void> {
  // Its own context: the zip upload's content types stay with these routes.
  const config = gtfsConfig();
  await app.register(importRoutes, { maxBytes: config.importMaxBytes });
  const tzOffset = operatorTzOffset();
  const runTrips = new RunTrips(app.db, { tzOffsetMinutes: tzOffset, periodDays: config.static.periodDays });
  const live = new LiveRuns(app.dispatch.engine, runTrips, tzOffset);
  const dispatchOn = async () => isEnabled(await app.settings.switches(), 'dispatch');
  /** The fleet's names and the static ids of the engine's runs; a failed read of the ids keeps the last ones (or our own ids). */
  const prepare = async (now: number) => {
    await app.map.directory.ensureLoaded();
    await live.ensureFresh(now).catch((error: unknown) => app.log.warn({ err: error }, 'GTFS-Realtime: trip ids not read'));
  };

  const vehiclePositions = cachedFeed(config.cacheMs, async (now) => {
    // the live timetable's matches while it runs; a switched-off engine's state is of another time
    const matched = await dispatchOn();
    await prepare(now);
    /** Without a matched run, the route of the vehicle's task today, so a consumer still knows its line. */
    const routeOnly = (id: number) => {
      const routeId = app.map.directory.get(id)?.routeId;
      return routeId ? { routeId: runTrips.routeId(routeId) } : null;
    };
    const message = buildVehiclePositions(
      {
        positions: () => app.telemetry.latest.entries(),
        vehicle: (id) => app.map.directory.get(id),
        tripOf: (id) => (matched ? live.tripOf(id) : null) ?? routeOnly(id),
      },
      now,
    );
    return { message, bytes: Buffer.from(encodeFeed(message)) };
  });
  // a vehicle's trip update is encoded once while it stays the same (LiveRuns gives it again until its next fix)
  const encodedTripUpdates = new WeakMap<LiveTripUpdate, EncodedEntity>();
  const tripUpdates = cachedFeed(
    config.cacheMs,
    async (now) => {
      await prepare(now);
      return buildTripUpdates(
        {
          updates: (at) => live.updates(at),
          cancelled: () => live.cancelled(),
          vehicle: (id) => app.map.directory.get(id),
          encoded: encodedTripUpdates,
        },
        now,
      );
    },
    // a service change (a run cancelled, a stop closed) is in the feed at once
    () => app.dispatch.engine.changesRevision,
  );

  const alerts = cachedFeed(
    config.cacheMs,
    async (now) => {
      const list = await activeAlerts(app.db, now);
      const ids = await loadFeedIds(app.db, ['agency', 'route', 'stop']);
      // the whole network: the agencies the static export names, found by its rule (the route's own, its depot's, the first)
      const agencies = list.some((a) => a.wholeNetwork)
        ? await app.db.query<{ agency_id: number | null; route_id: number }>(
            `select coalesce(d.agency_id, (select min(agency_id) from mgt.agency)) as agency_id, r.route_id
               from mgt.routes r left join mgt.depot d on d.depot_id = r."Depot_id"`,
          )
        : [];
      const agencyByKey = new Map<string, number>();
      if (agencies.length)
        for (const { agency_id: id } of await app.db.query<{ agency_id: number }>('select agency_id from mgt.agency')) {
          const key = ids.agency.imported(id);
          if (key !== undefined) agencyByKey.set(key, id);
        }
      const used = new Set<string>();
      for (const r of agencies) {
        const own = ids.route.extra(r.route_id)?.agency;
        const agency = (own !== undefined ? agencyByKey.get(own) : undefined) ?? r.agency_id;
        if (agency !== null) used.add(ids.agency.of(agency));
      }
      return buildAlerts(list, { route: (id) => ids.route.of(id), stop: (id) => ids.stop.of(id), agencies: [...used].sort() }, now);
    },
    () => app.serviceAlerts.revision,
  );

  const send = async (feed: () => Promise<EncodedFeed>, format: RealtimeFeedQuery['format'], reply: FastifyReply) => {
    const current = await feed();
    // behind a session a proxy must not keep it for others
    reply.header('cache-control', `${config.public ? 'public' : 'private'}, max-age=${Math.max(1, Math.round(config.cacheMs / 1000))}`);
    if (format === 'json') {
      current.json ??= feedAsJson(current.message);
      return current.json;
    }
    return reply.type('application/x-protobuf').send(current.bytes);
  };
  // GTFS_RT_PUBLIC: both live feeds open, else behind the map right
  const realtimeAccess = config.public
    ? { access: 'public' as const, module: 'map' as const, passive: true }
    : { ...MAP_READ, passive: true };
  const openness = config.public ? 'Открыт без входа (GTFS_RT_PUBLIC=true)' : 'Требует права карты';

  app.get<{ Querystring: RealtimeFeedQuery }>(
    GTFS_API.vehiclePositions,
    {
      config: realtimeAccess,
      schema: {
        tags: ['map'],
        summary: `GTFS-Realtime VehiclePositions (application/x-protobuf; ?format=json — JSON для людей): ТС с отметкой свежее 5 мин, рейс по живому расписанию (идентификаторы статического фида), скорость в м/с. ${openness}`,
        ...(config.public ? { security: [] } : {}),
        querystring: RealtimeFeedQuery,
      },
    },
    async (request, reply) => send(vehiclePositions, request.query.format, reply),
  );

  app.get<{ Querystring: RealtimeFeedQuery }>(
    GTFS_API.tripUpdates,
    {
      config: realtimeAccess,
      schema: {
        tags: ['map'],
        summary: `GTFS-Realtime TripUpdates (application/x-protobuf; ?format=json — JSON для людей): рейсы ТС по живому расписанию с прогнозом прибытия и отправления на оставшиеся остановки, невыполненные рейсы как CANCELED. 404, пока модуль «Диспетчерская» выключен. ${openness}`,
        ...(config.public ? { security: [] } : {}),
        querystring: RealtimeFeedQuery,
      },
    },
    async (request, reply) => {
      // the module off: no live timetable, so no predictions to publish (a planner falls back to the timetable)
      if (!(await dispatchOn())) throw fail(404, 'gtfs_rt_dispatch_off');
      return send(tripUpdates, request.query.format, reply);
    },
  );

  app.get<{ Querystring: RealtimeFeedQuery }>(
    GTFS_API.alerts,
    {
      config: realtimeAccess,
      schema: {
        tags: ['map'],
        summary: `GTFS-Realtime Alerts (application/x-protobuf; ?format=json — JSON для людей): опубликованные оповещения диспетчеров (/dispatch/alerts), чей период идёт сейчас; маршруты и остановки под идентификаторами статического фида, тексты на русском (language ru). ${openness}`,
        ...(config.public ? { security: [] } : {}),
        querystring: RealtimeFeedQuery,
      },
    },
    async (request, reply) => send(alerts, request.query.format, reply),
  );

  const feedConfig = config.static;
  let staticRunning = 0;
  app.get<{ Querystring: StaticFeedQuery }>(
    GTFS_API.staticFeed,
    {
      // Public, or a consumer's key, or a session with the external-system settings right: checked below, as
      // the access plugin knows only one rule per route.
      config: { access: 'public', heavy: true },
      schema: {
        tags: ['gtfs'],
        summary: `Сеть из справочников как фид GTFS (zip): остановки, маршруты, рейсы, расписание, календари, трассы; идентификаторы те же, что в GTFS-Realtime. ${
          feedConfig.public
            ? 'Открыт без входа (GTFS_STATIC_PUBLIC=true)'
            : `Требует ${feedConfig.key ? 'ключа (?key=, GTFS_STATIC_KEY) или ' : ''}права «Настройки справочников» (код 6)`
        }`,
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
    },
    async (_request, reply) => {
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
          today: operatorDate(now.getTime(), tzOffset),
          now,
          timezone: feedConfig.timezone,
          periodDays: feedConfig.periodDays,
          publisherName: feedConfig.publisherName,
          publisherUrl: feedConfig.publisherUrl,
          lang: feedConfig.lang,
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
    },
  );
}

export default fp(gtfsPlugin, { name: 'gtfs', dependencies: ['access', 'telemetry', 'map', 'dispatch'] });
