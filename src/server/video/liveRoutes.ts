import type { FastifyInstance } from 'fastify';
import type { Option } from '../../shared/api';
import {
  LiveCameraParams,
  LiveStartBody,
  LiveStarted,
  VideoIdParams,
  VideoStreamAddress,
  VideoVehicle,
  VideoVehicleFilters,
  VideoVehicleList,
  VideoVehicleQuery,
  type WithDefaults,
} from '../../shared/video/api';
import type { Static } from 'typebox';
import { fail } from '../http/errors';
import { routeOfVehicleSql } from '../map/assignmentsSql';
import { operatorDate, operatorTzOffset } from '../platform/operatorDay';
import { containsPattern } from '../map/queryParams';
import { findRecorder, mediaServerAddress, RECORDER_SQL, recorderOf, type Recorder } from './recorders';
import { viewer } from './streamTokens';

const VIDEO_READ = { access: { path: '/video/online', action: 'read' }, module: 'video' } as const;

export function videoVehicle(recorder: Recorder, online: boolean): VideoVehicle {
  return {
    vehicleId: recorder.vehicleId,
    depotNumber: recorder.depotNumber,
    stateNumber: recorder.stateNumber,
    model: recorder.model,
    dvrId: recorder.dvrId,
    source: recorder.mediaServer ? 'mediaServer' : 'demo',
    cameras: recorder.cameras.map(({ index, title }) => ({ index, title })),
    online,
  };
}

/**
 * Live video, field-app.md section 7: POST /api/v1/video/empty {vehicleId} gives a request id, GET
 * /api/v1/video/online/{requestId}/{camera} the stream's {url, playUrl}. Also the console's vehicle search
 * for /video/online and one vehicle's cameras.
 */
export default async function liveRoutes(app: FastifyInstance): Promise<void> {
  const tzOffsetMinutes = operatorTzOffset();
  const recorderWithCameras = async (vehicleId: number): Promise<Recorder> => {
    const recorder = await findRecorder(app.db, vehicleId);
    if (!recorder || !recorder.cameras.length) throw fail(404, 'dvr_or_camera_not_found');
    return recorder;
  };

  app.post<{ Body: LiveStartBody }>(
    '/api/v1/video/empty',
    {
      config: VIDEO_READ,
      schema: {
        tags: ['video'],
        summary:
          'Начать просмотр онлайн-видео ТС: ответ — номер запроса (число) для GET /api/v1/video/online/{requestId}/{camera}. 404 dvr_or_camera_not_found, если на ТС нет регистратора или камер',
        body: LiveStartBody,
        response: { 200: LiveStarted },
      },
    },
    async (request) => {
      const recorder = await recorderWithCameras(request.body.vehicleId);
      return app.db.transaction(async (tx) => {
        const [row] = await tx.query<{ id: number }>('insert into app.video_live (user_id, vehicle_id) values ($1, $2) returning id', [
          request.user!.id,
          recorder.vehicleId,
        ]);
        await app.eventsWriter.videoEvents(
          [
            {
              vehicleId: recorder.vehicleId,
              kind: 'live',
              message: `Онлайн-просмотр: ${request.user!.username}`,
              details: { liveRequest: row.id, userId: request.user!.id },
            },
          ],
          tx,
        );
        return row.id;
      });
    },
  );

  app.get<{ Params: LiveCameraParams }>(
    '/api/v1/video/online/:requestId/:camera',
    {
      config: VIDEO_READ,
      schema: {
        tags: ['video'],
        summary:
          'Адрес потока камеры (номер камеры регистратора): url — источник без учётных данных, playUrl — HLS-адрес сервера для hls.js (поток медиасервера проксируется сервером)',
        params: LiveCameraParams,
        response: { 200: VideoStreamAddress },
      },
    },
    async (request): Promise<VideoStreamAddress> => {
      const [live] = await app.db.query<{ vehicle_id: number }>('select vehicle_id from app.video_live where id = $1 and user_id = $2', [
        request.params.requestId,
        request.user!.id,
      ]);
      if (!live) throw fail(404, 'not_found');
      const recorder = await recorderWithCameras(live.vehicle_id);
      const camera = recorder.cameras.find((c) => c.index === request.params.camera);
      if (!camera) throw fail(404, 'dvr_or_camera_not_found');
      const look = app.video.media.lookOf(camera.position);
      // The address expires (video.streamTtlSeconds): a player asks for a fresh one when its stream fails.
      const { mediaServerUrl, streamTtlSeconds } = (await app.settings.get()).video;
      if (recorder.mediaServer) {
        const address = mediaServerAddress(mediaServerUrl, recorder, camera.index);
        const token = app.video.tokens.issue(
          { kind: 'ms', vehicleId: recorder.vehicleId, dvrId: recorder.dvrId, camera: camera.index, look, ...viewer(request.user!) },
          streamTtlSeconds,
        );
        return { url: address.shown, playUrl: `/api/v1/video/stream/${token}/index.m3u8` };
      }
      const token = app.video.tokens.issue(
        { kind: 'live', vehicleId: recorder.vehicleId, dvrId: recorder.dvrId, camera: camera.index, look, ...viewer(request.user!) },
        streamTtlSeconds,
      );
      return { url: `demo://dvr/${recorder.dvrId}/camera/${camera.index}`, playUrl: `/api/v1/video/stream/${token}/index.m3u8` };
    },
  );

  app.get<{ Params: VideoIdParams }>(
    '/api/v1/video/vehicles/:id',
    {
      config: VIDEO_READ,
      schema: {
        tags: ['video'],
        summary: 'Регистратор и камеры ТС, источник потока и связь с ТС',
        params: VideoIdParams,
        response: { 200: VideoVehicle },
      },
    },
    async (request): Promise<VideoVehicle> => {
      const recorder = await recorderWithCameras(request.params.id);
      return videoVehicle(recorder, app.video.online(recorder.vehicleId));
    },
  );

  app.get<{ Querystring: WithDefaults<Static<typeof VideoVehicleQuery>, 'skipCount' | 'recordCount'> }>(
    '/api/v1/video/vehicles',
    {
      config: VIDEO_READ,
      schema: {
        tags: ['video'],
        summary:
          'ТС с видеорегистратором: поиск по гаражному номеру или госномеру (q), филиалу (depot), маршруту дня (route), типу (type); сначала ТС на связи',
        querystring: VideoVehicleQuery,
        response: { 200: VideoVehicleList },
      },
    },
    async (request): Promise<VideoVehicleList> => {
      const { q, depot, route, type, skipCount, recordCount } = request.query;
      const params: unknown[] = [operatorDate(Date.now(), tzOffsetMinutes)];
      const add = (value: unknown) => `$${params.push(value)}`;
      const conditions = ['true'];
      const text = q?.trim();
      if (text) {
        const plate = text.replace(/\s+/g, '').toUpperCase();
        conditions.push(
          `(v.depot_number::text like ${add(containsPattern(text).slice(1))} escape '\\' or upper(replace(v.state_number, ' ', '')) like ${add(containsPattern(plate))} escape '\\')`,
        );
      }
      if (depot) conditions.push(`v.depot_id = ${add(depot)}`);
      if (type) conditions.push(`v.vehicle_type_id = ${add(type)}`);
      if (route) conditions.push(`a.route_id = ${add(route)}`);
      const rows = await app.db.query<Parameters<typeof recorderOf>[0] & { route_name: string | null; total: number }>(
        `select x.*, rt.route_short_name as route_name, count(*) over ()::int as total
         from (${RECORDER_SQL(`exists (select 1 from mgt.dev_camera c where c.dvr_id = d.id)`)}) x
         join mgt.vehicles v on v.id = x.vehicle_id
         left join (${routeOfVehicleSql('$1')}) a on a.vehicle_id = v.id
         left join mgt.routes rt on rt.route_id = a.route_id
        where ${conditions.join(' and ')}
        order by v.depot_number, v.id`,
        params,
      );
      // Vehicles online first: a dispatcher looks for a picture, and an offline vehicle shows none.
      const all = rows.map((row) => ({ ...videoVehicle(recorderOf(row), app.video.online(row.vehicle_id)), routeName: row.route_name }));
      all.sort((a, b) => Number(b.online) - Number(a.online));
      return { list: all.slice(skipCount, skipCount + recordCount), count: all.length };
    },
  );

  app.get(
    '/api/v1/video/vehicle-filters',
    {
      config: VIDEO_READ,
      schema: {
        tags: ['video'],
        summary: 'Варианты фильтров поиска ТС для видео: филиалы, маршруты, типы ТС',
        response: { 200: VideoVehicleFilters },
      },
    },
    async (): Promise<VideoVehicleFilters> => {
      const [depots, routes, types] = await Promise.all([
        app.db.query<Option>('select depot_id as id, depot_name as name from mgt.depot order by depot_name, depot_id'),
        app.db.query<Option>(
          `select route_id as id, route_short_name || coalesce(' ' || route_long_name, '') as name from mgt.routes order by route_short_name, route_id`,
        ),
        app.db.query<Option>('select id, title as name from mgt.transport_type order by title, id'),
      ]);
      return { depots, routes, types };
    },
  );
}
