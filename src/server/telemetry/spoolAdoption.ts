import { readdir } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { Queryable } from '../db/types';
import { hasSegments, TrackSpool, type TrackSpoolOptions } from './trackSpool';
import { TrackWriter, type TrackWriterOptions } from './trackWriter';

export interface SpoolAdoptionStats {
  /** Folders of dead siblings written to the database and emptied. */
  folders: number;
  positions: number;
}

/** A sibling spool folder: a folder next to this process's own whose name says spool. */
const SIBLING = /spool/i;

/**
 * Positions a sibling process acknowledged and did not live to write to the database: every `intervalMs` the
 * folders next to this process's own spool (`track-spool-<port>`, `spool-<port>`: a name with "spool" in it)
 * are looked at; one with files whose lock names a dead process of this machine and the same database is
 * taken (the lock decision under `spoolOptions.guard`, so two live processes never take one folder), its
 * files written to app.track by a TrackWriter of its own (the track's key absorbs what was already written)
 * and deleted, and the folder let go. Its owner, started again, then finds it empty.
 */
export class SpoolAdoption {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<number> | null = null;
  private stopped = false;
  private readonly stats: SpoolAdoptionStats = { folders: 0, positions: 0 };

  constructor(
    private readonly db: Queryable,
    private readonly ownDir: string,
    private readonly options: {
      intervalMs: number;
      spool: TrackSpoolOptions;
      writer: TrackWriterOptions;
    },
    private readonly log: FastifyBaseLogger,
  ) {}

  start(): void {
    if (this.timer || this.stopped) return;
    this.timer = setInterval(() => void this.round(), this.options.intervalMs);
    this.timer.unref();
  }

  /** One look at the siblings now; resolves to the positions adopted. */
  round(): Promise<number> {
    this.running ??= this.adoptAll()
      .catch((err: unknown) => {
        this.log.warn({ err }, 'track spool adoption failed: tried again next round');
        return 0;
      })
      .finally(() => {
        this.running = null;
      });
    return this.running;
  }

  getStats(): SpoolAdoptionStats {
    return { ...this.stats };
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }

  private async adoptAll(): Promise<number> {
    const own = resolve(this.ownDir);
    const parent = dirname(own);
    const entries = await readdir(parent, { withFileTypes: true }).catch(() => []);
    let adopted = 0;
    for (const entry of entries) {
      if (this.stopped) break;
      const dir = join(parent, entry.name);
      if (!entry.isDirectory() || !SIBLING.test(entry.name) || dir === own || !(await hasSegments(dir))) continue;
      adopted += await this.adoptOne(dir);
    }
    return adopted;
  }

  private async adoptOne(dir: string): Promise<number> {
    const spool = new TrackSpool(dir, this.options.spool, this.log);
    const taken = await spool.adopt();
    if (!taken) return 0;
    const started = performance.now();
    const writer = new TrackWriter(this.db, spool, this.options.writer, this.log);
    try {
      await writer.flush();
    } finally {
      await spool.release();
    }
    const { written, duplicates, buffered } = writer.getStats();
    if (buffered > 0) {
      this.log.warn({ folder: basename(dir), left: buffered }, 'track spool of a dead process not written yet: tried again next round');
      return 0;
    }
    this.stats.folders += 1;
    this.stats.positions += taken.positions;
    this.log.info(
      {
        folder: dir,
        pid: taken.from.pid,
        positions: taken.positions,
        written,
        duplicates,
        ms: Math.round(performance.now() - started),
      },
      'track spool of a dead process written to the database',
    );
    return taken.positions;
  }
}
