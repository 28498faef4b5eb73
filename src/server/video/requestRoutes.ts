import type { FastifyInstance, FastifyRequest } from 'fastify';
import { canAccess } from '../../shared/permissions';
import {
  ArchivePlayback,
  ArchiveRequestCreated,
  ArchiveRequestInput,
  ArchiveRequestMoved,
  RequestCameraParams,
  VideoIdParams,
  type ArchiveRequest,
} from '../../shared/video/api';
import { CANCELLABLE_STATUSES, ERROR_STATUSES, VIDEO_STATUS as S } from '../../shared/video/statuses';
import { fail } from '../http/errors';
import { sendFileParts, type FilePart } from '../http/byteRanges';
import { archivePieces, loadArchiveRequest, type ArchiveRequestRow } from './archivePlayback';
import { journalStatus, REASONS } from './archiveWorker';
import { demoCoverage, piecesSeconds } from './demoArchive';
import { findRecorder } from './recorders';
import { viewer } from './streamTokens';

/** Requests a little ahead of now are cut at now; beyond this they are refused. */
const FUTURE_TOLERANCE_MS = 60_000;

/**
 * Archive requests (SCREENS.md, "Video"): create (code 23), cancel and retry (23), delete (code 24 any
 * request, 27 one's own), play a performed one (25; the first playback marks it viewed) and download it.
 * The lists are reports (src/shared/reports/video.ts); the worker (archiveWorker.ts) does the rest.
 */
export default async function requestRoutes(app: FastifyInstance): Promise<void> {
  const found = async (id: number): Promise<ArchiveRequestRow> => {
    const row = await loadArchiveRequest(app, id);
    if (!row || row.status === S.deleted) throw fail(404, 'not_found');
    return row;
  };
  const journal = (
    row: Pick<ArchiveRequestRow, 'id' | 'vehicle_id'>,
    kind: string,
    message: string,
    request: FastifyRequest,
    camera?: number,
  ) =>
    app.eventsWriter.videoEvents([
      {
        vehicleId: row.vehicle_id,
        kind,
        requestId: row.id,
        camera,
        message: `${message}: ${request.user!.username}`,
        details: { userId: request.user!.id },
      },
    ]);

  app.post<{ Body: ArchiveRequestInput }>(
    '/api/v1/video/requests',
    {
      config: { access: { path: '/video/requests', action: 'create' }, module: 'video' },
      schema: {
        tags: ['video'],
        summary:
          'Запрос видеоархива: ТС, камеры (номера камер регистратора), период (ISO 8601, не длиннее настройки video.maxRequestMinutes). Сразу отказ video_no_data, если демонстрационный регистратор ничего не хранит за период, dvr_or_camera_not_found — если на ТС нет регистратора или камер. Ответ 201 {id}',
        body: ArchiveRequestInput,
        response: { 201: ArchiveRequestCreated },
      },
    },
    async (request, reply) => {
      const { vehicleId, cameras } = request.body;
      const from = Date.parse(request.body.from);
      const to = Date.parse(request.body.to);
      if (Number.isNaN(from)) throw fail(400, 'bad_request', 'from');
      if (!(to > from)) throw fail(400, 'bad_request', 'to');
      const now = Date.now();
      if (from > now) throw fail(400, 'video_period_in_future');
      const settings = (await app.settings.get()).video;
      if (to - from > settings.maxRequestMinutes * 60_000) throw fail(400, 'video_period_too_long');
      const recorder = await findRecorder(app.db, vehicleId);
      if (!recorder || !recorder.cameras.length) throw fail(404, 'dvr_or_camera_not_found');
      if (cameras.some((index) => !recorder.cameras.some((c) => c.index === index))) throw fail(400, 'video_camera_not_found');
      const end = Math.min(to, now + FUTURE_TOLERANCE_MS);
      // A demo recorder's holdings are known here: an empty period is refused at once (a media server's are
      // known only once the worker asks it).
      if (!recorder.mediaServer) {
        const held = cameras.reduce(
          (sum, c) => sum + piecesSeconds(demoCoverage(recorder.dvrId, c, from, end, now, app.video.config.demoArchiveHours)),
          0,
        );
        if (held === 0) throw fail(400, 'video_no_data');
      }
      const id = await app.db.transaction(async (tx) => {
        const [row] = await tx.query<{ id: number }>(
          `insert into app.video_request (user_id, username, vehicle_id, dvr_id, cameras, period_from, period_to)
         values ($1, $2, $3, $4, $5::int[], $6, $7) returning id`,
          [
            request.user!.id,
            request.user!.username,
            vehicleId,
            recorder.dvrId,
            [...cameras].sort((a, b) => a - b),
            new Date(from).toISOString(),
            new Date(end).toISOString(),
          ],
        );
        await app.eventsWriter.videoEvents(
          [
            {
              vehicleId,
              kind: 'request',
              requestId: row.id,
              message: `Запрос видео: ${request.user!.username}, камеры ${cameras.join(', ')}`,
              details: { userId: request.user!.id, cameras, from: new Date(from).toISOString(), to: new Date(end).toISOString() },
            },
          ],
          tx,
        );
        return row.id;
      });
      return reply.status(201).send({ id });
    },
  );

  /** Moves a request from one of `allowed` to `status` (in one statement, so the worker's write cannot cross it). */
  const move = async (row: ArchiveRequestRow, allowed: readonly number[], status: number, reason: string | null, reset = false) => {
    const updated = await app.db.transaction(async (tx) => {
      const rows = await tx.query<{ id: number }>(
        `update app.video_request set status = $2, reason = $3, status_at = now(), lease_owner = null, lease_until = null
                ${reset ? ', progress = 0, downloaded_s = 0, total_s = 0, plan = null, fetched = 0, size_bytes = null, worked_at = null' : ''}
          where id = $1 and status = any($4::int[]) returning id`,
        [row.id, status, reason, allowed],
      );
      if (rows.length) await journalStatus(app.eventsWriter, tx, row, status, reason);
      return rows.length > 0;
    });
    return updated;
  };

  app.post<{ Params: VideoIdParams }>(
    '/api/v1/video/requests/:id/cancel',
    {
      config: { access: { path: '/video/requests', action: 'update' }, module: 'video' },
      schema: {
        tags: ['video'],
        summary: 'Отменить незавершённый запрос (статус 14 «Ошибка» с причиной «Отменён пользователем»; его можно повторить)',
        params: VideoIdParams,
        response: { 200: ArchiveRequestMoved },
      },
    },
    async (request) => {
      const row = await found(request.params.id);
      if (!(await move(row, CANCELLABLE_STATUSES, S.error, REASONS.cancelled))) throw fail(400, 'video_request_not_cancellable');
      return { id: row.id, status: S.error };
    },
  );

  app.post<{ Params: VideoIdParams }>(
    '/api/v1/video/requests/:id/retry',
    {
      config: { access: { path: '/video/requests', action: 'update' }, module: 'video' },
      schema: {
        tags: ['video'],
        summary: 'Повторить запрос, завершившийся ошибкой (статусы 10–14): снова «Создан»',
        params: VideoIdParams,
        response: { 200: ArchiveRequestMoved },
      },
    },
    async (request) => {
      const row = await found(request.params.id);
      if (!(await move(row, ERROR_STATUSES, S.created, null, true))) throw fail(400, 'video_request_not_retryable');
      return { id: row.id, status: S.created };
    },
  );

  app.delete<{ Params: VideoIdParams }>(
    '/api/v1/video/requests/:id',
    {
      // Code 24 deletes any request, code 27 one's own: the check needs the request's owner, below.
      config: { access: 'session', module: 'video' },
      schema: {
        tags: ['video'],
        summary: 'Удалить запрос (право 24 — любой, право 27 — свой): «Удаление», затем «Удалён»',
        params: VideoIdParams,
        response: { 200: ArchiveRequestMoved },
      },
    },
    async (request) => {
      const row = await found(request.params.id);
      const user = request.user!;
      const mayDelete =
        canAccess(user, '/video/archive', 'delete') || (row.user_id === user.id && canAccess(user, '/video/myrequests', 'delete'));
      if (!mayDelete) throw fail(403, 'forbidden');
      const allStatuses = Object.values(S).filter((s) => s !== S.deleting && s !== S.deleted && s !== S.viewed);
      await move(row, allStatuses, S.deleting, null);
      await journal(row, 'deleted', 'Запрос удалён', request);
      return { id: row.id, status: S.deleting };
    },
  );

  app.get<{ Params: VideoIdParams }>(
    '/api/v1/video/requests/:id',
    {
      config: { access: { path: '/video/archive', action: 'read' }, module: 'video' },
      schema: {
        tags: ['video'],
        summary: 'Запрос видеоархива: ТС, камеры, период, статус (показываемый: выполненный и просмотренный — 7), причина, процент, размер',
        params: VideoIdParams,
      },
    },
    async (request): Promise<ArchiveRequest> => {
      const [row] = await app.db.query<ArchiveRequest>(
        `select r.id, r.user_id as "userId", r.username, r.vehicle_id as "vehicleId", v.depot_number as "depotNumber", v.state_number as "stateNumber",
              r.cameras, r.period_from as "from", r.period_to as "to", r.status,
              (case when r.status = 6 and r.viewed_at is not null then 7 else r.status end)::int as "shownStatus",
              r.reason, r.progress, r.size_bytes::float8 as "sizeBytes", r.created_at as "createdAt", r.viewed_at as "viewedAt"
         from app.video_request r left join mgt.vehicles v on v.id = r.vehicle_id where r.id = $1 and r.status <> 9`,
        [request.params.id],
      );
      if (!row) throw fail(404, 'not_found');
      return row;
    },
  );

  app.get<{ Params: RequestCameraParams }>(
    '/api/v1/video/requests/:id/play/:camera',
    {
      config: { access: { path: '/video/archive', action: 'read' }, module: 'video' },
      schema: {
        tags: ['video'],
        summary:
          'Воспроизвести запись выполненного запроса: HLS-плейлист записи и её привязка к часам. Первый просмотр отмечает запрос просмотренным',
        params: RequestCameraParams,
        response: { 200: ArchivePlayback },
      },
    },
    async (request): Promise<ArchivePlayback> => {
      const row = await found(request.params.id);
      if (row.status !== S.performed) throw fail(400, 'video_not_ready');
      if (!row.cameras.includes(request.params.camera)) throw fail(404, 'video_camera_not_found');
      const recorder = row.vehicle_id ? await findRecorder(app.db, row.vehicle_id) : undefined;
      const position = recorder?.cameras.find((c) => c.index === request.params.camera)?.position ?? request.params.camera;
      const token = app.video.tokens.issue(
        {
          kind: 'archive',
          vehicleId: row.vehicle_id,
          dvrId: row.dvr_id ?? 0,
          camera: request.params.camera,
          look: app.video.media.lookOf(position),
          requestId: row.id,
          ...viewer(request.user!),
        },
        (await app.settings.get()).video.streamTtlSeconds,
      );
      const [first] = await app.db.query(
        'update app.video_request set viewed_at = now() where id = $1 and viewed_at is null returning id',
        [row.id],
      );
      if (first) await journal(row, 'viewed', 'Первый просмотр', request, request.params.camera);
      return { playUrl: `/api/v1/video/stream/${token}/index.m3u8`, timeline: timelineOf(app, row, request.params.camera) };
    },
  );

  app.get<{ Params: RequestCameraParams }>(
    '/api/v1/video/requests/:id/download/:camera',
    {
      config: { access: { path: '/video/archive', action: 'read' }, module: 'video' },
      schema: {
        tags: ['video'],
        summary:
          'Скачать запись камеры выполненного запроса одним файлом MPEG-TS; Range (одна часть) — докачка с места обрыва: 206 и Content-Range, 416 за концом файла',
        params: RequestCameraParams,
      },
    },
    async (request, reply) => {
      const row = await found(request.params.id);
      if (row.status !== S.performed) throw fail(400, 'video_not_ready');
      if (!row.cameras.includes(request.params.camera)) throw fail(404, 'video_camera_not_found');
      const camera = request.params.camera;
      const store = app.video.store;
      const media = app.video.media;
      const recorder = await findRecorder(app.db, row.vehicle_id);
      const look = media.lookOf(recorder?.cameras.find((c) => c.index === camera)?.position ?? camera);
      const parts: FilePart[] = row.plan
        ? await Promise.all(
            Array.from({ length: row.plan.cameras.find((c) => c.index === camera)?.segments.length ?? 0 }, async (_, n) => ({
              size: await store.size(row.id, camera, n),
              read: () => store.read(row.id, camera, n),
            })),
          )
        : media.partsOf(look, archivePieces(app, row, camera));
      reply
        .header('content-type', 'video/mp2t')
        .header('content-disposition', `attachment; filename="video-${row.id}-camera-${camera}.ts"`);
      return sendFileParts(reply, parts, request.headers.range);
    },
  );
}

/** Where each piece of the recording sits in the playlist and on the clock. */
function timelineOf(app: FastifyInstance, row: ArchiveRequestRow, camera: number): ArchivePlayback['timeline'] {
  if (row.plan) {
    const duration = row.plan.cameras.find((c) => c.index === camera)?.segments.reduce((sum, s) => sum + s.duration, 0) ?? 0;
    return [{ offset: 0, start: new Date(row.period_from).toISOString(), duration }];
  }
  let offset = 0;
  return archivePieces(app, row, camera).map((piece) => {
    const duration = (piece.end - piece.start) / 1000;
    const entry = { offset, start: new Date(piece.start).toISOString(), duration };
    offset += duration;
    return entry;
  });
}
