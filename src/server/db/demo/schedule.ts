import { distanceKm } from './geography';
import type { Direction, Route } from './network';
import type { Random } from './random';
import { MARSH_TYPE, type TransportKind } from './reference';
import type { RaspTimeRow, RaspVariantRow } from './rows';

export interface ScheduleParams {
  /** The most schedule-time rows the city gets: graph counts are scaled down together to stay under it. */
  maxTimes: number;
  /** Whether weekend variants get times too (with half the graphs), within the same budget. */
  weekendTimes: boolean;
  /** The fewest graphs a route runs, whatever the budget. */
  minGraphs: number;
  /**
   * Whether the all-day graphs run round the clock (03:00 to 03:00 next morning) instead of 05:30 to 01:00: the
   * small test town, so that whatever the hour a check runs at, vehicles are out on their runs.
   */
  roundTheClock?: boolean;
}

/** Day types of spec section 3, kept in srv_id. */
export const DAY_TYPE = { all: 9, workdays: 10, weekends: 11 } as const;

/** One exit of a schedule variant: the vehicle_task rows assign a vehicle to it and a driver to each of its shifts. */
export interface Graph {
  route: Route;
  raspVariantId: number;
  graph: number;
  smenas: string[];
  /** The minute of day it leaves the terminus and the one it ends, for replacements mid-day. */
  start: number;
  end: number;
}

export interface Schedule {
  raspVariants: RaspVariantRow[];
  raspTimes: RaspTimeRow[];
  /** The graphs of the variants vehicles are assigned to (the workday ones, or the every-day one). */
  workdayGraphs: Graph[];
}

/** Speed between stops in km/h, dwell per stop and layover at a terminus in minutes. */
const SPEED: Record<TransportKind, number> = { bus: 21, trolleybus: 18, tram: 17 };
const DWELL = 0.5;
const LAYOVER = 6;

/** Minutes from the first stop to each stop of a direction. */
function runningMinutes(direction: Direction, kind: TransportKind): number[] {
  const minutes = [0];
  for (let i = 1; i < direction.points.length; i++) {
    minutes.push(minutes[i - 1] + (distanceKm(direction.points[i - 1], direction.points[i]) / SPEED[kind]) * 60 + DWELL);
  }
  return minutes;
}

interface Plan {
  route: Route;
  forward: number[];
  backward: number[];
  roundTrip: number;
  graphs: number;
  night: boolean;
  /** The windows of an all-day graph and the minute by which its races end (later by the graph's offset when staggered). */
  fullDay: readonly (readonly [number, number])[];
  lastArrival: number;
  staggered: boolean;
}

/**
 * Service windows in minutes of the service day: [first departure, last departure] per part of the day, and the
 * minute by which a race of the window ends (past 1440: next morning).
 */
const FULL_DAY = { windows: [[330, 1410]], lastArrival: 1500 } as const;
/** Each graph's day ends as much later as it starts later, so the graphs' breaks at the day's change are staggered. */
const ROUND_THE_CLOCK = { windows: [[180, 1560]], lastArrival: 1620, staggered: true } as const;
const PEAKS: readonly (readonly [number, number])[] = [
  [390, 600],
  [960, 1170],
];
/** Night routes run all night, as a large city's do, from 22:30 to the last departure at 05:30 next morning. */
const NIGHT = { windows: [[1350, 1770]], lastArrival: 1800 } as const;

/** The races of one graph: alternating A and B from the first terminus, a layover between, shift '2' from 14:00 (or the second window). */
function graphTimes(
  plan: Plan,
  raspVariantId: number,
  graph: number,
  offset: number,
  windows: readonly (readonly [number, number])[],
  rows: RaspTimeRow[],
): Graph | null {
  const { route } = plan;
  let racenum = 0;
  let first = -1;
  let last = -1;
  const smenas = new Set<string>();
  // a staggered all-day graph ends its day by its offset later; its peak windows (if any) do not move
  const shift = plan.staggered && windows === plan.fullDay ? offset : 0;
  windows.forEach(([from, to], w) => {
    let departure = from + offset;
    let forward = true;
    while (departure <= to + shift) {
      const minutes = forward ? plan.forward : plan.backward;
      const duration = minutes[minutes.length - 1];
      if (departure + duration > plan.lastArrival + shift) break;
      const smena = windows.length > 1 ? String(w + 1) : departure >= 840 ? '2' : '1';
      smenas.add(smena);
      racenum += 1;
      const stopIds = (forward ? route.forward : route.backward).stopIds;
      stopIds.forEach((stop_id, i) =>
        rows.push({
          RaspVariant_id: raspVariantId,
          graph,
          smena,
          racetype: forward ? 'A' : 'B',
          racenum,
          order: i + 1,
          stop_id,
          time: Math.round(departure + minutes[i]),
        }),
      );
      if (first < 0) first = departure;
      last = Math.round(departure + duration);
      departure = Math.round(departure + duration + LAYOVER);
      forward = !forward;
    }
  });
  return racenum === 0 ? null : { route, raspVariantId, graph, smenas: [...smenas].sort(), start: first, end: last };
}

/** Times of one variant: the first 70 % of graphs run all day (or all night), the rest only in the peaks. */
function variantTimes(plan: Plan, raspVariantId: number, graphCount: number, rows: RaspTimeRow[]): Graph[] {
  const fullDay = Math.max(1, Math.ceil(graphCount * 0.7));
  const headway = plan.roundTrip / graphCount;
  const graphs: Graph[] = [];
  for (let g = 1; g <= graphCount; g++) {
    const windows = plan.night || g <= fullDay ? plan.fullDay : PEAKS;
    const offset = Math.round((g <= fullDay ? g - 1 : g - fullDay - 1 + 0.5) * headway);
    const graph = graphTimes(plan, raspVariantId, g, offset, windows, rows);
    if (graph) graphs.push(graph);
  }
  return graphs;
}

/** Schedule variants for every route (workdays and weekends, or every day), and their times within the budget. */
export function generateSchedule(random: Random, routes: Route[], params: ScheduleParams): Schedule {
  const plans: Plan[] = routes.map((route) => {
    const forward = runningMinutes(route.forward, route.kind);
    const backward = runningMinutes(route.backward, route.kind);
    const roundTrip = forward[forward.length - 1] + backward[backward.length - 1] + 2 * LAYOVER;
    const night = route.row.MarshType_id === MARSH_TYPE.night;
    const headway = night ? 40 : route.row.MarshType_id === MARSH_TYPE.city ? random.float(7, 16) : random.float(15, 30);
    const service = night ? NIGHT : params.roundTheClock ? ROUND_THE_CLOCK : FULL_DAY;
    const { windows: fullDay, lastArrival } = service;
    return {
      route,
      forward,
      backward,
      roundTrip,
      night,
      fullDay,
      lastArrival,
      staggered: 'staggered' in service,
      graphs: Math.max(params.minGraphs, Math.min(25, Math.round(roundTrip / headway))),
    };
  });

  // Rows a graph makes in a day: races × stops; scale the graph counts down together to fit the budget.
  // An all-day (or night) graph runs its window, a peak graph 7 h; 70 % of the graphs run all day.
  const windowMinutes = (plan: Plan) => plan.fullDay.reduce((sum, [from, to]) => sum + to - from, 0);
  const serviceMinutes = (plan: Plan) => (plan.night ? windowMinutes(plan) : 0.7 * windowMinutes(plan) + 0.3 * 420);
  const perGraph = (plan: Plan) =>
    (serviceMinutes(plan) / plan.roundTrip) * (plan.route.forward.stopIds.length + plan.route.backward.stopIds.length);
  const weekendShare = params.weekendTimes ? 2 : 1;
  const estimate = plans.reduce((sum, plan) => sum + plan.graphs * perGraph(plan) * weekendShare, 0);
  const factor = Math.min(1, params.maxTimes / estimate);
  for (const plan of plans) plan.graphs = Math.max(params.minGraphs, Math.floor(plan.graphs * factor));

  const schedule: Schedule = { raspVariants: [], raspTimes: [], workdayGraphs: [] };
  const variant = (route_id: number, srv_id: number, dow: number | null, startdate: string, enddate: string | null) => {
    const id = schedule.raspVariants.length + 1;
    schedule.raspVariants.push({ id, route_id, dow, srv_id, startdate, enddate, do_not_update: !random.chance(0.1) });
    return id;
  };
  // A variant with a dow runs on that day of week, one without on every other day (the variant in force on a
  // date is the one of its dow, else the one without): most routes run a workday timetable every day but
  // Saturday and Sunday, which have their own; some, and the night routes, run one timetable every day.
  for (const plan of plans) {
    const routeId = plan.route.row.route_id;
    if (random.chance(0.3)) variant(routeId, DAY_TYPE.workdays, null, '2024-09-01', '2025-08-31');
    const everyDay = plan.night || random.chance(0.2);
    const main = variant(routeId, everyDay ? DAY_TYPE.all : DAY_TYPE.workdays, null, '2025-09-01', null);
    schedule.workdayGraphs.push(...variantTimes(plan, main, plan.graphs, schedule.raspTimes));
    if (everyDay) continue;
    const weekendGraphs = Math.max(1, Math.floor(plan.graphs / 2));
    for (const dow of [6, 0]) {
      const weekend = variant(routeId, DAY_TYPE.weekends, dow, '2025-09-01', null);
      if (params.weekendTimes) variantTimes(plan, weekend, weekendGraphs, schedule.raspTimes);
    }
  }
  return schedule;
}
