/**
 * The controller's report (field-app spec sections 2.5, 3 and 5): its shapes as the API carries them, and the
 * count rules both the phone and the server apply. One module, so the cap the phone shows is the cap the
 * server enforces.
 */

/** The four seized categories, in the spec's fixed order. */
export const SEIZED_CATEGORIES = ['sk', 'vesb', 'other_leg', 'other_not_leg'] as const;
export type SeizedCategory = (typeof SEIZED_CATEGORIES)[number];

/** The largest count one input holds (a day's work is far below it; the column is an int). */
export const MAX_COUNT = 100_000;

export interface TicketCount<T = number> {
  ticket_id: T;
  count: number;
}

/** One vehicle check (the check sheet). */
export interface VehicleCheck {
  route_short_name: string;
  depot_number: number | null;
  /** Driver's personnel number. */
  table_number: number | null;
  sell_tickets: TicketCount[];
  /** Four entries, in SEIZED_CATEGORIES order. */
  take_tickets: TicketCount<SeizedCategory>[];
  kickout: number;
  OVDdeliver: number;
  driver_raport: number;
}

/** Tickets checked per ticket type id (text keys, as JSON objects have them). */
export type CheckTickets = Record<string, number>;

/** The body of PUT controllertask/result/{id}. */
export interface TaskResultBody {
  check_tickets: CheckTickets;
  check_vehicles: VehicleCheck[];
}

/**
 * Count input (spec section 5): non-numeric or negative becomes 0, a missing count is 0, a number is taken
 * whole (a count of people or tickets) and at most MAX_COUNT.
 */
export function toCount(input: unknown): number {
  const value =
    typeof input === 'number'
      ? input
      : typeof input === 'string' && input.trim() !== ''
        ? Number(input.trim().replace(',', '.'))
        : Number.NaN;
  if (!Number.isFinite(value) || value < 0) return 0;
  return Math.min(MAX_COUNT, Math.floor(value));
}

/** A number field that may stay empty (depot and personnel numbers): empty or not a number is null. */
export function toOptionalNumber(input: unknown): number | null {
  if (input === null || input === undefined || input === '') return null;
  const value = typeof input === 'number' ? input : Number(String(input).trim());
  if (!Number.isFinite(value) || value < 0) return null;
  return Math.min(2_147_483_647, Math.floor(value));
}

const soldOf = (check: VehicleCheck, ticketId: number): number => check.sell_tickets.find((t) => t.ticket_id === ticketId)?.count ?? 0;

/**
 * The sold-ticket cap (spec section 5): what vehicle `index` may still report sold of a ticket type, so that
 * the sum over the vehicles does not exceed the tickets received of that type.
 */
export function soldCap(result: TaskResultBody, index: number, ticketId: number): number {
  const received = toCount(result.check_tickets[String(ticketId)]);
  const others = result.check_vehicles.reduce((sum, check, i) => (i === index ? sum : sum + soldOf(check, ticketId)), 0);
  return Math.max(0, received - others);
}

/** A sold count typed into vehicle `index`: made a count, then capped. */
export function capSold(result: TaskResultBody, index: number, ticketId: number, input: unknown): number {
  return Math.min(toCount(input), soldCap(result, index, ticketId));
}

/** Ticket types whose sold sum over the vehicles exceeds the tickets received: the server refuses such a result. */
export function soldOverReceived(result: TaskResultBody): number[] {
  const over = new Set<number>();
  const sums = new Map<number, number>();
  for (const check of result.check_vehicles) {
    for (const { ticket_id, count } of check.sell_tickets) sums.set(ticket_id, (sums.get(ticket_id) ?? 0) + count);
  }
  for (const [ticketId, sum] of sums) if (sum > toCount(result.check_tickets[String(ticketId)])) over.add(ticketId);
  return [...over].sort((a, b) => a - b);
}

/** A new vehicle check, built from the ticket list (spec section 4): every count 0. */
export function newVehicleCheck(ticketIds: readonly number[]): VehicleCheck {
  return {
    route_short_name: '',
    depot_number: null,
    table_number: null,
    sell_tickets: ticketIds.map((ticket_id) => ({ ticket_id, count: 0 })),
    take_tickets: SEIZED_CATEGORIES.map((ticket_id) => ({ ticket_id, count: 0 })),
    kickout: 0,
    OVDdeliver: 0,
    driver_raport: 0,
  };
}

/** Violations of one check: passengers put off without a ticket and delivered to the police. */
export const violationsOf = (check: Pick<VehicleCheck, 'kickout' | 'OVDdeliver'>): number => check.kickout + check.OVDdeliver;

/**
 * The report after the tickets received changed: every sold count capped again, vehicle by vehicle in list
 * order, so the sums stay within what was received.
 */
export function recapSold(result: TaskResultBody): TaskResultBody {
  const left = new Map<number, number>();
  const check_vehicles = result.check_vehicles.map((check) => ({
    ...check,
    sell_tickets: check.sell_tickets.map(({ ticket_id, count }) => {
      const available = left.get(ticket_id) ?? toCount(result.check_tickets[String(ticket_id)]);
      const capped = Math.min(count, available);
      left.set(ticket_id, available - capped);
      return { ticket_id, count: capped };
    }),
  }));
  return { ...result, check_vehicles };
}
