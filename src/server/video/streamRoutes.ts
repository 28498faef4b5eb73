import type { FastifyInstance, FastifyReply } from 'fastify';
import { canAccess } from '../../shared/permissions';
import { DemoSegmentParams, StoredSegmentParams, StreamParams, UpstreamQuery } from '../../shared/video/api';
import { VIDEO_STATUS } from '../../shared/video/statuses';
import { fail } from '../http/errors';
import { fetchUpstream, isPlaylist, proxiedUri, rewritePlaylist, UpstreamError, upstreamOf } from './mediaProxy';
import { findRecorder, mediaServerAddress } from './recorders';
import { archivePieces, loadArchiveRequest } from './archivePlayback';
import type { StreamTicket } from './streamTokens';

const PLAYLIST_TYPE = 'application/vnd.apple.mpegurl';
const SEGMENT_TYPE = 'video/mp2t';
/** The stream routes need no session (hls.js cannot send one): the signed token in the address is the right. */
const STREAM = { access: 'public', module: 'video' } as const;

/**
 * The HLS addresses the player reads: /api/v1/video/stream/{token}/index.m3u8 and what it lists. The token
 * (streamTokens.ts) names one camera's live stream, a request's recording, or a media server's stream.
 */
export default async function streamRoutes(app: FastifyInstance): Promise<void> {
  const ticketOf = (token: string): StreamTicket => {
    const ticket = app.video.tokens.read(token);
    if (!ticket) throw fail(404, 'not_found');
    return ticket;
  };
  /**
   * A playlist is where a player comes back (a live one every few seconds): the address's user must still be
   * logged in on the session it was issued to, not blocked, and still hold the right to watch. Segments are not
   * checked (they are many, and without a playlist a player has no new ones).
   */
  const stillAllowed = async (ticket: StreamTicket): Promise<void> => {
    const user = await app.sessions.resolveOwned(ticket.userId, ticket.session);
    if (!user) throw fail(401, 'unauthorized');
    if (!canAccess(user, ticket.kind === 'archive' ? '/video/archive' : '/video/online', 'read')) throw fail(403, 'forbidden');
  };
  const playlist = (reply: FastifyReply, text: string) =>
    reply.header('content-type', PLAYLIST_TYPE).header('cache-control', 'no-cache').send(text);

  const proxy = async (reply: FastifyReply, token: string, ticket: StreamTicket, url: string | undefined) => {
    const recorder = await findRecorder(app.db, ticket.vehicleId);
    if (!recorder?.mediaServer || recorder.dvrId !== ticket.dvrId) throw fail(404, 'dvr_or_camera_not_found');
    const address = mediaServerAddress((await app.settings.get()).video.mediaServerUrl, recorder, ticket.camera);
    const target = url ?? address.url;
    let fetched;
    try {
      fetched = await fetchUpstream(target, address.authorization, app.video.config.upstreamTimeoutMs);
    } catch (err) {
      // The player sees the media server's trouble as its own 502 (or 404) and retries by its rules.
      if (err instanceof UpstreamError) throw fail(err.status === 404 ? 404 : 502, err.status === 404 ? 'not_found' : 'internal_error');
      throw err;
    }
    if (isPlaylist(target, fetched.contentType)) {
      await stillAllowed(ticket);
      return playlist(
        reply,
        rewritePlaylist(fetched.body.toString('utf8'), target, (absolute) => proxiedUri(app.video.tokens, token, absolute)),
      );
    }
    return reply
      .header('content-type', fetched.contentType || SEGMENT_TYPE)
      .header('cache-control', 'no-cache')
      .send(fetched.body);
  };

  app.get<{ Params: StreamParams }>(
    '/api/v1/video/stream/:token/index.m3u8',
    {
      config: STREAM,
      schema: {
        tags: ['video'],
        summary:
          'HLS-плейлист потока: живой (скользящее окно) или записи по запросу; адрес выдают /video/online/{requestId}/{camera} и /video/requests/{id}/play/{camera}',
        params: StreamParams,
      },
    },
    async (request, reply) => {
      const ticket = ticketOf(request.params.token);
      const media = app.video.media;
      if (ticket.kind !== 'ms') await stillAllowed(ticket);
      if (ticket.kind === 'live')
        return playlist(
          reply,
          media.livePlaylist(Date.now(), (n) => `seg/${n}`),
        );
      if (ticket.kind === 'ms') return proxy(reply, request.params.token, ticket, undefined);
      const archive = await loadArchiveRequest(app, ticket.requestId!);
      // a request deleted (or being deleted) since the address was issued plays no more
      if (!archive || archive.status === VIDEO_STATUS.deleting || archive.status === VIDEO_STATUS.deleted) throw fail(404, 'not_found');
      if (archive.plan) {
        const camera = archive.plan.cameras.find((c) => c.index === ticket.camera);
        const lines = [
          '#EXTM3U',
          '#EXT-X-VERSION:3',
          `#EXT-X-TARGETDURATION:${Math.ceil(Math.max(1, ...(camera?.segments.map((s) => s.duration) ?? [1])))}`,
          '#EXT-X-PLAYLIST-TYPE:VOD',
        ];
        camera?.segments.forEach((segment, n) => lines.push(`#EXTINF:${segment.duration.toFixed(3)},`, `stored/${n}`));
        return playlist(reply, [...lines, '#EXT-X-ENDLIST', ''].join('\n'));
      }
      return playlist(
        reply,
        media.recordedPlaylist(archivePieces(app, archive, ticket.camera), (n) => `seg/${n}`),
      );
    },
  );

  app.get<{ Params: DemoSegmentParams }>(
    '/api/v1/video/stream/:token/seg/:n',
    {
      config: STREAM,
      schema: {
        tags: ['video'],
        summary: 'Сегмент (MPEG-TS, 2 с) встроенного демонстрационного источника',
        params: DemoSegmentParams,
      },
    },
    async (request, reply) => {
      const ticket = ticketOf(request.params.token);
      if (ticket.kind === 'ms') throw fail(404, 'not_found');
      // A segment's bytes never change: caches may keep it.
      return reply
        .header('content-type', SEGMENT_TYPE)
        .header('cache-control', 'private, max-age=3600')
        .send(app.video.media.segment(ticket.look, request.params.n));
    },
  );

  app.get<{ Params: StoredSegmentParams }>(
    '/api/v1/video/stream/:token/stored/:n',
    {
      config: STREAM,
      schema: {
        tags: ['video'],
        summary: 'Сегмент записи, загруженной с медиасервера по запросу',
        params: StoredSegmentParams,
      },
    },
    async (request, reply) => {
      const ticket = ticketOf(request.params.token);
      if (ticket.kind !== 'archive') throw fail(404, 'not_found');
      const body = await app.video.store.read(ticket.requestId!, ticket.camera, request.params.n).catch(() => {
        throw fail(404, 'not_found');
      });
      return reply.header('content-type', SEGMENT_TYPE).header('cache-control', 'private, max-age=3600').send(body);
    },
  );

  app.get<{ Params: StreamParams; Querystring: UpstreamQuery }>(
    '/api/v1/video/stream/:token/upstream',
    {
      config: STREAM,
      schema: {
        tags: ['video'],
        summary: 'Ресурс медиасервера (вложенный плейлист или сегмент) через сервер; адрес подписан сервером в выданном плейлисте',
        params: StreamParams,
        querystring: UpstreamQuery,
      },
    },
    async (request, reply) => {
      const ticket = ticketOf(request.params.token);
      if (ticket.kind !== 'ms') throw fail(404, 'not_found');
      const url = upstreamOf(app.video.tokens, request.params.token, request.query.u, request.query.s);
      if (!url) throw fail(404, 'not_found');
      return proxy(reply, request.params.token, ticket, url);
    },
  );
}
