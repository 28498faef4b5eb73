import type { Queryable } from '../db/types';
import { isoTime } from '../../shared/format';
import type { VehiclePlan } from './vehiclePlan';

/**
 * The simulator's ground truth (docs/simulator.md "Ground truth", simulator.truth_run): each run a vehicle really
 * worked, with the times it really came to and left each stop. Written by the simulator as runs end; read only
 * by the benchmarks, never by the live timetable.
 */
export interface TruthRow {
  d: string;
  v: number;
  r: number;
  dir: number;
  rv: number;
  g: number;
  s: string;
  rn: number;
  stops: number[];
  seqs: number[];
  arr: (string | null)[];
  dep: (string | null)[];
}

/** The runs of the plans that end in (from, to]: those of the timetable (a run named by its schedule). */
export function truthRows(plans: readonly VehiclePlan[], from: number, to: number): TruthRow[] {
  const rows: TruthRow[] = [];
  for (const plan of plans) {
    for (const leg of plan.legs) {
      if (leg.kind !== 'race' || leg.end <= from || leg.end > to) continue;
      const { race } = leg;
      if (!race.run || !race.stopIds) continue;
      const n = race.arrivals.length;
      rows.push({
        d: race.run.serviceDate,
        v: plan.vehicleId,
        r: race.routeId,
        dir: race.direction ?? 0,
        rv: race.run.variantId,
        g: race.run.graph,
        s: race.run.smena,
        rn: race.raceNum ?? 0,
        stops: race.stopIds,
        seqs: race.run.sequences,
        arr: Array.from(race.arrivals, isoTime),
        dep: Array.from(race.departures, (t, i) => (i === n - 1 ? null : isoTime(t))),
      });
    }
  }
  return rows;
}

/** Rows a statement. */
const BATCH = 2_000;

export async function writeTruth(db: Queryable, rows: readonly TruthRow[]): Promise<void> {
  for (let i = 0; i < rows.length; i += BATCH) {
    await db.query(
      `insert into simulator.truth_run (service_date, vehicle_id, route_id, direction, rasp_variant_id, graph, smena, race_num,
         stop_ids, stop_sequences, arrivals, departures)
       select d, v, r, dir, rv, g, s, rn, stops, seqs, arr, dep
         from jsonb_to_recordset($1::jsonb) as x(d date, v int, r int, dir smallint, rv int, g int, s text, rn int,
              stops int[], seqs int[], arr timestamptz[], dep timestamptz[])
       on conflict do nothing`,
      [JSON.stringify(rows.slice(i, i + BATCH))],
    );
  }
}
