import type { Db, Queryable } from '../db/types';
import { vehicleOfDevice, type DeviceIndex } from '../telemetry/deviceIndex';
import { CARD_TOKEN_MAX } from '../../shared/passengers/passengers';

/**
 * Passenger counters and validators in over HTTP (POST /api/v1/telemetry/passenger-counts and
 * /api/v1/telemetry/validations), modelled on the ADAS ingestion: every item checked, all or nothing, every
 * fault by index and field, resent items counted as duplicates and stored once.
 *
 * A count is per door: at a stop (`tm`, the departure, and optionally `stop_id`) or for a time window (`from`,
 * `to`), which is attributed to the stop visit the vehicle was at by its schedule (the vehicle's task of the
 * day, the race whose stop times hold the moment, the stop nearest in time). The stop visit gets the door's
 * boardings and alightings added and its trip's departure loads are summed again (raw, negative kept).
 */

export interface ItemError {
  index: number;
  field: string;
  message: string;
}
export type IngestOutcome = { ok: true; accepted: number; duplicates: number; unmatched: number } | { ok: false; errors: ItemError[] };
export interface Sender {
  sourceId: number | null;
  allowedDevices: Set<string> | null;
}

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:?\d{2})$/;
const FUTURE_SLACK_MS = 300_000;
const MAX_AGE_MS = 366 * 86_400_000;
const MAX_COUNT = 500;

const isInt = (value: unknown, min: number, max: number): value is number =>
  Number.isInteger(value) && (value as number) >= min && (value as number) <= max;

function timeOf(value: unknown): number {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string' && ISO.test(value)) return Date.parse(value);
  return Number.NaN;
}

type VehicleRef = { depotNumber: number } | { vehicleId: number };

/** The vehicle of an item: `device` (terminal id) or `depot_number`; faults are pushed. */
function vehicleRef(
  item: Record<string, unknown>,
  sender: Sender,
  devices: DeviceIndex,
  fault: (field: string, message: string) => void,
): VehicleRef | undefined {
  if (item.device !== undefined) {
    const found = vehicleOfDevice(devices, item.device, sender.allowedDevices);
    if ('message' in found) fault('device', found.message);
    else return found;
    return undefined;
  }
  if (isInt(item.depot_number, 0, 2_147_483_647)) return { depotNumber: item.depot_number };
  fault(
    'depot_number',
    item.depot_number === undefined ? 'the vehicle is required: depot_number or device' : 'depot_number must be a whole number',
  );
  return undefined;
}

function checkTime(value: unknown, field: string, now: number, fault: (field: string, message: string) => void): number {
  const time = timeOf(value);
  if (!Number.isFinite(time)) fault(field, `${field} must be an ISO 8601 date with time zone or epoch milliseconds`);
  else if (time > now + FUTURE_SLACK_MS) fault(field, `${field} is in the future`);
  else if (time < now - MAX_AGE_MS) fault(field, `${field} is more than a year ago`);
  else return time;
  return Number.NaN;
}

async function vehicleIds(db: Queryable, refs: VehicleRef[]): Promise<Map<number, number>> {
  const numbers = [...new Set(refs.flatMap((r) => ('depotNumber' in r ? [r.depotNumber] : [])))];
  if (!numbers.length) return new Map();
  const rows = await db.query<{ id: number; depot_number: number }>(
    'select distinct on (depot_number) id, depot_number from mgt.vehicles where depot_number = any($1::int[]) order by depot_number, id',
    [numbers],
  );
  return new Map(rows.map((r) => [r.depot_number, r.id]));
}

export interface Place {
  ord: number;
  service_date: string;
  route_id: number;
  direction: number;
  race_num: number;
  trip_id: number | null;
  schedule_start: string;
  stop_id: number;
  stop_sequence: number;
  km_to_next: number;
  trip_km: number;
}

/**
 * Where each vehicle was at its time by its schedule: its task of the operator's date (or the day before, for
 * a race past midnight), the race of that task whose stop times hold the minute (2 minutes early to 10 late),
 * and the stop of that race nearest in time (or the one named). Unmatched items are left out.
 */
export async function placesOf(
  db: Queryable,
  items: { vehicleId: number; time: number; stopId: number | null }[],
  tzOffsetMinutes: number,
): Promise<Place[]> {
  if (!items.length) return [];
  return db.query<Place>(
    `with x as (
       select x.ord, x.vehicle_id, x.stop_id, x.tm at time zone 'UTC' + make_interval(mins => $2::int) as local
         from jsonb_to_recordset($1::jsonb) as x(ord int, vehicle_id int, tm timestamptz, stop_id int)
     ), c as (
       select x.ord, x.vehicle_id, x.stop_id, d.day, d.minute
         from x, lateral (values
           (x.local::date, extract(hour from x.local)::int * 60 + extract(minute from x.local)::numeric),
           (x.local::date - 1, 1440 + extract(hour from x.local)::int * 60 + extract(minute from x.local)::numeric)) d(day, minute)
     )
     select distinct on (c.ord) c.ord, c.day::text as service_date, rv.route_id, case when r.racetype = 'B' then 1 else 0 end as direction,
            r.racenum as race_num,
            (select t.id from mgt.trip t join mgt.marsh_variants mv on mv.id = t."MarshVariant_id"
              where mv.route_id = rv.route_id and t.race_type = r.racetype order by t.id limit 1) as trip_id,
            ((c.day::timestamp + make_interval(mins => r.first)) - make_interval(mins => $2::int)) at time zone 'UTC' as schedule_start,
            st.stop_id, st."order" as stop_sequence,
            coalesce((select st_distancesphere(a.geom, b.geom) / 1000 from mgt.rasp_time n join mgt.stops a on a.stop_id = st.stop_id join mgt.stops b on b.stop_id = n.stop_id
                       where n."RaspVariant_id" = vt."RaspVariant_id" and n.graph = vt.graph and n.smena = vt.smena and n.racenum = r.racenum and n."order" > st."order"
                       order by n."order" limit 1), 0)::float8 as km_to_next,
            coalesce((select st_length(t.trajectory::geography) / 1000 from mgt.trip t join mgt.marsh_variants mv on mv.id = t."MarshVariant_id"
              where mv.route_id = rv.route_id and t.race_type = r.racetype order by t.id limit 1), 0)::float8 as trip_km
       from c
       join mgt.vehicle_task vt on vt.date = c.day and vt.vehicle_id = c.vehicle_id
       join mgt.rasp_variant rv on rv.id = vt."RaspVariant_id"
       join lateral (
         select t.racenum, t.racetype, min(t.time) as first from mgt.rasp_time t
          where t."RaspVariant_id" = vt."RaspVariant_id" and t.graph = vt.graph and t.smena = vt.smena
          group by t.racenum, t.racetype
         having min(t.time) - 2 <= c.minute and max(t.time) + 10 >= c.minute
          order by min(t.time) desc limit 1) r on true
       join lateral (
         select t.stop_id, t."order" from mgt.rasp_time t
          where t."RaspVariant_id" = vt."RaspVariant_id" and t.graph = vt.graph and t.smena = vt.smena and t.racenum = r.racenum
            and (c.stop_id is null or t.stop_id = c.stop_id)
          order by abs(t.time - c.minute), t."order" limit 1) st on true
      order by c.ord, c.day desc, vt.id`,
    [
      JSON.stringify(
        items.map((item, ord) => ({ ord, vehicle_id: item.vehicleId, tm: new Date(item.time).toISOString(), stop_id: item.stopId })),
      ),
      tzOffsetMinutes,
    ],
  );
}

interface CountItem {
  index: number;
  ref: VehicleRef;
  door: number;
  time: number;
  match: number;
  stopId: number | null;
  boardings: number;
  alightings: number;
}

/** Per-door counts in: see the file's comment. */
export async function ingestCounts(
  db: Db,
  devices: DeviceIndex,
  raws: readonly unknown[],
  sender: Sender,
  tzOffsetMinutes: number,
  now = Date.now(),
): Promise<IngestOutcome> {
  const errors: ItemError[] = [];
  const checked: CountItem[] = [];
  raws.forEach((raw, index) => {
    const fault = (field: string, message: string) => errors.push({ index, field, message });
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return fault('', 'each count must be an object');
    const item = raw as Record<string, unknown>;
    const before = errors.length;
    const ref = vehicleRef(item, sender, devices, fault);
    if (!isInt(item.door, 1, 16)) fault('door', 'door must be a door number 1..16');
    let time = Number.NaN;
    let match = Number.NaN;
    if (item.tm !== undefined) {
      time = match = checkTime(item.tm, 'tm', now, fault);
    } else if (item.from !== undefined || item.to !== undefined) {
      const from = checkTime(item.from, 'from', now, fault);
      const to = checkTime(item.to, 'to', now, fault);
      if (from > to || to - from > 3_600_000) fault('to', 'to must follow from by at most an hour');
      time = to;
      match = (from + to) / 2;
    } else fault('tm', 'tm (at a stop) or from and to (a time window) are required');
    if (item.stop_id !== undefined && !isInt(item.stop_id, 1, 2_147_483_647)) fault('stop_id', 'stop_id must be a stop id');
    for (const field of ['boardings', 'alightings'] as const)
      if (!isInt(item[field], 0, MAX_COUNT)) fault(field, `${field} must be a whole number 0..${MAX_COUNT}`);
    if (errors.length > before || !ref) return;
    checked.push({
      index,
      ref,
      door: item.door as number,
      time,
      match,
      stopId: (item.stop_id as number | undefined) ?? null,
      boardings: item.boardings as number,
      alightings: item.alightings as number,
    });
  });
  const known = await vehicleIds(
    db,
    checked.map((c) => c.ref),
  );
  const ready: (CountItem & { vehicleId: number })[] = [];
  for (const c of checked) {
    const vehicleId = 'vehicleId' in c.ref ? c.ref.vehicleId : known.get(c.ref.depotNumber);
    if (vehicleId === undefined)
      errors.push({ index: c.index, field: 'depot_number', message: `unknown vehicle ${(c.ref as { depotNumber: number }).depotNumber}` });
    else ready.push({ ...c, vehicleId });
  }
  if (errors.length) return { ok: false, errors: errors.sort((a, b) => a.index - b.index) };
  if (!ready.length) return { ok: true, accepted: 0, duplicates: 0, unmatched: 0 };

  const places = new Map(
    (
      await placesOf(
        db,
        ready.map((c) => ({ vehicleId: c.vehicleId, time: c.match, stopId: c.stopId })),
        tzOffsetMinutes,
      )
    ).map((p) => [p.ord, p]),
  );
  return db.transaction(async (tx) => {
    const rows = ready.map((c, ord) => ({ ord, c, place: places.get(ord) }));
    const fresh = await tx.query<{ ord: number }>(
      `with x as (select * from jsonb_to_recordset($1::jsonb) as x(ord int, vehicle_id int, door smallint, tm timestamptz, b int, a int)),
       ins as (insert into pass.counter_report (vehicle_id, door, tm, boardings, alightings, source_id)
               select distinct on (vehicle_id, door, tm) vehicle_id, door, tm, b, a, $2::int from x order by vehicle_id, door, tm, ord
               on conflict do nothing returning vehicle_id, door, tm)
       select min(x.ord)::int as ord from ins join x using (vehicle_id, door, tm) group by x.vehicle_id, x.door, x.tm`,
      [
        JSON.stringify(
          rows.map(({ ord, c }) => ({
            ord,
            vehicle_id: c.vehicleId,
            door: c.door,
            tm: new Date(c.time).toISOString(),
            b: c.boardings,
            a: c.alightings,
          })),
        ),
        sender.sourceId,
      ],
    );
    const apply = fresh.map((f) => rows[f.ord]).filter((r) => r.place);
    if (apply.length) {
      const trips = await tx.query<{ id: string }>(
        `with x as (select * from jsonb_to_recordset($1::jsonb) as x(service_date date, vehicle_id int, route_id int, direction smallint, trip_id int, race_num int,
                      schedule_start timestamptz, tm timestamptz, stop_id int, seq int, km_to_next float8, trip_km float8, b int, a int)),
         t as (insert into pass.trip_performed as p (service_date, vehicle_id, route_id, direction, trip_id, race_num, schedule_start, actual_start, actual_end, km, counted)
               select distinct on (vehicle_id, schedule_start) service_date, vehicle_id, route_id, direction, trip_id, race_num, schedule_start,
                      min(tm) over (partition by vehicle_id, schedule_start), max(tm) over (partition by vehicle_id, schedule_start), trip_km, true
                 from x order by vehicle_id, schedule_start
               on conflict (vehicle_id, schedule_start) do update set
                 actual_start = least(p.actual_start, excluded.actual_start), actual_end = greatest(p.actual_end, excluded.actual_end), counted = true
               returning id, vehicle_id, schedule_start),
         v as (insert into pass.stop_visit as s (trip_performed_id, service_date, vehicle_id, route_id, direction, stop_id, stop_sequence, arrival, departure, boardings, alightings, km_to_next)
               select t.id, x.service_date, x.vehicle_id, x.route_id, x.direction, x.stop_id, x.seq, min(x.tm), max(x.tm), sum(x.b), sum(x.a), max(x.km_to_next)
                 from x join t on t.vehicle_id = x.vehicle_id and t.schedule_start = x.schedule_start
                group by t.id, x.service_date, x.vehicle_id, x.route_id, x.direction, x.stop_id, x.seq
               on conflict (trip_performed_id, stop_sequence) do update set boardings = s.boardings + excluded.boardings, alightings = s.alightings + excluded.alightings,
                 arrival = least(s.arrival, excluded.arrival), departure = greatest(s.departure, excluded.departure)
               returning trip_performed_id)
         select distinct trip_performed_id::text as id from v`,
        [
          JSON.stringify(
            apply.map(({ c, place: p }) => ({
              service_date: p!.service_date,
              vehicle_id: c.vehicleId,
              route_id: p!.route_id,
              direction: p!.direction,
              trip_id: p!.trip_id,
              race_num: p!.race_num,
              schedule_start: p!.schedule_start,
              tm: new Date(c.time).toISOString(),
              stop_id: p!.stop_id,
              seq: p!.stop_sequence,
              km_to_next: p!.km_to_next,
              trip_km: p!.trip_km,
              b: c.boardings,
              a: c.alightings,
            })),
          ),
        ],
      );
      await tx.query('select pass.refresh_loads($1::bigint[])', [trips.map((t) => t.id)]);
      // a day's first counts bring its plan from the schedule (the traffic report's trips planned)
      await tx.query(
        `select pass.plan_day(d) from unnest($1::date[]) d where not exists (select 1 from pass.plan_hour p where p.day = d)`,
        [[...new Set(apply.map((r) => r.place!.service_date))]],
      );
    }
    return { ok: true, accepted: fresh.length, duplicates: ready.length - fresh.length, unmatched: fresh.length - apply.length } as const;
  });
}

/** Validations in: the vehicle by validator (handbook) or depot number, the ticket type by code, the route and stop by schedule. */
export async function ingestValidations(
  db: Db,
  devices: DeviceIndex,
  raws: readonly unknown[],
  sender: Sender,
  tzOffsetMinutes: number,
  now = Date.now(),
): Promise<IngestOutcome> {
  const errors: ItemError[] = [];
  const checked: {
    index: number;
    ref: VehicleRef | { validator: number };
    time: number;
    ticket: string;
    card: string;
    stopId: number | null;
    validator: number;
  }[] = [];
  raws.forEach((raw, index) => {
    const fault = (field: string, message: string) => errors.push({ index, field, message });
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return fault('', 'each validation must be an object');
    const item = raw as Record<string, unknown>;
    const before = errors.length;
    let ref: VehicleRef | { validator: number } | undefined;
    if (item.validator !== undefined && !isInt(item.validator, 1, 2_147_483_647)) fault('validator', 'validator must be a validator id');
    if (item.depot_number === undefined && item.device === undefined && isInt(item.validator, 1, 2_147_483_647))
      ref = { validator: item.validator };
    else ref = vehicleRef(item, sender, devices, fault);
    const time = checkTime(item.tm, 'tm', now, fault);
    const ticket = typeof item.ticket_type === 'number' ? String(item.ticket_type) : item.ticket_type;
    if (typeof ticket !== 'string' || !ticket.trim() || ticket.length > 40)
      fault('ticket_type', 'ticket_type must be a code of the ticket types handbook');
    const card = item.card_token;
    if (typeof card !== 'string' || !card.trim() || card.length > CARD_TOKEN_MAX || /[\u0000-\u001f]/.test(card))
      fault('card_token', `card_token must be text of 1..${CARD_TOKEN_MAX} characters`);
    if (item.stop_id !== undefined && !isInt(item.stop_id, 1, 2_147_483_647)) fault('stop_id', 'stop_id must be a stop id');
    if (errors.length > before || !ref) return;
    checked.push({
      index,
      ref,
      time,
      ticket: (ticket as string).trim(),
      card: (card as string).trim(),
      stopId: (item.stop_id as number | undefined) ?? null,
      validator: (item.validator as number | undefined) ?? 0,
    });
  });
  const known = await vehicleIds(
    db,
    checked.flatMap((c) => ('validator' in c.ref ? [] : [c.ref])),
  );
  const validatorIds = [...new Set(checked.flatMap((c) => ('validator' in c.ref ? [c.ref.validator] : [])))];
  const validators = new Map(
    (validatorIds.length
      ? await db.query<{ validator_id: number; vehicle_id: number }>(
          'select validator_id, vehicle_id from mgt.validator_vehicle where validator_id = any($1::int[])',
          [validatorIds],
        )
      : []
    ).map((v) => [v.validator_id, v.vehicle_id]),
  );
  const codes = [...new Set(checked.map((c) => c.ticket))];
  const tickets = new Map(
    (
      await db.query<{ ticket_type_id: number; ticket_type_code: string }>(
        'select distinct on (ticket_type_code) ticket_type_id, ticket_type_code from cat.ticket_type where ticket_type_code = any($1::text[]) order by ticket_type_code, ticket_type_id',
        [codes],
      )
    ).map((t) => [t.ticket_type_code, t.ticket_type_id]),
  );
  const ready: { vehicleId: number; ticketTypeId: number; time: number; card: string; stopId: number | null; validator: number }[] = [];
  for (const c of checked) {
    const vehicleId =
      'validator' in c.ref ? validators.get(c.ref.validator) : 'vehicleId' in c.ref ? c.ref.vehicleId : known.get(c.ref.depotNumber);
    const ticketTypeId = tickets.get(c.ticket);
    if (vehicleId === undefined)
      errors.push({ index: c.index, field: 'validator' in c.ref ? 'validator' : 'depot_number', message: 'unknown vehicle or validator' });
    if (ticketTypeId === undefined)
      errors.push({ index: c.index, field: 'ticket_type', message: `unknown ticket type ${c.ticket.slice(0, 40)}` });
    if (vehicleId !== undefined && ticketTypeId !== undefined)
      ready.push({ vehicleId, ticketTypeId, time: c.time, card: c.card, stopId: c.stopId, validator: c.validator });
  }
  if (errors.length) return { ok: false, errors: errors.sort((a, b) => a.index - b.index) };
  if (!ready.length) return { ok: true, accepted: 0, duplicates: 0, unmatched: 0 };
  const places = new Map(
    (
      await placesOf(
        db,
        ready.map((r) => ({ vehicleId: r.vehicleId, time: r.time, stopId: r.stopId })),
        tzOffsetMinutes,
      )
    ).map((p) => [p.ord, p]),
  );
  const [row] = await db.query<{ n: number }>(
    `with x as (select * from jsonb_to_recordset($1::jsonb) as x(tm timestamptz, val int, v int, r int, dir smallint, s int, start timestamptz, tt int, c text)),
     ins as (insert into pass.fare_transaction (tm, validator_id, vehicle_id, depot_number, route_id, direction, stop_id, trip_performed_id, ticket_type_id, card_token, source)
             select x.tm, x.val, x.v, (select depot_number from mgt.vehicles where id = x.v), x.r, x.dir, x.s,
                    (select p.id from pass.trip_performed p where p.vehicle_id = x.v and p.schedule_start = x.start), x.tt, x.c, 'validator'
               from x
             on conflict (tm, validator_id, card_token) do nothing returning 1)
     select count(*)::int as n from ins`,
    [
      JSON.stringify(
        ready.map((r, ord) => {
          const p = places.get(ord);
          return {
            tm: new Date(r.time).toISOString(),
            val: r.validator,
            v: r.vehicleId,
            r: p?.route_id ?? null,
            dir: p?.direction ?? null,
            s: r.stopId ?? p?.stop_id ?? null,
            start: p?.schedule_start ?? null,
            tt: r.ticketTypeId,
            c: r.card,
          };
        }),
      ),
    ],
  );
  const accepted = row?.n ?? 0;
  return { ok: true, accepted, duplicates: ready.length - accepted, unmatched: ready.filter((_, ord) => !places.has(ord)).length };
}
