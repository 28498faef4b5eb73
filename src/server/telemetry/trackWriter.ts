import type { FastifyBaseLogger } from 'fastify';
import type { Queryable } from '../db/types';
import type { Position } from './types';

export interface TrackWriterOptions {
  flushIntervalMs: number;
  flushRows: number;
  maxBufferedRows: number;
  /**
   * Rows per INSERT within a flush. The embedded engine executes on the server's own thread: smaller
   * statements with a turn of the event loop between them let acknowledgements through during a flush.
   */
  statementRows?: number;
}

export interface TrackWriterStats {
  written: number;
  /** Rows the key refused: resends older than the in-memory duplicate window. */
  duplicates: number;
  /** Rows lost because the database stayed unavailable while the buffer was full. */
  dropped: number;
  failedFlushes: number;
  /** Slowest INSERT so far, ms: on the embedded engine it runs on the server's own thread. */
  maxFlushMs: number;
  buffered: number;
}

// One statement per batch whatever its size: arrays unnested server-side, on PGlite and PostgreSQL alike.
const INSERT = `insert into app.track (vehicle_id, tm, lat, lon, speed, course, valid)
  select * from unnest($1::int[], $2::timestamptz[], $3::float8[], $4::float8[], $5::real[], $6::smallint[], $7::bool[])
  on conflict (vehicle_id, tm) do nothing`;

/**
 * Appends positions to app.track in batches, off the acknowledgement path: the pipeline hands rows over and
 * returns at once; a timer (or a full batch) writes them with one statement. One flush runs at a time so the
 * database sees a steady trickle, and rows stay buffered (bounded) while it is unavailable.
 */
export class TrackWriter {
  private buffer: Position[] = [];
  private inFlight: Promise<boolean> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private readonly stats: Omit<TrackWriterStats, 'buffered'> = { written: 0, duplicates: 0, dropped: 0, failedFlushes: 0, maxFlushMs: 0 };

  constructor(
    private readonly db: Queryable,
    private readonly options: TrackWriterOptions,
    private readonly log: FastifyBaseLogger,
  ) {}

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.flush(), this.options.flushIntervalMs);
    this.timer.unref();
  }

  append(positions: Position[]): void {
    for (const p of positions) this.buffer.push(p);
    const overflow = this.buffer.length - this.options.maxBufferedRows;
    if (overflow > 0) {
      this.buffer.splice(0, overflow);
      this.stats.dropped += overflow;
      this.log.warn({ dropped: overflow }, 'track buffer full: oldest positions dropped');
    }
    if (this.buffer.length >= this.options.flushRows && !this.inFlight) void this.flush();
  }

  /** Writes everything buffered so far; resolves when it is in the database (or the attempt failed). */
  async flush(): Promise<void> {
    while (this.inFlight) await this.inFlight;
    if (this.buffer.length === 0) return;
    const batch = this.buffer.splice(0, this.options.flushRows);
    this.inFlight = this.write(batch).finally(() => {
      this.inFlight = null;
    });
    const ok = await this.inFlight;
    // A burst larger than one batch drains right away instead of waiting for the next tick (not while failing).
    if (ok && this.buffer.length >= this.options.flushRows) await this.flush();
  }

  private async write(batch: Position[]): Promise<boolean> {
    const step = this.options.statementRows ?? batch.length;
    for (let from = 0; from < batch.length; from += step) {
      if (from > 0) await new Promise<void>((resolve) => setImmediate(resolve));
      const ok = await this.writeStatement(batch.slice(from, from + step));
      if (!ok) {
        this.keep(batch.slice(from));
        return false;
      }
    }
    return true;
  }

  /** One INSERT; false when it failed (the rows are then kept for the next attempt). */
  private async writeStatement(rows: Position[]): Promise<boolean> {
    const n = rows.length;
    const columns = { ids: new Array<number>(n), tms: new Array<string>(n), lats: new Array<number>(n), lons: new Array<number>(n), speeds: new Array<number>(n), courses: new Array<number>(n), valids: new Array<boolean>(n) };
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
      const result = await this.db.query<{ n: number }>(`with ins as (${INSERT} returning 1) select count(*)::int as n from ins`, [
        columns.ids, columns.tms, columns.lats, columns.lons, columns.speeds, columns.courses, columns.valids,
      ]);
      const written = result[0]?.n ?? 0;
      this.stats.written += written;
      this.stats.duplicates += n - written;
      this.stats.maxFlushMs = Math.max(this.stats.maxFlushMs, performance.now() - started);
      return true;
    } catch (err) {
      this.stats.failedFlushes += 1;
      this.log.error({ err, rows: n }, 'track flush failed: rows kept for the next attempt');
      return false;
    }
  }

  /** Puts unwritten rows back in front of the buffer, within its bound. */
  private keep(rows: Position[]): void {
    this.buffer.unshift(...rows);
    const overflow = this.buffer.length - this.options.maxBufferedRows;
    if (overflow > 0) {
      this.buffer.splice(0, overflow);
      this.stats.dropped += overflow;
    }
  }

  getStats(): TrackWriterStats {
    return { ...this.stats, buffered: this.buffer.length };
  }

  /** Stops the timer and writes what is left (server shutdown). */
  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.flush();
  }
}
