import type { FastifyInstance } from 'fastify';
import { ArchiveMonitoring, ArchiveMonitoringParams, type ArchiveCoverage, type WithDefaults } from '../../shared/video/api';
import type { Static } from 'typebox';
import { containsPattern } from '../map/queryParams';
import { demoHourHeld, demoStoppedAt } from './demoArchive';
import { RECORDER_SQL, recorderOf, type Recorder } from './recorders';

const HOUR_MS = 3_600_000;

/**
 * One hour of a camera's archive as a character: '1' held, '0' a gap, '?' unknown (a recorder behind a
 * media server: the product has no way to ask it for its holdings short of an archive request).
 */
function hoursOf(recorder: Recorder, camera: number, firstHour: number, count: number, now: number, archiveHours: number): string {
  if (recorder.mediaServer) return '?'.repeat(count);
  const stopped = demoStoppedAt(recorder.dvrId, now);
  const oldest = now - archiveHours * HOUR_MS;
  let text = '';
  for (let h = firstHour; h < firstHour + count; h++) {
    const start = h * HOUR_MS;
    const held =
      start + HOUR_MS > oldest && start < now && (stopped === null || start < stopped) && demoHourHeld(recorder.dvrId, camera, h);
    text += held ? '1' : '0';
  }
  return text;
}

/** /video/vehicle-archive-monitoring: per recorder and camera the hours of the last days it holds, gaps, last contact, stops. */
export default async function monitoringRoutes(app: FastifyInstance): Promise<void> {
  app.get<{ Querystring: WithDefaults<Static<typeof ArchiveMonitoringParams>, 'days' | 'skipCount' | 'recordCount'> }>(
    '/api/v1/video/archive-monitoring',
    {
      config: {
        access: { path: '/video/vehicle-archive-monitoring', action: 'read' },
        module: 'video',
        section: 'video.archiveMonitoring',
      },
      schema: {
        tags: ['video'],
        summary:
          'Мониторинг архива регистраторов: по каждой камере часы последних дней (hours: «1» есть запись, «0» пропуск, «?» неизвестно — медиасервер) начиная со start, последняя связь с ТС, остановка записи; stopped=true — только остановившиеся',
        querystring: ArchiveMonitoringParams,
        response: { 200: ArchiveMonitoring },
      },
    },
    async (request): Promise<ArchiveMonitoring> => {
      const { days, q, stopped, skipCount, recordCount } = request.query;
      const now = Date.now();
      const count = days * 24;
      const firstHour = Math.floor(now / HOUR_MS) - count + 1;
      const text = q?.trim();
      const rows = await app.db.query<Parameters<typeof recorderOf>[0]>(
        RECORDER_SQL(
          text ? `(v.depot_number::text like $1 escape '\\' or upper(replace(v.state_number, ' ', '')) like $2 escape '\\')` : 'true',
        ),
        text ? [containsPattern(text).slice(1), containsPattern(text.replace(/\s+/g, '').toUpperCase())] : [],
      );
      const all: ArchiveCoverage[] = rows
        .map(recorderOf)
        .filter((r) => r.cameras.length)
        .map((recorder) => {
          const contact = app.video.lastContact(recorder.vehicleId);
          const stop = recorder.mediaServer ? null : demoStoppedAt(recorder.dvrId, now);
          return {
            vehicleId: recorder.vehicleId,
            depotNumber: recorder.depotNumber,
            stateNumber: recorder.stateNumber,
            dvrId: recorder.dvrId,
            source: recorder.mediaServer ? 'mediaServer' : 'demo',
            lastContact: contact ? new Date(contact).toISOString() : null,
            stoppedAt: stop === null ? null : new Date(stop).toISOString(),
            cameras: recorder.cameras.map((c) => ({
              index: c.index,
              title: c.title,
              hours: hoursOf(recorder, c.index, firstHour, count, now, app.video.config.demoArchiveHours),
            })),
          };
        });
      // Recorders that stopped come first: they are what the screen is for.
      all.sort((a, b) => Number(b.stoppedAt !== null) - Number(a.stoppedAt !== null) || (a.depotNumber ?? 0) - (b.depotNumber ?? 0));
      const chosen = stopped ? all.filter((r) => r.stoppedAt !== null) : all;
      return {
        start: new Date(firstHour * HOUR_MS).toISOString(),
        hours: count,
        count: chosen.length,
        stopped: all.filter((r) => r.stoppedAt !== null).length,
        list: chosen.slice(skipCount, skipCount + recordCount),
      };
    },
  );
}
