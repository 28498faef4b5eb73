import type { FastifyBaseLogger } from 'fastify';
import { isoTime } from '../../shared/format';
import { PREDICTION_HORIZONS } from '../../shared/reports/dispatch';
import { runAsServer } from '../db/queryCaller';
import type { Db, Queryable } from '../db/types';
import type { Fence, Lease } from '../jobs/leases';
import { addDays, operatorDate } from '../platform/operatorDay';
import type { DispatchEngine } from './engine';

/** A sampling round runs this often. */
export const SAMPLE_EVERY_MS = 60_000;
/** Each vehicle is sampled every this many rounds, in its turn by id (a fifth of the fleet a minute). */
export const VEHICLE_EVERY = 5;
/** Service dates of samples kept besides today's; older days are dropped whole. */
export const SAMPLE_KEEP_DAYS = 7;

/** One prediction as it was made (dispatch.prediction_sample). */
export interface PredictionSample {
  serviceDate: string;
  madeAt: number;
  vehicleId: number;
  routeId: number;
  variantId: number;
  graph: number;
  smena: string;
  raceNum: number;
  stopSequence: number;
  stopId: number;
  predicted: number;
  baseline: number;
}

const LAST = PREDICTION_HORIZONS.length - 1;

/** The horizon a prediction `minutes` ahead falls in ([from, to), the last closed), or undefined beyond them. */
export const horizonOf = (minutes: number): string | undefined =>
  PREDICTION_HORIZONS.find(([, from, to], i) => minutes >= from && (minutes < to || (i === LAST && minutes <= to)))?.[0];

/**
 * One round's samples: for each vehicle on a run whose turn it is (every `every` rounds), the engine's predictions
 * at `now` (what the API and the stop cards give), the first stop of each horizon, so every horizon gets one
 * sample of the vehicle and the table stays a few rows a vehicle a round. Pure over the engine's state.
 */
export function takeSamples(engine: DispatchEngine, now: number, every = VEHICLE_EVERY): PredictionSample[] {
  const round = Math.floor(now / SAMPLE_EVERY_MS);
  const out: PredictionSample[] = [];
  for (const v of engine.states()) {
    if (!v.run || v.vehicleId % every !== round % every) continue;
    const taken = new Set<string>();
    for (const p of engine.predictions(v.vehicleId, now)) {
      const horizon = horizonOf((p.predicted - now) / 60_000);
      if (!horizon || taken.has(horizon)) continue;
      taken.add(horizon);
      out.push({
        serviceDate: p.run.serviceDate,
        madeAt: now,
        vehicleId: v.vehicleId,
        routeId: p.run.routeId,
        variantId: p.run.variantId,
        graph: p.run.graph,
        smena: p.run.smena,
        raceNum: p.run.raceNum,
        stopSequence: p.run.sequences[p.stopIndex],
        stopId: p.run.stopIds[p.stopIndex],
        predicted: Math.round(p.predicted),
        baseline: Math.round(p.baseline),
      });
    }
  }
  return out;
}

/**
 * Making or dropping a day's partition locks the table: it waits at most this long behind a report reading it
 * (so nothing queued after it waits longer; docs/architecture.md «Storage over years»), and fails the round,
 * tried again at the next.
 */
const LOCK_TIMEOUT = '500ms';

function underLockTimeout(db: Db, sql: string, params: unknown[]): Promise<void> {
  return db.transaction(async (tx) => {
    await tx.query("select set_config('lock_timeout', $1, true)", [LOCK_TIMEOUT]);
    await tx.query(sql, params);
  });
}

/**
 * Writes samples in one statement, making each service date's partition first; with `fence` (the writer's
 * lease) in a transaction that checks it first, so samples are never written twice by an old and a new writer.
 */
export async function writeSamples(db: Db, samples: readonly PredictionSample[], knownDays: Set<string>, fence?: Fence): Promise<void> {
  if (!samples.length) return;
  for (const date of new Set(samples.map((s) => s.serviceDate))) {
    if (knownDays.has(date)) continue;
    await underLockTimeout(db, 'select dispatch.ensure_sample_partition($1::date)', [date]);
    knownDays.add(date);
  }
  if (fence)
    await db.transaction(async (tx) => {
      await fence(tx);
      await insertSamples(tx, samples);
    });
  else await insertSamples(db, samples);
}

async function insertSamples(db: Queryable, samples: readonly PredictionSample[]): Promise<void> {
  await db.query(
    `insert into dispatch.prediction_sample (service_date, made_at, vehicle_id, route_id, rasp_variant_id, graph, smena, race_num, stop_sequence, stop_id, predicted, baseline)
     select d, m, v, r, rv, g, s, rn, q, st, p, b
       from jsonb_to_recordset($1::jsonb) as x(d date, m timestamptz, v int, r int, rv int, g int, s text, rn int, q int, st int, p timestamptz, b timestamptz)`,
    [
      JSON.stringify(
        samples.map((s) => ({
          d: s.serviceDate,
          m: isoTime(s.madeAt),
          v: s.vehicleId,
          r: s.routeId,
          rv: s.variantId,
          g: s.graph,
          s: s.smena,
          rn: s.raceNum,
          q: s.stopSequence,
          st: s.stopId,
          p: isoTime(s.predicted),
          b: isoTime(s.baseline),
        })),
      ),
    ],
  );
}

export interface PredictionSamplerDeps {
  db: Db;
  engine: DispatchEngine;
  /** Whether the live timetable is on (the module switch of the settings). */
  enabled: () => Promise<boolean>;
  log: FastifyBaseLogger;
  tzOffsetMinutes: number;
  /** The writer's lease: each round's samples are fenced by it. */
  writer?: Lease;
}

/**
 * Keeps samples of the engine's arrival predictions as they are made, for «Точность прогнозов» to compare with
 * the passages that follow: a round a minute beside the engine (it reads the engine's state, never changes it),
 * and once a day the days past SAMPLE_KEEP_DAYS dropped.
 */
export class PredictionSampler {
  private timer: NodeJS.Timeout | undefined;
  private readonly knownDays = new Set<string>();
  private keptOn: string | null = null;

  constructor(private readonly deps: PredictionSamplerDeps) {}

  start(): void {
    this.timer = setInterval(
      () => void this.round(Date.now()).catch((err) => this.deps.log.warn({ err }, 'prediction samples not written')),
      SAMPLE_EVERY_MS,
    );
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  /** One round at `now`: the samples due written, the old days dropped when the operator's date turned. */
  async round(now: number, every = VEHICLE_EVERY): Promise<number> {
    if (!(await this.deps.enabled())) return 0;
    const samples = takeSamples(this.deps.engine, now, every);
    const fence = this.deps.writer?.fence();
    await runAsServer(async () => {
      const today = operatorDate(now, this.deps.tzOffsetMinutes);
      if (today !== this.keptOn) {
        await underLockTimeout(this.deps.db, 'select dispatch.drop_prediction_samples($1::date)', [addDays(today, -SAMPLE_KEEP_DAYS)]);
        for (const day of this.knownDays) if (day < addDays(today, -SAMPLE_KEEP_DAYS)) this.knownDays.delete(day);
        this.keptOn = today;
      }
      await writeSamples(this.deps.db, samples, this.knownDays, fence);
    });
    return samples.length;
  }
}
