import { CLASS_CAPACITY, DEFAULT_CAPACITY } from '../../shared/passengers/passengers';
import { hashString } from '../db/demo/random';

/**
 * The demo's passenger demand (the simulator's live trips and the history of a fresh start use it alike):
 * boardings by hour of day (two peaks), day of the week, route and stop; each passenger rides a few stops
 * (alighting stop drawn with a distance decay); a full vehicle leaves people behind (capacity limit), so peak
 * trips crowd; a share of the passengers ride without validating (evasion, by route); a few counters are faulty.
 */

/** Mean boardings at a stop of an average route in an average hour (tuned so that peak trips fill up). */
const BASE_BOARDINGS = 3.2;
const HOUR_FACTOR = [
  0.15, 0.08, 0.05, 0.05, 0.1, 0.35, 0.9, 1.9, 2.3, 1.6, 1.0, 0.9, 0.95, 1.0, 1.0, 1.15, 1.6, 2.1, 2.2, 1.5, 1.0, 0.7, 0.45, 0.3,
];
/** Sunday first, as JavaScript's getUTCDay. */
const WEEKDAY_FACTOR = [0.55, 1, 1, 1, 1, 1.05, 0.7];
/** Mean stops ridden; the alighting stop is drawn with weights decaying past it. */
const MEAN_RIDE_STOPS = 6;

const unit = (key: string) => (hashString(key) % 10_000) / 10_000;

export const hourFactor = (hour: number) => HOUR_FACTOR[((hour % 24) + 24) % 24];
export const weekdayFactor = (weekday: number) => WEEKDAY_FACTOR[weekday] ?? 1;
/** Busy and quiet routes: 0.5 to 1.7. */
export const routeDemand = (routeId: number) => 0.5 + 1.2 * unit(`route-demand-${routeId}`);
/** Busy and quiet stops (metro interchanges, markets against lanes): 0.3 to 2.6, skewed to quiet. */
export const stopDemand = (stopId: number) => 0.3 + 2.3 * unit(`stop-demand-${stopId}`) ** 2;
/** Share of passengers who ride without validating, by route: 6 % to 20 %. */
export const evasionShare = (routeId: number) => 0.06 + 0.14 * unit(`evasion-${routeId}`);

/** How a vehicle's counters behave: 'silent' reports nothing, 'drift' misses a door (alightings short). */
export type CounterHealth = 'ok' | 'silent' | 'drift';

export interface VehicleKit {
  seats: number;
  capacity: number;
  counters: CounterHealth | null;
  /** Its validator (0 when the vehicle has none of the handbook's: the demo still validates aboard). */
  validatorId: number;
}

export function vehicleCapacity(classCode: string | null, seats: number | null): { seats: number; capacity: number } {
  const capacity = (classCode && CLASS_CAPACITY[classCode]) || DEFAULT_CAPACITY;
  return { seats: seats ?? Math.round(capacity / 3), capacity };
}

/** Ticket types by the share of validations they take (ids of the demo's ticket types handbook). */
const TICKET_WEIGHTS: readonly [number, number][] = [
  [1, 8],
  [2, 4],
  [3, 3],
  [4, 10],
  [5, 6],
  [6, 2],
  [7, 4],
  [8, 3],
  [9, 14],
  [10, 8],
  [11, 26],
  [12, 12],
];
const TICKET_TOTAL = TICKET_WEIGHTS.reduce((sum, [, w]) => sum + w, 0);

export function ticketTypeOf(card: string, known: readonly number[]): number {
  let roll = unit(`ticket-${card}`) * TICKET_TOTAL;
  for (const [id, weight] of TICKET_WEIGHTS) {
    roll -= weight;
    if (roll < 0) return known.includes(id) ? id : known[id % known.length];
  }
  return known[0];
}

function poisson(mean: number, random: () => number): number {
  if (mean <= 0) return 0;
  if (mean > 30) return Math.max(0, Math.round(mean + Math.sqrt(mean) * gaussian(random)));
  const limit = Math.exp(-mean);
  let n = 0;
  for (let p = random(); p > limit; p *= random()) n += 1;
  return n;
}

function gaussian(random: () => number): number {
  return Math.sqrt(-2 * Math.log(random() || 1e-9)) * Math.cos(2 * Math.PI * random());
}

/**
 * Cards in circulation for one day: a card that alighted near a stop may board there again later (the way
 * home), so that trip chaining finds real chains. Places are stop grid cells of about 400 m.
 */
export class CardPool {
  private readonly waiting = new Map<string, string[]>();
  private issued = 0;

  constructor(
    private readonly prefix: string,
    private readonly placeOf: (stopId: number) => string,
  ) {}

  board(stopId: number, hour: number, random: () => number): string {
    const queue = this.waiting.get(this.placeOf(stopId));
    if (hour >= 12 && queue?.length && random() < 0.6) return queue.splice(Math.floor(random() * queue.length), 1)[0];
    this.issued += 1;
    return `${this.prefix}${this.issued.toString(36).padStart(6, '0')}`;
  }

  alight(card: string, stopId: number, hour: number): void {
    if (hour >= 16) return;
    const place = this.placeOf(stopId);
    const queue = this.waiting.get(place);
    if (queue) queue.push(card);
    else this.waiting.set(place, [card]);
  }
}

export interface TripStopInput {
  stopId: number;
  /** Scheduled time at the stop, epoch ms. */
  time: number;
  /** Distance along the line, m. */
  dist: number;
}

export interface SimulatedVisit {
  stopId: number;
  sequence: number;
  arrival: number;
  departure: number;
  boardings: number;
  alightings: number;
  kmToNext: number;
}

export interface SimulatedValidation {
  tm: number;
  stopId: number;
  card: string;
  ticketTypeId: number;
}

export interface SimulatedTrip {
  visits: SimulatedVisit[];
  validations: SimulatedValidation[];
  /** True riders per stop pair, before counters and evasion (tests read it). */
  riders: number;
}

export interface TripContext {
  routeId: number;
  kit: VehicleKit;
  weekday: number;
  /** The operator's hour of an epoch time. */
  hourOf: (time: number) => number;
  ticketTypes: readonly number[];
  cards: CardPool;
  random: () => number;
  /** Minutes the vehicle runs late at the first stop (it drifts a little along the trip). */
  delayMinutes?: number;
}

const DWELL_MS = 30_000;

/**
 * One trip's passengers: per stop the boardings (demand, capped by the room left) and alightings (the
 * riders whose stop it is), then what the counters saw (a silent counter nothing, a drifting one a door short)
 * and the validations of those who paid.
 */
export function simulateTrip(stops: readonly TripStopInput[], ctx: TripContext): SimulatedTrip {
  const { kit, random } = ctx;
  const n = stops.length;
  const onBoard: { to: number; card: string | null }[] = [];
  const visits: SimulatedVisit[] = [];
  const validations: SimulatedValidation[] = [];
  const evasion = evasionShare(ctx.routeId);
  const demand = BASE_BOARDINGS * weekdayFactor(ctx.weekday) * routeDemand(ctx.routeId);
  const delay = (ctx.delayMinutes ?? 0) * 60_000;
  let riders = 0;
  for (let i = 0; i < n; i++) {
    const stop = stops[i];
    const arrival = stop.time + delay * (1 + i / n);
    const hour = ctx.hourOf(arrival);
    let alightings = 0;
    for (let k = onBoard.length - 1; k >= 0; k--) {
      if (onBoard[k].to !== i) continue;
      const [rider] = onBoard.splice(k, 1);
      alightings += 1;
      if (rider.card) ctx.cards.alight(rider.card, stop.stopId, hour);
    }
    let boardings = 0;
    if (i < n - 1) {
      const wanted = poisson(demand * hourFactor(hour) * stopDemand(stop.stopId) * Math.min(1, (n - 1 - i) / 4), random);
      boardings = Math.min(wanted, Math.max(0, kit.capacity - onBoard.length));
      for (let b = 0; b < boardings; b++) {
        const ride = Math.min(n - 1 - i, 1 + Math.floor(-Math.log(random() || 1e-9) * MEAN_RIDE_STOPS));
        const pays = random() >= evasion;
        const card = pays ? ctx.cards.board(stop.stopId, hour, random) : null;
        onBoard.push({ to: i + ride, card });
        if (card)
          validations.push({
            tm: arrival + Math.floor(random() * 60_000),
            stopId: stop.stopId,
            card,
            ticketTypeId: ticketTypeOf(card, ctx.ticketTypes),
          });
      }
      riders += boardings;
    }
    const next = stops[i + 1];
    visits.push({
      stopId: stop.stopId,
      sequence: i + 1,
      arrival,
      departure: arrival + DWELL_MS,
      boardings,
      alightings,
      kmToNext: next ? Math.max(0, (next.dist - stop.dist) / 1000) : 0,
    });
  }
  if (kit.counters === 'silent') for (const visit of visits) visit.boardings = visit.alightings = 0;
  if (kit.counters === 'drift') for (const visit of visits) visit.alightings = Math.round(visit.alightings * 0.6);
  return { visits, validations, riders };
}

/** A stop's place for the card pool: a grid cell of about 400 m. */
export function placeKey(lat: number, lon: number): string {
  return `${Math.round(lat / 0.0036)}:${Math.round(lon / 0.0072)}`;
}
