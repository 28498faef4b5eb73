import type { FastifyInstance } from 'fastify';
import { GEO_STREAM_PATH, parseGeoSubscription, type GeoSubscription } from '../../shared/map';
import { bearerToken } from '../http/access';
import { fail } from '../http/errors';
import { MAP_READ } from '../map/queryParams';
import type { GeoConfig } from './config';
import type { GeoHub } from './geoHub';
import { SseSink } from './sseSink';

/** 10,000 vehicle ids of up to 10 digits, the bounds and the zoom. */
const MAX_Q_LENGTH = 120_000;

function subscriptionOf(q: string | undefined): GeoSubscription {
  const subscription = q ? parseGeoSubscription(q) : null;
  if (!subscription) throw fail(400, 'bad_request', 'q must be "south,west,north,east;zoom;id,id,..."');
  return subscription;
}

/**
 * The geo stream (field-app spec §7): GET opens a server-sent event stream of clusters for a viewport, PUT moves
 * that stream to another viewport or filter without reconnecting. The client reads the stream with fetch and
 * the usual Authorization header (EventSource cannot send one).
 */
export default async function geoRoutes(app: FastifyInstance, { hub, config }: { hub: GeoHub; config: GeoConfig }): Promise<void> {
  const { directory } = app.map;
  app.get<{ Querystring: { q?: string } }>(
    GEO_STREAM_PATH,
    {
      config: MAP_READ,
      schema: {
        tags: ['map'],
        summary:
          'Поток кластеров ТС (text/event-stream) для области карты: q = "юг,запад,север,восток;зум;id,id,..." (serializeGeoSubscription). Первое событие hello { streamId }, затем points { time, items: MapCluster[] } при каждом изменении в области; комментарий-пульс каждые 15 с',
        querystring: { type: 'object', properties: { q: { type: 'string', maxLength: MAX_Q_LENGTH } } },
      },
    },
    async (request, reply) => {
      const subscription = subscriptionOf(request.query.q);
      const user = request.user!;
      if (hub.streamsOf(user.id) >= config.maxStreamsPerUser)
        throw fail(429, 'bad_request', `at most ${config.maxStreamsPerUser} open streams per user`);
      // The first picture carries route and class labels: right after a start the directory may still be loading.
      await directory.ensureLoaded();
      reply.hijack();
      const raw = reply.raw;
      // Headers set by hooks (helmet's) are kept: hijacking bypasses the reply that would have sent them.
      for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) raw.setHeader(name, value);
      raw.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-transform',
        // HTTP/2 (over TLS) forbids connection headers: its streams live on one connection anyway.
        ...(request.raw.httpVersionMajor === 2 ? {} : { connection: 'keep-alive' }),
        // nginx and similar proxies must pass each event on at once, not buffer the stream.
        'x-accel-buffering': 'no',
      });
      raw.socket?.setNoDelay(true);
      const stream = hub.open({ userId: user.id, token: bearerToken(request) ?? '' }, subscription, new SseSink(raw));
      request.log.debug({ streamId: stream.id }, 'geo stream opened');
      raw.on('close', () => hub.close(stream.id));
    },
  );

  app.put<{ Params: { streamId: string }; Body: { q: string } }>(
    `${GEO_STREAM_PATH}/:streamId`,
    {
      // A viewport change is not a user action worth a journal row (it happens on every pan).
      config: { ...MAP_READ, journal: false },
      schema: {
        tags: ['map'],
        summary:
          'Смена области, зума и фильтра ТС открытого потока (только его владельцем): 204, и поток сразу присылает новые points. Поток может быть открыт в другом процессе сервера: запрос передаётся ему',
        params: { type: 'object', required: ['streamId'], properties: { streamId: { type: 'string', pattern: '^[0-9a-f-]{1,64}$' } } },
        body: { type: 'object', required: ['q'], properties: { q: { type: 'string', maxLength: MAX_Q_LENGTH } } },
      },
    },
    async (request, reply) => {
      const { streamId } = request.params;
      const userId = request.user!.id;
      const subscription = subscriptionOf(request.body.q);
      let outcome = hub.update(streamId, userId, subscription);
      // held by another process (no sticky sessions): the bus carries the move to it
      if (outcome === 'not_found')
        outcome = (await app.bus.request('geo.move', { streamId, userId, q: request.body.q }, config.moveTimeoutMs)) ?? 'not_found';
      if (outcome === 'not_found') throw fail(404, 'not_found');
      if (outcome === 'forbidden') throw fail(403, 'forbidden');
      return reply.status(204).send();
    },
  );
}
