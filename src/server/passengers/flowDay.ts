import type { Queryable } from '../db/types';
import { operatorDate } from '../platform/operatorDay';
import type { Race, VehiclePlan } from '../simulator/vehiclePlan';
import { CardPool, placeKey, simulateTrip, vehicleCapacity, type CounterHealth, type VehicleKit } from './demandModel';
import type { TripRecord } from './tripWriter';

/** What the passenger simulation needs of the fleet: each vehicle's capacity, counters and validator. */
export interface FlowFleet {
  kits: Map<number, VehicleKit>;
  depotNumbers: Map<number, number>;
  ticketTypes: number[];
  placeOf: (stopId: number) => string;
}

/**
 * Counters come from the passenger-counter handbook (DevPasspotok): a vehicle with none has no counts (its
 * trips are still performed); one whose every door sensor is off reports nothing (the registry's «counter
 * silent» flag); one with a door off misses that door's alightings (the «imbalance» flag).
 */
export async function loadFleet(db: Queryable): Promise<FlowFleet> {
  const [vehicles, stops, tickets] = await Promise.all([
    db.query<{
      id: number;
      depot_number: number;
      code: string | null;
      seats: number | null;
      doors: number;
      off: number;
      validator_id: number | null;
    }>(
      `select v.id, v.depot_number, c.code, c.seats,
              (select count(*)::int from mgt.dev_passpotok p where p.vehicle_id = v.id) as doors,
              (select count(*)::int from mgt.dev_passpotok p where p.vehicle_id = v.id and p.enable = 0) as off,
              w.validator_id
         from mgt.vehicles v left join mgt.capacity_type c on c.id = v.capacity_type_id
         left join (select vehicle_id, min(validator_id) as validator_id from mgt.validator_vehicle group by 1) w on w.vehicle_id = v.id`,
    ),
    db.query<{ stop_id: number; stop_lat: number | null; stop_lon: number | null }>('select stop_id, stop_lat, stop_lon from mgt.stops'),
    db.query<{ ticket_type_id: number }>('select ticket_type_id from cat.ticket_type order by ticket_type_id'),
  ]);
  const kits = new Map<number, VehicleKit>();
  const depotNumbers = new Map<number, number>();
  for (const v of vehicles) {
    const counters: CounterHealth | null = v.doors === 0 ? null : v.off === v.doors ? 'silent' : v.off > 0 ? 'drift' : 'ok';
    kits.set(v.id, { ...vehicleCapacity(v.code, v.seats), counters, validatorId: v.validator_id ?? 0 });
    depotNumbers.set(v.id, v.depot_number);
  }
  const places = new Map(
    stops.map((s) => [s.stop_id, s.stop_lat === null || s.stop_lon === null ? `stop-${s.stop_id}` : placeKey(s.stop_lat, s.stop_lon)]),
  );
  return {
    kits,
    depotNumbers,
    ticketTypes: tickets.map((t) => t.ticket_type_id),
    placeOf: (stopId) => places.get(stopId) ?? `stop-${stopId}`,
  };
}

export interface FlowOptions {
  /** Epoch ms added to every planned time (a history day drawn from another date's plan). */
  shiftMs: number;
  tzOffsetMinutes: number;
  random: () => number;
  cards: CardPool;
  /** Share of planned races not run (breakdowns, missed exits): the traffic report's regularity. */
  dropShare: number;
  /** Only the races of these routes (the city demo's history covers its pilot routes). */
  routes?: ReadonlySet<number>;
}

export const newCardPool = (fleet: FlowFleet, prefix: string) => new CardPool(prefix, fleet.placeOf);

/**
 * The races of the plans that `by` their start (a history day) or their end (live: a trip reports when it is
 * over) fall in [from, to), as trips performed with their counts and validations.
 */
export function tripsOf(
  plans: readonly VehiclePlan[],
  from: number,
  to: number,
  fleet: FlowFleet,
  options: FlowOptions,
  by: 'start' | 'end' = 'start',
): TripRecord[] {
  const { shiftMs, tzOffsetMinutes, random } = options;
  const hourOf = (time: number) => Math.floor(((((time / 60_000 + tzOffsetMinutes) % 1440) + 1440) % 1440) / 60);
  const trips: TripRecord[] = [];
  for (const plan of plans) {
    const kit = fleet.kits.get(plan.vehicleId);
    for (const leg of plan.legs) {
      if (leg.kind !== 'race') continue;
      const at = by === 'start' ? leg.start : leg.end;
      if (at < from || at >= to) continue;
      const race = leg.race;
      if (options.routes && !options.routes.has(race.routeId)) continue;
      if (!race.stopIds || race.stopIds.length < 2) continue;
      if (random() < options.dropShare) continue;
      trips.push(tripOf(plan.vehicleId, race, kit, fleet, options, hourOf, shiftMs));
    }
  }
  return trips;
}

function tripOf(
  vehicleId: number,
  race: Race,
  kit: VehicleKit | undefined,
  fleet: FlowFleet,
  options: FlowOptions,
  hourOf: (t: number) => number,
  shiftMs: number,
): TripRecord {
  const times = Array.from(race.times, (t) => t + shiftMs);
  const start = times[0];
  const delayMinutes = Math.max(-1, Math.round(options.random() * 6 - 1.5));
  const km = (race.dists[race.dists.length - 1] - race.dists[0]) / 1000;
  const base: TripRecord = {
    serviceDate: operatorDate(start, options.tzOffsetMinutes),
    vehicleId,
    depotNumber: fleet.depotNumbers.get(vehicleId) ?? null,
    routeId: race.routeId,
    direction: race.direction ?? 0,
    tripId: race.tripId,
    raceNum: race.raceNum ?? null,
    scheduleStart: start,
    actualStart: start + delayMinutes * 60_000,
    actualEnd: times[times.length - 1] + delayMinutes * 60_000 * 1.5,
    km,
    visits: [],
    validations: [],
  };
  if (!kit?.counters) return base;
  const stops = race.stopIds!.map((stopId, i) => ({ stopId, time: times[i], dist: race.dists[i] }));
  const weekday = new Date(start + options.tzOffsetMinutes * 60_000).getUTCDay();
  const flow = simulateTrip(stops, {
    routeId: race.routeId,
    kit,
    weekday,
    hourOf,
    ticketTypes: fleet.ticketTypes,
    cards: options.cards,
    random: options.random,
    delayMinutes,
  });
  return { ...base, visits: flow.visits, validations: flow.validations.map((v) => ({ ...v, validatorId: kit.validatorId })) };
}

/** Planned trips and the vehicles starting them per route and operator hour of [from, to) (as pass.plan_day does). */
export function planOf(
  plans: readonly VehiclePlan[],
  from: number,
  to: number,
  tzOffsetMinutes: number,
  routes?: ReadonlySet<number>,
): { hour: number; routeId: number; trips: number; vehicles: number }[] {
  const hourOf = (time: number) => Math.floor(((((time / 60_000 + tzOffsetMinutes) % 1440) + 1440) % 1440) / 60);
  const cells = new Map<string, { trips: number; vehicles: Set<number> }>();
  for (const plan of plans) {
    for (const leg of plan.legs) {
      if (leg.kind !== 'race' || leg.start < from || leg.start >= to || (routes && !routes.has(leg.race.routeId))) continue;
      const key = `${hourOf(leg.start)}|${leg.race.routeId}`;
      const cell = cells.get(key) ?? { trips: 0, vehicles: new Set<number>() };
      cell.trips += 1;
      cell.vehicles.add(plan.vehicleId);
      cells.set(key, cell);
    }
  }
  return [...cells].map(([key, cell]) => {
    const [hour, routeId] = key.split('|').map(Number);
    return { hour, routeId, trips: cell.trips, vehicles: cell.vehicles.size };
  });
}

/** The `limit` routes whose races the most vehicles with counters run (a city's pilot routes for passenger counting). */
export function pilotRoutes(plans: readonly VehiclePlan[], fleet: FlowFleet, limit: number): Set<number> {
  const counted = new Map<number, number>();
  for (const plan of plans) {
    if (!fleet.kits.get(plan.vehicleId)?.counters) continue;
    for (const leg of plan.legs) if (leg.kind === 'race') counted.set(leg.race.routeId, (counted.get(leg.race.routeId) ?? 0) + 1);
  }
  return new Set(
    [...counted]
      .sort((a, b) => b[1] - a[1] || a[0] - b[0])
      .slice(0, limit)
      .map(([route]) => route),
  );
}
