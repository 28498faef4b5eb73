import type { FastifyBaseLogger } from 'fastify';
import type { DayPartitions } from '../db/dayPartitions';
import type { Db, Queryable } from '../db/types';
import { stateOfReading, type NodeState } from '../../shared/pdm/model';
import type { NodeIndex } from './nodeIndex';

/** One reading attributed to its node: value in the node's unit (null: the sensor sent only its error). */
export interface Reading {
  vehicleId: number;
  nodeId: number;
  /** epoch ms */
  tm: number;
  value: number | null;
  error: boolean;
  lat?: number;
  lon?: number;
}

export interface WriteOutcome {
  inserted: number;
  duplicates: number;
  changes: number;
}

const MINUTE = 60_000;
const HOUR = 3_600_000;

interface Current {
  state: NodeState;
  tm: number;
}
interface Bucket {
  vehicleId: number;
  nodeId: number;
  bucket: number;
  n: number;
  sum: number;
  min: number | null;
  max: number | null;
  last: number | null;
  lastTm: number;
  warn: number;
  fault: number;
  lat: number | null;
  lon: number | null;
}

/**
 * Readings into the database: the one way in for EGTS, HTTP, the simulator and the import manager.
 * `add` queues readings and resolves once the batch holding them is committed (true) or failed (false: the
 * sender resends; an EGTS confirmation is not sent). A batch, in one transaction: the readings (a key already
 * stored stores nothing: resent records and re-imported files add nothing), their nodes' states and state
 * changes (only readings newer than a node's last move its state: history backfills the series, not the
 * present), and the minute and hour rollups from exactly the rows inserted. Batches and the silence sweep run
 * one at a time.
 */
export class ReadingWriter {
  private pending: Reading[] = [];
  private waiters: ((ok: boolean) => void)[] = [];
  private chain: Promise<unknown> = Promise.resolve();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly db: Db,
    private readonly nodes: NodeIndex,
    private readonly log: FastifyBaseLogger,
    private readonly options: { flushMs: number; partitions: DayPartitions[] },
  ) {}

  start(): void {
    this.timer = setInterval(() => void this.flush(), this.options.flushMs);
    this.timer.unref();
  }

  add(readings: Reading[]): Promise<boolean> {
    if (!readings.length) return Promise.resolve(true);
    for (const reading of readings) this.pending.push(reading);
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** Writes what is queued now. */
  flush(): Promise<void> {
    return this.queue(async () => {
      if (!this.pending.length) return;
      const batch = this.pending;
      const waiters = this.waiters;
      this.pending = [];
      this.waiters = [];
      try {
        await this.write(batch);
        for (const done of waiters) done(true);
      } catch (err) {
        this.log.warn({ err, readings: batch.length }, 'PDM readings not stored: the senders resend');
        for (const done of waiters) done(false);
      }
    });
  }

  private queue<T>(work: () => Promise<T>): Promise<T> {
    const next = this.chain.then(work, work);
    this.chain = next.catch(() => undefined);
    return next;
  }

  /** Writes readings at once (the import manager, inside its own queue turn). */
  writeNow(readings: Reading[]): Promise<WriteOutcome> {
    return this.queue(() => this.write(readings));
  }

  private async write(batch: Reading[]): Promise<WriteOutcome> {
    // The batch's days made first (within the retention; readings of other days wait in the default partition).
    for (const partitions of this.options.partitions) await partitions.ensure(batch.map((r) => r.tm));
    return this.db.transaction(async (tx) => {
      const inserted = await tx.query<{ vehicle_id: number; node_id: number; tm: Date; value: number | null; error: boolean; i: number }>(
        `insert into pdm.reading (vehicle_id, node_id, tm, value, error)
         select v, n, t, x, e from unnest($1::int[], $2::int[], $3::timestamptz[], $4::float8[], $5::bool[]) as u(v, n, t, x, e)
         on conflict do nothing returning vehicle_id, node_id, tm, value, error`,
        [
          batch.map((r) => r.vehicleId),
          batch.map((r) => r.nodeId),
          batch.map((r) => new Date(r.tm).toISOString()),
          batch.map((r) => r.value),
          batch.map((r) => r.error),
        ],
      );
      if (!inserted.length) return { inserted: 0, duplicates: batch.length, changes: 0 };
      const places = new Map<string, Reading>();
      for (const r of batch) if (r.lat !== undefined) places.set(`${r.vehicleId}:${r.nodeId}:${r.tm}`, r);
      const rows: Reading[] = inserted.map((row) => {
        const tm = row.tm.getTime();
        const place = places.get(`${row.vehicle_id}:${row.node_id}:${tm}`);
        return { vehicleId: row.vehicle_id, nodeId: row.node_id, tm, value: row.value, error: row.error, lat: place?.lat, lon: place?.lon };
      });
      const changes = await this.applyStates(tx, rows);
      await this.rollup(tx, rows);
      return { inserted: rows.length, duplicates: batch.length - rows.length, changes };
    });
  }

  private stateOf(reading: Reading): Exclude<NodeState, 'no_data'> | undefined {
    const node = this.nodes.node(reading.nodeId);
    if (reading.value === null) return reading.error ? 'fault' : undefined;
    return node ? stateOfReading(reading.value, reading.error, node) : reading.error ? 'fault' : 'normal';
  }

  /** Node states and their changes from the newest readings; returns the number of changes. */
  private async applyStates(tx: Queryable, rows: Reading[]): Promise<number> {
    const byKey = new Map<string, Reading[]>();
    for (const row of rows) {
      const k = `${row.vehicleId}:${row.nodeId}`;
      const list = byKey.get(k);
      if (list) list.push(row);
      else byKey.set(k, [row]);
    }
    const keys = [...byKey.keys()].map((k) => k.split(':').map(Number));
    const current = new Map<string, Current>();
    for (const row of await tx.query<{ vehicle_id: number; node_id: number; state: NodeState; tm: Date }>(
      `select s.vehicle_id, s.node_id, s.state, s.tm from pdm.node_state s
         join unnest($1::int[], $2::int[]) as k(v, n) on s.vehicle_id = k.v and s.node_id = k.n`,
      [keys.map((k) => k[0]), keys.map((k) => k[1])],
    ))
      current.set(`${row.vehicle_id}:${row.node_id}`, { state: row.state, tm: row.tm.getTime() });

    const changes: { v: number; n: number; tm: number; state: NodeState; prev: NodeState | null; value: number | null }[] = [];
    const latest: { v: number; n: number; state: NodeState; since: number; value: number | null; tm: number }[] = [];
    for (const [k, list] of byKey) {
      list.sort((a, b) => a.tm - b.tm);
      let cur = current.get(k);
      let since: number | undefined;
      let last: Reading | undefined;
      for (const reading of list) {
        if (cur && reading.tm <= cur.tm) continue;
        const state = this.stateOf(reading);
        if (!state) continue;
        if (!cur || cur.state !== state) {
          changes.push({ v: reading.vehicleId, n: reading.nodeId, tm: reading.tm, state, prev: cur?.state ?? null, value: reading.value });
          since = reading.tm;
        }
        cur = { state, tm: reading.tm };
        last = reading;
      }
      if (last && cur)
        latest.push({ v: last.vehicleId, n: last.nodeId, state: cur.state, since: since ?? -1, value: last.value, tm: last.tm });
    }
    if (latest.length) {
      await tx.query(
        `insert into pdm.node_state as s (vehicle_id, node_id, state, since, value, tm)
         select v, n, st, case when si < 0 then t else to_timestamp(si / 1000.0) end, x, t
           from unnest($1::int[], $2::int[], $3::text[], $4::float8[], $5::float8[], $6::timestamptz[]) as u(v, n, st, si, x, t)
         on conflict (vehicle_id, node_id) do update set
           since = case when excluded.state = s.state then s.since else excluded.since end,
           state = excluded.state, value = excluded.value, tm = excluded.tm
         where excluded.tm > s.tm`,
        [
          latest.map((l) => l.v),
          latest.map((l) => l.n),
          latest.map((l) => l.state),
          latest.map((l) => l.since),
          latest.map((l) => l.value),
          latest.map((l) => new Date(l.tm).toISOString()),
        ],
      );
    }
    if (changes.length) await insertChanges(tx, changes);
    return changes.length;
  }

  private async rollup(tx: Queryable, rows: Reading[]): Promise<void> {
    const minute = new Map<string, Bucket>();
    const hour = new Map<string, Bucket>();
    for (const row of rows) {
      const state = this.stateOf(row);
      for (const [map, size] of [
        [minute, MINUTE],
        [hour, HOUR],
      ] as const) {
        const bucket = row.tm - (row.tm % size);
        const k = `${row.vehicleId}:${row.nodeId}:${bucket}`;
        let b = map.get(k);
        if (!b)
          map.set(
            k,
            (b = {
              vehicleId: row.vehicleId,
              nodeId: row.nodeId,
              bucket,
              n: 0,
              sum: 0,
              min: null,
              max: null,
              last: null,
              lastTm: row.tm,
              warn: 0,
              fault: 0,
              lat: null,
              lon: null,
            }),
          );
        if (row.value !== null) {
          b.n += 1;
          b.sum += row.value;
          b.min = b.min === null ? row.value : Math.min(b.min, row.value);
          b.max = b.max === null ? row.value : Math.max(b.max, row.value);
        }
        if (row.tm >= b.lastTm) {
          b.lastTm = row.tm;
          b.last = row.value;
          if (row.lat !== undefined && row.lon !== undefined) {
            b.lat = row.lat;
            b.lon = row.lon;
          }
        }
        if (state === 'warning') b.warn += 1;
        if (state === 'fault') b.fault += 1;
      }
    }
    await upsertBuckets(tx, 'reading_minute', [...minute.values()]);
    await upsertBuckets(tx, 'reading_hour', [...hour.values()]);
  }

  /**
   * Nodes silent past their time-out go to 'no_data' at the moment the time-out ran out (last reading +
   * silence), one state change each. `now` is injectable for tests.
   */
  sweepSilence(now = Date.now()): Promise<number> {
    return this.queue(() =>
      this.db.transaction(async (tx) => {
        const due = await tx.query<{ vehicle_id: number; node_id: number; state: NodeState; at: Date }>(
          `select s.vehicle_id, s.node_id, s.state, s.tm + make_interval(secs => n.silence_s) as at
           from pdm.node_state s join pdm.node n on n.id = s.node_id
          where s.state <> 'no_data' and s.tm < $1::timestamptz - interval '10 seconds'
            and s.tm + make_interval(secs => n.silence_s) <= $1::timestamptz`,
          [new Date(now).toISOString()],
        );
        if (!due.length) return 0;
        await tx.query(
          `update pdm.node_state s set state = 'no_data', since = k.at, value = null
           from unnest($1::int[], $2::int[], $3::timestamptz[]) as k(v, n, at) where s.vehicle_id = k.v and s.node_id = k.n`,
          [due.map((d) => d.vehicle_id), due.map((d) => d.node_id), due.map((d) => d.at.toISOString())],
        );
        await insertChanges(
          tx,
          due.map((d) => ({ v: d.vehicle_id, n: d.node_id, tm: d.at.getTime(), state: 'no_data' as const, prev: d.state, value: null })),
        );
        return due.length;
      }),
    );
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }
}

/** State changes in, and each key's previous open change closed at the next one's time. */
async function insertChanges(
  tx: Queryable,
  changes: { v: number; n: number; tm: number; state: NodeState; prev: NodeState | null; value: number | null }[],
): Promise<void> {
  await tx.query(
    `insert into pdm.state_change (vehicle_id, node_id, tm, state, prev_state, value)
     select * from unnest($1::int[], $2::int[], $3::timestamptz[], $4::text[], $5::text[], $6::float8[])`,
    [
      changes.map((c) => c.v),
      changes.map((c) => c.n),
      changes.map((c) => new Date(c.tm).toISOString()),
      changes.map((c) => c.state),
      changes.map((c) => c.prev),
      changes.map((c) => c.value),
    ],
  );
  const vs = [...new Set(changes.map((c) => `${c.v}:${c.n}`))].map((k) => k.split(':').map(Number));
  await tx.query(
    `update pdm.state_change s set till = x.next
       from (select c.id, lead(c.tm) over (partition by c.vehicle_id, c.node_id order by c.tm, c.id) as next
               from pdm.state_change c join unnest($1::int[], $2::int[]) as k(v, n) on c.vehicle_id = k.v and c.node_id = k.n
              where c.till is null) x
      where s.id = x.id and x.next is not null`,
    [vs.map((k) => k[0]), vs.map((k) => k[1])],
  );
}

async function upsertBuckets(tx: Queryable, table: 'reading_minute' | 'reading_hour', buckets: Bucket[]): Promise<void> {
  if (!buckets.length) return;
  const place = table === 'reading_hour';
  const columns = [
    'vehicle_id',
    'node_id',
    'bucket',
    'n',
    'sum',
    'min',
    'max',
    'last',
    'last_tm',
    'warn',
    'fault',
    ...(place ? ['lat', 'lon'] : []),
  ];
  const types = [
    'int',
    'int',
    'timestamptz',
    'int',
    'float8',
    'float8',
    'float8',
    'float8',
    'timestamptz',
    'int',
    'int',
    ...(place ? ['float8', 'float8'] : []),
  ];
  const params: unknown[][] = [
    buckets.map((b) => b.vehicleId),
    buckets.map((b) => b.nodeId),
    buckets.map((b) => new Date(b.bucket).toISOString()),
    buckets.map((b) => b.n),
    buckets.map((b) => b.sum),
    buckets.map((b) => b.min),
    buckets.map((b) => b.max),
    buckets.map((b) => b.last),
    buckets.map((b) => new Date(b.lastTm).toISOString()),
    buckets.map((b) => b.warn),
    buckets.map((b) => b.fault),
    ...(place ? [buckets.map((b) => b.lat), buckets.map((b) => b.lon)] : []),
  ];
  const placeSet = place
    ? `, lat = case when excluded.last_tm >= r.last_tm and excluded.lat is not null then excluded.lat else r.lat end,
    lon = case when excluded.last_tm >= r.last_tm and excluded.lon is not null then excluded.lon else r.lon end`
    : '';
  await tx.query(
    `insert into pdm.${table} as r (${columns.join(', ')})
     select * from unnest(${types.map((t, i) => `$${i + 1}::${t}[]`).join(', ')})
     on conflict (vehicle_id, node_id, bucket) do update set
       n = r.n + excluded.n, sum = r.sum + excluded.sum, min = least(r.min, excluded.min), max = greatest(r.max, excluded.max),
       last = case when excluded.last_tm >= r.last_tm then excluded.last else r.last end,
       warn = r.warn + excluded.warn, fault = r.fault + excluded.fault${placeSet},
       last_tm = greatest(r.last_tm, excluded.last_tm)`,
    params,
  );
}
