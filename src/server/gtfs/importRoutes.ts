import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Readable, Transform } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { GTFS_API, GTFS_RIGHTS_PATH, ImportRunParams, ImportUploadQuery, type ImportReport, type ImportRun } from '../../shared/gtfs/api';
import { runAsServer } from '../db/queryCaller';
import { fail } from '../http/errors';
import { operatorDate, operatorTzOffset } from '../platform/operatorDay';
import { ImportCancelled, importFeed, type ImportStage } from './import/importFeed';

interface RunningImport {
  /**
   * The run as recorded at its start: while it runs it is answered from here, since on the embedded engine its
   * write transaction holds the database and a poll reading the table would wait until the write ends.
   */
  run: ImportRun;
  stage: ImportStage;
  progress: number;
  abort: AbortController;
}

const RUN_COLUMNS = `id, started_at::text, finished_at::text, username, file, bytes::int, status, stage, progress, report`;

/** The upload's bytes into a file, counted against the cap as they come. */
async function receive(request: FastifyRequest, path: string, limit: number): Promise<number> {
  let bytes = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      bytes += chunk.length;
      done(bytes > limit ? fail(413, 'payload_too_large') : null, chunk);
    },
  });
  await pipeline(request.body as Readable, counter, createWriteStream(path));
  return bytes;
}

/**
 * The GTFS import (console «Импорт GTFS», code 6): the zip is streamed to a temporary file, answered with the
 * run's id, then checked and written in the background; the console polls the run for its stage and progress,
 * may cancel it, and reads its report. One import at a time. A run's progress lives in memory while it runs:
 * on the embedded engine the write transaction holds the database, so nothing else is written meanwhile.
 */
export default async function importRoutes(app: FastifyInstance, { maxBytes }: { maxBytes: number }): Promise<void> {
  const running = new Map<number, RunningImport>();
  const tzOffset = operatorTzOffset();
  app.addContentTypeParser(['application/zip', 'application/octet-stream', 'application/x-zip-compressed'], (_request, payload, done) =>
    done(null, payload),
  );

  /** The report of a run that ended before its own (cancelled, failed, interrupted): the contract's shape, empty, with why. */
  const endedWithout = (message?: string): ImportReport => ({ files: [], notices: [], totals: {}, ...(message ? { message } : {}) });

  // A run left 'running' by a stopped process will never end: say so.
  app.addHook('onReady', async () => {
    await app.db.query(
      `update gtfs.import_run set status = 'failed', stage = 'end', finished_at = now(),
      report = $1::jsonb where status = 'running'`,
      [JSON.stringify(endedWithout('gtfs_import_interrupted'))],
    );
  });

  const withLive = (run: ImportRun): ImportRun => {
    const live = running.get(run.id);
    return live ? { ...run, stage: live.stage, progress: live.progress } : run;
  };

  app.post<{ Querystring: ImportUploadQuery }>(
    GTFS_API.imports,
    {
      config: { access: { path: GTFS_RIGHTS_PATH, action: 'update' } },
      bodyLimit: Number.MAX_SAFE_INTEGER,
      schema: {
        tags: ['gtfs'],
        summary:
          'Импорт сети из GTFS (zip в теле запроса, Content-Type: application/zip): ответ — номер импорта; проверка и запись идут в фоне',
        querystring: ImportUploadQuery,
      },
    },
    async (request, reply) => {
      if (!(request.body instanceof Readable)) throw fail(415, 'gtfs_import_not_zip');
      if (running.size > 0) throw fail(409, 'gtfs_import_running');
      const user = request.user!;
      const [run] = await app.db.query<ImportRun>(
        `insert into gtfs.import_run (user_id, username, file, status, stage) values ($1, $2, $3, 'running', 'upload') returning ${RUN_COLUMNS}`,
        [user.id, user.username, request.query.file],
      );
      const { id } = run;
      const job: RunningImport = { run, stage: 'upload', progress: 0, abort: new AbortController() };
      running.set(id, job);
      const folder = mkdtempSync(join(tmpdir(), 'gtfs-import-'));
      const path = join(folder, 'feed.zip');
      let bytes: number;
      try {
        bytes = await receive(request, path, maxBytes);
      } catch (error) {
        running.delete(id);
        rmSync(folder, { recursive: true, force: true });
        await app.db.query(
          `update gtfs.import_run set status = 'failed', stage = 'end', finished_at = now(), report = $2::jsonb where id = $1`,
          [id, JSON.stringify(endedWithout('gtfs_import_upload_failed'))],
        );
        throw error;
      }
      await app.db.query('update gtfs.import_run set bytes = $2 where id = $1', [id, bytes]);
      job.run.bytes = bytes;
      // The import outlives this request: it runs as the server's work, not as this client's.
      void runAsServer(() => runImport(id, path, job).finally(() => rmSync(folder, { recursive: true, force: true })));
      return reply.code(202).send({ id });
    },
  );

  async function runImport(id: number, path: string, job: RunningImport): Promise<void> {
    let status: 'done' | 'refused' | 'cancelled' | 'failed' = 'failed';
    let report: ImportReport = endedWithout();
    try {
      const result = await importFeed(app.db, path, {
        operatorOffsetMinutes: tzOffset,
        today: operatorDate(Date.now(), tzOffset),
        signal: job.abort.signal,
        onStage: (stage, progress) => {
          job.stage = stage;
          job.progress = progress;
        },
      });
      status = result.outcome;
      report = { ...result.report, written: result.report.written && { ...result.report.written } };
    } catch (error) {
      if (error instanceof ImportCancelled) status = 'cancelled';
      else {
        app.log.error({ err: error, importRun: id }, 'GTFS import failed');
        report = endedWithout('gtfs_import_failed');
      }
    } finally {
      await app.db
        .query(
          `update gtfs.import_run set status = $2, stage = 'end', progress = 1, finished_at = now(), report = $3::jsonb where id = $1`,
          [id, status, JSON.stringify(report)],
        )
        .catch((error: unknown) => app.log.error({ err: error, importRun: id }, 'GTFS import: its end was not recorded'));
      // Only now: until its end is recorded, a poll is answered from memory rather than with the row's start.
      running.delete(id);
      // Routes and stops of the new network reach the map's directory now rather than at its next refresh.
      if (status === 'done') {
        void app.map.directory.refresh().catch(() => undefined);
        app.bus.publish('cache', { kind: 'directory', name: 'map.vehicles' });
      }
    }
  }

  app.get(
    GTFS_API.imports,
    {
      config: { access: { path: GTFS_RIGHTS_PATH, action: 'read' } },
      schema: { tags: ['gtfs'], summary: 'История импортов GTFS (последние 100)' },
    },
    async () => {
      const list = await app.db.query<ImportRun>(`select ${RUN_COLUMNS} from gtfs.import_run order by id desc limit 100`);
      return { list: list.map(withLive), count: list.length };
    },
  );

  app.get<{ Params: ImportRunParams }>(
    GTFS_API.importRun,
    {
      config: { access: { path: GTFS_RIGHTS_PATH, action: 'read' } },
      schema: { tags: ['gtfs'], summary: 'Импорт GTFS: этап, доля выполненного, отчёт по окончании', params: ImportRunParams },
    },
    async (request) => {
      const live = running.get(Number(request.params.id));
      if (live) return { ...live.run, stage: live.stage, progress: live.progress };
      const [run] = await app.db.query<ImportRun>(`select ${RUN_COLUMNS} from gtfs.import_run where id = $1`, [Number(request.params.id)]);
      if (!run) throw fail(404, 'not_found');
      return withLive(run);
    },
  );

  app.post<{ Params: ImportRunParams }>(
    GTFS_API.cancel,
    {
      config: { access: { path: GTFS_RIGHTS_PATH, action: 'update' } },
      schema: { tags: ['gtfs'], summary: 'Отменить идущий импорт GTFS: справочники остаются как были', params: ImportRunParams },
    },
    async (request) => {
      const job = running.get(Number(request.params.id));
      if (!job) throw fail(409, 'gtfs_import_not_running');
      job.abort.abort();
      return { cancelled: true };
    },
  );
}
