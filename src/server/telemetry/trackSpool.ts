import { mkdir, open, readdir, readFile, unlink, type FileHandle } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { crc32 } from 'node:zlib';
import type { FastifyBaseLogger } from 'fastify';
import { holderAlive, localGuard, newHolder, readHolder, removeHolder, writeHolder, type SpoolGuard, type SpoolHolder } from './spoolLock';
import type { Position } from './types';

/**
 * One record of the spool, 40 bytes: vehicle (int32), fix time ms (float64), lat, lon (float64), speed
 * (float32), course (int16), flags (valid, history), a spare byte, and a CRC-32 of the 36 bytes before it, so a
 * record torn by a crash (never acknowledged) is recognised and skipped on replay.
 */
const RECORD_BYTES = 40;
const SEGMENT = /^track-(\d{12})\.spool$/;

function encode(positions: readonly Position[]): Buffer {
  const buffer = Buffer.alloc(positions.length * RECORD_BYTES);
  positions.forEach((p, i) => {
    const at = i * RECORD_BYTES;
    buffer.writeInt32LE(p.vehicleId, at);
    buffer.writeDoubleLE(p.time, at + 4);
    buffer.writeDoubleLE(p.lat, at + 12);
    buffer.writeDoubleLE(p.lon, at + 20);
    buffer.writeFloatLE(p.speed, at + 28);
    buffer.writeInt16LE(p.course, at + 32);
    buffer[at + 34] = (p.valid ? 1 : 0) | (p.history ? 2 : 0);
    buffer.writeUInt32LE(crc32(buffer.subarray(at, at + 36)), at + 36);
  });
  return buffer;
}

function decode(buffer: Buffer): { positions: Position[]; damaged: number } {
  const positions: Position[] = [];
  let damaged = 0;
  // A trailing partial record is an append cut short by a crash: it was never acknowledged.
  for (let at = 0; at + RECORD_BYTES <= buffer.length; at += RECORD_BYTES) {
    if (crc32(buffer.subarray(at, at + 36)) !== buffer.readUInt32LE(at + 36)) {
      damaged += 1;
      continue;
    }
    positions.push({
      vehicleId: buffer.readInt32LE(at),
      time: buffer.readDoubleLE(at + 4),
      lat: buffer.readDoubleLE(at + 12),
      lon: buffer.readDoubleLE(at + 20),
      speed: buffer.readFloatLE(at + 28),
      course: buffer.readInt16LE(at + 32),
      valid: (buffer[at + 34] & 1) !== 0,
      history: (buffer[at + 34] & 2) !== 0,
    });
  }
  return { positions, damaged };
}

/** Whether a folder holds spool files (a cheap look before judging its lock). */
export async function hasSegments(dir: string): Promise<boolean> {
  return (await readdir(dir).catch(() => [] as string[])).some((name) => SEGMENT.test(name));
}

/** A closed spool file waiting to be written to the database; its rows stay in memory within the bound. */
export interface SpoolSegment {
  readonly path: string;
  readonly count: number;
  rows: Position[] | null;
}

interface Pending {
  positions: Position[];
  chunks: Buffer[];
  done: Promise<void>;
  resolve(): void;
  reject(error: unknown): void;
}

export interface TrackSpoolOptions {
  /** Appends waiting at most this long are written and fsync'd together (group commit). */
  syncIntervalMs: number;
  /** Rows of closed segments kept in memory for the writer; beyond, it reads them back from disk. */
  maxRowsInMemory: number;
  /** Serialises lock decisions between the processes that may take this folder (see spoolLock.ts). */
  guard?: SpoolGuard;
  /** The database the positions belong to, written in the lock: only a process of the same one adopts it. */
  database?: string | null;
  /** How long a starting owner waits for a sibling writing its folder to the database; 60 s by default. */
  adoptionWaitMs?: number;
}

/**
 * The local append-only log positions reach before they are acknowledged: a terminal's position is durable
 * once `append` resolves, whatever the database is doing. Appends are grouped and fsync'd every
 * `syncIntervalMs`. The track writer closes the current file (`seal`), writes its rows to the database and
 * then deletes it (`remove`); after a crash the files left over are replayed (`open`). A file written to the
 * database but not yet deleted is written again on replay: the track's key (vehicle_id, tm) absorbs it.
 */
export class TrackSpool {
  private readonly sealed: SpoolSegment[] = [];
  private current: { path: string; handle: FileHandle; rows: Position[] } | null = null;
  private pending: Pending | null = null;
  private timer: NodeJS.Timeout | null = null;
  /** Every file operation runs in this order, one at a time. */
  private chain: Promise<unknown> = Promise.resolve();
  private nextSeq = 1;
  private closed = false;
  private holder: SpoolHolder | null = null;

  constructor(
    readonly dir: string,
    private readonly options: TrackSpoolOptions,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** Creates the folder and takes the files a previous run left: returns how many positions they hold. */
  async open(): Promise<number> {
    await mkdir(this.dir, { recursive: true });
    await this.lock();
    const rows = await this.load();
    if (this.sealed.length > 0)
      this.log.info({ files: this.sealed.length, positions: rows }, 'track spool: replaying positions left by the previous run');
    return rows;
  }

  /**
   * Takes a dead sibling's folder to write its files to the database: the number of positions they hold, or
   * null when the folder is not to be taken (its holder lives, another machine's or installation's, or no lock).
   * The caller writes them (a TrackWriter over this spool) and then `release`s it.
   */
  async adopt(): Promise<{ positions: number; from: SpoolHolder } | null> {
    const guard = this.options.guard ?? localGuard;
    const from = await guard(async () => {
      const held = await readHolder(this.dir);
      if (!held || held.host !== hostname() || !held.database || held.database !== (this.options.database ?? null)) return null;
      if (holderAlive(held)) return null;
      this.holder = newHolder('adopter', this.options.database ?? null);
      await writeHolder(this.dir, this.holder);
      return held;
    });
    if (!from) return null;
    return { positions: await this.load(), from };
  }

  /**
   * Lets go of an adopted folder: the lock goes with the files, or, with files left (the database away), it
   * says `released`, so the next round anywhere takes it again. A restarted owner finds it empty or takes it.
   */
  async release(): Promise<void> {
    await this.close();
    const holder = this.holder;
    if (!holder) return;
    this.holder = null;
    const left = await hasSegments(this.dir);
    await (this.options.guard ?? localGuard)(async () => {
      if ((await readHolder(this.dir))?.token !== holder.token) return;
      if (left) await writeHolder(this.dir, { ...holder, pid: 0, role: 'released' });
      else await removeHolder(this.dir);
    });
  }

  /** The files left in the folder, handed to the writer. */
  private async load(): Promise<number> {
    const names = (await readdir(this.dir)).filter((name) => SEGMENT.test(name)).sort();
    let rows = 0;
    for (const name of names) {
      const path = join(this.dir, name);
      const { positions, damaged } = decode(await readFile(path));
      if (damaged > 0) this.log.warn({ path, damaged }, 'track spool: damaged records skipped');
      this.sealed.push({ path, count: positions.length, rows: null });
      rows += positions.length;
      this.nextSeq = Math.max(this.nextSeq, Number(SEGMENT.exec(name)![1]) + 1);
    }
    this.trimMemory();
    return rows;
  }

  /** Resolves once the positions are on disk (fsync'd); rejects if they could not be written. */
  append(positions: readonly Position[]): Promise<void> {
    if (this.closed) return Promise.reject(new Error('track spool closed'));
    if (!this.pending) {
      let resolve!: () => void;
      let reject!: (error: unknown) => void;
      const done = new Promise<void>((ok, fail) => {
        resolve = ok;
        reject = fail;
      });
      this.pending = { positions: [], chunks: [], done, resolve, reject };
    }
    for (const p of positions) this.pending.positions.push(p);
    this.pending.chunks.push(encode(positions));
    if (!this.timer) {
      this.timer = setTimeout(() => {
        this.timer = null;
        void this.serial(() => this.writePending()).catch(() => undefined);
      }, this.options.syncIntervalMs);
    }
    return this.pending.done;
  }

  /** Writes what is waiting, closes the current file and hands it to the writer (with any older ones). */
  seal(): Promise<readonly SpoolSegment[]> {
    return this.serial(async () => {
      await this.writePending().catch(() => undefined);
      const current = this.current;
      if (current) {
        this.current = null;
        await current.handle.close();
        this.sealed.push({ path: current.path, count: current.rows.length, rows: current.rows });
        this.trimMemory();
      }
      return [...this.sealed];
    });
  }

  /** The rows of a closed file, from memory or read back from disk. */
  async rowsOf(segment: SpoolSegment): Promise<Position[]> {
    return segment.rows ?? decode(await readFile(segment.path)).positions;
  }

  /** The file's rows are in the database: it goes. */
  remove(segment: SpoolSegment): Promise<void> {
    return this.serial(async () => {
      // Already gone: another run replayed it (nothing to lose, the rows are in the database).
      await unlink(segment.path).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== 'ENOENT') throw error;
      });
      const index = this.sealed.indexOf(segment);
      if (index >= 0) this.sealed.splice(index, 1);
    });
  }

  /** Positions on disk not yet written to the database (and those about to be fsync'd). */
  backlog(): number {
    return (
      this.sealed.reduce((sum, segment) => sum + segment.count, 0) +
      (this.current?.rows.length ?? 0) +
      (this.pending?.positions.length ?? 0)
    );
  }

  /** Writes what is waiting and closes the current file; files not yet in the database stay for the next start. */
  async close(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.serial(async () => {
      await this.writePending().catch(() => undefined);
      this.closed = true;
      await this.current?.handle.close();
      if (this.current) this.sealed.push({ path: this.current.path, count: this.current.rows.length, rows: null });
      this.current = null;
    });
  }

  /**
   * One live process per folder: a second one would delete files the first still appends to. The lock names
   * its process; one left by a process that is gone (a crash) is taken over. A live sibling writing this
   * folder's files to the database (an adopter) is waited for: it lets go once they are in.
   */
  private async lock(): Promise<void> {
    const guard = this.options.guard ?? localGuard;
    const until = Date.now() + (this.options.adoptionWaitMs ?? 60_000);
    let waited = false;
    for (;;) {
      const adopter = await guard(async () => {
        const held = await readHolder(this.dir);
        if (held && held.token !== this.holder?.token && held.host === hostname() && holderAlive(held)) {
          if (held.role === 'adopter') return held;
          if (held.pid !== process.pid)
            throw new Error(
              `track spool ${this.dir} is used by process ${held.pid}: give each server process its own DATA_DIR or TRACK_SPOOL_DIR`,
            );
        }
        this.holder = newHolder('owner', this.options.database ?? null);
        await writeHolder(this.dir, this.holder);
        return null;
      });
      if (!adopter) return;
      if (Date.now() > until)
        throw new Error(`track spool ${this.dir} is being written to the database by process ${adopter.pid}: start again once it is done`);
      if (!waited) this.log.info({ dir: this.dir, pid: adopter.pid }, 'track spool: waiting for the process writing it to the database');
      waited = true;
      await delay(200);
    }
  }

  private serial<T>(work: () => Promise<T>): Promise<T> {
    const next = this.chain.then(work);
    this.chain = next.catch(() => undefined);
    return next;
  }

  private async writePending(): Promise<void> {
    const batch = this.pending;
    if (!batch) return;
    this.pending = null;
    try {
      if (!this.current) {
        const path = join(this.dir, `track-${String(this.nextSeq++).padStart(12, '0')}.spool`);
        this.current = { path, handle: await open(path, 'a'), rows: [] };
      }
      const data = batch.chunks.length === 1 ? batch.chunks[0] : Buffer.concat(batch.chunks);
      await this.current.handle.write(data);
      await this.current.handle.datasync();
      for (const p of batch.positions) this.current.rows.push(p);
      batch.resolve();
    } catch (error) {
      this.log.error(
        { err: error, positions: batch.positions.length, dir: this.dir },
        'track spool write failed: positions not acknowledged',
      );
      // A half-written file must not take later appends with it: start a new one.
      const broken = this.current;
      this.current = null;
      if (broken) {
        await broken.handle.close().catch(() => undefined);
        this.sealed.push({ path: broken.path, count: broken.rows.length, rows: broken.rows });
      }
      batch.reject(error);
      throw error;
    }
  }

  /** Keeps the oldest closed files' rows in memory (written first); newer ones are read back when their turn comes. */
  private trimMemory(): void {
    let inMemory = 0;
    for (const segment of this.sealed) {
      if (!segment.rows) continue;
      if (inMemory + segment.rows.length > this.options.maxRowsInMemory) segment.rows = null;
      else inMemory += segment.rows.length;
    }
  }
}
