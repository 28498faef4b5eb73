import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Db, Queryable } from '../db/types';
import type { Notifier } from '../notifications/notifier';
import type { EventsWriter } from '../journals/eventsWriter';
import { MEDIA_STATUS_LABELS } from '../../shared/mediaStatus';
import { VIDEO_STATUS as S, type VideoStatus } from '../../shared/video/statuses';
import { parseMediaPlaylist, type ArchivePlan, type ArchiveStore } from './archiveStore';
import type { VideoConfig } from './config';
import { demoCoverage, piecesSeconds } from './demoArchive';
import type { DemoMedia } from './demoMedia';
import { fetchUpstream, UpstreamError } from './mediaProxy';
import { findRecorders, mediaServerAddress, type Recorder } from './recorders';

/**
 * The archive-request worker (SCREENS.md, "Video"): a loop that moves every unfinished request on by one
 * step per tick, its whole state in app.video_request, so a restart (or another process taking over after
 * the lease runs out) resumes each request where it stood:
 *   1 created → 2 queuing → (3 waiting while the vehicle is offline) → 5 connecting → 4 downloading (percent)
 *   → 6 performed (a "video ready" notification and a journal entry), or an error status with its reason:
 *   10 authentication, 11 configuration, 12 no data, 13 download error, 14 error; 8 deleting → 9 deleted.
 * A recorder serves one request at a time, and at most `maxDownloads` connect or download at once.
 */

export interface RequestRow {
  id: number;
  user_id: number | null;
  vehicle_id: number;
  dvr_id: number | null;
  cameras: number[];
  period_from: Date | string;
  period_to: Date | string;
  status: VideoStatus;
  downloaded_s: number;
  total_s: number;
  status_at: Date | string;
  worked_at: Date | string | null;
  plan: ArchivePlan | null;
  fetched: number;
}

export interface WorkerDeps {
  db: Db;
  config: VideoConfig;
  media: DemoMedia;
  store: ArchiveStore;
  online(vehicleId: number, now: number): boolean;
  mediaServerArchiveUrl(): Promise<string>;
  /** The archive's keeping time (settings video.archiveDays). */
  archiveDays(): Promise<number>;
  events: EventsWriter;
  notifier: Notifier;
  log: FastifyBaseLogger;
}

interface Change {
  status?: VideoStatus;
  reason?: string | null;
  progress?: number;
  downloaded_s?: number;
  total_s?: number;
  size_bytes?: number;
  plan?: ArchivePlan;
  fetched?: number;
  worked?: boolean;
}

const LEASE_S = 15;
/** How often finished requests past the archive's keeping time are deleted. */
const SWEEP_MS = 10 * 60_000;
/** A resumed download does not count the time the server was down as downloading. */
const MAX_STEP_MS = 5000;
/** Segments fetched from a media server per request and tick. */
const FETCH_PER_TICK = 4;

const time = (value: Date | string) => new Date(value).getTime();

export const REASONS = {
  waiting: 'ТС не на связи: запрос ждёт выхода ТС на связь',
  noRecorder: 'На ТС нет видеорегистратора или камер',
  noAddress: 'Не заданы IP-адрес или порт видеорегистратора',
  noCredentials: 'Видеорегистратор отклонил вход: не заданы логин или пароль',
  authRefused: 'Медиасервер отклонил логин или пароль',
  noData: 'Регистратор не хранит записей за этот период',
  lostVehicle: 'Связь с ТС потеряна во время загрузки',
  cancelled: 'Отменён пользователем',
  expired: 'Истёк срок хранения видеоархива',
} as const;

export class ArchiveWorker {
  readonly owner = randomUUID();
  private timer: NodeJS.Timeout | undefined;
  private ticking: Promise<void> | null = null;
  private stopped = false;
  private sweptAt = 0;

  constructor(private readonly deps: WorkerDeps) {}

  start(): void {
    this.stopped = false;
    const loop = () => {
      if (this.stopped) return;
      this.ticking = this.tick()
        .catch((err) => this.deps.log.warn({ err }, 'video worker tick failed'))
        .finally(() => {
          this.ticking = null;
          if (!this.stopped) this.timer = setTimeout(loop, this.deps.config.tickMs);
        });
    };
    this.timer = setTimeout(loop, 0);
  }

  /** Stops after the tick under way and lets go of its requests, so the next start takes them at once. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.ticking;
    await this.deps.db
      .query('update app.video_request set lease_owner = null, lease_until = null where lease_owner = $1', [this.owner])
      .catch((err) => this.deps.log.warn({ err }, 'video requests not released'));
  }

  /**
   * Finished requests created longer ago than the archive's keeping time (/system/video) go to deleting, as a
   * user's delete would, and the next ticks remove them; each is journaled.
   */
  async sweep(): Promise<number> {
    const days = await this.deps.archiveDays();
    return this.deps.db.transaction(async (tx) => {
      const rows = await tx.query<{ id: number; vehicle_id: number }>(
        `update app.video_request set status = 8, status_at = now(), reason = $2
          where status in (6, 10, 11, 12, 13, 14) and created_at < now() - make_interval(days => $1) returning id, vehicle_id`,
        [days, REASONS.expired],
      );
      for (const row of rows) await journalStatus(this.deps.events, tx, row, S.deleting, REASONS.expired);
      return rows.length;
    });
  }

  /** One pass over the unfinished requests this worker holds (or takes: free, or their lease ran out). */
  async tick(now = Date.now()): Promise<void> {
    if (now - this.sweptAt > SWEEP_MS) {
      this.sweptAt = now;
      await this.sweep().catch((err) => this.deps.log.warn({ err }, 'video archive sweep failed'));
    }
    const rows = await this.deps.db.query<RequestRow>(
      `update app.video_request r set lease_owner = $1, lease_until = now() + make_interval(secs => $2)
        where r.id in (select id from app.video_request
                        where status in (1, 2, 3, 4, 5, 8) and (lease_owner = $1 or lease_until is null or lease_until < now())
                        order by id limit 20000 for update skip locked)
       returning r.id, r.user_id, r.vehicle_id, r.dvr_id, r.cameras, r.period_from, r.period_to, r.status, r.downloaded_s, r.total_s,
                 r.status_at, r.worked_at, r.plan, r.fetched`,
      [this.owner, LEASE_S],
    );
    if (!rows.length) return;
    rows.sort((a, b) => a.id - b.id);
    const recorders = await findRecorders(this.deps.db, [...new Set(rows.map((r) => r.vehicle_id))]);
    // Recorders busy with a request, and free download slots: those connecting or downloading keep theirs.
    const busy = new Set<number>();
    let slots = this.deps.config.maxDownloads;
    for (const row of rows) {
      if (row.status === S.connecting || row.status === S.downloading) {
        busy.add(row.vehicle_id);
        slots--;
      }
    }
    for (const row of rows) {
      let change: Change | null;
      try {
        if (row.status === S.queuing && this.deps.online(row.vehicle_id, now)) {
          if (slots <= 0 || busy.has(row.vehicle_id)) continue;
          slots--;
          busy.add(row.vehicle_id);
        }
        change = await this.step(row, recorders.get(row.vehicle_id), now);
      } catch (err) {
        this.deps.log.warn({ err, request: row.id }, 'video request failed');
        change = { status: S.error, reason: `Внутренняя ошибка: ${(err as Error).message}`.slice(0, 500) };
      }
      if (change) await this.apply(row, change);
    }
  }

  /** What one request does this tick; null when it stays as it is. */
  private async step(row: RequestRow, recorder: Recorder | undefined, now: number): Promise<Change | null> {
    const online = this.deps.online(row.vehicle_id, now);
    switch (row.status) {
      case S.created:
        return { status: S.queuing };
      case S.queuing:
        return online ? { status: S.connecting, worked: true } : { status: S.waiting, reason: REASONS.waiting };
      case S.waiting:
        return online ? { status: S.queuing, reason: null } : null;
      case S.connecting:
        if (!online) return { status: S.waiting, reason: REASONS.waiting };
        if (now - time(row.status_at) < this.deps.config.connectMs) return null;
        return this.connect(row, recorder, now);
      case S.downloading:
        if (!online) return { status: S.downloadError, reason: REASONS.lostVehicle };
        return row.plan ? this.fetchSegments(row) : this.downloadDemo(row, recorder, now);
      case S.deleting:
        await this.deps.store.remove(row.id);
        return { status: S.deleted };
      default:
        return null;
    }
  }

  /** The recorder's answer: its settings checked, what it holds for the period listed. */
  private async connect(row: RequestRow, recorder: Recorder | undefined, now: number): Promise<Change> {
    const cameras = recorder?.cameras.filter((c) => row.cameras.includes(c.index)) ?? [];
    if (!recorder || !cameras.length) return { status: S.configurationError, reason: REASONS.noRecorder };
    if (recorder.mediaServer)
      return this.connectMediaServer(
        row,
        recorder,
        cameras.map((c) => c.index),
      );
    if (!recorder.ip || !recorder.port) return { status: S.configurationError, reason: REASONS.noAddress };
    if (!recorder.login || !recorder.password) return { status: S.authError, reason: REASONS.noCredentials };
    const total = cameras.reduce((sum, c) => sum + piecesSeconds(this.coverage(row, recorder.dvrId, c.index, now)), 0);
    // A recorder replaced since the request was made is the one asked now.
    if (row.dvr_id !== recorder.dvrId)
      await this.deps.db.query('update app.video_request set dvr_id = $2 where id = $1', [row.id, recorder.dvrId]);
    if (total === 0) return { status: S.noData, reason: REASONS.noData };
    return { status: S.downloading, total_s: total, progress: total ? Math.min(100, (row.downloaded_s / total) * 100) : 0, worked: true };
  }

  coverage(row: Pick<RequestRow, 'period_from' | 'period_to'>, dvrId: number, camera: number, now: number) {
    return demoCoverage(dvrId, camera, time(row.period_from), time(row.period_to), now, this.deps.config.demoArchiveHours);
  }

  private async connectMediaServer(row: RequestRow, recorder: Recorder, cameras: number[]): Promise<Change> {
    const template = await this.deps.mediaServerArchiveUrl();
    const plan: ArchivePlan = { cameras: [] };
    const period = { from: new Date(row.period_from).toISOString(), to: new Date(row.period_to).toISOString() };
    for (const index of cameras) {
      let address: ReturnType<typeof mediaServerAddress>;
      try {
        address = mediaServerAddress(template, recorder, index, period);
        new URL(address.url);
      } catch {
        return { status: S.configurationError, reason: 'Неверный адрес архива медиасервера (настройки видео)' };
      }
      try {
        const playlist = await fetchUpstream(address.url, address.authorization, this.deps.config.upstreamTimeoutMs);
        plan.cameras.push({ index, segments: parseMediaPlaylist(playlist.body.toString('utf8'), address.url) });
      } catch (err) {
        const status = err instanceof UpstreamError ? err.status : 0;
        if (status === 401 || status === 403) return { status: S.authError, reason: REASONS.authRefused };
        if (status === 404) continue;
        if (status === 502) return { status: S.configurationError, reason: `Медиасервер недоступен: ${address.shown}` };
        return { status: S.downloadError, reason: `Медиасервер ответил ошибкой ${status}` };
      }
    }
    const total = plan.cameras.reduce((sum, c) => sum + c.segments.reduce((s, seg) => s + seg.duration, 0), 0);
    if (!plan.cameras.some((c) => c.segments.length)) return { status: S.noData, reason: REASONS.noData };
    return { status: S.downloading, plan, total_s: total, fetched: row.plan ? row.fetched : 0, progress: 0, worked: true };
  }

  /** A demo recorder hands over `downloadRate` seconds of recording per second. */
  private downloadDemo(row: RequestRow, recorder: Recorder | undefined, now: number): Change {
    if (!recorder) return { status: S.configurationError, reason: REASONS.noRecorder };
    const since = row.worked_at ? Math.min(MAX_STEP_MS, Math.max(0, now - time(row.worked_at))) : 0;
    const downloaded = Math.min(row.total_s, row.downloaded_s + (since / 1000) * this.deps.config.downloadRate);
    if (downloaded < row.total_s) return { downloaded_s: downloaded, progress: (downloaded / row.total_s) * 100, worked: true };
    return { status: S.performed, downloaded_s: downloaded, progress: 100, size_bytes: this.demoSize(row, recorder, now) };
  }

  /** The bytes of the recording handed over: each camera's segments of the period, in its look. */
  private demoSize(row: RequestRow, recorder: Recorder, now: number): number {
    let bytes = 0;
    for (const camera of recorder.cameras.filter((c) => row.cameras.includes(c.index))) {
      const look = this.deps.media.lookOf(camera.position);
      for (const part of this.deps.media.partsOf(look, this.coverage(row, recorder.dvrId, camera.index, now))) bytes += part.size;
    }
    return bytes;
  }

  /** Fetches the next segments a media server listed, into the archive store. */
  private async fetchSegments(row: RequestRow): Promise<Change> {
    const plan = row.plan!;
    const all = plan.cameras.flatMap((c) => c.segments.map((segment, n) => ({ camera: c.index, n, segment })));
    let fetched = row.fetched;
    const recorder = (await findRecorders(this.deps.db, [row.vehicle_id])).get(row.vehicle_id);
    if (!recorder?.mediaServer) return { status: S.configurationError, reason: REASONS.noRecorder };
    const { authorization } = mediaServerAddress('http://{ip}/', recorder, 0);
    for (const { camera, n, segment } of all.slice(fetched, fetched + FETCH_PER_TICK)) {
      try {
        const body = await fetchUpstream(segment.uri, authorization, this.deps.config.upstreamTimeoutMs);
        await this.deps.store.write(row.id, camera, n, body.body);
        fetched++;
      } catch (err) {
        const status = err instanceof UpstreamError ? err.status : 0;
        return { status: S.downloadError, reason: `Загрузка прервана: медиасервер ответил ${status || 'ошибкой'}`, fetched };
      }
    }
    const done = all.slice(0, fetched).reduce((sum, s) => sum + s.segment.duration, 0);
    if (fetched < all.length) return { fetched, downloaded_s: done, progress: (fetched / all.length) * 100, worked: true };
    return { status: S.performed, fetched, downloaded_s: done, progress: 100, size_bytes: await this.storedSize(row, all) };
  }

  private async storedSize(row: RequestRow, all: { camera: number; n: number }[]): Promise<number> {
    let bytes = 0;
    for (const { camera, n } of all) bytes += (await this.deps.store.read(row.id, camera, n)).length;
    return bytes;
  }

  /** Writes a step: the row, and on a status change its journal entry (and the notification when performed), together. */
  private async apply(row: RequestRow, change: Change): Promise<void> {
    await this.deps.db.transaction(async (tx) => {
      const sets: string[] = [];
      const params: unknown[] = [row.id];
      const set = (column: string, value: unknown, cast = '') => sets.push(`${column} = $${params.push(value)}${cast}`);
      if (change.status !== undefined) {
        set('status', change.status);
        sets.push('status_at = now()');
        if (change.reason === undefined && change.status !== S.waiting) set('reason', null);
      }
      if (change.reason !== undefined) set('reason', change.reason);
      if (change.progress !== undefined) set('progress', change.progress);
      if (change.downloaded_s !== undefined) set('downloaded_s', change.downloaded_s);
      if (change.total_s !== undefined) set('total_s', change.total_s);
      if (change.size_bytes !== undefined) set('size_bytes', change.size_bytes);
      if (change.plan !== undefined) set('plan', JSON.stringify(change.plan), '::jsonb');
      if (change.fetched !== undefined) set('fetched', change.fetched);
      if (change.worked) sets.push('worked_at = now()');
      // Only while this worker still holds it: a request cancelled or deleted meanwhile is left as the user set it.
      const updated = await tx.query(
        `update app.video_request set ${sets.join(', ')} where id = $1 and status = $${params.push(row.status)} and lease_owner = $${params.push(this.owner)} returning id`,
        params,
      );
      if (!updated.length || change.status === undefined) return;
      await journalStatus(this.deps.events, tx, row, change.status, change.reason ?? null);
      if (change.status === S.performed && row.user_id !== null) {
        await this.deps.notifier.videoReady({ requestId: row.id, userId: row.user_id }, tx);
      }
    });
  }
}

/** A status change in the video journal: the status's name as its message, the code and reason in details. */
export function journalStatus(
  events: EventsWriter,
  tx: Queryable,
  row: Pick<RequestRow, 'id' | 'vehicle_id'>,
  status: number,
  reason: string | null,
) {
  return events.videoEvents(
    [
      {
        vehicleId: row.vehicle_id,
        kind: 'status',
        requestId: row.id,
        message: reason ? `${MEDIA_STATUS_LABELS[status].ru}: ${reason}` : MEDIA_STATUS_LABELS[status].ru,
        details: { status, reason },
      },
    ],
    tx,
  );
}
