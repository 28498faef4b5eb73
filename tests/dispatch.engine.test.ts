import { describe, expect, it } from 'vitest';
import { DISPATCH_DEFAULTS } from '../src/shared/dispatch/settings';
import { DispatchEngine } from '../src/server/dispatch/engine';
import type { EngineSettings, Fix, PassageRecord } from '../src/server/dispatch/engineTypes';
import { crossTime } from '../src/server/dispatch/passages';
import { LearnedTimes } from '../src/server/dispatch/predictions';
import type { DaySchedule, Run } from '../src/server/dispatch/schedule';
import { TZ, at, city, drive, runOf, stand, type Drive } from './dispatch.tracks';

const SETTINGS: EngineSettings = { ...DISPATCH_DEFAULTS, offRouteMeters: 100 };

function engineOn(day: DaySchedule, learned?: LearnedTimes, watchingSince?: number): DispatchEngine {
  const engine = new DispatchEngine(SETTINGS, TZ, learned, watchingSince);
  engine.setDays([day]);
  return engine;
}

/** Feeds fixes in time order (several vehicles interleaved), ticking every 15 s as the service does. */
function feed(engine: DispatchEngine, tracks: [vehicleId: number, fixes: Fix[]][], tickUntil?: number) {
  const all = tracks.flatMap(([vehicleId, fixes]) => fixes.map((fix) => ({ vehicleId, fix }))).sort((a, b) => a.fix.time - b.fix.time);
  const passages: PassageRecord[] = [];
  const events: ReturnType<DispatchEngine['drain']>['events'] = [];
  let nextTick = all.length ? all[0].fix.time : 0;
  const drainInto = () => {
    const out = engine.drain();
    passages.push(...out.passages);
    events.push(...out.events);
  };
  for (const { vehicleId, fix } of all) {
    while (nextTick <= fix.time) {
      engine.tick(nextTick);
      nextTick += 15_000;
    }
    engine.onFix(vehicleId, fix);
    drainInto();
  }
  for (; tickUntil !== undefined && nextTick <= tickUntil; nextTick += 15_000) engine.tick(nextTick);
  drainInto();
  return { passages, events };
}

/** Vehicles 1 and 2 tasked with route 1's exits 1 and 2. */
const ROUTE1_EXITS = [
  { vehicleId: 1, variantId: 101, graph: 1, smena: '1' },
  { vehicleId: 2, variantId: 101, graph: 2, smena: '1' },
];

/** The stops a vehicle's passages on a run name, in order. */
const stopsOf = (passages: PassageRecord[], vehicleId: number, run: Run) =>
  passages.filter((p) => p.vehicleId === vehicleId && p.run === run).map((p) => p.stopIndex);

const errorsOf = (passages: PassageRecord[], truth: Drive, runKey: string) =>
  passages
    .filter((p) => p.run.key === runKey)
    .map((p) => ({
      i: p.stopIndex,
      arrival: p.arrival === null || p.stopIndex === 0 ? 0 : Math.abs(p.arrival - truth.arrivals[p.stopIndex]) / 1000,
      departure: p.departure === null ? 0 : Math.abs(p.departure - truth.departures[p.stopIndex]) / 1000,
    }));

const kinds = (
  events: { type: string; exception: { kind: string; vehicleId: number | null } }[],
  type: 'raised' | 'cleared',
  vehicleId?: number,
) => events.filter((e) => e.type === type && (vehicleId === undefined || e.exception.vehicleId === vehicleId)).map((e) => e.exception.kind);

describe('dispatch engine: trip matching and stop passages', () => {
  it('follows a vehicle by its task through a run and into the next one, every stop passed within seconds', () => {
    const day = city({ tasks: [{ vehicleId: 7, variantId: 101, graph: 1, smena: '1' }] });
    const engine = engineOn(day);
    const a1 = runOf(day, 101, 1, 1);
    const b2 = runOf(day, 101, 1, 2);
    const first = drive(a1, { noiseM: 8, seed: 3 });
    const layover = stand(b2.shape.at(b2.dists[0]), first.arrivals[9] + 5000, b2.start - 5000);
    const second = drive(b2, { noiseM: 8, seed: 4, from: b2.start - 2000 });
    // the last stop is reached when the vehicle stands there (or passes it)
    const standing = stand(b2.shape.at(b2.dists[9]), second.arrivals[9] + 3000, second.arrivals[9] + 30_000);
    const { passages, events } = feed(engine, [[7, [...first.fixes, ...layover, ...second.fixes, ...standing]]]);

    expect(passages.filter((p) => p.run === a1).map((p) => p.stopIndex)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(passages.filter((p) => p.run === b2).map((p) => p.stopIndex)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    const errors = [...errorsOf(passages, first, a1.key), ...errorsOf(passages, second, b2.key)];
    expect(Math.max(...errors.map((e) => Math.max(e.arrival, e.departure)))).toBeLessThan(10);
    expect(passages.every((p) => !p.interpolated)).toBe(true);
    const state = engine.state(7)!;
    expect(state.matchedBy).toBe('task');
    expect(state.otherExit).toBe(false);
    expect(Math.abs(state.deviation!)).toBeLessThan(30);
    expect(kinds(events, 'raised')).toEqual([]);
  });

  it('lets a vehicle waiting for its next run go when that run is cancelled, and does not wait for a cancelled one', () => {
    const day = city({ tasks: [{ vehicleId: 7, variantId: 101, graph: 1, smena: '1' }] });
    const a1 = runOf(day, 101, 1, 1);
    const b2 = runOf(day, 101, 1, 2);
    const first = drive(a1, { noiseM: 8, seed: 3 });
    const layover = stand(b2.shape.at(b2.dists[0]), first.arrivals[9] + 5000, first.arrivals[9] + 60_000);
    const cancelB2 = new Map([[b2.key, { cancelled: true, shiftMs: 0 }]]);

    const waiting = engineOn(day);
    feed(waiting, [[7, [...first.fixes, ...layover]]]);
    expect(waiting.state(7)!.run).toBe(b2);
    waiting.setServiceChanges(cancelB2);
    expect(waiting.state(7)!.run).toBeNull();

    const cancelledBefore = engineOn(day);
    cancelledBefore.setServiceChanges(cancelB2);
    feed(cancelledBefore, [[7, [...first.fixes, ...layover]]]);
    expect(cancelledBefore.state(7)!.run).not.toBe(b2);
  });

  it('interpolates the stops passed in a reporting gap and on a sparse terminal (every 30 s)', () => {
    const day = city({ tasks: [{ vehicleId: 7, variantId: 101, graph: 1, smena: '1' }] });
    const engine = engineOn(day);
    const a1 = runOf(day, 101, 1, 1);
    const truth = drive(a1, { intervalS: 30, noiseM: 10, gaps: [[at(8, 5), at(8, 11)]], seed: 5 });
    const { passages } = feed(engine, [[7, truth.fixes]]);
    const ofRun = passages.filter((p) => p.run === a1);
    expect(ofRun.map((p) => p.stopIndex)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(ofRun.filter((p) => p.interpolated).map((p) => p.stopIndex)).toEqual(expect.arrayContaining([3, 4]));
    const errors = errorsOf(passages, truth, a1.key)
      .map((e) => Math.max(e.arrival, e.departure))
      .sort((x, y) => x - y);
    // even spacing over a gap cannot know the dwells in it; elsewhere within a report interval
    expect(errors[Math.floor(errors.length * 0.9) - 1]).toBeLessThan(30);
    expect(Math.max(...errors)).toBeLessThan(70);
  });

  it('keeps a vehicle an hour late on its own run, not the run of its exit an hour later, and its exit goes on in turn', () => {
    const day = city({ tasks: [{ vehicleId: 7, variantId: 101, graph: 1, smena: '1' }] });
    const engine = engineOn(day);
    const a1 = runOf(day, 101, 1, 1);
    // stuck for an hour at the fifth stop: the run of its exit in the same direction passes the place meanwhile
    const truth = drive(a1, { delay: (i) => (i < 5 ? 0 : 3600), dwellS: 20, seed: 6 });
    const { passages, events } = feed(engine, [[7, truth.fixes]]);
    expect(passages.map((p) => [p.run.key, p.stopIndex])).toEqual(a1.stopIds.map((_, i) => [a1.key, i]));
    expect(engine.state(7)!.run).toBe(runOf(day, 101, 1, 2));
    expect(kinds(events, 'raised', 7)).toContain('late');
    expect(engine.state(7)!.deviation).toBeGreaterThan(3000);
  });

  it('puts a vehicle coming out late on the run of its exit its time fits (it joins its timetable)', () => {
    const day = city({ tasks: [{ vehicleId: 7, variantId: 101, graph: 1, smena: '1' }] });
    const engine = engineOn(day);
    const a3 = runOf(day, 101, 1, 3);
    const truth = drive(a3, { delay: 120, seed: 26 });
    const { passages } = feed(engine, [[7, truth.fixes]]);
    expect(new Set(passages.map((p) => p.run.key))).toEqual(new Set([a3.key]));
  });

  it('finds a vehicle sent to another exit by the best fit, and says it is not its own', () => {
    const day = city({ tasks: [{ vehicleId: 7, variantId: 101, graph: 1, smena: '1' }] });
    const engine = engineOn(day);
    const other = runOf(day, 201, 1, 1);
    const truth = drive(other, { seed: 7 });
    const halfway = truth.departures[2];
    feed(engine, [[7, truth.fixes.filter((f) => f.time <= halfway)]]);
    const state = engine.state(7)!;
    expect(state.run).toBe(other);
    expect(state.matchedBy).toBe('fit');
    expect(state.otherExit).toBe(true);
    const { passages } = feed(engine, [[7, truth.fixes.filter((f) => f.time > halfway)]]);
    expect(passages.map((p) => p.run.key)).toEqual(Array(4).fill(other.key));
  });

  it('matches a vehicle without a task to the run its time fits among the exits of the line', () => {
    const day = city();
    const engine = engineOn(day);
    const second = runOf(day, 101, 2, 1);
    const truth = drive(second, { delay: 60, seed: 8 });
    const { passages } = feed(engine, [[9, truth.fixes]]);
    expect(new Set(passages.map((p) => p.run.key))).toEqual(new Set([second.key]));
    expect(engine.state(9)!.matchedBy).toBe('fit');
    expect(engine.state(9)!.otherExit).toBe(false);
  });

  it('takes a replacement: the new vehicle works the exit from the replacement time', () => {
    const day = city({
      tasks: [{ vehicleId: 7, variantId: 101, graph: 1, smena: '1' }],
      replacements: [{ vehicleId: 7, replaceVehicleId: 8, variantId: 101, graph: 1, smena: '1', startMinute: 8 * 60 + 20 }],
    });
    const engine = engineOn(day);
    const b2 = runOf(day, 101, 1, 2);
    const truth = drive(b2, { seed: 9 });
    const { passages } = feed(engine, [[8, truth.fixes]]);
    expect(passages.filter((p) => p.run === b2)).toHaveLength(10);
    expect(engine.state(8)!.matchedBy).toBe('replacement');
  });

  it('hands an exit over: the broken vehicle is let go and not matched back, the new one works the next run; revoking gives it back', () => {
    const day = city({ tasks: [{ vehicleId: 7, variantId: 101, graph: 1, smena: '1' }] });
    const engine = engineOn(day);
    const a1 = runOf(day, 101, 1, 1);
    const b2 = runOf(day, 101, 1, 2);
    const first = drive(a1, { seed: 4 });
    const breakdown = first.departures[4] + 30_000;
    feed(engine, [[7, first.fixes.filter((f) => f.time <= breakdown)]]);
    expect(engine.state(7)!.run).toBe(a1);
    const handover = { blockKey: a1.blockKey, vehicleId: 8, fromVehicleId: 7, at: breakdown + 60_000 };
    engine.setServiceChanges(new Map(), { handovers: [handover], added: [] });
    expect(engine.state(7)!.run).toBeNull();
    expect(day.assignments.get(7)).toEqual([{ blockKey: a1.blockKey, from: -Infinity, to: handover.at, replacement: false }]);
    expect(day.assignments.get(8)).toEqual([{ blockKey: a1.blockKey, from: handover.at, to: Infinity, replacement: true }]);
    // standing where it broke down, it is not put back on the exit it gave up
    const still = first.fixes.find((f) => f.time > breakdown)!;
    feed(engine, [[7, stand(still, handover.at + 10_000, handover.at + 120_000)]]);
    expect(engine.state(7)!.run?.blockKey).not.toBe(a1.blockKey);
    const { passages } = feed(engine, [[8, drive(b2, { seed: 5 }).fixes]]);
    expect(passages.filter((p) => p.run === b2 && p.vehicleId === 8)).toHaveLength(10);
    expect(engine.state(8)!.matchedBy).toBe('replacement');

    engine.setServiceChanges(new Map());
    expect(day.assignments.get(7)).toEqual([{ blockKey: a1.blockKey, from: -Infinity, to: Infinity, replacement: false }]);
    expect(day.assignments.has(8)).toBe(false);
    expect(engine.state(8)!.run?.blockKey).not.toBe(a1.blockKey);
  });

  it('adds a run to the day from a run of the timetable, moved: matched, passed, predicted; revoking takes it out', () => {
    const day = city();
    const engine = engineOn(day);
    const a1 = runOf(day, 101, 1, 1);
    const key = `${a1.serviceDate}|101|0|+5|1`;
    const start = at(9, 3);
    engine.setServiceChanges(new Map(), { handovers: [], added: [{ key, templateKey: a1.key, start, vehicleId: 9 }] });
    const added = day.runByKey.get(key)!;
    expect(added).toMatchObject({ added: true, graph: 0, smena: '+5', raceNum: 1, routeId: 1, direction: 0, start });
    expect(added.end - added.start).toBe(a1.end - a1.start);
    expect(day.blocks.get(added.blockKey)!.runs).toEqual([added]);
    const truth = drive(added, { seed: 6 });
    const half = truth.fixes.filter((f) => f.time <= truth.departures[5] + 20_000);
    const { passages } = feed(engine, [[9, half]]);
    expect(passages.filter((p) => p.run === added).map((p) => p.stopIndex)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(engine.state(9)).toMatchObject({ run: added, matchedBy: 'task' });
    const predicted = engine.predictions(9, truth.departures[5] + 20_000).filter((p) => p.run === added);
    expect(predicted.map((p) => p.stopIndex)).toEqual([6, 7, 8, 9]);
    expect(engine.addedRunList()).toEqual([added]);

    engine.setServiceChanges(new Map());
    expect(day.runByKey.has(key)).toBe(false);
    expect(day.runs).not.toContain(added);
    expect(engine.state(9)!.run).toBeNull();
    expect(engine.addedRunList()).toEqual([]);
    // a vehicle without a task on the line is not matched to the run taken out
    feed(engine, [[9, truth.fixes.filter((f) => f.time > truth.departures[5])]]);
    expect(engine.state(9)!.run).not.toBe(added);
  });

  it('closes a stop for a period: no passage there, none predicted; runs outside the period and revoking keep it', () => {
    const day = city({ tasks: [{ vehicleId: 7, variantId: 101, graph: 1, smena: '1' }] });
    const engine = engineOn(day);
    const a1 = runOf(day, 101, 1, 1);
    const a3 = runOf(day, 101, 1, 3);
    // stop 5 (the fifth of A) closed on route 1 for the first half hour; the other route's stops untouched
    engine.setServiceChanges(new Map(), { handovers: [], added: [], closures: [{ routeId: 1, stopId: 5, from: at(7, 0), to: at(8, 30) }] });
    expect([...engine.closedStops(a1.key)]).toEqual([4]);
    expect(engine.closedStops(a3.key).size).toBe(0);
    expect(engine.closedStopsNow(1, 0, a1.stopIds, at(8, 10))).toEqual(new Set([5]));
    const truth = drive(a1, { seed: 31 });
    const early = truth.fixes.filter((f) => f.time <= truth.departures[2] + 20_000);
    const { passages } = feed(engine, [[7, early]]);
    expect(
      engine
        .predictions(7, truth.departures[2] + 20_000)
        .filter((p) => p.run === a1)
        .map((p) => p.stopIndex),
    ).toEqual([3, 5, 6, 7, 8, 9]);
    const rest = feed(engine, [[7, truth.fixes.filter((f) => f.time > truth.departures[2] + 20_000)]]);
    const indexes = [...passages, ...rest.passages].filter((p) => p.run === a1).map((p) => p.stopIndex);
    expect(indexes).toEqual([0, 1, 2, 3, 5, 6, 7, 8, 9]);

    engine.setServiceChanges(new Map());
    expect(engine.closedStops(a1.key).size).toBe(0);
    expect(engine.closedStopsNow(1, 0, a1.stopIds, at(8, 10)).size).toBe(0);
  });

  it('follows a run along its detour: not off the route, the skipped stops not passed nor predicted; revoking restores the line', () => {
    const day = city({ tasks: [{ vehicleId: 7, variantId: 101, graph: 1, smena: '1' }] });
    const a1 = runOf(day, 101, 1, 1);
    // 400 m north of the line from stop 3 to stop 7: the vehicle drives there from 08:06 to 08:09
    const north = (m: number, eastM: number) => ({
      lat: 55.75 + m / 110_574,
      lon: 37.6 + eastM / (111_320 * Math.cos((55.75 * Math.PI) / 180)),
    });
    const path = [north(8, 1200), north(408, 1200), north(408, 3600), north(8, 3600)];
    const detour = { routeId: 1, direction: 0 as const, fromStopId: 3, toStopId: 7, from: at(7, 0), to: at(12, 0), path };
    const truth = drive(a1, { detour: { from: at(8, 6), to: at(8, 9), metres: 400 }, seed: 21 });

    const engine = engineOn(day);
    engine.setServiceChanges(new Map(), { handovers: [], added: [], detours: [detour] });
    expect(engine.isDetoured(a1.key)).toBe(true);
    expect(engine.isDetoured(runOf(day, 101, 1, 2).key)).toBe(false);
    expect([...engine.closedStops(a1.key)]).toEqual([3, 4, 5]);
    const onDetour = truth.fixes.filter((f) => f.time < at(8, 8));
    const first = feed(engine, [[7, onDetour]]);
    expect(engine.state(7)).toMatchObject({ run: a1, offRouteSince: null });
    expect(
      engine
        .predictions(7, at(8, 8))
        .filter((p) => p.run === a1 && p.stopIndex < 7)
        .map((p) => p.stopIndex),
    ).toEqual([6]);
    const second = feed(engine, [[7, truth.fixes.filter((f) => f.time >= at(8, 8))]], at(8, 30));
    const events = [...first.events, ...second.events];
    expect(kinds(events, 'raised', 7)).not.toContain('off_route');
    const indexes = [...first.passages, ...second.passages].filter((p) => p.run === a1).map((p) => p.stopIndex);
    expect(indexes).toEqual([0, 1, 2, 6, 7, 8, 9]);
    // a vehicle without a task found on the detour's path is matched to a detoured run
    const fresh = engineOn(city());
    fresh.setServiceChanges(new Map(), { handovers: [], added: [], detours: [detour] });
    feed(fresh, [[9, truth.fixes.filter((f) => f.time >= at(8, 6, 30) && f.time < at(8, 8))]]);
    expect(fresh.state(9)!.run?.key).toBe(a1.key);

    engine.setServiceChanges(new Map());
    expect(engine.isDetoured(a1.key)).toBe(false);
    expect(engine.closedStops(a1.key).size).toBe(0);
  });

  it('does not match a deadhead from the depot, then picks the run up at its first stop', () => {
    const day = city({ tasks: [{ vehicleId: 7, variantId: 101, graph: 1, smena: '1' }] });
    const engine = engineOn(day);
    const a1 = runOf(day, 101, 1, 1);
    const depot = { lat: 55.75 + 1500 / 110_574, lon: 37.6 };
    const parked = stand(depot, at(7, 30), at(7, 50), 30);
    const truth = drive(a1, { from: at(7, 57), seed: 10 });
    feed(engine, [[7, parked]]);
    expect(engine.state(7)!.run).toBeNull();
    const { passages } = feed(engine, [[7, truth.fixes]]);
    expect(passages.filter((p) => p.run === a1)).toHaveLength(10);
  });

  it('times a call from when the vehicle stands at the stop to when it moves off, within two seconds on a terminal reporting every second', () => {
    const day = city({ tasks: [{ vehicleId: 7, variantId: 101, graph: 1, smena: '1' }] });
    const engine = engineOn(day);
    const a1 = runOf(day, 101, 1, 1);
    const truth = drive(a1, { intervalS: 1, noiseM: 5, dwellS: 25, seed: 31 });
    const standing = stand(a1.shape.at(a1.dists[9]), truth.arrivals[9] + 1000, truth.arrivals[9] + 20_000, 1);
    const { passages } = feed(engine, [[7, [...truth.fixes, ...standing]]]);
    expect(passages.filter((p) => p.run === a1).map((p) => p.stopIndex)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    const errors = errorsOf(passages, truth, a1.key).flatMap((e) => [e.arrival, e.departure]);
    expect(Math.max(...errors)).toBeLessThan(2);
  });

  it('ends a run at its last stop when the vehicle leaves the line there for its terminus stand', () => {
    const day = city({ tasks: [{ vehicleId: 7, variantId: 101, graph: 1, smena: '1' }] });
    const engine = engineOn(day);
    const a1 = runOf(day, 101, 1, 1);
    const truth = drive(a1, { intervalS: 2, seed: 32 });
    // coming in to the last stop it turns off the line, to a stand 200 m north of the terminus
    const end = a1.shape.at(a1.dists[9]);
    const away = stand({ lat: end.lat + 200 / 110_574, lon: end.lon }, truth.arrivals[9] + 10_000, truth.arrivals[9] + 120_000);
    const { passages } = feed(engine, [[7, [...truth.fixes.filter((f) => f.time < truth.arrivals[9] - 2000), ...away]]]);
    const last = passages.find((p) => p.run === a1 && p.stopIndex === 9);
    expect(last).toBeDefined();
    expect(Math.abs(last!.arrival! - truth.arrivals[9]) / 1000).toBeLessThan(15);
    expect(engine.state(7)!.run).not.toBe(a1);
  });

  it('rides through receiver outliers and silences without losing the run or a stop', () => {
    const day = city({ tasks: [{ vehicleId: 7, variantId: 101, graph: 1, smena: '1' }] });
    const engine = engineOn(day);
    const a1 = runOf(day, 101, 1, 1);
    const truth = drive(a1, { intervalS: 10, noiseM: 8, gaps: [[at(8, 9), at(8, 11, 30)]], seed: 33 });
    // every fifteenth fix thrown 300 m off
    const fixes = truth.fixes.map((f, i) => (i % 15 === 7 ? { ...f, lat: f.lat + 300 / 110_574 } : f));
    const standing = stand(a1.shape.at(a1.dists[9]), truth.arrivals[9] + 5000, truth.arrivals[9] + 30_000);
    const { passages, events } = feed(engine, [[7, [...fixes, ...standing]]]);
    expect(passages.filter((p) => p.run === a1).map((p) => p.stopIndex)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(kinds(events, 'raised', 7)).not.toContain('off_route');
    expect(engine.state(7)!.matchedBy).toBe('task');
  });

  it("follows two vehicles of a line sent to each other's exits on the exits they work, once the second sets off", () => {
    const day = city({
      tasks: ROUTE1_EXITS,
    });
    const engine = engineOn(day);
    // vehicle 2 works exit 1's runs (from 08:00), vehicle 1 exit 2's (from 08:10)
    const [exit1, exit2] = [
      [1, 2, 3],
      [1, 2, 3],
    ].map((races, g) => races.map((race) => runOf(day, 101, g + 1, race)));
    const trackOf = (runs: typeof exit1, seed: number) =>
      runs.flatMap((run, i) => {
        const d = drive(run, { seed: seed + i, from: run.start - (i === 0 ? 120_000 : 30_000) });
        return [...d.fixes, ...stand(run.shape.at(run.dists[9]), d.arrivals[9] + 5000, d.arrivals[9] + 25_000)];
      });
    const { passages } = feed(engine, [
      [2, trackOf(exit1, 40)],
      [1, trackOf(exit2, 50)],
    ]);
    for (const [vehicleId, runs] of [
      [2, exit1],
      [1, exit2],
    ] as const) {
      const state = engine.state(vehicleId)!;
      expect(state.otherExit).toBe(true);
      // the runs after the first one are each vehicle's passages on the exit it works
      for (const run of runs.slice(1)) expect(stopsOf(passages, vehicleId, run)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    }
    // the second to set off is on its exit from its first stop
    expect(stopsOf(passages, 1, exit2[0])).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it('names its last passages by the runs of the days read again, so the days read before are freed', () => {
    const tasks = [{ vehicleId: 7, variantId: 101, graph: 1, smena: '1' }];
    const day = city({ tasks });
    const engine = engineOn(day);
    const run = runOf(day, 101, 1, 1);
    const truth = drive(run, { seed: 81 });
    feed(engine, [[7, truth.fixes.filter((f) => f.time < truth.departures[4])]]);
    expect(engine.state(7)!.passages.map((p) => p.stopIndex)).toEqual([0, 1, 2, 3]);

    const again = city({ tasks });
    engine.setDays([again]);
    const state = engine.state(7)!;
    expect(state.run).toBe(runOf(again, 101, 1, 1));
    expect(state.passages.map((p) => p.stopIndex)).toEqual([0, 1, 2, 3]);
    expect(state.passages.every((p) => p.run === runOf(again, 101, 1, 1))).toBe(true);
    // a day without the run: its passages go with it
    engine.setDays([city({ tasks: [] })].map((d) => ({ ...d, runByKey: new Map() })));
    expect(engine.state(7)!.passages).toEqual([]);
  });

  it("follows two vehicles sent to each other's exits two minutes apart once that held at three departures in a row", () => {
    const day = city({
      exitGap: 2,
      tasks: ROUTE1_EXITS,
    });
    const engine = engineOn(day);
    // vehicle 2 works exit 1 (08:00), vehicle 1 exit 2 (08:02), each within half a minute of that timetable
    const [exit1, exit2] = [runOf(day, 101, 1, 1), runOf(day, 101, 2, 1)];
    const jitter = (seed: number) => (i: number) => ((seed * 7 + i * 13) % 50) - 25;
    const mine = drive(exit2, { delay: jitter(1), seed: 71, from: exit2.start - 60_000 });
    const theirs = drive(exit1, { delay: jitter(2), seed: 72, from: exit1.start - 60_000 });
    const standAtEnd = (run: typeof exit1, d: typeof mine) =>
      stand(run.shape.at(run.dists[9]), d.arrivals[9] + 5000, d.arrivals[9] + 25_000);
    const { passages } = feed(engine, [
      [1, [...mine.fixes, ...standAtEnd(exit2, mine)]],
      [2, [...theirs.fixes, ...standAtEnd(exit1, theirs)]],
    ]);
    for (const [vehicleId, run] of [
      [1, exit2],
      [2, exit1],
    ] as const) {
      expect(engine.state(vehicleId)!.otherExit).toBe(true);
      expect(engine.state(vehicleId)!.run!.blockKey).toBe(run.blockKey);
      // on the exit it works from the fourth stop at the latest
      const stops = stopsOf(passages, vehicleId, run);
      expect(stops.slice(-6)).toEqual([4, 5, 6, 7, 8, 9]);
    }
  });

  it('keeps two vehicles of exits two minutes apart on their tasks when one pulls out three minutes late', () => {
    const day = city({
      exitGap: 2,
      tasks: ROUTE1_EXITS,
    });
    const engine = engineOn(day);
    // vehicle 1 sets off 3 min late, behind vehicle 2: it is late on its own run, vehicle 2 on time on its own
    const [exit1, exit2] = [runOf(day, 101, 1, 1), runOf(day, 101, 2, 1)];
    const late = drive(exit1, { delay: 180, seed: 73, from: exit1.start - 60_000 });
    const onTime = drive(exit2, { delay: 10, seed: 74, from: exit2.start - 60_000 });
    const { passages } = feed(engine, [
      [1, late.fixes],
      [2, onTime.fixes],
    ]);
    const all = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9];
    expect(stopsOf(passages, 1, exit1)).toEqual(all);
    expect(stopsOf(passages, 2, exit2)).toEqual(all);
    expect(engine.state(1)!.matchedBy).toBe('task');
    expect(engine.state(2)!.matchedBy).toBe('task');
  });

  it("moves a vehicle off its task's run that another, sent there from another route, works: to the exit it works", () => {
    const day = city({
      tasks: [
        { vehicleId: 1, variantId: 101, graph: 1, smena: '1' },
        { vehicleId: 2, variantId: 201, graph: 1, smena: '1' },
      ],
    });
    const engine = engineOn(day);
    // vehicle 2, tasked on route 2, works route 1's exit 1 (08:00); vehicle 1, tasked with that exit, works exit 2 (08:10)
    const [exit1, exit2] = [runOf(day, 101, 1, 1), runOf(day, 101, 2, 1)];
    const sent = drive(exit1, { seed: 75, from: exit1.start - 60_000 });
    const mine = drive(exit2, { seed: 76, from: exit2.start - 60_000 });
    const { passages } = feed(engine, [
      [2, sent.fixes],
      [1, mine.fixes],
    ]);
    expect(stopsOf(passages, 2, exit1)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(engine.state(2)!.matchedBy).toBe('fit');
    // vehicle 1 is on exit 2 from its second stop on, never beside vehicle 2 on exit 1 after its first
    const ones = passages.filter((p) => p.vehicleId === 1);
    expect(ones.filter((p) => p.run === exit2).map((p) => p.stopIndex)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(ones.filter((p) => p.run === exit1).map((p) => p.stopIndex)).toEqual([0]);
    expect(engine.state(1)!).toMatchObject({ matchedBy: 'fit', otherExit: true });
    expect(engine.state(1)!.run!.blockKey).toBe(exit2.blockKey);
  });

  it('keeps two late vehicles of a line on their own runs when they pass each other in opposite directions', () => {
    const day = city({
      tasks: ROUTE1_EXITS,
    });
    const engine = engineOn(day);
    // at peak: vehicle 1 sets off on its westbound second run 3 min late while vehicle 2, 6 min late on its first
    // eastbound run, comes the other way; each, read against the other's run of the other direction, looks on time
    const [a1, b2, mine] = [runOf(day, 101, 1, 1), runOf(day, 101, 1, 2), runOf(day, 101, 2, 1)];
    const first = drive(a1, { delay: 60, seed: 61 });
    const layover = stand(b2.shape.at(b2.dists[0]), first.arrivals[9] + 5000, b2.start + 150_000);
    const second = drive(b2, { delay: 180, seed: 62, from: b2.start + 160_000 });
    const other = drive(mine, { delay: 360, seed: 63 });
    const { passages } = feed(engine, [
      [1, [...first.fixes, ...layover, ...second.fixes]],
      [2, other.fixes],
    ]);
    const all = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9];
    expect(stopsOf(passages, 1, b2)).toEqual(all);
    expect(stopsOf(passages, 2, mine)).toEqual(all);
    expect(passages.filter((p) => p.run.blockKey !== (p.vehicleId === 1 ? a1.blockKey : mine.blockKey))).toEqual([]);
    expect(engine.state(1)!.matchedBy).toBe('task');
    expect(engine.state(2)!.matchedBy).toBe('task');
  });

  it('keeps a vehicle held up in traffic and the one running early past it on their own runs', () => {
    const day = city({
      tasks: ROUTE1_EXITS,
    });
    const engine = engineOn(day);
    // vehicle 1 crawls 12 min behind from its third stop on; vehicle 2, 4 min early, passes it: read by position
    // alone they would suit each other's runs, but vehicle 2 only runs later on vehicle 1's than early on its own
    const [lead, follow] = [runOf(day, 101, 1, 1), runOf(day, 101, 2, 1)];
    const held = drive(lead, { delay: (i) => (i < 3 ? 0 : 720), seed: 64 });
    const early = drive(follow, { delay: -240, seed: 65 });
    const { passages } = feed(engine, [
      [1, held.fixes],
      [2, early.fixes],
    ]);
    const all = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9];
    expect(stopsOf(passages, 1, lead)).toEqual(all);
    expect(stopsOf(passages, 2, follow)).toEqual(all);
    expect(engine.state(1)!.matchedBy).toBe('task');
    expect(engine.state(2)!.matchedBy).toBe('task');
  });

  it('places a crossing between fixes by the speeds at either end', () => {
    expect(crossTime({ time: 0, dist: 0, speed: 10 }, { time: 20_000, dist: 100, speed: 0 }, 100)).toBe(10_000);
    expect(crossTime({ time: 0, dist: 0, speed: 0 }, { time: 600_000, dist: 6000, speed: 10 }, 3000)).toBe(300_000);
  });
});

describe('dispatch engine: headways and exceptions, raised and cleared', () => {
  const tasks = ROUTE1_EXITS;

  it('measures the headway to the vehicle ahead and raises bunching, then clears it', () => {
    const day = city({ tasks });
    const engine = engineOn(day);
    // the leader 8 minutes late on its first run, on time on its second; the follower on time throughout
    const lead1 = drive(runOf(day, 101, 1, 1), { delay: 480, seed: 11 });
    const lead3 = drive(runOf(day, 101, 1, 3), { seed: 12 });
    const follow1 = drive(runOf(day, 101, 2, 1), { seed: 13 });
    const follow3 = drive(runOf(day, 101, 2, 3), { seed: 14 });
    const first = feed(engine, [
      [1, lead1.fixes],
      [2, follow1.fixes],
    ]);
    expect(engine.state(2)!.scheduledHeadway).toBe(600);
    expect(engine.state(2)!.headway).toBeGreaterThan(90);
    expect(engine.state(2)!.headway).toBeLessThan(150);
    expect(kinds(first.events, 'raised', 2)).toContain('bunching');
    const second = feed(engine, [
      [1, lead3.fixes],
      [2, follow3.fixes],
    ]);
    expect(Math.abs(engine.state(2)!.headway! - 600)).toBeLessThan(30);
    expect(kinds(second.events, 'cleared', 2)).toContain('bunching');
  });

  it('keeps the headway current between stops: bunching behind a leader held up after a stop, cleared while the follower is held', () => {
    const day = city({ tasks });
    const engine = engineOn(day);
    // the leader leaves its sixth stop on time and crawls 12 min late to the next; the follower, on time, closes
    // up behind it and is then held 5 min at that next stop
    const lead = drive(runOf(day, 101, 1, 1), { delay: (i) => (i < 6 ? 0 : 720), seed: 21 });
    const follow = drive(runOf(day, 101, 2, 1), {
      delay: (i) => (i < 6 ? 0 : i === 6 ? 180 : 480),
      dwellS: (i) => (i === 6 ? 320 : 20),
      seed: 22,
    });
    const { events } = feed(engine, [
      [1, lead.fixes],
      [2, follow.fixes],
    ]);
    const bunching = events.filter((e) => e.exception.kind === 'bunching' && e.exception.vehicleId === 2);
    const raised = bunching.find((e) => e.type === 'raised')!;
    const cleared = bunching.find((e) => e.type === 'cleared')!;
    // measured at departures alone the follower's headway is 10 min at the sixth stop and 6 at the seventh
    expect(raised.at).toBeGreaterThan(follow.departures[4]);
    expect(raised.at).toBeLessThan(follow.arrivals[6]);
    expect(cleared.at).toBeGreaterThan(lead.departures[6] + 120_000);
    expect(cleared.at).toBeLessThan(follow.departures[6]);
    expect(engine.state(2)!.scheduledHeadway).toBe(600);
  });

  it('raises a gap behind a vehicle far ahead, and clears it', () => {
    const day = city({ tasks });
    const engine = engineOn(day);
    const first = feed(engine, [
      [1, drive(runOf(day, 101, 1, 1), { seed: 15 }).fixes],
      [2, drive(runOf(day, 101, 2, 1), { delay: 600, seed: 16 }).fixes],
    ]);
    expect(kinds(first.events, 'raised', 2)).toContain('gap');
    const second = feed(engine, [
      [1, drive(runOf(day, 101, 1, 3), { seed: 17 }).fixes],
      [2, drive(runOf(day, 101, 2, 3), { seed: 18 }).fixes],
    ]);
    expect(kinds(second.events, 'cleared', 2)).toContain('gap');
  });

  it('raises late while behind and clears it when the vehicle is back on time', () => {
    const day = city({ tasks });
    const engine = engineOn(day);
    // five minutes late up to the middle of the run, then on time
    const truth = drive(runOf(day, 101, 1, 1), { delay: (i) => (i < 5 ? 300 : 0), seed: 19 });
    const { events } = feed(engine, [[1, truth.fixes]]);
    expect(kinds(events, 'raised', 1)).toContain('late');
    expect(kinds(events, 'cleared', 1)).toContain('late');
  });

  it('raises early when the vehicle runs ahead of the timetable, and clears it', () => {
    const day = city({ tasks });
    const engine = engineOn(day);
    const truth = drive(runOf(day, 101, 1, 1), { delay: (i) => (i >= 3 && i < 7 ? -150 : 0), seed: 20 });
    const { events } = feed(engine, [[1, truth.fixes]]);
    expect(kinds(events, 'raised', 1)).toContain('early');
    expect(kinds(events, 'cleared', 1)).toContain('early');
  });

  it('raises off the route after a sustained detour and clears it on return', () => {
    const day = city({ tasks });
    const engine = engineOn(day);
    const truth = drive(runOf(day, 101, 1, 1), { detour: { from: at(8, 6), to: at(8, 9), metres: 400 }, seed: 21 });
    const { events } = feed(engine, [[1, truth.fixes]]);
    expect(kinds(events, 'raised', 1)).toEqual(['off_route']);
    expect(kinds(events, 'cleared', 1)).toEqual(['off_route']);
  });

  it('raises no signal for a silent vehicle in service and clears it on its next fix', () => {
    const day = city({ tasks });
    const engine = engineOn(day);
    const truth = drive(runOf(day, 101, 1, 1), { gaps: [[at(8, 4), at(8, 12)]], seed: 22 });
    const { events } = feed(engine, [[1, truth.fixes]]);
    expect(kinds(events, 'raised', 1)).toContain('no_signal');
    expect(kinds(events, 'cleared', 1)).toContain('no_signal');
  });

  it('raises an exit not started on time, and clears it when the vehicle sets off', () => {
    const day = city({ tasks });
    const engine = engineOn(day);
    engine.tick(at(8, 4));
    expect(kinds(engine.drain().events, 'raised')).toEqual([]);
    engine.tick(at(8, 6));
    const raised = engine.drain().events;
    expect(raised.map((e) => [e.exception.kind, e.exception.vehicleId, e.exception.blockKey])).toEqual([
      ['exit_not_started', 1, runOf(day, 101, 1, 1).blockKey],
    ]);
    const truth = drive(runOf(day, 101, 1, 1), { delay: 420, seed: 23, from: at(8, 6) });
    const { events } = feed(engine, [[1, truth.fixes]]);
    expect(events.filter((e) => e.type === 'cleared').map((e) => e.exception.kind)).toContain('exit_not_started');
  });

  it('raises no exit not started for a vehicle already out on a later run of its exit (a process started mid-day)', () => {
    const day = city({ tasks });
    const later = runOf(day, 101, 1, 2);
    const mid = (later.start + later.end) / 2;
    const engine = engineOn(day, undefined, mid);
    // fixes between two stops only: no passage tells the engine the exit has started
    const [first, ...fixes] = drive(later, { seed: 24 }).fixes.filter((f) => f.time >= mid && f.time < mid + 30_000);
    engine.onFix(1, first);
    const { events } = feed(engine, [[1, fixes]], mid + 45_000);
    expect(engine.state(1)?.run?.key).toBe(later.key);
    expect(kinds(events, 'raised', 1)).not.toContain('exit_not_started');
  });

  it('raises a run not performed after its end, and clears it if the run is worked after all', () => {
    const day = city({ tasks: [...tasks, { vehicleId: 3, variantId: 201, graph: 1, smena: '1' }] });
    const engine = engineOn(day);
    const run = runOf(day, 201, 1, 1);
    engine.tick(run.end + 16 * 60_000);
    const raised = engine.drain().events.filter((e) => e.exception.kind === 'run_not_performed');
    expect(raised.map((e) => [e.exception.runKey, e.exception.vehicleId])).toEqual([[run.key, 3]]);
    const truth = drive(run, { delay: 30 * 60, seed: 24, from: run.end + 16 * 60_000 });
    const { events } = feed(engine, [[3, truth.fixes]]);
    expect(events.filter((e) => e.type === 'cleared' && e.exception.kind === 'run_not_performed').map((e) => e.exception.runKey)).toEqual([
      run.key,
    ]);
  });
});

describe('dispatch engine: predictions', () => {
  it('predicts from learned segment times better than the timetable plus the current deviation', () => {
    const day = city({ tasks: [{ vehicleId: 1, variantId: 101, graph: 1, smena: '1' }] });
    const a1 = runOf(day, 101, 1, 1);
    // the segments really take 100 s more in the second half of the line than the timetable says
    const delay = (i: number) => (i <= 4 ? 0 : (i - 4) * 100);
    const learned = new LearnedTimes();
    for (let i = 1; i < 10; i++) learned.setRun(a1.stopIds[i - 1], a1.stopIds[i], day.dayType, 8, i <= 4 ? 100 : 200);
    for (let i = 0; i < 10; i++) learned.setDwell(a1.stopIds[i], day.dayType, 8, 20);
    const engine = engineOn(day, learned);
    const truth = drive(a1, { delay, seed: 25 });
    const until = truth.departures[3] + 30_000;
    feed(engine, [[1, truth.fixes.filter((f) => f.time <= until)]]);
    const predictions = engine.predictions(1, until).filter((p) => p.run === a1);
    expect(predictions.map((p) => p.stopIndex)).toEqual([4, 5, 6, 7, 8, 9]);
    const last = predictions[predictions.length - 1];
    const learnedError = Math.abs(last.predicted - truth.arrivals[9]) / 1000;
    const baselineError = Math.abs(last.baseline - truth.arrivals[9]) / 1000;
    expect(learnedError).toBeLessThan(60);
    expect(baselineError).toBeGreaterThan(400);
    // the next run of the exit follows within the hour, never leaving its first stop early
    const next = engine.predictions(1, until).filter((p) => p.run !== a1);
    expect(next.length).toBeGreaterThan(0);
    expect(next[0].predicted).toBeGreaterThanOrEqual(last.predicted);
  });
});
