import type { FastifyInstance } from 'fastify';
import { isoTime } from '../../shared/format';
import { DISPATCH_CHANGES_PATH, type ChangeKind, type PathPoint, type ServiceChange } from '../../shared/dispatch/control';
import type { Queryable } from '../db/types';
import { operatorDate } from '../platform/operatorDay';
import type { DispatchService } from './dispatchService';
import type { Run } from './schedule';

/** Yesterday's runs that ended longer ago than this are not offered nor changed. */
export const RECENT_MS = 2 * 3_600_000;

/** What every kind of service change's routes share: the app, the engine's service, the operator's day. */
export interface ChangeContext {
  app: FastifyInstance;
  service: DispatchService;
  tz: number;
  /** The operator's date now. */
  today(): string;
  /** A run of the days the engine holds: today's, and yesterday's still under way past midnight. */
  heldRun(runKey: string): Run | undefined;
  /** After a write: the engine here reads the changes again, the other processes are told, the change is answered. */
  changed(serviceDate: string, id: number): Promise<ServiceChange>;
}

/** A read's route options: code 44, read on /dispatch/changes. */
export const readConfig = { access: { path: DISPATCH_CHANGES_PATH, action: 'read' as const }, module: 'dispatch' as const, passive: true };

/** A write's route options: code 46, create on /dispatch/changes (revoking: update). */
export const writeConfig = (action: 'create' | 'update') => ({
  access: { path: DISPATCH_CHANGES_PATH, action },
  module: 'dispatch' as const,
});

export function changeContext(app: FastifyInstance, service: DispatchService, tz: number): ChangeContext {
  return {
    app,
    service,
    tz,
    today: () => operatorDate(Date.now(), tz),
    heldRun: (runKey) => service.engine.schedules.find((d) => d.serviceDate === runKey.slice(0, 10))?.runByKey.get(runKey),
    changed: async (serviceDate, id) => {
      await service.reloadChanges();
      app.bus.publish('dispatch.changes', { serviceDate });
      return (await listChanges(app.db, [], id))[0];
    },
  };
}

interface ChangeRow {
  id: number;
  service_date: string;
  run_key: string | null;
  route_id: number | null;
  route_name: string | null;
  graph: number | null;
  smena: string | null;
  race_num: number | null;
  planned_start: Date | string | null;
  kind: ChangeKind;
  shift_minutes: number | null;
  vehicle_id: number | null;
  vehicle_name: string | null;
  from_vehicle_id: number | null;
  from_vehicle_name: string | null;
  effective_at: Date | string | null;
  direction: number | null;
  stop_id: number | null;
  stop_name: string | null;
  to_stop_id: number | null;
  to_stop_name: string | null;
  active_from: Date | string | null;
  active_to: Date | string | null;
  path: PathPoint[] | string | null;
  reason: string;
  username: string | null;
  created_at: Date | string;
  revoked_at: Date | string | null;
  revoked_by: string | null;
  revoke_reason: string | null;
}

/** The changes of the dates (or the one `id`), newest first, with the names they mention. */
export async function listChanges(db: Queryable, dates: readonly string[], id?: number): Promise<ServiceChange[]> {
  const rows = await db.query<ChangeRow>(
    `select c.id::int as id, to_char(c.service_date, 'YYYY-MM-DD') as service_date, c.run_key, c.route_id, r.route_short_name as route_name, c.graph, c.smena, c.race_num, c.planned_start,
            c.kind, c.shift_minutes, c.vehicle_id, coalesce(nv.depot_number::text, nv.id::text) as vehicle_name,
            c.from_vehicle_id, coalesce(ov.depot_number::text, ov.id::text) as from_vehicle_name, c.effective_at, c.direction,
            c.stop_id, s.stop_name, c.to_stop_id, ts.stop_name as to_stop_name, c.active_from, c.active_to, c.path,
            c.reason, c.username, c.created_at, c.revoked_at, c.revoked_by, c.revoke_reason
       from dispatch.service_change c left join mgt.routes r on r.route_id = c.route_id
       left join mgt.vehicles nv on nv.id = c.vehicle_id left join mgt.vehicles ov on ov.id = c.from_vehicle_id
       left join mgt.stops s on s.stop_id = c.stop_id left join mgt.stops ts on ts.stop_id = c.to_stop_id
      where ($2::bigint is null and c.service_date = any($1::date[])) or c.id = $2
      order by c.created_at desc, c.id desc`,
    [dates, id ?? null],
  );
  return rows.map((r) => ({
    id: r.id,
    serviceDate: r.service_date,
    runKey: r.run_key,
    routeId: r.route_id,
    routeName: r.route_name,
    graph: r.graph,
    smena: r.smena,
    raceNum: r.race_num,
    plannedStart: isoTime(r.planned_start),
    kind: r.kind,
    shiftMinutes: r.shift_minutes,
    vehicleId: r.vehicle_id,
    vehicleName: r.vehicle_name,
    fromVehicleId: r.from_vehicle_id,
    fromVehicleName: r.from_vehicle_name,
    effectiveAt: isoTime(r.effective_at),
    direction: r.direction,
    stopId: r.stop_id,
    stopName: r.stop_name,
    toStopId: r.to_stop_id,
    toStopName: r.to_stop_name,
    activeFrom: isoTime(r.active_from),
    activeTo: isoTime(r.active_to),
    path: typeof r.path === 'string' ? (JSON.parse(r.path) as PathPoint[]) : r.path,
    reason: r.reason,
    author: r.username,
    createdAt: isoTime(r.created_at)!,
    revokedAt: isoTime(r.revoked_at),
    revokedBy: r.revoked_by,
    revokeReason: r.revoke_reason,
  }));
}
