import type { DayPartitions } from '../db/dayPartitions';
import type { Db, Queryable } from '../db/types';
import type { Fence } from '../jobs/leases';
import { isoTime } from '../../shared/format';
import { operatorMidnight } from '../platform/operatorDay';
import { parseLineString, type LatLon } from '../simulator/polyline';
import type { DayChanges, ExceptionAck, PassageRecord, RunChange } from './engineTypes';
import { LearnedTimes } from './predictions';
import { buildDaySchedule, type DayType, type DaySchedule, type ScheduleRows } from './schedule';

/** The schedule variants a date runs (dispatch.variants_in_force: the variant in force of each route, and the tasks' variants). */
export async function variantsInForce(db: Queryable, serviceDate: string): Promise<number[]> {
  const rows = await db.query<{ id: number }>('select dispatch.variants_in_force($1::date) as id', [serviceDate]);
  return rows.map((v) => v.id);
}

/**
 * The day's timetable as the handbooks hold it: the schedule variants the date runs (variantsInForce), their races
 * with stops and minutes; the routes' trips with trajectories (a multi-line merged where it joins); the tasks and
 * replacements of the date.
 */
export async function loadDaySchedule(db: Queryable, serviceDate: string, tzOffsetMinutes: number): Promise<DaySchedule> {
  return buildDaySchedule(await loadScheduleRows(db, serviceDate, tzOffsetMinutes));
}

/** The rows `loadDaySchedule` builds the day from. */
export async function loadScheduleRows(db: Queryable, serviceDate: string, tzOffsetMinutes: number): Promise<ScheduleRows> {
  const [dowRow] = await db.query<{ dow: number }>(
    `select coalesce((select coalesce(h.dow, extract(dow from $1::date)::int) from mgt.holidays h where h.date = $1::date and h.route_id is null order by h.id limit 1),
                     extract(dow from $1::date)::int) as dow`,
    [serviceDate],
  );
  const variantIds = await variantsInForce(db, serviceDate);
  const [races, trips, tasks, replacements] = await Promise.all([
    db.query<{
      v: number;
      route_id: number;
      graph: number;
      smena: string;
      racetype: string;
      racenum: number;
      stops: number[];
      orders: number[];
      times: number[];
    }>(
      `select rt."RaspVariant_id" as v, rv.route_id, rt.graph, rt.smena, rt.racetype, rt.racenum,
              array_agg(rt.stop_id order by rt."order") as stops, array_agg(rt."order" order by rt."order") as orders,
              array_agg(rt.time order by rt."order") as times
         from mgt.rasp_time rt join mgt.rasp_variant rv on rv.id = rt."RaspVariant_id"
        where rt."RaspVariant_id" = any($1::int[])
        group by rt."RaspVariant_id", rv.route_id, rt.graph, rt.smena, rt.racetype, rt.racenum`,
      [variantIds],
    ),
    db.query<{ id: number; route_id: number; race_type: string; wkt: string | null; stops: number[] }>(
      `select t.id, mv.route_id, t.race_type,
              case when geometrytype(m.line) = 'LINESTRING' then st_astext(m.line, 7) end as wkt,
              coalesce((select array_agg(ts.stop_id order by ts.stop_sequence) from mgt.trip_stops ts where ts.trip_id = t.id), '{}') as stops
         from mgt.trip t join mgt.marsh_variants mv on mv.id = t."MarshVariant_id"
         cross join lateral (select case when geometrytype(t.trajectory) = 'MULTILINESTRING' then st_linemerge(t.trajectory) else t.trajectory end as line) m
        where mv.route_id in (select route_id from mgt.rasp_variant where id = any($1::int[]))
          and (mv.startdate is null or mv.startdate <= $2::date) and (mv.enddate is null or mv.enddate >= $2::date)
        order by t.id`,
      [variantIds, serviceDate],
    ),
    db.query<{ vehicle_id: number; v: number; graph: number; smena: string }>(
      'select vehicle_id, "RaspVariant_id" as v, graph, smena from mgt.vehicle_task where date = $1::date order by id',
      [serviceDate],
    ),
    db.query<{ vehicle_id: number; replace_vehicle_id: number; v: number; graph: number; smena: string; starttime: number }>(
      'select vehicle_id, replace_vehicle_id, "RaspVariant_id" as v, graph, smena, starttime from mgt.replace_vehicle where date = $1::date order by id',
      [serviceDate],
    ),
  ]);
  const stopIds = [...new Set(races.flatMap((r) => r.stops))];
  const stopRows = await db.query<{ stop_id: number; stop_lat: number; stop_lon: number }>(
    'select stop_id, stop_lat, stop_lon from mgt.stops where stop_id = any($1::int[]) and stop_lat is not null and stop_lon is not null',
    [stopIds],
  );
  const rows: ScheduleRows = {
    serviceDate,
    dow: dowRow?.dow ?? new Date(`${serviceDate}T00:00:00Z`).getUTCDay(),
    midnight: operatorMidnight(serviceDate, tzOffsetMinutes),
    stops: new Map<number, LatLon>(stopRows.map((s) => [s.stop_id, { lat: s.stop_lat, lon: s.stop_lon }])),
    trips: trips.map((t) => ({
      id: t.id,
      routeId: t.route_id,
      raceType: t.race_type,
      points: t.wkt ? parseLineString(t.wkt) : null,
      stopIds: t.stops,
    })),
    races: races.map((r) => ({
      variantId: r.v,
      routeId: r.route_id,
      graph: r.graph,
      smena: r.smena,
      raceType: r.racetype,
      raceNum: r.racenum,
      stopIds: r.stops,
      orders: r.orders,
      minutes: r.times,
    })),
    tasks: tasks.map((t) => ({ vehicleId: t.vehicle_id, variantId: t.v, graph: t.graph, smena: t.smena })),
    replacements: replacements.map((r) => ({
      vehicleId: r.vehicle_id,
      replaceVehicleId: r.replace_vehicle_id,
      variantId: r.v,
      graph: r.graph,
      smena: r.smena,
      startMinute: r.starttime,
    })),
  };
  return rows;
}

/** What the stored passages of the days say was done: runs with a passage, blocks with a departure. */
export async function loadDone(db: Queryable, dates: string[]): Promise<{ runs: string[]; blocks: string[] }> {
  const rows = await db.query<{ block: string; race_num: number; departed: boolean }>(
    `select service_date::text || '|' || rasp_variant_id || '|' || graph || '|' || smena as block, race_num,
            bool_or(actual_departure is not null or stop_sequence > 1) as departed
       from dispatch.stop_passage where service_date = any($1::date[])
      group by service_date, rasp_variant_id, graph, smena, race_num`,
    [dates],
  );
  return { runs: rows.map((r) => `${r.block}|${r.race_num}`), blocks: [...new Set(rows.filter((r) => r.departed).map((r) => r.block))] };
}

/** The learned run and dwell times (dispatch.learn_times keeps them). */
export async function loadLearned(db: Queryable): Promise<LearnedTimes> {
  const learned = new LearnedTimes();
  const [runs, dwells] = await Promise.all([
    db.query<{ from_stop_id: number; to_stop_id: number; day_type: DayType; hour: number; run_seconds: number }>(
      'select from_stop_id, to_stop_id, day_type, hour, run_seconds from dispatch.segment_time',
    ),
    db.query<{ stop_id: number; day_type: DayType; hour: number; dwell_seconds: number }>(
      'select stop_id, day_type, hour, dwell_seconds from dispatch.dwell_time',
    ),
  ]);
  for (const r of runs) learned.setRun(r.from_stop_id, r.to_stop_id, r.day_type, r.hour, r.run_seconds);
  for (const d of dwells) learned.setDwell(d.stop_id, d.day_type, d.hour, d.dwell_seconds);
  return learned;
}

/**
 * Writes passages in one statement (a passage seen again, after a restart or a second look, replaces its
 * times), making the day partition of every service date in the batch first (`partitions`; without it, or
 * should that fail, the rows wait in the default partition for the maintenance to move them). With `fence` (the
 * writer's lease) the statement runs in a transaction that checks the lease first: a writer whose lease was
 * taken over writes nothing (LeaseLostError).
 */
export async function writePassages(db: Db, passages: readonly PassageRecord[], partitions?: DayPartitions, fence?: Fence): Promise<void> {
  if (!passages.length) return;
  // one row per key in a statement: a vehicle put back on a run it had left passes its stops again
  const unique = [...new Map(passages.map((p) => [`${p.run.key}|${p.stopIndex}|${p.vehicleId}`, p])).values()];
  await partitions?.ensure(new Set(unique.map((p) => Date.parse(`${p.run.serviceDate}T00:00:00Z`))));
  if (fence)
    await db.transaction(async (tx) => {
      await fence(tx);
      await insertPassages(tx, unique);
    });
  else await insertPassages(db, unique);
}

async function insertPassages(db: Queryable, unique: readonly PassageRecord[]): Promise<void> {
  await db.query(
    `insert into dispatch.stop_passage (service_date, vehicle_id, route_id, direction, rasp_variant_id, graph, smena, race_num, trip_id, stop_id,
       stop_sequence, day_type, schedule_arrival, schedule_departure, actual_arrival, actual_departure, interpolated)
     select d, v, r, dir, rv, g, s, rn, t, st, q, dt, sa, sa, aa, ad, i
       from jsonb_to_recordset($1::jsonb) as x(d date, v int, r int, dir smallint, rv int, g int, s text, rn int, t int, st int, q int, dt smallint,
            sa timestamptz, aa timestamptz, ad timestamptz, i boolean)
     on conflict (service_date, rasp_variant_id, graph, smena, race_num, stop_sequence, vehicle_id) do update
       set actual_arrival = coalesce(excluded.actual_arrival, dispatch.stop_passage.actual_arrival),
           actual_departure = coalesce(excluded.actual_departure, dispatch.stop_passage.actual_departure),
           interpolated = excluded.interpolated`,
    [
      JSON.stringify(
        unique.map((p) => ({
          d: p.run.serviceDate,
          v: p.vehicleId,
          r: p.run.routeId,
          dir: p.run.direction,
          rv: p.run.variantId,
          g: p.run.graph,
          s: p.run.smena,
          rn: p.run.raceNum,
          t: p.run.tripId,
          st: p.run.stopIds[p.stopIndex],
          q: p.run.sequences[p.stopIndex],
          dt: p.run.dayType,
          sa: isoTime(p.run.times[p.stopIndex]),
          aa: isoTime(p.arrival),
          ad: isoTime(p.departure),
          i: p.interpolated,
        })),
      ),
    ],
  );
}

/** The acknowledgements of exceptions raised since `from` (epoch ms). */
export async function loadAcks(db: Queryable, from: number): Promise<(ExceptionAck & { key: string; since: number })[]> {
  const rows = await db.query<{
    exception_key: string;
    since_ms: string;
    at_ms: string;
    user_id: number | null;
    username: string | null;
    comment: string;
  }>(
    `select exception_key, (extract(epoch from since) * 1000)::bigint::text as since_ms, (extract(epoch from acknowledged_at) * 1000)::bigint::text as at_ms,
            user_id, username, comment
       from dispatch.exception_ack where since >= $1::timestamptz`,
    [new Date(from).toISOString()],
  );
  return rows.map((r) => ({
    key: r.exception_key,
    since: Number(r.since_ms),
    at: Number(r.at_ms),
    userId: r.user_id,
    username: r.username,
    comment: r.comment,
  }));
}

/** The changes in force on the service dates, by run key (the engine's form). */
export async function loadRunChanges(db: Queryable, dates: readonly string[]): Promise<Map<string, RunChange>> {
  const rows = await db.query<{ run_key: string; kind: 'cancel' | 'shift'; shift_minutes: number | null }>(
    "select run_key, kind, shift_minutes from dispatch.service_change where service_date = any($1::date[]) and revoked_at is null and kind in ('cancel', 'shift')",
    [dates],
  );
  const out = new Map<string, RunChange>();
  for (const row of rows) {
    const change = out.get(row.run_key) ?? { cancelled: false, shiftMs: 0 };
    if (row.kind === 'cancel') change.cancelled = true;
    else change.shiftMs = (row.shift_minutes ?? 0) * 60_000;
    out.set(row.run_key, change);
  }
  return out;
}

/** The handovers and added runs in force on the service dates (the engine's form). */
export async function loadDayChanges(db: Queryable, dates: readonly string[]): Promise<DayChanges> {
  const rows = await db.query<{
    run_key: string;
    kind: 'handover' | 'add';
    vehicle_id: number | null;
    from_vehicle_id: number | null;
    effective_at: Date | string | null;
    start_at: Date | string | null;
    template_run_key: string | null;
  }>(
    `select run_key, kind, vehicle_id, from_vehicle_id, effective_at, start_at, template_run_key from dispatch.service_change
      where service_date = any($1::date[]) and revoked_at is null and kind in ('handover', 'add') order by id`,
    [dates],
  );
  const time = (value: Date | string | null) => new Date(value!).getTime();
  return {
    handovers: rows
      .filter((r) => r.kind === 'handover')
      .map((r) => ({
        blockKey: r.run_key.slice(0, r.run_key.lastIndexOf('|')),
        vehicleId: r.vehicle_id!,
        fromVehicleId: r.from_vehicle_id,
        at: time(r.effective_at),
      })),
    added: rows
      .filter((r) => r.kind === 'add')
      .map((r) => ({ key: r.run_key, templateKey: r.template_run_key!, start: time(r.start_at), vehicleId: r.vehicle_id })),
    ...(await loadStopChanges(db, dates)),
  };
}

/** The stops closed and the detours in force on the service dates (the engine's form). */
async function loadStopChanges(db: Queryable, dates: readonly string[]): Promise<Pick<DayChanges, 'closures' | 'detours'>> {
  const rows = await db.query<{
    kind: 'close_stop' | 'detour';
    route_id: number | null;
    direction: 0 | 1 | null;
    stop_id: number;
    to_stop_id: number | null;
    active_from: Date | string;
    active_to: Date | string;
    path: [number, number][] | string | null;
  }>(
    `select kind, route_id, direction, stop_id, to_stop_id, active_from, active_to, path from dispatch.service_change
      where service_date = any($1::date[]) and revoked_at is null and kind in ('close_stop', 'detour') order by id`,
    [dates],
  );
  const time = (value: Date | string) => new Date(value).getTime();
  return {
    closures: rows
      .filter((r) => r.kind === 'close_stop')
      .map((r) => ({ routeId: r.route_id, stopId: r.stop_id, from: time(r.active_from), to: time(r.active_to) })),
    detours: rows
      .filter((r) => r.kind === 'detour')
      .map((r) => {
        const path = (typeof r.path === 'string' ? JSON.parse(r.path) : r.path) as [number, number][];
        return {
          routeId: r.route_id!,
          direction: r.direction,
          fromStopId: r.stop_id,
          toStopId: r.to_stop_id!,
          from: time(r.active_from),
          to: time(r.active_to),
          path: path.map(([lat, lon]) => ({ lat, lon })),
        };
      }),
  };
}
