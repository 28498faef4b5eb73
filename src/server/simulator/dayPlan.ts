import { Random } from '../db/demo/random';
import type { Queryable } from '../db/types';
import { addDays, operatorMidnight } from '../platform/operatorDay';
import type { SimNetwork, TripShape } from './network';
import { Polyline } from './polyline';
import { realiseRaces } from './variation';
import { VehiclePlan, type Race } from './vehiclePlan';

interface RaceRow {
  v: number;
  g: number;
  s: string;
  route_id: number;
  racetype: string;
  racenum: number;
  stops: number[];
  orders: number[];
  times: number[];
}

interface Shape {
  line: Polyline;
  dists: Float64Array;
  tripId: number | null;
  keep: number[];
}

/**
 * The date whose vehicle tasks drive `date`: the date itself when it has tasks, else the nearest one on the
 * same weekday, else the nearest at all. Demo data is generated for a week from the day it was loaded; a
 * console started weeks later still gets a living map.
 */
export async function sourceDateFor(db: Queryable, date: string): Promise<string | null> {
  const [row] = await db.query<{ date: string }>(
    `select date::text as date from mgt.vehicle_task group by date
      order by (date = $1::date) desc, (extract(isodow from date) = extract(isodow from $1::date)) desc, abs(date - $1::date), date desc
      limit 1`,
    [date],
  );
  return row?.date ?? null;
}

/** The trip a race runs along: same direction and termini, the same stop count preferred; null when none. */
function matchTrip(trips: readonly TripShape[], raceType: string, stopIds: readonly number[]): TripShape | null {
  const first = stopIds[0];
  const last = stopIds[stopIds.length - 1];
  const candidates = trips.filter(
    (t) =>
      t.line &&
      t.raceType === raceType &&
      t.stopIds.includes(first) &&
      t.stopIds.includes(last) &&
      t.stopIds.indexOf(first) < t.stopIds.lastIndexOf(last),
  );
  const exact = candidates.find(
    (t) => t.stopIds.length === stopIds.length && t.stopIds[0] === first && t.stopIds[t.stopIds.length - 1] === last,
  );
  return exact ?? candidates.find((t) => t.stopIds[0] === first && t.stopIds[t.stopIds.length - 1] === last) ?? candidates[0] ?? null;
}

/**
 * The line a race runs along and each stop's distance on it: the trip's trajectory with the stops projected in
 * order, or, without a usable trajectory (none, or multi-line), straight hops between the stops.
 */
function shapeOf(network: SimNetwork, routeId: number, raceType: string, stopIds: number[]): Shape | null {
  const keep = stopIds.map((_, i) => i).filter((i) => network.stops.has(stopIds[i]));
  if (keep.length < 2) return null;
  const points = keep.map((i) => network.stops.get(stopIds[i])!);
  const trip = matchTrip(network.tripsByRoute.get(routeId) ?? [], raceType, stopIds);
  if (trip?.line) {
    const dists = new Float64Array(points.length);
    let from = 0;
    points.forEach((p, i) => {
      from = trip.line!.project(p, from);
      dists[i] = from;
    });
    return { line: trip.line, dists, tripId: trip.id, keep };
  }
  const distinct = points.filter((p, i) => i === 0 || p.lat !== points[i - 1].lat || p.lon !== points[i - 1].lon);
  if (distinct.length < 2) return null;
  const line = new Polyline(distinct);
  const dists = new Float64Array(points.length);
  let from = 0;
  points.forEach((p, i) => {
    from = line.project(p, from);
    dists[i] = from;
  });
  return { line, dists, tripId: null, keep };
}

/** Exits and shifts whose races one query reads. */
const RACES_PER_QUERY = 100;

/** Schedule races by exit and shift ("variant|graph|smena"), shared by the days planned together. */
export type RaceRows = Map<string, RaceRow[]>;

/** Loads the races of the exits not loaded yet: the day before usually runs the very same exits. */
async function loadRaces(db: Queryable, keys: { v: number; g: number; s: string }[], cache: RaceRows): Promise<void> {
  const missing = keys.filter((k) => !cache.has(`${k.v}|${k.g}|${k.s}`));
  for (const k of missing) cache.set(`${k.v}|${k.g}|${k.s}`, []);
  // In parts: a city's day in one statement held the embedded engine (one statement at a time) for seconds.
  for (let from = 0; from < missing.length; from += RACES_PER_QUERY) {
    const part = missing.slice(from, from + RACES_PER_QUERY);
    const rows = await db.query<RaceRow>(
      `select k.v, k.g, k.s, rv.route_id, rt.racetype, rt.racenum,
              array_agg(rt.stop_id order by rt."order") as stops, array_agg(rt."order" order by rt."order") as orders,
              array_agg(rt.time order by rt."order") as times
         from unnest($1::int[], $2::int[], $3::text[]) as k(v, g, s)
         join mgt.rasp_variant rv on rv.id = k.v
         join mgt.rasp_time rt on rt."RaspVariant_id" = k.v and rt.graph = k.g and rt.smena = k.s
        group by k.v, k.g, k.s, rv.route_id, rt.racetype, rt.racenum`,
      [part.map((k) => k.v), part.map((k) => k.g), part.map((k) => k.s)],
    );
    for (const row of rows) cache.get(`${row.v}|${row.g}|${row.s}`)!.push(row);
  }
}

interface Task {
  vehicle_id: number;
  v: number;
  g: number;
  s: string;
}

/** Share of exits whose vehicle is sent to the next exit of its timetable for the day (and that one's to it). */
const SWAP_SHARE = 0.015;

/**
 * Vehicles sent to another exit (docs/simulator.md "Variation"): now and then two neighbouring exits of a
 * timetable swap their vehicles for the whole day, each working the other's runs against its task. Only exits
 * one vehicle works all day without a replacement; the same pairs every time the date is planned.
 */
function swapExits(date: string, tasks: Task[], replaced: ReadonlySet<string>): Task[] {
  const vehiclesOf = new Map<string, Set<number>>();
  for (const t of tasks) {
    const key = `${t.v}|${t.g}`;
    vehiclesOf.set(key, (vehiclesOf.get(key) ?? new Set()).add(t.vehicle_id));
  }
  const sole = [...vehiclesOf]
    .filter(([key, vehicles]) => vehicles.size === 1 && !replaced.has(key))
    .map(([key, vehicles]) => ({ v: Number(key.split('|')[0]), g: Number(key.split('|')[1]), vehicle: [...vehicles][0] }))
    .sort((a, b) => a.v - b.v || a.g - b.g);
  const sentTo = new Map<number, { from: number; to: number }>();
  for (let i = 0; i + 1 < sole.length; i++) {
    const [a, b] = [sole[i], sole[i + 1]];
    if (a.v !== b.v || a.vehicle === b.vehicle || !new Random(`sim/swap/${date}|${a.v}|${a.g}`).chance(SWAP_SHARE)) continue;
    sentTo.set(a.vehicle, { from: a.v, to: b.vehicle });
    sentTo.set(b.vehicle, { from: a.v, to: a.vehicle });
    i += 1;
  }
  return tasks.map((t) => {
    const swap = sentTo.get(t.vehicle_id);
    return swap && swap.from === t.v ? { ...t, vehicle_id: swap.to } : t;
  });
}

/** An exit and shift the date's timetable runs that no vehicle task covers. */
interface OpenExit {
  v: number;
  g: number;
  s: string;
  route_id: number;
  route_type: string;
  depot_id: number | null;
}

/**
 * The exits and shifts `date`'s timetable runs (each route in force takes its schedule variant by the product's
 * rule, as the vehicle-task import does: the weekday a holiday of the route, or of all routes, names, else the
 * date's; that weekday's variant before the usual one; the latest start) that no task of `source` covers (the
 * same route, exit and shift: tasks borrowed from another date cover that date's exits too).
 */
function openExits(db: Queryable, date: string, source: string | null): Promise<OpenExit[]> {
  return db.query<OpenExit>(
    `with routes as (
       select r.route_id, r.route_type, r."Depot_id" as depot_id,
              coalesce((select h.dow from mgt.holidays h where h.date = $1::date and (h.route_id = r.route_id or h.route_id is null)
                         order by (h.route_id is null), h.id limit 1), extract(dow from $1::date)::int) as dow
         from mgt.routes r
        where coalesce(r.startdate, $1::date) <= $1::date and coalesce(r.enddate, $1::date) >= $1::date),
     variants as (
       select r.route_id, r.route_type, r.depot_id,
              (select v.id from mgt.rasp_variant v
                where v.route_id = r.route_id and v.startdate <= $1::date and (v.enddate is null or v.enddate >= $1::date)
                  and (v.dow is null or v.dow = r.dow)
                order by (v.dow is null), v.startdate desc, v.id desc limit 1) as v
         from routes r)
     select distinct x.v, t.graph as g, t.smena as s, x.route_id, x.route_type, x.depot_id
       from variants x join mgt.rasp_time t on t."RaspVariant_id" = x.v
      where not exists (
        select 1 from mgt.vehicle_task k join mgt.rasp_variant kv on kv.id = k."RaspVariant_id"
         where k.date = $2::date and kv.route_id = x.route_id and k.graph = t.graph and k.smena = t.smena)
      order by x.route_id, g, s`,
    [date, source ?? date],
  );
}

/**
 * The fleet not working `date` drives its open exits, one vehicle an exit (all its shifts), in memory only: the
 * dispatcher's tasks stay the only ones in the handbook, and win as soon as there are any. A vehicle of the
 * route's transport type is taken first (of the route's branch first), else one without a type; never a bus
 * for a tram. Exits beyond the spare fleet are not driven. Stable: the same day planned again gives the same pairs.
 */
async function fillOpenExits(db: Queryable, date: string, source: string | null, working: ReadonlySet<number>): Promise<Task[]> {
  const open = await openExits(db, date, source);
  if (open.length === 0) return [];
  const fleet = await db.query<{ id: number; type: string | null; depot_id: number | null }>(
    'select v.id, t.note as type, v.depot_id from mgt.vehicles v left join mgt.transport_type t on t.id = v.vehicle_type_id order by v.id',
  );
  const spare = fleet.filter((v) => !working.has(v.id));
  const vehicleOf = new Map<string, number>();
  const filled: Task[] = [];
  for (const exit of open) {
    const key = `${exit.v}|${exit.g}`;
    let vehicle = vehicleOf.get(key);
    if (vehicle === undefined) {
      const index = [
        spare.findIndex((v) => v.type === exit.route_type && v.depot_id === exit.depot_id),
        spare.findIndex((v) => v.type === exit.route_type),
        spare.findIndex((v) => v.type === null),
      ].find((i) => i >= 0);
      if (index === undefined) continue;
      vehicle = spare.splice(index, 1)[0].id;
      vehicleOf.set(key, vehicle);
    }
    filled.push({ vehicle_id: vehicle, v: exit.v, g: exit.g, s: exit.s });
  }
  return filled;
}

/**
 * Races of every vehicle working `date` (replacements hand races over from their start time), keyed by vehicle:
 * the day's vehicle tasks (or those of the nearest day with tasks), then the exits without a task driven by the
 * vehicles not working, `busy` ones excepted (still on the road from the day before).
 */
export async function racesOfDate(
  db: Queryable,
  network: SimNetwork,
  date: string,
  tzOffsetMinutes: number,
  shapes: Map<string, Shape | null>,
  races: RaceRows,
  busy: ReadonlySet<number> = new Set(),
): Promise<Map<number, Race[]>> {
  const byVehicle = new Map<number, Race[]>();
  const source = await sourceDateFor(db, date);
  const [assigned, replacements] = source
    ? await Promise.all([
        db.query<Task>(
          'select vehicle_id, "RaspVariant_id" as v, graph as g, smena as s from mgt.vehicle_task where date = $1::date order by id',
          [source],
        ),
        db.query<{ vehicle_id: number; replace_vehicle_id: number; v: number; g: number; s: string; starttime: number }>(
          'select vehicle_id, replace_vehicle_id, "RaspVariant_id" as v, graph as g, smena as s, starttime from mgt.replace_vehicle where date = $1::date order by id',
          [source],
        ),
      ])
    : [[], []];
  const working = new Set([...busy, ...assigned.map((t) => t.vehicle_id), ...replacements.map((r) => r.replace_vehicle_id)]);
  const replaced = new Set(replacements.map((r) => `${r.v}|${r.g}`));
  const tasks = [...swapExits(date, assigned, replaced), ...(await fillOpenExits(db, date, source, working))];
  await loadRaces(db, tasks, races);
  const rows = [...new Set(tasks.map((t) => `${t.v}|${t.g}|${t.s}`))].flatMap((key) => races.get(key) ?? []);
  const midnight = operatorMidnight(date, tzOffsetMinutes);
  const vehiclesOf = new Map<string, number[]>();
  for (const task of tasks) {
    const key = `${task.v}|${task.g}|${task.s}`;
    vehiclesOf.set(key, [...(vehiclesOf.get(key) ?? []), task.vehicle_id]);
  }
  const replacementOf = new Map(replacements.map((r) => [`${r.v}|${r.g}|${r.s}|${r.vehicle_id}`, r]));

  for (const row of rows) {
    const shapeKey = `${row.route_id}|${row.racetype}|${row.stops.join(',')}`;
    if (!shapes.has(shapeKey)) shapes.set(shapeKey, shapeOf(network, row.route_id, row.racetype, row.stops));
    const shape = shapes.get(shapeKey);
    if (!shape) continue;
    const times = Float64Array.from(shape.keep, (i) => midnight + row.times[i] * 60_000);
    const race: Race = {
      routeId: row.route_id,
      tripId: shape.tripId,
      line: shape.line,
      times,
      dists: shape.dists,
      stopIds: shape.keep.map((i) => row.stops[i]),
      raceNum: row.racenum,
      direction: row.racetype === 'B' ? 1 : 0,
      run: { serviceDate: date, variantId: row.v, graph: row.g, smena: row.s, sequences: shape.keep.map((i) => row.orders[i]) },
    };
    for (const vehicleId of vehiclesOf.get(`${row.v}|${row.g}|${row.s}`) ?? []) {
      const replacement = replacementOf.get(`${row.v}|${row.g}|${row.s}|${vehicleId}`);
      const driver = replacement && times[0] >= midnight + replacement.starttime * 60_000 ? replacement.replace_vehicle_id : vehicleId;
      const list = byVehicle.get(driver);
      if (list) list.push(race);
      else byVehicle.set(driver, [race]);
    }
  }
  return byVehicle;
}

/**
 * Every vehicle's plan around `date`: that day's races, plus the previous day's still running after midnight
 * (night routes, late races), as the vehicle really drives them (variation.ts). Vehicles without races get no
 * plan: they report nothing.
 */
export async function planDay(db: Queryable, network: SimNetwork, date: string, tzOffsetMinutes: number): Promise<VehiclePlan[]> {
  const shapes = new Map<string, Shape | null>();
  const races: RaceRows = new Map();
  const midnight = operatorMidnight(date, tzOffsetMinutes);
  const yesterday = await racesOfDate(db, network, addDays(date, -1), tzOffsetMinutes, shapes, races);
  const lateOf = new Map<number, Race[]>();
  for (const [vehicleId, list] of yesterday) {
    const late = list.filter((race) => race.times[race.times.length - 1] > midnight);
    if (late.length) lateOf.set(vehicleId, late);
  }
  const today = await racesOfDate(db, network, date, tzOffsetMinutes, shapes, races, new Set(lateOf.keys()));
  for (const [vehicleId, late] of lateOf) today.set(vehicleId, [...late, ...(today.get(vehicleId) ?? [])]);
  return [...today.entries()]
    .sort(([a], [b]) => a - b)
    .map(
      ([vehicleId, races]) =>
        new VehiclePlan(vehicleId, network.depotOf.get(vehicleId) ?? null, realiseRaces(vehicleId, races, tzOffsetMinutes)),
    );
}
