import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, operatorDate, operatorMidnight } from '../src/server/platform/operatorDay';
import { Polyline } from '../src/server/simulator/polyline';
import { Simulator } from '../src/server/simulator/simulator';
import { simulatorConfig } from '../src/server/simulator/config';
import { outlierAt, terminalOf } from '../src/server/simulator/terminalReports';
import type { Position } from '../src/server/telemetry/types';
import type { VehicleEvent } from '../src/server/telemetry/vehicleEvents';
import { TerminalConnections } from '../src/server/simulator/terminalConnections';
import { VehiclePlan, type Race } from '../src/server/simulator/vehiclePlan';
import { ENGINES } from './helpers/engines';
import { startTestApp, type TestApp } from './helpers/testApp';

const TZ = 180;
const MINUTE = 60_000;

describe('vehicle plan', () => {
  // Two stops 1 km apart due east, a 4-minute hop; the depot 500 m north of the first stop.
  const line = new Polyline([
    { lat: 59.93, lon: 30.3 },
    { lat: 59.93, lon: 30.3 + 1000 / (111_320 * Math.cos((59.93 * Math.PI) / 180)) },
  ]);
  const t0 = Date.UTC(2026, 0, 15, 7, 0);
  const race: Race = { routeId: 7, tripId: 70, line, times: Float64Array.of(t0, t0 + 4 * MINUTE), dists: Float64Array.of(0, line.length) };
  const plan = new VehiclePlan(1, { lat: 59.9345, lon: 30.3 }, [race]);

  it('dwells at a stop, then moves along the line at the speed the timetable asks', () => {
    expect(plan.stateAt(t0 + 10_000)).toMatchObject({ speed: 0, course: 90, routeId: 7, tripId: 70 });
    const half = plan.stateAt(t0 + 30_000 + 105_000)!;
    expect(half.lon).toBeCloseTo((line.first.lon + line.last.lon) / 2, 6);
    expect(half.course).toBe(90);
    expect(half.speed).toBeCloseTo((1000 / 210) * 3.6, 3);
  });

  it('comes out of the depot before the duty and goes back after it; parked outside it', () => {
    expect(plan.stateAt(t0 - 3 * 3_600_000)).toMatchObject({ lat: 59.9345, parked: true, speed: 0 });
    const out = plan.stateAt(t0 - 3 * MINUTE)!;
    expect(out.parked).toBe(false);
    expect(out.lat).toBeLessThan(59.9345);
    expect(out.lat).toBeGreaterThan(59.93);
    expect(plan.stateAt(t0 - MINUTE)).toMatchObject({ lat: 59.93, speed: 0, parked: false });
    expect(plan.stateAt(t0 + 5 * MINUTE)!.speed).toBeGreaterThan(0);
    expect(plan.stateAt(t0 + 5 * 3_600_000)).toMatchObject({ parked: true });
  });
});

describe.each(ENGINES)('simulator on %s', (engine) => {
  let t: TestApp;
  let clock: number;
  let simulator: Simulator;

  beforeAll(async () => {
    t = await startTestApp(engine);
    // Yesterday 10:00 operator time: in the past (the pipeline takes it), and a day without tasks of its own
    // in the test data (loaded today), so the nearest same weekday's duties stand in for it.
    clock = operatorMidnight(addDays(operatorDate(Date.now(), TZ), -1), TZ) + 10 * 60 * MINUTE;
    simulator = new Simulator(
      {
        db: t.db,
        ingest: (positions) => t.app.telemetry.pipeline.ingest(positions),
        incidents: async (incidents, sender) => {
          const outcome = await t.app.adas.ingest.ingest(incidents, sender, clock + 60_000);
          return outcome.ok ? outcome.ids : [];
        },
        log: t.app.log,
      },
      { ...simulatorConfig(false, {}), enabled: true, tzOffsetMinutes: TZ },
      () => clock,
    );
    await simulator.prepare();
  });
  afterAll(async () => {
    await simulator.stop();
    await t.close();
  });

  it('is off without the demo data unless asked, and on with it unless told not to', () => {
    expect(simulatorConfig(false, {}).enabled).toBe(false);
    expect(simulatorConfig(true, {}).enabled).toBe(true);
    expect(simulatorConfig(true, { SIMULATOR: 'false' }).enabled).toBe(false);
    expect(simulatorConfig(false, { SIMULATOR: 'true' }).enabled).toBe(true);
    expect(t.app.simulator).toBeNull();
  });

  it('puts vehicles on duty on their trip lines and moves them between ticks', async () => {
    const [{ n: tasks }] = await t.db.query<{ n: number }>('select count(distinct vehicle_id)::int as n from mgt.vehicle_task');
    expect(simulator.vehicles.length).toBeGreaterThanOrEqual(tasks);

    const first = simulator.tickAll();
    expect(first.length).toBe(simulator.vehicles.length);
    const onTrip = first.filter((p) => simulator.stateOf(p.vehicleId, clock)?.tripId);
    expect(onTrip.length).toBeGreaterThan(3);
    for (const p of onTrip) {
      const tripId = simulator.stateOf(p.vehicleId, clock)!.tripId;
      const [{ metres }] = await t.db.query<{ metres: number }>(
        'select st_distance(trajectory::geography, st_setsrid(st_makepoint($2, $3), 4326)::geography) as metres from mgt.trip where id = $1',
        [tripId, p.lon, p.lat],
      );
      // a receiver's few metres; one fix in 250 is an outlier far off
      if (outlierAt(p.vehicleId, p.time / 1000)) expect(metres, `vehicle ${p.vehicleId}'s outlier`).toBeGreaterThan(80);
      else expect(metres, `vehicle ${p.vehicleId} on trip ${tripId}`).toBeLessThan(15);
    }
    expect(t.app.telemetry.latest.get(first[0].vehicleId)?.time).toBe(Math.floor(clock / 1000) * 1000);

    clock += 30_000;
    const second = simulator.tickAll();
    const before = new Map(first.map((p) => [p.vehicleId, p]));
    const moving = second.filter((p) => p.speed > 3 && (before.get(p.vehicleId)?.speed ?? 0) > 3);
    expect(moving.length).toBeGreaterThan(0);
    for (const p of moving) {
      const q = before.get(p.vehicleId)!;
      expect(Math.hypot((p.lat - q.lat) * 111_000, (p.lon - q.lon) * 55_000)).toBeGreaterThan(20);
      expect(p.course).toBeGreaterThanOrEqual(0);
      expect(p.course).toBeLessThan(360);
    }
    expect(t.app.telemetry.latest.get(moving[0].vehicleId)?.time).toBe(Math.floor(clock / 1000) * 1000);
  });

  it('parks vehicles at their depot outside their duties', async () => {
    const depots = await t.db.query<{ id: number; dp_lat: number; dp_lon: number }>(
      'select v.id, d.dp_lat, d.dp_lon from mgt.vehicles v join mgt.depot d on d.depot_id = v.depot_id',
    );
    const depotOf = new Map(depots.map((d) => [d.id, d]));
    // the test town runs round the clock: each vehicle is looked at after its day's last race
    for (const plan of simulator.vehicles) {
      const state = plan.stateAt(plan.end + 10 * MINUTE)!;
      expect(state.parked).toBe(true);
      expect(state.lat).toBeCloseTo(depotOf.get(plan.vehicleId)!.dp_lat, 5);
    }
  });

  it('raises a driver-assistance incident with a type from the handbook and a grade', async () => {
    const positions = simulator.tickAll();
    const [id] = await simulator.emitIncident(positions, clock);
    const [row] = await t.db.query<{
      incident_type: number;
      grade: number;
      vehicle_id: number;
      depot_number: number | null;
      route_id: number | null;
      trip_id: number | null;
    }>('select incident_type, grade, vehicle_id, depot_number, route_id, trip_id from adas.incident_event where id = $1', [id]);
    // placed where the simulator drives the vehicle (its plan), not by the schedule of a day without tasks
    expect(row.route_id).toBe(simulator.stateOf(row.vehicle_id, clock)?.routeId ?? null);
    const types = (await t.db.query<{ incident_type: number }>('select incident_type from adas.incident_type')).map((r) => r.incident_type);
    expect(types).toContain(row.incident_type);
    expect([1, 2, 3]).toContain(row.grade);
    expect(row.depot_number).not.toBeNull();
  });

  it("sends each terminal's reports at its own interval whatever the beat, and records each run worked as ground truth", async () => {
    const config = { ...simulatorConfig(false, {}), enabled: true, tzOffsetMinutes: TZ, incidentsPerHour: 0 };
    const driveFor = async (stepMs: number) => {
      const sent: Position[] = [];
      let now = clock;
      const sim = new Simulator({ db: t.db, ingest: (positions) => sent.push(...positions), log: t.app.log }, config, () => now);
      await sim.prepare();
      for (; now + stepMs <= clock + 40 * MINUTE; now += stepMs) sim.advance();
      sim.advance();
      return { sim, sent, now };
    };
    const { sim, sent, now } = await driveFor(1000);
    const again = await driveFor(4700);
    const key = (p: Position) => `${p.vehicleId}|${p.time}|${p.lat}|${p.lon}`;
    expect(new Set(again.sent.map(key))).toEqual(new Set(sent.filter((p) => p.time <= again.now).map(key)));

    const byVehicle = new Map<number, Position[]>();
    for (const p of sent) byVehicle.set(p.vehicleId, [...(byVehicle.get(p.vehicleId) ?? []), p]);
    expect(byVehicle.size).toBe(sim.vehicles.length);
    for (const [vehicleId, positions] of byVehicle) {
      const { intervalS } = terminalOf(vehicleId, config.intervals);
      const gaps = positions.slice(1).map((p, i) => (p.time - positions[i].time) / 1000);
      expect(
        gaps.every((gap) => gap > 0 && gap % intervalS === 0),
        `vehicle ${vehicleId} every ${intervalS} s`,
      ).toBe(true);
    }

    expect(await sim.recordTruth(now)).toBeGreaterThan(0);
    const rows = await t.db.query<{
      vehicle_id: number;
      rasp_variant_id: number;
      graph: number;
      smena: string;
      race_num: number;
      stop_ids: number[];
      stop_sequences: number[];
      arrivals: Date[];
      departures: (Date | null)[];
      planned: number;
    }>(
      `select r.*, (select count(*)::int from mgt.rasp_time t where t."RaspVariant_id" = r.rasp_variant_id and t.graph = r.graph and t.smena = r.smena
                      and t.racenum = r.race_num and t."order" = any(r.stop_sequences) and t.stop_id = r.stop_ids[array_position(r.stop_sequences, t."order")]) as planned
         from simulator.truth_run r where r.service_date = $1::date`,
      [operatorDate(clock, TZ)],
    );
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      // a run of the timetable, stop by stop
      expect(row.planned).toBe(row.stop_ids.length);
      const n = row.stop_ids.length;
      expect(row.departures[n - 1]).toBeNull();
      for (let i = 0; i < n; i++) {
        if (i < n - 1) expect(row.departures[i]!.getTime()).toBeGreaterThanOrEqual(row.arrivals[i].getTime());
        if (i > 0) expect(row.arrivals[i].getTime()).toBeGreaterThan(row.departures[i - 1]!.getTime());
      }
      // the vehicle stood at the last stop when the truth says it came there
      const plan = sim.vehicles.find((p) => p.vehicleId === row.vehicle_id)!;
      const state = plan.stateAt(row.arrivals[n - 1].getTime())!;
      const [stop] = await t.db.query<{ lat: number; lon: number }>(
        'select stop_lat as lat, stop_lon as lon from mgt.stops where stop_id = $1',
        [row.stop_ids[n - 1]],
      );
      expect(Math.hypot((state.lat - stop.lat) * 111_000, (state.lon - stop.lon) * 55_000)).toBeLessThan(60);
    }
    // recorded once
    expect(await sim.recordTruth(now)).toBe(0);
  });

  it('writes the work of the day it drives (trips and kilometres per vehicle and route) for the incident rates', async () => {
    const [{ trips, km }] = await t.db.query<{ trips: number; km: number }>(
      'select coalesce(sum(trips), 0)::int as trips, coalesce(sum(km), 0)::float8 as km from adas.route_work where day = $1::date',
      [addDays(operatorDate(Date.now(), TZ), -1)],
    );
    expect(trips).toBeGreaterThan(0);
    expect(km / trips).toBeGreaterThan(1);
  });

  it("journals its terminals' connections: each one's first report, and a silence past the idle time-out as a disconnection", async () => {
    const idleMs = 240_000;
    const config = { ...simulatorConfig(false, {}), enabled: true, tzOffsetMinutes: TZ, incidentsPerHour: 0 };
    const events: VehicleEvent[] = [];
    const sent: Position[] = [];
    let now = clock + 60 * MINUTE;
    const start = now;
    const connections = new TerminalConnections((event) => {
      events.push(event);
      t.app.telemetry.events.emit(event);
    }, idleMs);
    const sim = new Simulator({ db: t.db, ingest: (positions) => sent.push(...positions), connections, log: t.app.log }, config, () => now);
    await sim.prepare();
    for (; now <= start + 4 * 60 * MINUTE; now += 10_000) sim.advance();
    const end = now - 10_000;

    // what a listener closing silent connections after idleMs would have seen, from the reports themselves
    const expected: string[] = [];
    const byVehicle = new Map<number, number[]>();
    for (const p of sent) byVehicle.set(p.vehicleId, [...(byVehicle.get(p.vehicleId) ?? []), p.time]);
    for (const [vehicleId, times] of byVehicle) {
      expected.push(`${vehicleId} connected ${times[0]}`);
      for (let i = 1; i < times.length; i++)
        if (times[i] - times[i - 1] > idleMs)
          expected.push(`${vehicleId} disconnected ${times[i - 1] + idleMs}`, `${vehicleId} connected ${times[i]}`);
      if (end - times[times.length - 1] > idleMs) expected.push(`${vehicleId} disconnected ${times[times.length - 1] + idleMs}`);
    }
    const seen = events.map((e) => `${e.vehicleId} ${e.kind} ${e.at.getTime()}`);
    expect(seen.sort()).toEqual(expected.sort());
    expect(events.filter((e) => e.kind === 'disconnected').length).toBeGreaterThan(0);
    expect(new Set(events.map((e) => e.channel))).toEqual(new Set(['simulator']));

    // in the vehicle events journal, as connect and disconnect
    await expect
      .poll(
        async () =>
          (
            await t.db.query<{ n: number }>(
              `select count(*)::int as n from app.vehicle_event where details->>'channel' = 'simulator' and at >= $1 and at <= $2`,
              [new Date(start), new Date(end + idleMs)],
            )
          )[0].n,
        { timeout: 10_000 },
      )
      .toBe(events.length);
  });
});
