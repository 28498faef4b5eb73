import type { FastifyBaseLogger } from 'fastify';
import type { Queryable } from '../db/types';
import type { TrackSpool } from './trackSpool';
import type { Position } from './types';

export interface TrackWriterOptions {
  flushIntervalMs: number;
  /** A flush starts early once this many positions wait in the spool. */
  flushRows: number;
  /**
   * Rows per INSERT within a flush. The embedded engine executes on the server's own thread: smaller
   * statements with a turn of the event loop between them let acknowledgements through during a flush.
   */
  statementRows?: number;
  /** The track's day partitions: a statement's days are made before it, so its rows go straight to them. */
  partitions?: { ensure(times: Iterable<number>): Promise<void> };
}

export interface TrackWriterStats {
  written: number;
  /** Rows the key refused: resends older than the in-memory duplicate window, or a spool file replayed. */
  duplicates: number;
  failedFlushes: number;
  /** Slowest INSERT so far, ms: on the embedded engine it runs on the server's own thread. */
  maxFlushMs: number;
  /** Positions in the spool not yet in the database (grows while the database is unavailable). */
  buffered: number;
}

// One statement per batch whatever its size: arrays unnested server-side, on PGlite and PostgreSQL alike.
const INSERT = `insert into app.track (vehicle_id, tm, lat, lon, speed, course, valid)
  select * from unnest($1::int[], $2::timestamptz[], $3::float8[], $4::float8[], $5::real[], $6::smallint[], $7::bool[])
  on conflict (vehicle_id, tm) do nothing`;

/**
 * Moves positions from the spool (where they are durable and acknowledged) to app.track in batches, off the
 * acknowledgement path. A timer (or enough waiting rows) seals the spool's current file; each sealed file is
 * written with one statement per `statementRows` and deleted once all of it is in. While the database is
 * unavailable the files wait on disk and are retried every tick; after a restart the spool hands over what
 * the previous run left. Writing a file twice stores nothing twice: the track's key is (vehicle_id, tm).
 */
export class TrackWriter {
  private inFlight: Promise<boolean> | null = null;
  private timer: NodeJS.Timeout | null = null;
  /** Since when writes fail (logged once per outage, and once when they resume). */
  private failingSince: number | null = null;
  private readonly stats: Omit<TrackWriterStats, 'buffered'> = { written: 0, duplicates: 0, failedFlushes: 0, maxFlushMs: 0 };

  constructor(
    private readonly db: Queryable,
    private readonly spool: TrackSpool,
    private readonly options: TrackWriterOptions,
    private readonly log: FastifyBaseLogger,
  ) {}

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.flush(), this.options.flushIntervalMs);
    this.timer.unref();
  }

  /** Resolves once the positions are durable in the spool: only then may they be acknowledged. */
  append(positions: Position[]): Promise<void> {
    const durable = this.spool.append(positions);
    if (this.spool.backlog() >= this.options.flushRows && !this.inFlight && this.failingSince === null) void this.flush();
    return durable;
  }

  /** Writes everything spooled so far; resolves when it is in the database (or the attempt failed). */
  async flush(): Promise<void> {
    while (this.inFlight) await this.inFlight;
    this.inFlight = this.drain().finally(() => {
      this.inFlight = null;
    });
    await this.inFlight;
  }

  private async drain(): Promise<boolean> {
    const segments = await this.spool.seal();
    for (const segment of segments) {
      const rows = await this.spool.rowsOf(segment);
      if (!(await this.write(rows))) return false;
      await this.spool.remove(segment);
    }
    if (this.failingSince !== null && segments.length > 0) {
      this.log.info({ afterMs: Date.now() - this.failingSince }, 'track writes resumed: spooled positions written');
      this.failingSince = null;
    }
    return true;
  }

  private async write(batch: Position[]): Promise<boolean> {
    const step = this.options.statementRows ?? batch.length;
    for (let from = 0; from < batch.length; from += step) {
      if (from > 0) await new Promise<void>((resolve) => setImmediate(resolve));
      if (!(await this.writeStatement(batch.slice(from, from + step)))) return false;
    }
    return true;
  }

  /** One INSERT; false when it failed (the spool file is then kept for the next attempt). */
  private async writeStatement(rows: Position[]): Promise<boolean> {
    const n = rows.length;
    const columns = {
      ids: new Array<number>(n),
      tms: new Array<string>(n),
      lats: new Array<number>(n),
      lons: new Array<number>(n),
      speeds: new Array<number>(n),
      courses: new Array<number>(n),
      valids: new Array<boolean>(n),
    };
    rows.forEach((p, i) => {
      columns.ids[i] = p.vehicleId;
      columns.tms[i] = new Date(p.time).toISOString();
      columns.lats[i] = p.lat;
      columns.lons[i] = p.lon;
      columns.speeds[i] = p.speed;
      columns.courses[i] = p.course;
      columns.valids[i] = p.valid;
    });
    const started = performance.now();
    try {
      await this.options.partitions?.ensure(rows.map((p) => p.time));
      const result = await this.db.query<{ n: number }>(`with ins as (${INSERT} returning 1) select count(*)::int as n from ins`, [
        columns.ids,
        columns.tms,
        columns.lats,
        columns.lons,
        columns.speeds,
        columns.courses,
        columns.valids,
      ]);
      const written = result[0]?.n ?? 0;
      this.stats.written += written;
      this.stats.duplicates += n - written;
      this.stats.maxFlushMs = Math.max(this.stats.maxFlushMs, performance.now() - started);
      return true;
    } catch (err) {
      this.stats.failedFlushes += 1;
      if (this.failingSince === null) {
        this.failingSince = Date.now();
        this.log.error({ err, backlog: this.spool.backlog() }, 'track writes failing: positions kept in the spool and retried');
      }
      return false;
    }
  }

  getStats(): TrackWriterStats {
    return { ...this.stats, buffered: this.spool.backlog() };
  }

  /** Stops the timer, writes what it can and closes the spool (what is not written waits for the next start). */
  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.flush();
    await this.spool.close();
  }
}
