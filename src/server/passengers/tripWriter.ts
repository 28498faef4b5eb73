import type { Db, Queryable } from '../db/types';
import { isoTime } from '../../shared/format';
import type { SimulatedValidation, SimulatedVisit } from './demandModel';

/** One race a vehicle ran, with what its counters and validators recorded (TIDES trips_performed and below). */
export interface TripRecord {
  serviceDate: string;
  vehicleId: number;
  depotNumber: number | null;
  routeId: number;
  direction: 0 | 1;
  tripId: number | null;
  raceNum: number | null;
  scheduleStart: number;
  actualStart: number;
  actualEnd: number;
  km: number;
  /** Stop visits with counts; empty for a vehicle without counters (the trip still counts as performed). */
  visits: SimulatedVisit[];
  validations: (SimulatedValidation & { validatorId: number })[];
}

/** Rows a statement: big enough that the statement-level rollup triggers run rarely, small enough for memory. */
const BATCH = 20_000;

async function inBatches<T>(rows: readonly T[], write: (batch: readonly T[]) => Promise<void>): Promise<void> {
  for (let i = 0; i < rows.length; i += BATCH) await write(rows.slice(i, i + BATCH));
}

/**
 * Writes trips with their stop visits and validations (the simulator and the demo history; the HTTP ingestion
 * has its own path through counter reports). A trip already stored (same vehicle and schedule start) is left
 * as it is, with its visits: writing the same trips twice adds nothing. Departure loads are the running sum of
 * boardings less alightings, raw. Returns the trips and validations written.
 */
export async function writeTrips(tx: Queryable, trips: readonly TripRecord[]): Promise<{ trips: number; validations: number }> {
  let written = 0;
  let validations = 0;
  for (let i = 0; i < trips.length; i += BATCH / 20) {
    const slice = trips.slice(i, i + BATCH / 20);
    const ids = await tx.query<{ id: string; ord: number }>(
      `with x as (
         select * from jsonb_to_recordset($1::jsonb) as x(ord int, service_date date, vehicle_id int, route_id int, direction smallint, trip_id int,
           race_num int, schedule_start timestamptz, actual_start timestamptz, actual_end timestamptz, stops int, km real, counted boolean, b int, a int)
       ), ins as (
         insert into pass.trip_performed (service_date, vehicle_id, route_id, direction, trip_id, race_num, schedule_start, actual_start, actual_end, stops, km, counted, boardings, alightings)
         select service_date, vehicle_id, route_id, direction, trip_id, race_num, schedule_start, actual_start, actual_end, stops, km, counted, b, a from x order by ord
         on conflict (vehicle_id, schedule_start) do nothing
         returning id, vehicle_id, schedule_start
       )
       select ins.id, x.ord from ins join x on x.vehicle_id = ins.vehicle_id and x.schedule_start = ins.schedule_start`,
      [
        JSON.stringify(
          slice.map((t, ord) => ({
            ord,
            service_date: t.serviceDate,
            vehicle_id: t.vehicleId,
            route_id: t.routeId,
            direction: t.direction,
            trip_id: t.tripId,
            race_num: t.raceNum,
            schedule_start: isoTime(t.scheduleStart),
            actual_start: isoTime(t.actualStart),
            actual_end: isoTime(t.actualEnd),
            stops: t.visits.length,
            km: Math.round(t.km * 100) / 100,
            counted: t.visits.length > 0,
            b: t.visits.reduce((sum, v) => sum + v.boardings, 0),
            a: t.visits.reduce((sum, v) => sum + v.alightings, 0),
          })),
        ),
      ],
    );
    written += ids.length;
    const visits: object[] = [];
    const fares: object[] = [];
    for (const { id, ord } of ids) {
      const trip = slice[ord];
      let load = 0;
      for (const v of trip.visits) {
        load += v.boardings - v.alightings;
        visits.push({
          t: id,
          d: trip.serviceDate,
          v: trip.vehicleId,
          r: trip.routeId,
          dir: trip.direction,
          s: v.stopId,
          q: v.sequence,
          a: isoTime(v.arrival),
          dp: isoTime(v.departure),
          b: v.boardings,
          al: v.alightings,
          l: load,
          k: Math.round(v.kmToNext * 1000) / 1000,
        });
      }
      for (const f of trip.validations) {
        fares.push({
          tm: isoTime(f.tm),
          val: f.validatorId,
          v: trip.vehicleId,
          dn: trip.depotNumber,
          r: trip.routeId,
          dir: trip.direction,
          s: f.stopId,
          t: id,
          tt: f.ticketTypeId,
          c: f.card,
        });
      }
    }
    await inBatches(visits, (batch) =>
      tx
        .query(
          `insert into pass.stop_visit (trip_performed_id, service_date, vehicle_id, route_id, direction, stop_id, stop_sequence, arrival, departure,
         boardings, alightings, departure_load, km_to_next)
       select t, d, v, r, dir, s, q, a, dp, b, al, l, k
         from jsonb_to_recordset($1::jsonb) as x(t bigint, d date, v int, r int, dir smallint, s int, q int, a timestamptz, dp timestamptz, b int, al int, l int, k real)
       on conflict (trip_performed_id, stop_sequence) do nothing`,
          [JSON.stringify(batch)],
        )
        .then(() => undefined),
    );
    await inBatches(fares, async (batch) => {
      const rows = await tx.query<{ n: number }>(
        `with ins as (
           insert into pass.fare_transaction (tm, validator_id, vehicle_id, depot_number, route_id, direction, stop_id, trip_performed_id, ticket_type_id, card_token, source)
           select tm, val, v, dn, r, dir, s, t, tt, c, 'simulator'
             from jsonb_to_recordset($1::jsonb) as x(tm timestamptz, val int, v int, dn int, r int, dir smallint, s int, t bigint, tt int, c text)
           on conflict (tm, validator_id, card_token) do nothing returning 1)
         select count(*)::int as n from ins`,
        [JSON.stringify(batch)],
      );
      validations += rows[0]?.n ?? 0;
    });
  }
  return { trips: written, validations };
}

/** Trips per transaction of the background writers, and the pause after each. */
const SLICE_TRIPS = 150;
const pause = () => new Promise((resolve) => setTimeout(resolve, 50));

/**
 * writeTrips in short transactions with pauses between (the demo history, the simulator's catch-up since
 * midnight): the embedded engine has one connection, and the console's requests wait behind whatever runs.
 * A slice cut short by a restart is written again; its trips already stored are skipped.
 */
export async function writeTripsInSlices(db: Db, trips: readonly TripRecord[]): Promise<{ trips: number; validations: number }> {
  const total = { trips: 0, validations: 0 };
  for (let i = 0; i < trips.length; i += SLICE_TRIPS) {
    const written = await db.transaction((tx) => writeTrips(tx, trips.slice(i, i + SLICE_TRIPS)));
    total.trips += written.trips;
    total.validations += written.validations;
    await pause();
  }
  return total;
}

/** The plan of a day per route and hour: trips starting in the hour, vehicles running in it (replaces the day's). */
export async function writePlan(
  tx: Queryable,
  day: string,
  rows: readonly { hour: number; routeId: number; trips: number; vehicles: number }[],
): Promise<void> {
  await tx.query('delete from pass.plan_hour where day = $1::date', [day]);
  if (!rows.length) return;
  await tx.query(
    `insert into pass.plan_hour (day, hour, route_id, trips, vehicles)
     select $1::date, hour, route_id, trips, vehicles from jsonb_to_recordset($2::jsonb) as x(hour smallint, route_id int, trips int, vehicles int)`,
    [day, JSON.stringify(rows.map((r) => ({ hour: r.hour, route_id: r.routeId, trips: r.trips, vehicles: r.vehicles })))],
  );
}

/**
 * Cards are chained in this many parts, one statement each (migration 072): the embedded engine runs one
 * statement at a time, and a whole city day in one took 6–12 s of everyone's wait.
 */
export const CHAIN_PARTS = 8;

/** Trip chaining of one operator day with the settings in force, then the day's stop pairs. */
export async function chainJourneys(db: Queryable, day: string, maxWalkMeters: number, transferMinutes: number): Promise<number> {
  let journeys = 0;
  for (let part = 0; part < CHAIN_PARTS; part++) {
    const [row] = await db.query<{ n: number }>('select pass.chain_journeys_part($1::date, $2::float8, $3::int, $4::int, $5::int) as n', [
      day,
      maxWalkMeters,
      transferMinutes,
      part,
      CHAIN_PARTS,
    ]);
    journeys += row?.n ?? 0;
  }
  await db.query('select pass.rebuild_od_day($1::date)', [day]);
  return journeys;
}
