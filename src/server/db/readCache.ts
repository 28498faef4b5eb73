import type { Db } from './types';

/**
 * Values read from the database, kept for ttlMs and then read again; a read that finds nothing is not kept.
 *
 * For staleMs after that, an expired value is still answered while the new one is read in the background,
 * so a request does not wait for the database behind heavy queries. On the embedded engine (one process owns
 * the database, so every change to what is cached goes through this process and forgets the entry here) that
 * is unbounded. With several processes on one PostgreSQL, a change made in another process is forgotten here
 * at once over the bus; should the bus be down, it reaches this process within ttlMs plus the time one read
 * takes (at most ttlMs + staleMs, past which a request waits for the read).
 */
export class ReadCache<K, V> {
  private readonly entries = new Map<K, { value: V; at: number; refreshing?: Promise<V | undefined> }>();
  private readonly loading = new Map<K, { reading: Promise<V | undefined>; generation: number }>();
  /** Bumped by every forget, so a read that started before a change does not store what it read. */
  private generation = 0;

  constructor(
    private readonly ttlMs: number,
    private readonly staleMs: number,
  ) {}

  async get(key: K, load: () => Promise<V | undefined>): Promise<V | undefined> {
    const entry = this.entries.get(key);
    const age = entry ? Date.now() - entry.at : Infinity;
    if (entry && age < this.ttlMs) return entry.value;
    if (entry && age < this.ttlMs + this.staleMs) {
      entry.refreshing ??= this.read(key, load).catch(() => {
        entry.refreshing = undefined;
        return undefined;
      });
      return entry.value;
    }
    return this.read(key, load);
  }

  /** One read per key at a time: concurrent requests for the same entry wait for the same query. */
  private read(key: K, load: () => Promise<V | undefined>): Promise<V | undefined> {
    const generation = this.generation;
    const pending = this.loading.get(key);
    if (pending?.generation === generation) return pending.reading;
    const reading = load()
      .then((value) => {
        if (generation === this.generation) {
          if (value === undefined) this.entries.delete(key);
          else this.entries.set(key, { value, at: Date.now() });
        }
        return value;
      })
      .finally(() => {
        if (this.loading.get(key)?.reading === reading) this.loading.delete(key);
      });
    this.loading.set(key, { reading, generation });
    return reading;
  }

  forget(key: K): void {
    this.generation++;
    this.entries.delete(key);
  }

  forgetWhere(test: (value: V, key: K) => boolean): void {
    this.generation++;
    for (const [key, entry] of this.entries) if (test(entry.value, key)) this.entries.delete(key);
  }

  clear(): void {
    this.generation++;
    this.entries.clear();
  }
}

/** How long past its time an entry may be answered while it is read again: unbounded with one process, 3 s more with PostgreSQL. */
export const staleWindow = (db: Pick<Db, 'engine'>): number => (db.engine === 'pglite' ? Infinity : 3000);
