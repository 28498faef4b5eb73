import type { Queryable } from '../types';
import type { DemoScale } from './generate';
import { Random } from './random';
import { addDays, operatorDate, operatorMidnight, operatorTzOffset } from '../../platform/operatorDay';
import { planDay } from '../../simulator/dayPlan';
import { loadNetwork } from '../../simulator/network';
import { falseAlarmChance, pickGrade, pickType, raceWeight, racesOf, workOf, type RouteWork } from '../../simulator/incidentModel';
import type { VehiclePlan } from '../../simulator/vehiclePlan';

/** Days of ADAS incident history the demo starts with, so the incident reports show data on a fresh start. */
export const DEMO_INCIDENT_DAYS = 90;
/** Incidents a weekday across the fleet (a weekend day has three quarters of that). */
const PER_DAY: Record<DemoScale, number> = { city: 300, test: 24 };
const DAY_MS = 86_400_000;
/** Rows a statement: one statement each, so the rollup triggers run once for the whole history. */
const BATCH = 200_000;
const FALSE_COMMENTS = ['Блик на лобовом стекле', 'Камера сдвинута при мойке', 'Ошибка распознавания'];
const CONFIRMED_COMMENTS = ['Подтверждено по видео', 'Проведена беседа с водителем', ''];

function poisson(mean: number, random: () => number): number {
  const limit = Math.exp(-mean);
  let n = 0;
  for (let p = random(); p > limit; p *= random()) n += 1;
  return n;
}

async function insertJson(tx: Queryable, sql: string, rows: object[]): Promise<void> {
  for (let i = 0; i < rows.length; i += BATCH) await tx.query(sql, [JSON.stringify(rows.slice(i, i + BATCH))]);
}

/**
 * A deterministic history of DEMO_INCIDENT_DAYS days (the same on every install for the same day), made by the
 * simulator's own plans and incident model: each day's races (its weekday's duties) give the work done
 * (adas.route_work) and incidents drawn per race by its kilometres, route, vehicle, driver, hour and speed, each
 * at the place and speed the vehicle had at that moment. Older incidents are partly reviewed, some as false alarms.
 */
export async function insertDemoIncidents(
  tx: Queryable,
  scale: DemoScale,
  today: Date,
  tzOffsetMinutes = operatorTzOffset(),
): Promise<void> {
  const network = await loadNetwork(tx);
  if (!network.incidentTypes.length) return;
  const random = new Random('adas-history');
  const next = () => random.next();
  const drivers = new Map(
    (
      await tx.query<{ vehicle_id: number; driver_id: number }>(
        'select distinct on (vehicle_id) vehicle_id, driver_id from mgt.vehicle_task order by vehicle_id, date, id',
      )
    ).map((r) => [r.vehicle_id, r.driver_id]),
  );
  const [reviewer] = await tx.query<{ id: number }>(`select id from app.users where username = 'operator'`);
  const todayDate = operatorDate(today.getTime(), tzOffsetMinutes);
  const plansOf = new Map<number, { date: string; plans: VehiclePlan[] }>();
  const work: (RouteWork & { day: string })[] = [];
  const incidents: object[] = [];
  for (let back = DEMO_INCIDENT_DAYS; back >= 1; back--) {
    const date = addDays(todayDate, -back);
    const weekday = new Date(`${date}T00:00:00Z`).getUTCDay();
    let source = plansOf.get(weekday);
    if (!source) {
      source = { date, plans: await planDay(tx, network, date, tzOffsetMinutes) };
      plansOf.set(weekday, source);
    }
    const midnight = operatorMidnight(source.date, tzOffsetMinutes);
    const shift = operatorMidnight(date, tzOffsetMinutes) - midnight;
    for (const row of workOf(source.plans, midnight, midnight + DAY_MS)) work.push({ ...row, day: date });
    const races = [...racesOf(source.plans, midnight, midnight + DAY_MS)];
    const weights = races.map(({ plan, race }) => raceWeight(race, plan.vehicleId, drivers.get(plan.vehicleId) ?? null, tzOffsetMinutes));
    const expected = PER_DAY[scale] * (weekday === 0 || weekday === 6 ? 0.75 : 1);
    const scaleBy =
      expected /
      Math.max(
        1e-9,
        weights.reduce((a, b) => a + b, 0),
      );
    races.forEach(({ plan, race }, i) => {
      for (let n = poisson(weights[i] * scaleBy, next); n > 0; n--) {
        const start = race.times[0];
        const t = start + next() * (race.times[race.times.length - 1] - start);
        const state = plan.stateAt(t);
        if (!state) continue;
        const hour = Math.floor(((((t / 60_000 + tzOffsetMinutes) % 1440) + 1440) % 1440) / 60);
        const type = pickType(network.incidentTypes, state.speed, hour, next);
        const reviewed = back > 2 && next() < 0.35;
        const falseAlarm = reviewed && next() < falseAlarmChance(type);
        const comments = falseAlarm ? FALSE_COMMENTS : CONFIRMED_COMMENTS;
        const tm = Math.floor((t + shift) / 1000) * 1000;
        incidents.push({
          tm: new Date(tm).toISOString(),
          vehicle_id: plan.vehicleId,
          incident_type: type,
          speed: Math.round(state.speed * 10) / 10,
          lat: Math.round(state.lat * 1e6) / 1e6,
          lon: Math.round(state.lon * 1e6) / 1e6,
          grade: pickGrade(type, state.speed, next),
          route_id: race.routeId,
          trip_id: race.tripId,
          driver_id: drivers.get(plan.vehicleId) ?? null,
          review: reviewed ? (falseAlarm ? 'false_alarm' : 'confirmed') : null,
          review_comment: reviewed ? comments[Math.floor(next() * comments.length)] || null : null,
          reviewed_by: reviewed ? (reviewer?.id ?? null) : null,
          reviewed_at: reviewed ? new Date(tm + 86_400_000).toISOString() : null,
        });
      }
    });
  }
  await insertJson(
    tx,
    `insert into adas.route_work (day, vehicle_id, route_id, trips, km)
    select day, vehicle_id, route_id, trips, km from jsonb_to_recordset($1::jsonb) as x(day date, vehicle_id int, route_id int, trips int, km real)
    on conflict do nothing`,
    work,
  );
  await insertJson(
    tx,
    `insert into adas.incident_event (tm, vehicle_id, depot_number, incident_type, speed, lat, lon, grade, route_id, trip_id, driver_id,
      review, review_comment, reviewed_by, reviewed_at)
    select x.tm, x.vehicle_id, v.depot_number, x.incident_type, x.speed, x.lat, x.lon, x.grade, x.route_id, x.trip_id, x.driver_id,
           x.review, x.review_comment, x.reviewed_by, x.reviewed_at
      from jsonb_to_recordset($1::jsonb) as x(tm timestamptz, vehicle_id int, incident_type int, speed real, lat float8, lon float8, grade smallint,
             route_id int, trip_id int, driver_id int, review text, review_comment text, reviewed_by int, reviewed_at timestamptz)
      join mgt.vehicles v on v.id = x.vehicle_id
    on conflict do nothing`,
    incidents,
  );
}
