import type { Db, Queryable } from '../db/types';
import type { AdasIncident, EventsWriter } from '../journals/eventsWriter';
import type { DeviceIndex } from '../telemetry/deviceIndex';
import { vehicleOfDevice } from '../telemetry/deviceIndex';

/**
 * One incident as an on-board driver-assistance unit sends it (POST /api/v1/telemetry/incidents). The
 * vehicle is named by its depot number or by its terminal's id (peer address), the type by its code in the
 * incident types handbook; `driver` is the driver's table number.
 */
export interface RawIncident {
  depot_number?: unknown;
  device?: unknown;
  incident_type?: unknown;
  tm?: unknown;
  speed?: unknown;
  lat?: unknown;
  lon?: unknown;
  grade?: unknown;
  driver?: unknown;
  evidence?: unknown;
}

export interface IncidentItemError {
  index: number;
  field: string;
  message: string;
}

export type IngestOutcome = { ok: true; accepted: number; duplicates: number; ids: number[] } | { ok: false; errors: IncidentItemError[] };

/** Who sends: an HTTP source's id and the terminals it may report for (null: any). */
export interface IncidentSender {
  sourceId: number | null;
  allowedDevices: Set<string> | null;
  /** Where a vehicle was, for a sender that knows (the simulator drives by plan); others are matched to the schedule. */
  placeOf?: (vehicleId: number, time: number) => { routeId: number | null; tripId: number | null } | null;
}

export const MAX_EVIDENCE_FILES = 10;
export const EVIDENCE_NAME_MAX = 200;
const FUTURE_SLACK_MS = 300_000;
const MAX_AGE_MS = 366 * 86_400_000;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:?\d{2})$/;

interface Checked {
  index: number;
  vehicle: { depotNumber: number } | { vehicleId: number };
  incidentType: number;
  time: number;
  speed: number;
  lat: number;
  lon: number;
  grade: 1 | 2 | 3;
  driver: number | null;
  evidence: string[] | null;
}

const isInt = (value: unknown, min: number, max: number): value is number =>
  Number.isInteger(value) && (value as number) >= min && (value as number) <= max;

/** The item's own checks (no database): every fault named by its field. */
function checkShape(
  raw: unknown,
  index: number,
  sender: IncidentSender,
  devices: DeviceIndex,
  now: number,
  errors: IncidentItemError[],
): Checked | undefined {
  const fault = (field: string, message: string) => errors.push({ index, field, message });
  const before = errors.length;
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    fault('', 'each incident must be an object');
    return undefined;
  }
  const item = raw as RawIncident;
  let vehicle: Checked['vehicle'] | undefined;
  if (item.device !== undefined) {
    const found = vehicleOfDevice(devices, item.device, sender.allowedDevices);
    if ('message' in found) fault('device', found.message);
    else vehicle = found;
  } else if (item.depot_number !== undefined) {
    if (isInt(item.depot_number, 0, 2_147_483_647)) vehicle = { depotNumber: item.depot_number };
    else fault('depot_number', 'depot_number must be a whole number');
  } else fault('depot_number', 'the vehicle is required: depot_number or device');
  if (!isInt(item.incident_type, 0, 99_999_999)) fault('incident_type', 'incident_type must be a code of the incident types handbook');
  let time = Number.NaN;
  if (typeof item.tm === 'number') time = item.tm;
  else if (typeof item.tm === 'string' && ISO_DATE.test(item.tm)) time = Date.parse(item.tm);
  if (!Number.isFinite(time)) fault('tm', 'tm must be an ISO 8601 date with time zone or epoch milliseconds');
  else if (time > now + FUTURE_SLACK_MS) fault('tm', `tm is more than ${FUTURE_SLACK_MS / 1000} s in the future`);
  else if (time < now - MAX_AGE_MS) fault('tm', 'tm is more than a year ago');
  const number = (field: 'speed' | 'lat' | 'lon', min: number, max: number): number => {
    const value = item[field];
    if (typeof value !== 'number' || !Number.isFinite(value)) fault(field, `${field} must be a number`);
    else if (value < min || value > max) fault(field, `${field} must be between ${min} and ${max}`);
    else return value;
    return Number.NaN;
  };
  const speed = number('speed', 0, 300);
  const lat = number('lat', -90, 90);
  const lon = number('lon', -180, 180);
  if (lat === 0 && lon === 0) fault('lat', 'position (0, 0) is not a fix');
  const grade = item.grade ?? 1;
  if (!isInt(grade, 1, 3)) fault('grade', 'grade must be 1, 2 or 3');
  const driver = item.driver ?? null;
  if (driver !== null && !isInt(driver, 0, 2_147_483_647)) fault('driver', 'driver must be a table number');
  const evidence = item.evidence ?? null;
  if (
    evidence !== null &&
    (!Array.isArray(evidence) ||
      evidence.length > MAX_EVIDENCE_FILES ||
      evidence.some(
        (name) => typeof name !== 'string' || name.trim() === '' || name.length > EVIDENCE_NAME_MAX || /[\u0000-\u001f]/.test(name),
      ))
  ) {
    fault('evidence', `evidence must be a list of at most ${MAX_EVIDENCE_FILES} file names of up to ${EVIDENCE_NAME_MAX} characters`);
  }
  if (errors.length > before || !vehicle) return undefined;
  return {
    index,
    vehicle,
    incidentType: item.incident_type as number,
    time,
    speed,
    lat,
    lon,
    grade: grade as 1 | 2 | 3,
    driver: driver as number | null,
    evidence: evidence as string[] | null,
  };
}

interface Match {
  ord: number;
  route_id: number | null;
  trip_id: number | null;
  race_num: number | null;
  driver_id: number | null;
}

/**
 * The route, trip (race) and driver each vehicle was on at its incident's time, from the schedule it ran:
 * the vehicle's task of the operator's date (or of the day before, for a race past midnight), the race of
 * that task whose first and last stop times hold the minute, and the handbook trip of the route with the
 * race's direction. Between races the task's route and driver still count; with no task nothing is matched.
 */
export async function matchSchedule(
  db: Queryable,
  items: { vehicleId: number; time: number }[],
  tzOffsetMinutes: number,
): Promise<Match[]> {
  if (!items.length) return [];
  return db.query<Match>(
    `with x as (
       select x.ord, x.vehicle_id, x.tm at time zone 'UTC' + make_interval(mins => $2::int) as local
         from jsonb_to_recordset($1::jsonb) as x(ord int, vehicle_id int, tm timestamptz)
     ), c as (
       select x.ord, x.vehicle_id, d.day, d.minute
         from x, lateral (values
           (x.local::date, extract(hour from x.local)::int * 60 + extract(minute from x.local)::int),
           (x.local::date - 1, 1440 + extract(hour from x.local)::int * 60 + extract(minute from x.local)::int)) d(day, minute)
     )
     select distinct on (c.ord) c.ord, rv.route_id, vt.driver_id, r.racenum as race_num,
            (select t.id from mgt.trip t join mgt.marsh_variants mv on mv.id = t."MarshVariant_id"
              where mv.route_id = rv.route_id and t.race_type = r.racetype order by t.id limit 1) as trip_id
       from c
       join mgt.vehicle_task vt on vt.date = c.day and vt.vehicle_id = c.vehicle_id
       join mgt.rasp_variant rv on rv.id = vt."RaspVariant_id"
       left join lateral (
         select t.racenum, t.racetype from mgt.rasp_time t
          where t."RaspVariant_id" = vt."RaspVariant_id" and t.graph = vt.graph and t.smena = vt.smena
          group by t.racenum, t.racetype
         having min(t.time) <= c.minute and max(t.time) >= c.minute
          limit 1) r on true
      order by c.ord, (r.racenum is null), c.day desc, vt.id`,
    [
      JSON.stringify(items.map((item, ord) => ({ ord, vehicle_id: item.vehicleId, tm: new Date(item.time).toISOString() }))),
      tzOffsetMinutes,
    ],
  );
}

/**
 * Incidents in (HTTP ingestion and the simulator take this one path): each item checked, an unknown
 * vehicle, type or driver refused with its index and field, and then all or nothing: a batch with one bad
 * item stores nothing. Good batches are matched to the schedule and appended; duplicates (same vehicle,
 * type and time, in the batch or stored before) are dropped and counted; high grades ring the bell.
 */
export class IncidentIngest {
  constructor(
    private readonly db: Db,
    private readonly writer: EventsWriter,
    private readonly devices: DeviceIndex,
    private readonly tzOffsetMinutes: number,
  ) {}

  async ingest(raws: readonly unknown[], sender: IncidentSender, now = Date.now()): Promise<IngestOutcome> {
    const errors: IncidentItemError[] = [];
    const checked = raws
      .map((raw, index) => checkShape(raw, index, sender, this.devices, now, errors))
      .filter((c): c is Checked => c !== undefined);
    const depotNumbers = [...new Set(checked.flatMap((c) => ('depotNumber' in c.vehicle ? [c.vehicle.depotNumber] : [])))];
    const types = [...new Set(checked.map((c) => c.incidentType))];
    const tableNumbers = [...new Set(checked.flatMap((c) => (c.driver === null ? [] : [c.driver])))];
    const [vehicles, knownTypes, drivers] = await Promise.all([
      depotNumbers.length
        ? this.db.query<{ id: number; depot_number: number }>(
            'select distinct on (depot_number) id, depot_number from mgt.vehicles where depot_number = any($1::int[]) order by depot_number, id',
            [depotNumbers],
          )
        : [],
      types.length
        ? this.db.query<{ incident_type: number }>(
            'select distinct incident_type from adas.incident_type where incident_type = any($1::int[])',
            [types],
          )
        : [],
      tableNumbers.length
        ? this.db.query<{ driver_id: number; table_number: number }>(
            'select distinct on (table_number) driver_id, table_number from mgt.driver where table_number = any($1::int[]) order by table_number, driver_id',
            [tableNumbers],
          )
        : [],
    ]);
    const vehicleOf = new Map(vehicles.map((v) => [v.depot_number, v.id]));
    const typeKnown = new Set(knownTypes.map((t) => t.incident_type));
    const driverOf = new Map(drivers.map((d) => [d.table_number, d.driver_id]));
    const ready: (Checked & { vehicleId: number; driverId: number | null })[] = [];
    for (const c of checked) {
      const vehicleId = 'vehicleId' in c.vehicle ? c.vehicle.vehicleId : vehicleOf.get(c.vehicle.depotNumber);
      const driverId = c.driver === null ? null : driverOf.get(c.driver);
      if (vehicleId === undefined)
        errors.push({
          index: c.index,
          field: 'depot_number',
          message: `unknown vehicle ${(c.vehicle as { depotNumber: number }).depotNumber}`,
        });
      if (!typeKnown.has(c.incidentType))
        errors.push({ index: c.index, field: 'incident_type', message: `unknown incident type ${c.incidentType}` });
      if (driverId === undefined) errors.push({ index: c.index, field: 'driver', message: `unknown driver ${c.driver}` });
      if (vehicleId !== undefined && typeKnown.has(c.incidentType) && driverId !== undefined) ready.push({ ...c, vehicleId, driverId });
    }
    if (errors.length) return { ok: false, errors: errors.sort((a, b) => a.index - b.index) };

    const placed = sender.placeOf;
    const matches = placed
      ? new Map(
          ready.map((c, ord): [number, Match] => {
            const place = placed(c.vehicleId, c.time);
            return [ord, { ord, route_id: place?.routeId ?? null, trip_id: place?.tripId ?? null, race_num: null, driver_id: null }];
          }),
        )
      : new Map((await matchSchedule(this.db, ready, this.tzOffsetMinutes)).map((m) => [m.ord, m]));
    const incidents: AdasIncident[] = ready.map((c, ord) => {
      const match = matches.get(ord);
      return {
        at: new Date(c.time),
        vehicleId: c.vehicleId,
        incidentType: c.incidentType,
        speed: c.speed,
        lat: c.lat,
        lon: c.lon,
        grade: c.grade,
        routeId: match?.route_id ?? null,
        tripId: match?.trip_id ?? null,
        raceNum: match?.race_num ?? null,
        driverId: c.driverId ?? match?.driver_id ?? null,
        evidence: c.evidence,
        sourceId: sender.sourceId,
      };
    });
    const ids = await this.db.transaction((tx) => this.writer.adasIncidents(incidents, tx));
    return { ok: true, accepted: ids.length, duplicates: incidents.length - ids.length, ids };
  }
}
