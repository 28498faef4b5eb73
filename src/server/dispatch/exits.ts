import type { ExitRun, ExitsList, NotPerformedReason, RunStatus } from '../../shared/dispatch/api';
import type { Queryable } from '../db/types';
import { operatorMidnight } from '../platform/operatorDay';
import { fullName } from './names';
import type { HandoverNote, RunChangeNote } from './serviceChanges';
import { watchedBetween, type Watched } from './watchSpans';

/** An added run's plan as the engine holds it: its stop times and order numbers. */
export interface AddedPlan {
  start: number;
  end: number;
  sequences: readonly number[];
}

/** The day's handovers and added runs, for the plan and fact. */
export interface DayNotes {
  handovers: readonly HandoverNote[];
  /** An added run's plan by its key (the engine's); unknown: its start only. */
  addedPlan: (runKey: string) => AddedPlan | undefined;
  /** The stops closed for a run (closed stops, a detour's skipped ones): not among the stops it is to pass. */
  closedStops?: (runKey: string) => ReadonlySet<number>;
}

interface AddedRow {
  run_key: string;
  route_id: number;
  route_name: string;
  graph: number;
  smena: string;
  race_num: number;
  direction: number;
  start_at: Date | string;
  vehicle_id: number | null;
  depot_number: number | null;
  reason: string;
  passages: { q: number; a: string | null; d: string | null }[] | null;
}

interface Row {
  run_key: string;
  route_id: number;
  route_name: string;
  graph: number;
  smena: string;
  race_num: number;
  direction: number;
  stops: number;
  planned_start: Date | string;
  planned_end: Date | string;
  planned_vehicle: number | null;
  last_name: string | null;
  first_name: string | null;
  middle_name: string | null;
  vehicle_id: number | null;
  on_run: number | null;
  depot_number: number | null;
  passed: number;
  has_first: boolean;
  start_departure: Date | null;
  first_passage: Date | null;
  end_arrival: Date | null;
  status: RunStatus;
}

/**
 * A day's exits of a route or a depot (its routes, and the exits its vehicles are tasked with): each run of the
 * timetable in force with its plan and its fact from the stored passages (dispatch.day_runs: the stops with
 * coordinates as the engine follows them, the departure from the first stop, the arrival at the last one, the
 * stops passed), judged by dispatch.run_status, the rule «Выполнение рейсов» reports by too.
 */
export async function exitsOfDay(
  db: Queryable,
  date: string,
  scope: { route?: number; depot?: number },
  now: number,
  tzOffsetMinutes: number,
  runMissedSeconds: number,
  /** Run key → the vehicle on it now (the engine's): a run under way before its first passage is not missed. */
  working: ReadonlyMap<string, number> = new Map(),
  /** The date's service changes in force by run key: a cancelled run is shown cancelled, a moved one by its new times. */
  changes: ReadonlyMap<string, RunChangeNote> = new Map(),
  notes: DayNotes = { handovers: [], addedPlan: () => undefined },
): Promise<ExitsList> {
  const rows = await db.query<Row>(
    `with w as (select e.key, e.vehicle_id from jsonb_to_recordset($7::jsonb) as e(key text, vehicle_id int)),
          tasked as (select rv.route_id, t."RaspVariant_id" as variant, t.graph, t.smena from mgt.vehicle_task t
                       join mgt.vehicles v on v.id = t.vehicle_id join mgt.rasp_variant rv on rv.id = t."RaspVariant_id"
                      where t.date = $1::date and v.depot_id = $4)
     select concat_ws('|', to_char(pl.service_date, 'YYYY-MM-DD'), pl.rasp_variant_id, pl.graph, pl.smena, pl.race_num) as run_key,
            pl.route_id, r.route_short_name as route_name, pl.graph, pl.smena, pl.race_num, pl.direction, pl.stops, pl.planned_start, pl.planned_end,
            task.vehicle_id as planned_vehicle, d.last_name, d.first_name, d.middle_name,
            coalesce(pl.vehicle_id, task.vehicle_id) as vehicle_id, w.vehicle_id as on_run, v.depot_number,
            pl.passed, pl.has_first, pl.start_departure, pl.first_passage, pl.end_arrival,
            dispatch.run_status(pl.end_arrival is not null, pl.passed, w.vehicle_id is not null, pl.planned_end, $5::timestamptz, $6::int) as status
       from dispatch.day_runs($1::date, $1::date, $2::int,
              case when $3::int is not null then array[$3::int]
                   when $4::int is not null then array(select route_id from mgt.routes where "Depot_id" = $4 union select route_id from tasked) end) pl
       join mgt.routes r on r.route_id = pl.route_id
       left join w on w.key = concat_ws('|', to_char(pl.service_date, 'YYYY-MM-DD'), pl.rasp_variant_id, pl.graph, pl.smena, pl.race_num)
       left join lateral (select t.vehicle_id, t.driver_id from mgt.vehicle_task t
                           where t.date = $1::date and t."RaspVariant_id" = pl.rasp_variant_id and t.graph = pl.graph and t.smena = pl.smena
                           order by t.id limit 1) task on true
       left join mgt.driver d on d.driver_id = task.driver_id
       left join mgt.vehicles v on v.id = coalesce(pl.vehicle_id, task.vehicle_id)
      where $4::int is null or r."Depot_id" = $4
         or exists (select 1 from tasked k where k.variant = pl.rasp_variant_id and k.graph = pl.graph and k.smena = pl.smena)
      order by r.route_short_name, pl.route_id, pl.graph, pl.smena, pl.planned_start, pl.race_num`,
    [
      date,
      tzOffsetMinutes,
      scope.route ?? null,
      scope.depot ?? null,
      new Date(now).toISOString(),
      runMissedSeconds,
      JSON.stringify([...working].map(([key, vehicleId]) => ({ key, vehicle_id: vehicleId }))),
    ],
  );
  const time = (value: Date | string) => new Date(value).getTime();
  // the day's runs end by the next day's morning: the spans from the day before on
  const watched = await watchedBetween(db, operatorMidnight(date, tzOffsetMinutes) - 86_400_000, now);
  const handoverOf = new Map(notes.handovers.map((h) => [h.blockKey, h]));
  const newVehicles = [...new Set(notes.handovers.map((h) => h.vehicleId))];
  const depotNumbers = new Map(
    (
      await db.query<{ id: number; depot_number: number | null }>('select id, depot_number from mgt.vehicles where id = any($1::int[])', [
        newVehicles,
      ])
    ).map((v) => [v.id, v.depot_number]),
  );
  const seconds = (actual: number | null, planned: number) => (actual === null ? null : Math.round((actual - planned) / 1000));
  const list: ExitRun[] = rows.map((r) => {
    const change = changes.get(r.run_key);
    const shift = (change?.shiftMinutes ?? 0) * 60_000;
    const plannedStart = time(r.planned_start) + shift;
    const plannedEnd = time(r.planned_end) + shift;
    // a moved run is judged by its new end (dispatch.run_status's rule); a cancelled one without passages is cancelled
    let status: RunStatus = shift
      ? runStatus(r.end_arrival !== null, r.passed, r.on_run !== null, plannedEnd, now, runMissedSeconds, watched)
      : r.status;
    if (change?.cancelReason !== null && change?.cancelReason !== undefined && r.passed === 0 && r.on_run === null) status = 'cancelled';
    // departed the first stop, or (the first stop missed) seen first further on; still at the first stop: not started
    const actualStart = r.start_departure ? time(r.start_departure) : !r.has_first && r.first_passage ? time(r.first_passage) : null;
    const actualEnd = r.end_arrival ? time(r.end_arrival) : null;
    // a handed-over exit: the runs not yet run when it was handed over are the new vehicle's
    const handover = handoverOf.get(r.run_key.slice(0, r.run_key.lastIndexOf('|')));
    const handedOver = handover !== undefined && plannedEnd >= handover.at && r.passed === 0;
    const vehicleId = handedOver ? (r.on_run ?? handover.vehicleId) : (r.vehicle_id ?? r.on_run ?? null);
    return {
      routeId: r.route_id,
      routeName: r.route_name,
      graph: r.graph,
      smena: r.smena,
      raceNum: r.race_num,
      direction: r.direction,
      plannedVehicle: r.planned_vehicle,
      vehicleId,
      depotNumber: handedOver ? (depotNumbers.get(vehicleId!) ?? null) : r.depot_number,
      driver: r.last_name === null ? null : fullName(r.last_name, r.first_name ?? '', r.middle_name),
      plannedStart: new Date(plannedStart).toISOString(),
      plannedEnd: new Date(plannedEnd).toISOString(),
      actualStart: actualStart === null ? null : new Date(actualStart).toISOString(),
      actualEnd: actualEnd === null ? null : new Date(actualEnd).toISOString(),
      startDeviation: seconds(actualStart, plannedStart),
      endDeviation: seconds(actualEnd, plannedEnd),
      stops: r.stops - (notes.closedStops?.(r.run_key).size ?? 0),
      passed: r.passed,
      status,
      cancelReason: change?.cancelReason ?? null,
      shiftMinutes: change?.shiftMinutes ?? null,
      added: false,
      handedOver,
      reason: null,
    };
  });
  list.push(...(await addedRuns(db, date, scope, now, runMissedSeconds, watched, working, changes, notes)));
  await explain(db, date, tzOffsetMinutes, list);
  const count = (status: RunStatus) => list.filter((r) => r.status === status).length;
  return {
    date,
    list,
    count: list.length,
    totals: {
      planned: list.length,
      performed: count('performed'),
      partial: count('partial'),
      notPerformed: count('not_performed'),
      notWatched: count('not_watched'),
      cancelled: count('cancelled'),
    },
  };
}

/** The runs added to the day (/dispatch/changes) in the scope, with their fact from the stored passages. */
async function addedRuns(
  db: Queryable,
  date: string,
  scope: { route?: number; depot?: number },
  now: number,
  runMissedSeconds: number,
  watched: Watched,
  working: ReadonlyMap<string, number>,
  changes: ReadonlyMap<string, RunChangeNote>,
  notes: DayNotes,
): Promise<ExitRun[]> {
  const rows = await db.query<AddedRow>(
    `select c.run_key, c.route_id, r.route_short_name as route_name, c.graph, c.smena, c.race_num, c.direction, c.start_at, c.vehicle_id,
            v.depot_number, c.reason,
            (select json_agg(json_build_object('q', p.stop_sequence, 'a', p.actual_arrival, 'd', p.actual_departure))
               from dispatch.stop_passage p
              where p.service_date = c.service_date and p.rasp_variant_id = c.rasp_variant_id and p.graph = c.graph and p.smena = c.smena
                and p.race_num = c.race_num) as passages
       from dispatch.service_change c join mgt.routes r on r.route_id = c.route_id left join mgt.vehicles v on v.id = c.vehicle_id
      where c.service_date = $1::date and c.kind = 'add' and c.revoked_at is null
        and (c.route_id = $2 or r."Depot_id" = $3 or v.depot_id = $3)
      order by c.start_at, c.id`,
    [date, scope.route ?? null, scope.depot ?? null],
  );
  const time = (value: string | null) => (value === null ? null : new Date(value).getTime());
  return rows.map((r) => {
    const plan = notes.addedPlan(r.run_key);
    const change = changes.get(r.run_key);
    const start = plan?.start ?? new Date(r.start_at).getTime();
    const end = plan?.end ?? start;
    const passages = r.passages ?? [];
    const first = plan?.sequences[0];
    const last = plan?.sequences[plan.sequences.length - 1];
    const passed = new Set(passages.map((p) => p.q)).size;
    const actualStart = time(passages.find((p) => p.q === first)?.d ?? null);
    const actualEnd = time(passages.find((p) => p.q === last)?.a ?? null);
    const onRun = working.get(r.run_key) ?? null;
    let status = runStatus(actualEnd !== null, passed, onRun !== null, end, now, runMissedSeconds, watched);
    if (change?.cancelReason && passed === 0 && onRun === null) status = 'cancelled';
    return {
      routeId: r.route_id,
      routeName: r.route_name,
      graph: r.graph,
      smena: r.smena,
      raceNum: r.race_num,
      direction: r.direction,
      plannedVehicle: r.vehicle_id,
      vehicleId: onRun ?? r.vehicle_id,
      depotNumber: onRun === null || onRun === r.vehicle_id ? r.depot_number : null,
      driver: null,
      plannedStart: new Date(start).toISOString(),
      plannedEnd: new Date(end).toISOString(),
      actualStart: actualStart === null ? null : new Date(actualStart).toISOString(),
      actualEnd: actualEnd === null ? null : new Date(actualEnd).toISOString(),
      startDeviation: actualStart === null ? null : Math.round((actualStart - start) / 1000),
      endDeviation: actualEnd === null ? null : Math.round((actualEnd - end) / 1000),
      stops: (plan?.sequences.length ?? 0) - (notes.closedStops?.(r.run_key).size ?? 0),
      passed,
      status,
      cancelReason: change?.cancelReason ?? null,
      shiftMinutes: change?.shiftMinutes ?? null,
      added: true,
      handedOver: false,
      reason: null,
    };
  });
}

/** What the track and the passages say of a run's vehicle while the run was due. */
export interface RunEvidence {
  /** It reported between a few minutes before the run's start and its end. */
  seenDuring: boolean;
  /** It reported earlier in the service day. */
  seenBefore: boolean;
  /** It passed stops of another exit while the run was due. */
  otherExit: boolean;
}

/** Why a run was not performed, by the rule of NOT_PERFORMED_REASONS (the evidence asked only where it counts). */
export function notPerformedReason(
  run: Pick<ExitRun, 'status' | 'handedOver' | 'vehicleId'>,
  evidence: RunEvidence | undefined,
): NotPerformedReason | null {
  if (run.status === 'cancelled') return 'cancelled';
  if (run.status === 'partial') return 'ended_early';
  if (run.status !== 'not_performed') return null;
  if (run.handedOver) return 'handed_over';
  if (run.vehicleId === null) return 'no_vehicle';
  if (!evidence) return null;
  if (evidence.otherExit) return 'other_exit';
  if (evidence.seenDuring) return 'off_route';
  return evidence.seenBefore ? 'no_signal' : 'not_out';
}

/** A vehicle reporting this long before a run's start counts as out for it. */
const OUT_BEFORE_MS = 10 * 60_000;

/**
 * Sets each run's reason; the runs not performed by a vehicle of their own are looked up in the track (its key
 * is the vehicle and the time: a probe a run) and the day's passages, in one statement.
 */
async function explain(db: Queryable, date: string, tzOffsetMinutes: number, list: ExitRun[]): Promise<void> {
  const asked = list.filter((r) => r.status === 'not_performed' && !r.handedOver && r.vehicleId !== null);
  const evidence = new Map<ExitRun, RunEvidence>();
  if (asked.length) {
    const dayStart = Date.parse(`${date}T00:00:00Z`) - tzOffsetMinutes * 60_000;
    const rows = await db.query<{ i: number; seen_during: boolean; seen_before: boolean; other_exit: boolean }>(
      `with x as (select * from jsonb_to_recordset($3::jsonb) as x(i int, v int, r int, g int, s text, f timestamptz, t timestamptz)),
            -- each vehicle's blocks of the day and when it worked them: one pass over the day's passages
            worked as (select p.vehicle_id, p.route_id, p.graph, p.smena,
                              min(coalesce(p.actual_departure, p.actual_arrival)) as first, max(coalesce(p.actual_arrival, p.actual_departure)) as last
                         from dispatch.stop_passage p where p.service_date = $1::date and p.vehicle_id in (select v from x)
                        group by 1, 2, 3, 4)
       select x.i,
              exists (select 1 from app.track t where t.vehicle_id = x.v and t.tm >= x.f and t.tm <= x.t) as seen_during,
              exists (select 1 from app.track t where t.vehicle_id = x.v and t.tm >= $2::timestamptz and t.tm < x.f) as seen_before,
              exists (select 1 from worked w where w.vehicle_id = x.v and not (w.route_id = x.r and w.graph = x.g and w.smena = x.s)
                         and w.first <= x.t and w.last >= x.f) as other_exit
         from x`,
      [
        date,
        new Date(dayStart).toISOString(),
        JSON.stringify(
          asked.map((r, i) => ({
            i,
            v: r.vehicleId,
            r: r.routeId,
            g: r.graph,
            s: r.smena,
            f: new Date(Date.parse(r.plannedStart) - OUT_BEFORE_MS).toISOString(),
            t: r.plannedEnd,
          })),
        ),
      ],
    );
    for (const row of rows)
      evidence.set(asked[row.i], { seenDuring: row.seen_during, seenBefore: row.seen_before, otherExit: row.other_exit });
  }
  for (const run of list) run.reason = notPerformedReason(run, evidence.get(run));
}

/** dispatch.run_status (migrations 133, 147) for a run whose end the day's changes moved, or one added to the day. */
function runStatus(
  ended: boolean,
  passed: number,
  onRun: boolean,
  plannedEnd: number,
  now: number,
  missedSeconds: number,
  watched: Watched,
): RunStatus {
  if (ended) return 'performed';
  const judged = plannedEnd + missedSeconds * 1000;
  if (onRun || now <= judged) return passed > 0 || onRun ? 'in_progress' : 'planned';
  if (passed > 0) return 'partial';
  return watched(judged) ? 'not_performed' : 'not_watched';
}
