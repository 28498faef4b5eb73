import type { Db, Queryable } from '../db/types';
import type { Notifier } from '../notifications/notifier';

/** Fields every event shares. `at` defaults to now; depotNumber is looked up from the vehicle when omitted. */
interface EventBase {
  at?: Date | string;
  vehicleId?: number | null;
  depotNumber?: number | null;
  details?: unknown;
}
export type VehicleEventKind = 'connect' | 'disconnect' | 'pass_error';
export interface VehicleEvent extends EventBase {
  kind: VehicleEventKind;
}
export interface SoftwareEvent extends EventBase {
  kind: string;
  severity?: 'info' | 'warning' | 'error';
  message?: string;
}
export interface VideoEvent extends EventBase {
  kind: string;
  camera?: number | null;
  requestId?: number | null;
  message?: string;
}
export interface AdasIncident extends EventBase {
  incidentType: number;
  speed?: number | null;
  lat?: number | null;
  lon?: number | null;
  grade?: 1 | 2 | 3;
  routeId?: number | null;
  tripId?: number | null;
  raceNum?: number | null;
  driverId?: number | null;
  evidence?: string[] | null;
  sourceId?: number | null;
}

/** Incidents of this grade and above raise a bell notification. */
export const ADAS_NOTIFY_GRADE = 3;

/** A target table: its name, time column, and the columns a record fills (name and SQL type). */
interface Target {
  table: string;
  time: string;
  columns: [string, string][];
  /** Rows already stored under this unique key are skipped (the ids returned are the rows written). */
  once?: string;
}
const TARGETS = {
  vehicle: {
    table: 'app.vehicle_event',
    time: 'at',
    columns: [
      ['kind', 'text'],
      ['details', 'jsonb'],
    ],
  },
  software: {
    table: 'app.software_event',
    time: 'at',
    columns: [
      ['kind', 'text'],
      ['severity', 'text'],
      ['message', 'text'],
      ['details', 'jsonb'],
    ],
  },
  video: {
    table: 'app.video_event',
    time: 'at',
    columns: [
      ['kind', 'text'],
      ['camera', 'int'],
      ['request_id', 'int'],
      ['message', 'text'],
      ['details', 'jsonb'],
    ],
  },
  adas: {
    table: 'adas.incident_event',
    time: 'tm',
    columns: [
      ['incident_type', 'int'],
      ['speed', 'real'],
      ['lat', 'float8'],
      ['lon', 'float8'],
      ['grade', 'smallint'],
      ['route_id', 'int'],
      ['trip_id', 'int'],
      ['race_num', 'int'],
      ['driver_id', 'int'],
      ['evidence', 'text[]'],
      ['source_id', 'int'],
      ['details', 'jsonb'],
    ],
    once: '(vehicle_id, incident_type, tm)',
  },
} satisfies Record<string, Target>;

/**
 * Appends to the event journals (/journal/eventsts, eventspo, video, adas). Telemetry, video and ADAS call it;
 * a batch is one INSERT however many events it holds, so a burst of telemetry costs one round trip. Events
 * are recorded whatever the journal switches say: a switch hides a journal, it does not stop the record.
 */
export class EventsWriter {
  constructor(
    private readonly db: Db,
    private readonly notifier?: Notifier,
  ) {}

  vehicleEvents(events: VehicleEvent[], tx?: Queryable): Promise<number[]> {
    return this.append(
      TARGETS.vehicle,
      events.map((e) => ({ ...base(e), kind: e.kind, details: e.details ?? null })),
      tx,
    );
  }

  softwareEvents(events: SoftwareEvent[], tx?: Queryable): Promise<number[]> {
    return this.append(
      TARGETS.software,
      events.map((e) => ({
        ...base(e),
        kind: e.kind,
        severity: e.severity ?? 'info',
        message: e.message ?? '',
        details: e.details ?? null,
      })),
      tx,
    );
  }

  videoEvents(events: VideoEvent[], tx?: Queryable): Promise<number[]> {
    return this.append(
      TARGETS.video,
      events.map((e) => ({
        ...base(e),
        kind: e.kind,
        camera: e.camera ?? null,
        request_id: e.requestId ?? null,
        message: e.message ?? '',
        details: e.details ?? null,
      })),
      tx,
    );
  }

  /**
   * Appends incidents, skipping those already stored (same vehicle, type and time); each new one of grade
   * ADAS_NOTIFY_GRADE or above also rings the bell of those who may see ADAS. Returns the new rows' ids.
   */
  async adasIncidents(incidents: AdasIncident[], tx: Queryable = this.db): Promise<number[]> {
    const ids = await this.append(
      TARGETS.adas,
      incidents.map((e) => ({
        ...base(e),
        incident_type: e.incidentType,
        speed: e.speed ?? null,
        lat: e.lat ?? null,
        lon: e.lon ?? null,
        grade: e.grade ?? 1,
        route_id: e.routeId ?? null,
        trip_id: e.tripId ?? null,
        race_num: e.raceNum ?? null,
        driver_id: e.driverId ?? null,
        evidence: e.evidence ?? null,
        source_id: e.sourceId ?? null,
        details: e.details ?? null,
      })),
      tx,
    );
    if (this.notifier && ids.length && incidents.some((e) => (e.grade ?? 1) >= ADAS_NOTIFY_GRADE)) {
      const severe = await tx.query<{
        id: number;
        depot_number: number | null;
        incident_type: number;
        grade: number;
        incident_name: string | null;
      }>(
        `select e.id::float8 as id, e.depot_number, e.incident_type, e.grade,
                (select t.incident_name from adas.incident_type t where t.incident_type = e.incident_type order by t.id limit 1) as incident_name
           from adas.incident_event e where e.id = any($1::bigint[]) and e.grade >= $2 order by e.id`,
        [ids, ADAS_NOTIFY_GRADE],
      );
      for (const row of severe) {
        await this.notifier.adasIncident(
          {
            eventId: row.id,
            depotNumber: row.depot_number,
            incidentType: row.incident_type,
            incidentName: row.incident_name,
            grade: row.grade,
          },
          tx,
        );
      }
    }
    return ids;
  }

  /**
   * One INSERT ... SELECT FROM jsonb_to_recordset: the batch travels as one JSON parameter (no per-row
   * placeholders, no statement-size limit in sight), and the depot number is filled from the vehicle.
   * Ids come back in the batch's order.
   */
  private async append(target: Target, records: Record<string, unknown>[], tx: Queryable = this.db): Promise<number[]> {
    if (!records.length) return [];
    const names = target.columns.map(([name]) => name);
    const definitions = [
      'at timestamptz',
      'vehicle_id int',
      'depot_number int',
      ...target.columns.map(([name, type]) => `${name} ${type}`),
    ];
    const aliases = ['at', 'vehicle_id', 'depot_number', ...names, 'ord'];
    const rows = await tx.query<{ id: number }>(
      `insert into ${target.table} (${target.time}, vehicle_id, depot_number, ${names.join(', ')})
       select coalesce(x.at, now()), x.vehicle_id,
              coalesce(x.depot_number, (select v.depot_number from mgt.vehicles v where v.id = x.vehicle_id)),
              ${names.map((name) => `x.${name}`).join(', ')}
         from rows from (jsonb_to_recordset($1::jsonb) as (${definitions.join(', ')})) with ordinality as x(${aliases.join(', ')})
        order by x.ord
       ${target.once ? `on conflict ${target.once} do nothing` : ''}
       returning id::float8 as id`,
      [JSON.stringify(records)],
    );
    // Ids are drawn in insertion order, which the ORDER BY makes the batch's order.
    return rows.map((row) => row.id).sort((a, b) => a - b);
  }
}

function base(event: EventBase): Record<string, unknown> {
  return {
    at: event.at === undefined ? null : new Date(event.at).toISOString(),
    vehicle_id: event.vehicleId ?? null,
    depot_number: event.depotNumber ?? null,
  };
}
