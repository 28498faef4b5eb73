import type { Race, VehiclePlan } from './vehiclePlan';

/**
 * How often the demo fleet has driver-assistance incidents, shared by the demo's history and the live
 * simulator so both tell the same story: a rate per kilometre that rises with speed and in the rush hours,
 * differs per route, and is markedly higher for a few vehicles and drivers (the reports should find them);
 * the type of each incident follows the moment's speed and hour (speeding when fast, fatigue at night, close
 * calls in the rush hours).
 */

/** A number in [0, 1) from an integer key, the same on every run (a route's, a vehicle's or a driver's nature). */
export function unit(key: number, salt: number): number {
  let h = Math.imul(key ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(salt, 0xc2b2ae35);
  h = Math.imul(h ^ (h >>> 13), 0x27d4eb2f);
  return ((h ^ (h >>> 16)) >>> 0) / 4294967296;
}

/** One vehicle in 30 and one driver in 25 are markedly worse than the rest. */
export const vehicleFactor = (vehicleId: number) => (unit(vehicleId, 1) < 1 / 30 ? 4 : 0.7 + unit(vehicleId, 2) * 0.6);
export const driverFactor = (driverId: number | null) =>
  driverId === null ? 1 : unit(driverId, 3) < 1 / 25 ? 3 : 0.8 + unit(driverId, 4) * 0.4;
/** Routes differ (traffic, road): 0.5–1.7, one in 12 a hard route ×2.5. */
export const routeFactor = (routeId: number | null) =>
  routeId === null ? 1 : (0.5 + unit(routeId, 5) * 1.2) * (unit(routeId, 6) < 1 / 12 ? 2.5 : 1);
/** The rush hours have more, the night fewer (and other) incidents. */
export const hourFactor = (hour: number) =>
  (hour >= 7 && hour < 10) || (hour >= 17 && hour < 20) ? 1.5 : hour >= 22 || hour < 6 ? 0.7 : 1;
/** Faster driving, more incidents per kilometre. */
export const speedFactor = (kmh: number) => 0.6 + Math.min(kmh, 80) / 40;

/** Relative weight of each demo type (codes of the demo handbook, reference.ts) at a speed and hour. */
function typeWeight(code: number, kmh: number, hour: number): number {
  const rush = (hour >= 7 && hour < 10) || (hour >= 17 && hour < 20);
  const night = hour >= 22 || hour < 6;
  switch (code) {
    case 101:
      return 3 * (kmh > 30 ? 1.5 : 1) * (rush ? 1.6 : 1); // close approach
    case 102:
      return 2; // distraction
    case 103:
      return night ? 3 : hour >= 14 && hour < 17 ? 1.5 : 0.6; // fatigue
    case 104:
      return 0.5; // smoking
    case 105:
      return 1.5 * (kmh < 15 ? 1.4 : 1); // phone
    case 106:
      return 1.5 * (kmh > 40 ? 2 : 1); // lane departure
    case 107:
      return kmh > 40 ? 5 : kmh > 30 ? 1.5 : 0.05; // speeding
    case 108:
      return 0.7; // seat belt
    case 109:
      return 0.2; // no driver seen
    case 110:
      return 0.3; // camera covered
    default:
      return 1;
  }
}

/** The type of an incident at this moment, drawn from the handbook's `types` by their weights. */
export function pickType(types: readonly number[], kmh: number, hour: number, random: () => number): number {
  const weights = types.map((code) => typeWeight(code, kmh, hour));
  let roll = random() * weights.reduce((sum, w) => sum + w, 0);
  for (let i = 0; i < types.length; i++) {
    roll -= weights[i];
    if (roll < 0) return types[i];
  }
  return types[types.length - 1];
}

/** Grade 1 to 3: close approaches and speeding are graver. */
export function pickGrade(code: number, kmh: number, random: () => number): 1 | 2 | 3 {
  const grave = (code === 101 || code === 107 ? 0.15 : 0.04) * (kmh > 50 ? 2 : 1);
  const roll = random();
  return roll < grave ? 3 : roll < grave + 0.3 ? 2 : 1;
}

/** Share of reviewed incidents found false: covered cameras and missing drivers are often the unit's error. */
export const falseAlarmChance = (code: number) => (code === 110 ? 0.45 : code === 109 ? 0.4 : 0.12);

export const raceKm = (race: Race) => (race.dists[race.dists.length - 1] - race.dists[0]) / 1000;

/** A race's average speed, km/h. */
export function raceSpeed(race: Race): number {
  const hours = (race.times[race.times.length - 1] - race.times[0]) / 3_600_000;
  return hours > 0 ? raceKm(race) / hours : 0;
}

/** The weight of one race in the fleet's incidents: its kilometres by its route, vehicle, driver, hour and speed. */
export function raceWeight(race: Race, vehicleId: number, driverId: number | null, tzOffsetMinutes: number): number {
  const mid = (race.times[0] + race.times[race.times.length - 1]) / 2;
  const hour = Math.floor(((((mid / 60_000 + tzOffsetMinutes) % 1440) + 1440) % 1440) / 60);
  return (
    raceKm(race) *
    routeFactor(race.routeId) *
    vehicleFactor(vehicleId) *
    driverFactor(driverId) *
    hourFactor(hour) *
    speedFactor(raceSpeed(race))
  );
}

/** The races of a day's plans that start in [from, to) (a plan also holds the night before's late races). */
export function* racesOf(plans: readonly VehiclePlan[], from: number, to: number): Generator<{ plan: VehiclePlan; race: Race }> {
  for (const plan of plans) {
    for (const leg of plan.legs) if (leg.kind === 'race' && leg.start >= from && leg.start < to) yield { plan, race: leg.race };
  }
}

export interface RouteWork {
  vehicle_id: number;
  route_id: number;
  trips: number;
  km: number;
}

/** The work of the races starting in [from, to) (adas.route_work): trips and kilometres per vehicle and route. */
export function workOf(plans: readonly VehiclePlan[], from: number, to: number): RouteWork[] {
  const work = new Map<string, RouteWork>();
  for (const { plan, race } of racesOf(plans, from, to)) {
    const key = `${plan.vehicleId}|${race.routeId}`;
    const row = work.get(key) ?? { vehicle_id: plan.vehicleId, route_id: race.routeId, trips: 0, km: 0 };
    row.trips += 1;
    row.km += raceKm(race);
    work.set(key, row);
  }
  return [...work.values()].map((row) => ({ ...row, km: Math.round(row.km * 10) / 10 }));
}
