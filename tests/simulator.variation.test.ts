import { describe, expect, it } from 'vitest';
import { Polyline } from '../src/server/simulator/polyline';
import { DEFAULT_INTERVALS, outlierAt, parseIntervals, reportOf, silentAt, terminalOf } from '../src/server/simulator/terminalReports';
import { realiseRaces, trafficAt } from '../src/server/simulator/variation';
import { VehiclePlan, type Race } from '../src/server/simulator/vehiclePlan';

const TZ = 180;
const MINUTE = 60_000;
const DATE = '2025-10-09';
/** Operator midnight of DATE. */
const MIDNIGHT = Date.parse(`${DATE}T00:00:00Z`) - TZ * MINUTE;
const at = (hh: number, mm: number) => MIDNIGHT + (hh * 60 + mm) * MINUTE;

// Twelve stops 500 m apart due east and back; 2 minutes a hop by the timetable, 6 minutes at the termini.
const LAT = 59.93;
const M_LON = 1 / (111_320 * Math.cos((LAT * Math.PI) / 180));
const east = new Polyline([
  { lat: LAT, lon: 30.3 },
  { lat: LAT, lon: 30.3 + 5500 * M_LON },
]);
const west = new Polyline([
  { lat: LAT - 0.0001, lon: 30.3 + 5500 * M_LON },
  { lat: LAT - 0.0001, lon: 30.3 },
]);
const STOPS = 12;

/** One exit's races from 05:30 to 23:30, alternating east and west. */
function exitRaces(graph: number, offset = 0): Race[] {
  const races: Race[] = [];
  let t = at(5, 30) + offset * MINUTE;
  for (let k = 0; t < at(23, 30); k++) {
    const forward = k % 2 === 0;
    const line = forward ? east : west;
    races.push({
      routeId: 5,
      tripId: forward ? 1 : 2,
      line,
      times: Float64Array.from({ length: STOPS }, (_, i) => t + i * 2 * MINUTE),
      dists: Float64Array.from({ length: STOPS }, (_, i) => i * 500),
      stopIds: Array.from({ length: STOPS }, (_, i) => (forward ? 100 + i : 200 + i)),
      raceNum: k + 1,
      direction: forward ? 0 : 1,
      run: { serviceDate: DATE, variantId: 50, graph, smena: '1', sequences: Array.from({ length: STOPS }, (_, i) => i + 1) },
    });
    t += (STOPS - 1) * 2 * MINUTE + 6 * MINUTE;
  }
  return races;
}

const runSeconds = (race: Race) => (race.arrivals![race.arrivals!.length - 1] - race.departures![0]) / 1000;
const plannedSeconds = (race: Race) => (race.times[race.times.length - 1] - race.times[0]) / 1000;
const hourOf = (t: number) => ((t - MIDNIGHT) / 3_600_000) % 24;
const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;

describe('the simulated fleet strays from its timetable', () => {
  const fleet = Array.from({ length: 300 }, (_, i) => ({
    vehicleId: 1000 + i,
    planned: exitRaces(i + 1, i % 12),
    driven: realiseRaces(1000 + i, exitRaces(i + 1, i % 12), TZ),
  }));
  const driven = fleet.flatMap((v) => v.driven);

  it('is the same day however often it is drawn', () => {
    const again = realiseRaces(1000, exitRaces(1), TZ);
    expect(again.map((r) => Array.from(r.arrivals!))).toEqual(fleet[0].driven.map((r) => Array.from(r.arrivals!)));
    expect(
      realiseRaces(
        1000,
        exitRaces(1).map((r) => ({ ...r, run: { ...r.run!, serviceDate: '2025-10-10' } })),
        TZ,
      ).map((r) => Array.from(r.arrivals!)),
    ).not.toEqual(fleet[0].driven.map((r) => Array.from(r.arrivals!)));
  });

  it('is slower in the rush hours than at midday, and fastest at night', () => {
    const ratio = (from: number, to: number) =>
      mean(
        driven
          .filter((r) => hourOf(r.departures![0]) >= from && hourOf(r.departures![0]) < to)
          .map((r) => runSeconds(r) / plannedSeconds(r)),
      );
    const [peak, midday, night] = [ratio(7.5, 9), ratio(11.5, 14.5), ratio(22, 23.5)];
    expect(peak).toBeGreaterThan(midday * 1.05);
    expect(midday).toBeGreaterThan(night * 1.05);
    expect(trafficAt(8)).toBeGreaterThan(trafficAt(12));
  });

  it('takes each segment at its own pace, day after day', () => {
    const hopOf = (races: Race[], stop: number) =>
      mean(
        races
          .filter((r) => r.stopIds![0] === 100 && hourOf(r.departures![0]) >= 11 && hourOf(r.departures![0]) < 15)
          .map((r) => (r.arrivals![stop + 1] - r.departures![stop]) / 1000),
      );
    const hops = Array.from({ length: STOPS - 1 }, (_, i) => hopOf(driven, i));
    // the timetable gives every hop the same two minutes; the segments differ
    expect(Math.max(...hops) / Math.min(...hops)).toBeGreaterThan(1.1);
  });

  it('dwells at the stops, now and then passing one without stopping, and never leaves a stop far ahead of the timetable', () => {
    const dwells = driven.flatMap((r) => Array.from({ length: STOPS - 2 }, (_, i) => (r.departures![i + 1] - r.arrivals![i + 1]) / 1000));
    const none = dwells.filter((d) => d === 0).length / dwells.length;
    expect(none).toBeGreaterThan(0.04);
    expect(none).toBeLessThan(0.3);
    expect(mean(dwells)).toBeGreaterThan(8);
    expect(mean(dwells)).toBeLessThan(60);
    const early = driven.filter(
      (race) =>
        race.departures![0] < race.times[0] || race.times.some((t, i) => i > 0 && i < STOPS - 1 && race.departures![i] < t - 90_000),
    );
    expect(early).toEqual([]);
  });

  it('pulls out late now and then, takes its break at the termini, and skips a run now and then', () => {
    const late = fleet.filter((v) => v.driven[0].departures![0] - v.planned[0].times[0] > 60_000).length / fleet.length;
    expect(late).toBeGreaterThan(0.02);
    expect(late).toBeLessThan(0.12);
    // very late ones join their timetable at a later run
    expect(fleet.some((v) => v.driven[0].raceNum! > 1)).toBe(true);
    const noBreak = fleet.filter((v) =>
      v.driven.some((race, i) => i > 0 && race.departures![0] < v.driven[i - 1].arrivals![STOPS - 1] + 3 * MINUTE),
    );
    expect(noBreak).toEqual([]);
    const skipped = 1 - driven.length / fleet.reduce((sum, v) => sum + v.planned.length, 0);
    expect(skipped).toBeGreaterThan(0.004);
    expect(skipped).toBeLessThan(0.04);
  });

  it('drives the plan at the times drawn: standing at each stop from arrival to departure', () => {
    const { vehicleId, driven: races } = fleet[3];
    const plan = new VehiclePlan(vehicleId, null, races);
    for (const race of races.slice(0, 4)) {
      for (let i = 1; i < STOPS - 1; i++) {
        const arrived = plan.stateAt(race.arrivals![i])!;
        expect(Math.abs(arrived.lon - race.line.at(race.dists[i]).lon) / M_LON).toBeLessThan(1);
        if (race.departures![i] - race.arrivals![i] > 2000) expect(plan.stateAt(race.arrivals![i] + 1000)!.speed).toBe(0);
        expect(plan.stateAt((race.departures![i] + race.arrivals![i + 1]) / 2)!.speed).toBeGreaterThan(5);
      }
      // it came to the first stop before it left it (from the terminus's break)
      expect(race.arrivals![0]).toBeLessThan(race.departures![0]);
    }
  });
});

describe('the simulated terminals', () => {
  it('report every 1, 10 or 30 s, each from its own phase', () => {
    const terminals = Array.from({ length: 4000 }, (_, i) => terminalOf(i + 1, DEFAULT_INTERVALS));
    const share = (s: number) => terminals.filter((t) => t.intervalS === s).length / terminals.length;
    expect(share(1)).toBeCloseTo(0.15, 1);
    expect(share(10)).toBeCloseTo(0.55, 1);
    expect(share(30)).toBeCloseTo(0.3, 1);
    expect(new Set(terminals.filter((t) => t.intervalS === 30).map((t) => t.phaseS)).size).toBe(30);
    expect(parseIntervals('5:100')).toEqual([[5, 100]]);
    expect(parseIntervals('five')).toBe(DEFAULT_INTERVALS);
  });

  it('fall silent now and then, for a minute to a quarter of an hour', () => {
    const from = Math.floor(at(6, 0) / 1000);
    let silent = 0;
    let longest = 0;
    for (let v = 1; v <= 200; v++) {
      let run = 0;
      for (let s = from; s < from + 6 * 3600; s++) {
        if (silentAt(v, s)) {
          silent += 1;
          run += 1;
          longest = Math.max(longest, run);
        } else run = 0;
      }
    }
    const share = silent / (200 * 6 * 3600);
    expect(share).toBeGreaterThan(0.002);
    expect(share).toBeLessThan(0.02);
    expect(longest).toBeLessThanOrEqual(900);
    expect(longest).toBeGreaterThan(300);
  });

  it('add a few metres of noise and an outlier now and then, the same report however often asked', () => {
    const state = { lat: LAT, lon: 30.3, speed: 30, course: 90, parked: false, routeId: 5, tripId: 1 };
    const from = Math.floor(at(8, 0) / 1000);
    const offsets: number[] = [];
    let outliers = 0;
    for (let s = from; s < from + 20_000; s++) {
      const report = reportOf(7, state, s);
      const metres = Math.hypot((report.lat - LAT) * 110_574, (report.lon - 30.3) / M_LON);
      if (outlierAt(7, s)) {
        outliers += 1;
        expect(metres).toBeGreaterThan(85);
      } else {
        expect(metres).toBeLessThan(15);
        offsets.push(metres);
      }
    }
    expect(outliers / 20_000).toBeGreaterThan(0.002);
    expect(outliers / 20_000).toBeLessThan(0.008);
    expect(mean(offsets)).toBeGreaterThan(2);
    expect(mean(offsets)).toBeLessThan(6);
    expect(reportOf(7, state, from)).toEqual(reportOf(7, state, from));
  });
});
