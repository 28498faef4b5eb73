import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  MAX_COUNT,
  SEIZED_CATEGORIES,
  capSold,
  recapSold,
  newVehicleCheck,
  soldCap,
  soldOverReceived,
  toCount,
  toOptionalNumber,
  type TaskResultBody,
} from '../src/shared/bc/report';
import { transitionAllowed } from '../src/shared/bc/tasks';
import { RATE_RED, rateColor } from '../src/shared/bc/rate';

/** The controller report's count rules and the sold-ticket cap (field-app spec section 5), and the status transitions. */
describe('count input', () => {
  it('non-numeric or negative becomes 0, a missing count is 0, numbers are taken whole', () => {
    for (const input of ['abc', '', ' ', '-3', -1, Number.NaN, Infinity, undefined, null, {}, '1e', true])
      expect(toCount(input), String(input)).toBe(0);
    expect(toCount('7')).toBe(7);
    expect(toCount(' 12 ')).toBe(12);
    expect(toCount(3.9)).toBe(3);
    expect(toCount('2,5')).toBe(2);
    expect(toCount(10 ** 9)).toBe(MAX_COUNT);
  });

  it('always gives a whole count in range', () => {
    fc.assert(
      fc.property(fc.anything(), (input) => {
        const count = toCount(input);
        return Number.isInteger(count) && count >= 0 && count <= MAX_COUNT;
      }),
    );
  });

  it('optional numbers (depot and personnel numbers) stay empty when not numbers', () => {
    expect(toOptionalNumber('')).toBeNull();
    expect(toOptionalNumber('x')).toBeNull();
    expect(toOptionalNumber('-1')).toBeNull();
    expect(toOptionalNumber('1234')).toBe(1234);
  });
});

describe('the sold-ticket cap', () => {
  const report = (received: number, sold: number[]): TaskResultBody => ({
    check_tickets: { 1: received },
    check_vehicles: sold.map((count) => ({ ...newVehicleCheck([1]), sell_tickets: [{ ticket_id: 1, count }] })),
  });

  it('leaves a vehicle what the others have not sold of the tickets received', () => {
    const r = report(10, [3, 4, 0]);
    expect(soldCap(r, 2, 1)).toBe(3);
    expect(soldCap(r, 0, 1)).toBe(6);
    expect(capSold(r, 2, 1, '8')).toBe(3);
    expect(capSold(r, 2, 1, 'x')).toBe(0);
    expect(capSold(r, 2, 1, 2)).toBe(2);
    expect(soldCap(report(0, [0]), 0, 1)).toBe(0);
    // a ticket type nobody received caps at 0
    expect(soldCap(r, 0, 2)).toBe(0);
  });

  it('a report filled through capSold never sums over the tickets received', () => {
    fc.assert(
      fc.property(fc.nat(50), fc.array(fc.oneof(fc.nat(100), fc.string()), { maxLength: 8 }), (received, typed) => {
        const r = report(
          received,
          typed.map(() => 0),
        );
        typed.forEach((input, i) => {
          r.check_vehicles[i].sell_tickets[0].count = capSold(r, i, 1, input);
        });
        return soldOverReceived(r).length === 0;
      }),
    );
  });

  it('lowering the tickets received caps the sold counts again, vehicle by vehicle', () => {
    const r = recapSold({ ...report(10, [3, 4, 2]), check_tickets: { 1: 5 } });
    expect(r.check_vehicles.map((c) => c.sell_tickets[0].count)).toEqual([3, 2, 0]);
    expect(soldOverReceived(r)).toEqual([]);
  });

  it('names the ticket types over the cap (what the server refuses)', () => {
    expect(soldOverReceived(report(5, [3, 3]))).toEqual([1]);
    expect(soldOverReceived(report(6, [3, 3]))).toEqual([]);
  });

  it('a new vehicle check is built from the ticket list, the four seized categories in their fixed order', () => {
    const check = newVehicleCheck([4, 9]);
    expect(check.sell_tickets).toEqual([
      { ticket_id: 4, count: 0 },
      { ticket_id: 9, count: 0 },
    ]);
    expect(check.take_tickets.map((t) => t.ticket_id)).toEqual(['sk', 'vesb', 'other_leg', 'other_not_leg']);
    expect(SEIZED_CATEGORIES).toEqual(['sk', 'vesb', 'other_leg', 'other_not_leg']);
  });
});

describe('task status transitions', () => {
  it('new → in work → closed; nothing out of closed or not achieved (but a desktop reopen)', () => {
    expect(transitionAllowed('new', 'in_work')).toBe(true);
    expect(transitionAllowed('new', 'closed')).toBe(true);
    expect(transitionAllowed('in_work', 'closed')).toBe(true);
    expect(transitionAllowed('in_work', 'new')).toBe(false);
    expect(transitionAllowed('closed', 'in_work')).toBe(false);
    expect(transitionAllowed('closed', 'in_work', true)).toBe(true);
    expect(transitionAllowed('not_achieved', 'closed')).toBe(false);
    expect(transitionAllowed('closed', 'closed')).toBe(true);
  });
});

describe('route rate colour', () => {
  it('runs green → orange → yellow → red', () => {
    expect(rateColor(0)).toBe('#2e7d32');
    expect(rateColor(RATE_RED / 3)).toBe('#fb8c00');
    expect(rateColor((2 * RATE_RED) / 3)).toBe('#fdd835');
    expect(rateColor(RATE_RED)).toBe('#c62828');
    expect(rateColor(1000)).toBe('#c62828');
    // the /system/bc setting moves red
    expect(rateColor(10, 10)).toBe('#c62828');
    expect(rateColor(10, 30)).toBe('#fb8c00');
  });
});
