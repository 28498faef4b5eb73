import type { FastifyBaseLogger } from 'fastify';
import type { DayPartitions } from '../db/dayPartitions';
import type { Db } from '../db/types';
import { LeaseLostError, type Lease } from '../jobs/leases';
import { runAsServer } from '../db/queryCaller';
import { addDays, operatorDate } from '../platform/operatorDay';
import { readTimetableVersion, sameTimetable, type TimetableVersion } from '../platform/timetableVersion';
import { DEFAULTS, type SettingsDocument } from '../settings/settingsDocument';
import { DISPATCH_DEFAULTS } from '../../shared/dispatch/settings';
import type { TelemetryPipeline } from '../telemetry/pipeline';
import type { Position } from '../telemetry/types';
import { DispatchEngine } from './engine';
import type { EngineSettings, ExceptionAck, PassageRecord } from './engineTypes';
import type { ExceptionBell } from './exceptionBell';
import type { DaySchedule } from './schedule';
import { WatchSpan } from './watchSpans';
import { loadAcks, loadDayChanges, loadDaySchedule, loadDone, loadLearned, loadRunChanges, writePassages } from './store';

export interface DispatchServiceDeps {
  db: Db;
  pipeline: TelemetryPipeline;
  /** The settings document in force (cached by the settings service). */
  settings: () => Promise<SettingsDocument>;
  log: FastifyBaseLogger;
  tzOffsetMinutes: number;
  /**
   * With several server processes each runs the engine on the whole fleet (positions come over the bus), and
   * the holder of this lease writes the passages and relearns the segment times.
   */
  writer?: Lease;
  /** The passages' day partitions: the writer makes the dates it writes (the maintenance drops the old ones). */
  partitions?: DayPartitions;
  /** Rings the bell for the exceptions that need a person (the writer rings, the others keep the last minute). */
  bell?: ExceptionBell;
  now?: () => number;
}

/** Time-driven rules and the passage writer run this often. */
const TICK_MS = 5_000;
/** How often the timetable the days were built from is compared with the database. */
const CHECK_MS = 60_000;
/**
 * After reading the days again for a change, the next change waits this long: a city's two days take seconds to
 * read and build, and operators editing stops one after another would otherwise have them read every minute.
 */
const CHANGE_RELOAD_GAP_MS = 5 * 60_000;
/** Passages are written at most this many a statement. */
const BATCH_ROWS = 2_000;
/** Passages waiting for the database beyond this are dropped (an outage must not eat the memory). */
const MAX_PENDING = 200_000;
/** The learned times are taken from this many past days of passages. */
const LEARN_DAYS = 28;
/**
 * A process that does not write keeps the passages of this last while (by their times), so the one taking the
 * writer's lease over writes what the previous writer detected but had not written when it died.
 */
const KEEP_UNWRITTEN_MS = 60_000;

const engineSettings = (doc: SettingsDocument): EngineSettings => ({ ...doc.dispatch, offRouteMeters: doc.maxCenterDeviation });

/**
 * Feeds the engine from the telemetry pipeline (every accepted position, taken after the ingest call returns, so
 * the acknowledgement never waits for it), keeps the schedule of the operator's day loaded (and yesterday's, for
 * runs past midnight), writes the detected passages in batches, and relearns the segment times when the day turns.
 * Runs while the `dispatch` module is on (a switch of the settings, checked every tick).
 */
export class DispatchService {
  readonly engine: DispatchEngine;
  private queue: Position[] = [];
  private scheduled = false;
  private pending: PassageRecord[] = [];
  private timer: NodeJS.Timeout | undefined;
  private day: string | null = null;
  /** The held days no longer match the database (a reload): the next load reads yesterday too. */
  private stale = false;
  /** What today's days were built from, and when that was last compared with the database. */
  private version: TimetableVersion | null = null;
  private checkedAt = 0;
  /** When the days were last read again for a change (not for the start or the day's turn). */
  private changeReloadAt = -Infinity;
  private loading: Promise<void> | null = null;
  private writing: Promise<void> = Promise.resolve();
  private enabled = false;
  private stopped = false;
  /** Acknowledgements of the days held, by `key|since`: an occurrence raised again after a restart keeps its mark. */
  private readonly acks = new Map<string, ExceptionAck>();
  private readonly now: () => number;
  /** When this process watched as the writer: runs due outside every such span show as not watched, not missed. */
  private readonly watching: WatchSpan;
  readonly stats = { fixes: 0, passages: 0, written: 0, dropped: 0, lastLoadMs: 0 };

  private readonly onAccepted = (positions: readonly Position[]) => {
    if (!this.enabled) return;
    for (const p of positions) this.queue.push(p);
    if (this.scheduled) return;
    this.scheduled = true;
    // after the ingest call: the sender's acknowledgement does not wait for the engine
    setImmediate(() => this.process());
  };

  constructor(private readonly deps: DispatchServiceDeps) {
    this.now = deps.now ?? Date.now;
    this.watching = new WatchSpan(deps.db);
    this.engine = new DispatchEngine(
      { ...DISPATCH_DEFAULTS, offRouteMeters: DEFAULTS.maxCenterDeviation },
      deps.tzOffsetMinutes,
      undefined,
      this.now(),
    );
  }

  async start(): Promise<void> {
    this.deps.pipeline.on('accepted', this.onAccepted);
    await this.refresh();
    // a shutdown may come while the first load runs: no tick may start after it
    if (this.stopped) return;
    this.timer = setInterval(() => void this.tickNow().catch((err) => this.deps.log.warn({ err }, 'dispatch tick failed')), TICK_MS);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    this.deps.pipeline.off('accepted', this.onAccepted);
    this.process();
    await this.loading?.catch(() => undefined);
    await this.flush();
  }

  /** The passages' day partitions (made ahead and dropped past DISPATCH_RETENTION_DAYS by the maintenance). */
  get partitions(): DayPartitions | undefined {
    return this.deps.partitions;
  }

  /** Reads the day's timetable again (the handbooks changed: tasks, replacements, schedule times). */
  async reload(): Promise<void> {
    await this.loading;
    this.day = null;
    this.stale = true;
    await this.refresh();
  }

  /** Reads the service changes of the days held again (one was made or revoked, here or in another process). */
  async reloadChanges(): Promise<void> {
    const dates = this.engine.schedules.map((d) => d.serviceDate);
    if (!dates.length) return;
    const [runs, day] = await Promise.all([loadRunChanges(this.deps.db, dates), loadDayChanges(this.deps.db, dates)]);
    this.engine.setServiceChanges(runs, day);
  }

  /** Positions queued so far through the engine, the time-driven rules, and the passages written: for tests. */
  async settle(): Promise<void> {
    await this.loading;
    await this.tickNow();
  }

  private process(): void {
    // While the day's timetable loads, positions wait for it rather than meet an engine without runs.
    if (this.loading) {
      void this.loading.then(
        () => this.process(),
        () => this.process(),
      );
      return;
    }
    this.scheduled = false;
    if (!this.queue.length) return;
    const batch = this.queue;
    this.queue = [];
    batch.sort((a, b) => a.time - b.time);
    for (const p of batch) this.engine.onFix(p.vehicleId, p);
    this.stats.fixes += batch.length;
    this.collect();
  }

  /**
   * Marks an active exception acknowledged (the route stores it first); false when it is no longer active. Kept
   * for the occurrence either way: one acknowledged in another process may be raised here a moment later.
   */
  acknowledge(key: string, since: number, ack: ExceptionAck): boolean {
    this.acks.set(`${key}|${since}`, ack);
    const exception = this.engine.exception(key);
    if (!exception || exception.since !== since) return false;
    exception.ack = ack;
    return true;
  }

  private collect(): void {
    const { passages, events } = this.engine.drain();
    for (const event of events) {
      if (event.type === 'raised') event.exception.ack ??= this.acks.get(`${event.exception.key}|${event.exception.since}`);
    }
    this.deps.bell?.offer(events.filter((e) => e.type === 'raised').map((e) => e.exception));
    this.stats.passages += passages.length;
    this.pending.push(...passages);
    if (this.pending.length > MAX_PENDING) {
      const excess = this.pending.length - MAX_PENDING;
      this.pending.splice(0, excess);
      this.stats.dropped += excess;
    }
  }

  private async tickNow(): Promise<void> {
    await this.refresh();
    if (!this.enabled) return;
    await this.watching
      .keep(this.now(), this.isWriter())
      .catch((err) => this.deps.log.warn({ err }, 'the span of watching not kept: runs due now may show as not watched'));
    this.process();
    this.engine.tick(this.now());
    this.collect();
    await this.flush();
    await this.deps.bell?.flush(this.isWriter(), this.deps.writer?.fence());
  }

  /** Settings and switches in force; the day's schedule when the operator's date turned (or the module came on). */
  private async refresh(): Promise<void> {
    const doc = await this.deps.settings();
    const enabled = doc.modules.dispatch !== false;
    if (enabled !== this.enabled) this.deps.log.info({ enabled }, 'live timetable switched');
    this.enabled = enabled;
    if (!enabled) {
      this.queue = [];
      return;
    }
    this.engine.setSettings(engineSettings(doc));
    const today = operatorDate(this.now(), this.deps.tzOffsetMinutes);
    const due = !this.loading && (today !== this.day || (await this.timetableChanged(today)));
    // another tick may have started the load while the check read the database
    if (due && !this.loading) {
      this.loading = this.loadDays(today).finally(() => {
        this.loading = null;
      });
    }
    await this.loading;
  }

  /**
   * Looked at every minute: the day held was built from another timetable (a GTFS import, a handbook edit of
   * stops, trips, times or the day's tasks, here or in another process); both days are then read again.
   */
  private async timetableChanged(today: string): Promise<boolean> {
    const t = this.now();
    if (t - this.checkedAt < CHECK_MS || t - this.changeReloadAt < CHANGE_RELOAD_GAP_MS) return false;
    this.checkedAt = t;
    const version = await runAsServer(() => readTimetableVersion(this.deps.db, today));
    if (sameTimetable(this.version, version)) return false;
    this.deps.log.info({ date: today }, 'the timetable changed: the live timetable reads its days again');
    this.stale = true;
    this.changeReloadAt = t;
    return true;
  }

  private async loadDays(today: string): Promise<void> {
    const started = performance.now();
    const db = this.deps.db.longRunning();
    await runAsServer(async () => {
      // read before the days: a change made while they load is seen at the next check
      this.version = await readTimetableVersion(db, today);
      this.checkedAt = this.now();
      const yesterday = addDays(today, -1);
      // at the day's rollover yesterday is the day already held; a reload (the handbooks changed) reads both again
      const previous = this.stale ? undefined : this.engine.schedules.find((d) => d.serviceDate === yesterday);
      this.stale = false;
      const days: DaySchedule[] = [
        previous ?? (await loadDaySchedule(db, yesterday, this.deps.tzOffsetMinutes)),
        await loadDaySchedule(db, today, this.deps.tzOffsetMinutes),
      ];
      const done = await loadDone(db, [yesterday, today]);
      this.acks.clear();
      for (const ack of await loadAcks(db, days[0].midnight)) this.acks.set(`${ack.key}|${ack.since}`, ack);
      const changes = await loadRunChanges(db, [yesterday, today]);
      const dayChanges = await loadDayChanges(db, [yesterday, today]);
      this.engine.setDays(days);
      this.engine.setServiceChanges(changes, dayChanges);
      this.engine.restore(done.runs, done.blocks);
      this.day = today;
      this.stats.lastLoadMs = performance.now() - started;
      this.deps.log.info(
        { date: today, runs: days[1].runs.length, ms: Math.round(this.stats.lastLoadMs) },
        'live timetable loaded the day',
      );
      // learning reads weeks of passages: in the background, the engine predicts from the schedule meanwhile
      void this.learn(yesterday);
    });
  }

  private async learn(upTo: string): Promise<void> {
    try {
      const db = this.deps.db.background().longRunning();
      if (this.isWriter())
        await db.query('select dispatch.learn_times($1::date, $2::int, $3::int)', [upTo, LEARN_DAYS, this.deps.tzOffsetMinutes]);
      this.engine.learned = await loadLearned(db);
    } catch (err) {
      this.deps.log.warn({ err }, 'learned segment times not rebuilt');
    }
  }

  /** This process writes the passages (the only one, or the writer's lease holder). */
  private isWriter(): boolean {
    return this.deps.writer?.held ?? true;
  }

  /** Writes what is pending, a batch a statement; a failed batch is kept for the next tick. */
  flush(): Promise<void> {
    if (!this.isWriter()) {
      const keepFrom = this.now() - KEEP_UNWRITTEN_MS;
      this.pending = this.pending.filter((p) => (p.departure ?? p.arrival ?? 0) >= keepFrom);
      return this.writing;
    }
    // every batch of this flush checks the writer's lease at the generation it started with
    const fence = this.deps.writer?.fence();
    this.writing = this.writing.then(() =>
      runAsServer(async () => {
        while (this.pending.length) {
          const batch = this.pending.slice(0, BATCH_ROWS);
          try {
            await writePassages(this.deps.db, batch, this.deps.partitions, fence);
          } catch (err) {
            if (err instanceof LeaseLostError)
              this.deps.log.info({ passages: batch.length }, 'writer lease taken over: stop passages left to the new writer');
            else this.deps.log.warn({ err, passages: batch.length }, 'stop passages not written, kept for the next attempt');
            return;
          }
          this.pending.splice(0, batch.length);
          this.stats.written += batch.length;
        }
      }),
    );
    return this.writing;
  }
}
