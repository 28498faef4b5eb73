import { isoTime } from '../../shared/format';
import type {
  Adherence,
  BoardException,
  BoardList,
  ExceptionKind,
  LineVehicle,
  RouteLine,
  StopArrivals,
  VehicleCard,
} from '../../shared/dispatch/api';
import { EXCEPTION_KINDS } from '../../shared/dispatch/api';
import type { Queryable } from '../db/types';
import type { DispatchEngine } from './engine';
import type { VehicleState } from './engineTypes';
import { driverOf, lookupNames } from './names';
import type { Run } from './schedule';

/** The dispatch answers built from the engine's memory, with the names a dispatcher reads from the handbooks. */

/** Late or early while the engine holds the exception (the same hysteresis as the board), on time otherwise. */
export function adherenceOf(engine: DispatchEngine, v: VehicleState): Adherence {
  if (!v.run) return 'none';
  if (engine.exception(`late|v${v.vehicleId}`)) return 'late';
  if (engine.exception(`early|v${v.vehicleId}`)) return 'early';
  return 'on_time';
}

const statusOf = (v: VehicleState) => (v.run ? (v.started ? 'in_service' : 'layover') : 'off');

export interface BoardFilter {
  depots: Set<number> | null;
  routes: Set<number> | null;
  kinds: Set<ExceptionKind> | null;
}

/** The exceptions of the moment, newest first, with counters by kind over the depot and route filters. */
export async function board(db: Queryable, engine: DispatchEngine, filter: BoardFilter): Promise<BoardList> {
  const active = [...engine.exceptions()];
  const names = await lookupNames(db, {
    vehicles: active.map((e) => e.vehicleId),
    routes: active.map((e) => e.routeId),
    blocks: active.map((e) => e.blockKey),
  });
  const rows: BoardException[] = [];
  for (const e of active) {
    if (filter.routes && (e.routeId === null || !filter.routes.has(e.routeId))) continue;
    const vehicle = e.vehicleId === null ? undefined : names.vehicles.get(e.vehicleId);
    const route = e.routeId === null ? undefined : names.routes.get(e.routeId);
    const depotId = vehicle?.depotId ?? route?.depotId ?? null;
    if (
      filter.depots &&
      !((vehicle?.depotId && filter.depots.has(vehicle.depotId)) || (route?.depotId && filter.depots.has(route.depotId)))
    )
      continue;
    const run = e.runKey ? engine.schedules.find((d) => d.serviceDate === e.runKey!.slice(0, 10))?.runByKey.get(e.runKey) : undefined;
    const state = e.vehicleId === null ? undefined : engine.state(e.vehicleId);
    const deviation = e.kind === 'late' || e.kind === 'early' ? Math.round(e.value ?? 0) : state?.run ? state.deviation : null;
    rows.push({
      key: e.key,
      kind: e.kind,
      since: isoTime(e.since),
      vehicleId: e.vehicleId,
      depotNumber: vehicle?.depotNumber ?? null,
      stateNumber: vehicle?.stateNumber ?? null,
      depotId,
      routeId: e.routeId,
      routeName: route?.name ?? null,
      graph: run?.graph ?? null,
      smena: run?.smena ?? null,
      raceNum: run?.raceNum ?? null,
      driver: driverOf(names, e.blockKey, e.vehicleId),
      deviation,
      value: e.value,
      note: e.text ?? null,
      acknowledged: e.ack ? { at: isoTime(e.ack.at), username: e.ack.username, comment: e.ack.comment } : null,
    });
  }
  const counters = EXCEPTION_KINDS.map((kind) => {
    const of = rows.filter((r) => r.kind === kind);
    return { kind, count: of.length, open: of.filter((r) => !r.acknowledged).length };
  });
  const list = rows
    .filter((r) => !filter.kinds || filter.kinds.has(r.kind))
    .sort((a, b) => b.since.localeCompare(a.since) || a.key.localeCompare(b.key));
  return { list, count: list.length, counters };
}

const NEXT_STOPS = 10;

/** One vehicle's card: its run and driver, deviation, headway, and its next stops with predicted times. */
export async function vehicleCard(db: Queryable, engine: DispatchEngine, vehicleId: number, now: number): Promise<VehicleCard> {
  const v = engine.state(vehicleId);
  const run = v?.run ?? null;
  const predictions = v ? engine.predictions(vehicleId, now).slice(0, NEXT_STOPS) : [];
  const names = await lookupNames(db, {
    vehicles: [vehicleId],
    routes: [run?.routeId ?? null],
    blocks: [run?.blockKey ?? null],
    stops: predictions.map((p) => p.run.stopIds[p.stopIndex]),
  });
  const vehicle = names.vehicles.get(vehicleId);
  return {
    vehicleId,
    depotNumber: vehicle?.depotNumber ?? null,
    stateNumber: vehicle?.stateNumber ?? null,
    routeId: run?.routeId ?? null,
    routeName: run ? (names.routes.get(run.routeId)?.name ?? null) : null,
    graph: run?.graph ?? null,
    smena: run?.smena ?? null,
    raceNum: run?.raceNum ?? null,
    driver: driverOf(names, run?.blockKey ?? null, vehicleId),
    status: v ? statusOf(v) : 'off',
    direction: run?.direction ?? null,
    scheduledStart: run ? isoTime(run.start) : null,
    scheduledEnd: run ? isoTime(run.end) : null,
    deviation: run ? v!.deviation : null,
    adherence: v ? adherenceOf(engine, v) : 'none',
    headway: run ? v!.headway : null,
    scheduledHeadway: run ? v!.scheduledHeadway : null,
    lastFix: v?.last ? isoTime(v.last.time) : null,
    nextStops: predictions.map((p) => {
      const stopId = p.run.stopIds[p.stopIndex];
      return {
        stopId,
        name: names.stops.get(stopId) ?? null,
        raceNum: p.run.raceNum,
        scheduled: isoTime(p.scheduled),
        predicted: isoTime(p.predicted),
      };
    }),
    exceptions: v ? [...engine.exceptions()].filter((e) => e.vehicleId === vehicleId).map((e) => e.kind) : [],
  };
}

/** The predicted arrivals at a stop within the horizon, per route and direction, soonest first. */
export async function stopArrivals(db: Queryable, engine: DispatchEngine, stopId: number, now: number): Promise<StopArrivals> {
  const found: { v: VehicleState; run: Run; scheduled: number; predicted: number }[] = [];
  for (const v of engine.states()) {
    const run = v.run;
    if (!run || !v.point) continue;
    const block = v.day?.blocks.get(run.blockKey);
    const ahead = block ? block.runs.slice(run.index) : [run];
    if (!ahead.some((r) => r.stopIds.includes(stopId))) continue;
    for (const p of engine.predictions(v.vehicleId, now)) {
      if (p.run.stopIds[p.stopIndex] === stopId) found.push({ v, run: p.run, scheduled: p.scheduled, predicted: p.predicted });
    }
  }
  const names = await lookupNames(db, {
    vehicles: found.map((f) => f.v.vehicleId),
    routes: found.map((f) => f.run.routeId),
    stops: [stopId],
  });
  const groups = new Map<string, StopArrivals['routes'][number]>();
  for (const f of found.sort((a, b) => a.predicted - b.predicted)) {
    const key = `${f.run.routeId}|${f.run.direction}`;
    let group = groups.get(key);
    if (!group)
      groups.set(
        key,
        (group = {
          routeId: f.run.routeId,
          routeName: names.routes.get(f.run.routeId)?.name ?? null,
          direction: f.run.direction,
          arrivals: [],
        }),
      );
    const vehicle = names.vehicles.get(f.v.vehicleId);
    group.arrivals.push({
      vehicleId: f.v.vehicleId,
      depotNumber: vehicle?.depotNumber ?? null,
      stateNumber: vehicle?.stateNumber ?? null,
      graph: f.run.graph,
      raceNum: f.run.raceNum,
      scheduled: isoTime(f.scheduled),
      predicted: isoTime(f.predicted),
      deviation: f.v.deviation,
    });
  }
  const routes = [...groups.values()].sort(
    (a, b) => (a.routeName ?? '').localeCompare(b.routeName ?? '', 'ru', { numeric: true }) || a.direction - b.direction,
  );
  return { stopId, name: names.stops.get(stopId) ?? null, at: isoTime(now), routes };
}

interface Line {
  direction: number;
  stopIds: number[];
  dists: number[];
  /** The run it is drawn from. */
  run: Run;
}

/** A direction's line: the stops of its most frequent run in the day (the longer one of equals). */
export function directionLines(runs: readonly Run[]): Line[] {
  const byDirection = new Map<number, Map<string, { run: Run; count: number }>>();
  for (const run of runs) {
    const variants = byDirection.get(run.direction) ?? new Map<string, { run: Run; count: number }>();
    byDirection.set(run.direction, variants);
    const key = run.stopIds.join(',');
    const entry = variants.get(key);
    if (entry) entry.count += 1;
    else variants.set(key, { run, count: 1 });
  }
  return [...byDirection.entries()]
    .sort(([a], [b]) => a - b)
    .map(([direction, variants]) => {
      const { run } = [...variants.values()].sort((a, b) => b.count - a.count || b.run.stopIds.length - a.run.stopIds.length)[0];
      return { direction, stopIds: run.stopIds, dists: Array.from(run.dists, (d) => d - run.dists[0]), run };
    });
}

/** The occurrence of a stop on the line nearest to `near` metres (a loop passes a stop twice). */
function lineIndex(line: Line, stopId: number, near: number): number {
  let best = -1;
  line.stopIds.forEach((id, i) => {
    if (id === stopId && (best < 0 || Math.abs(line.dists[i] - near) < Math.abs(line.dists[best] - near))) best = i;
  });
  return best;
}

/** Where a vehicle stands on its direction's line: between the line's places of the stops it is between. */
function placeOnLine(line: Line, v: VehicleState): number {
  const run = v.run!;
  const length = line.dists[line.dists.length - 1];
  const along = Math.min(length, Math.max(0, (v.point?.dist ?? run.dists[0]) - run.dists[0]));
  const next = v.cursor.next;
  if (next >= run.stopIds.length) return length;
  const at = (i: number) => {
    const k = lineIndex(line, run.stopIds[i], run.dists[i] - run.dists[0]);
    return k < 0 ? null : line.dists[k];
  };
  if (!v.started || next === 0 || v.cursor.atStop) return at(next) ?? along;
  const from = at(next - 1);
  const to = at(next);
  if (from === null || to === null || to < from) return along;
  const span = run.dists[next] - run.dists[next - 1];
  const share = span > 0 ? Math.min(1, Math.max(0, ((v.point?.dist ?? 0) - run.dists[next - 1]) / span)) : 0;
  return from + share * (to - from);
}

/** A route's line of stops per direction for the day, and the vehicles on it placed by their progress. */
export async function routeLine(db: Queryable, engine: DispatchEngine, routeId: number, today: string): Promise<RouteLine> {
  const day = engine.schedules.find((d) => d.serviceDate === today) ?? engine.schedules[engine.schedules.length - 1];
  const lines = directionLines(day ? day.runs.filter((r) => r.routeId === routeId) : []);
  const on = [...engine.states()].filter((v) => v.run?.routeId === routeId && v.point);
  const names = await lookupNames(db, { vehicles: on.map((v) => v.vehicleId), routes: [routeId], stops: lines.flatMap((l) => l.stopIds) });
  const vehicles: LineVehicle[] = [];
  for (const v of on) {
    const run = v.run!;
    const line = lines.find((l) => l.direction === run.direction);
    if (!line) continue;
    const distance = placeOnLine(line, v);
    const length = line.dists[line.dists.length - 1];
    const vehicle = names.vehicles.get(v.vehicleId);
    vehicles.push({
      vehicleId: v.vehicleId,
      depotNumber: vehicle?.depotNumber ?? null,
      stateNumber: vehicle?.stateNumber ?? null,
      direction: run.direction,
      status: v.started ? 'in_service' : 'layover',
      distance: Math.round(distance),
      progress: length > 0 ? Math.round((distance / length) * 1000) / 1000 : 0,
      graph: run.graph,
      smena: run.smena,
      raceNum: run.raceNum,
      deviation: v.deviation,
      adherence: adherenceOf(engine, v),
      headway: v.headway,
      scheduledHeadway: v.scheduledHeadway,
    });
  }
  vehicles.sort((a, b) => a.direction - b.direction || b.distance - a.distance);
  return {
    routeId,
    routeName: names.routes.get(routeId)?.name ?? null,
    directions: lines.map((l) => {
      const closed = engine.closedStopsNow(routeId, l.direction, l.stopIds, Date.now());
      return {
        direction: l.direction,
        length: Math.round(l.dists[l.dists.length - 1]),
        stops: l.stopIds.map((stopId, i) => ({
          stopId,
          name: names.stops.get(stopId) ?? null,
          distance: Math.round(l.dists[i]),
          closed: closed.has(stopId),
        })),
      };
    }),
    vehicles,
  };
}
