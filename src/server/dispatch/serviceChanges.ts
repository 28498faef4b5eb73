import type { FastifyInstance } from 'fastify';
import { isoTime } from '../../shared/format';
import {
  ADD_WITHIN_MINUTES,
  AddRunBody,
  ChangeBody,
  HandoverBody,
  ChangeRunList,
  ChangeRunsQuery,
  ChangesList,
  ChangesQuery,
  ControlIdParams,
  DISPATCH_CHANGES_PATH,
  DISPATCH_CONTROL_API,
  RevokeBody,
  ServiceChange,
  SHIFT_MAX_MINUTES,
  type ChangeKind,
  type ChangeRun,
} from '../../shared/dispatch/control';
import type { Queryable } from '../db/types';
import { fail } from '../http/errors';
import { operatorDate, operatorMidnight } from '../platform/operatorDay';
import type { DispatchService } from './dispatchService';
import type { Run } from './schedule';
import { loadRunChanges } from './store';

/** Yesterday's runs that ended longer ago than this are not offered nor changed. */
const RECENT_MS = 2 * 3_600_000;

/** A run's changes in force as the plan and fact shows them. */
export interface RunChangeNote {
  cancelReason: string | null;
  shiftMinutes: number | null;
}

/** An exit handed over as the plan and fact shows it: its runs ending after `at` without passages are the new vehicle's. */
export interface HandoverNote {
  blockKey: string;
  vehicleId: number;
  at: number;
}

interface ChangeRow {
  id: number;
  service_date: string | Date;
  run_key: string;
  route_id: number;
  route_name: string | null;
  graph: number;
  smena: string;
  race_num: number;
  planned_start: Date | string | null;
  kind: ChangeKind;
  shift_minutes: number | null;
  vehicle_id: number | null;
  vehicle_name: string | null;
  from_vehicle_id: number | null;
  from_vehicle_name: string | null;
  effective_at: Date | string | null;
  direction: number | null;
  reason: string;
  username: string | null;
  created_at: Date | string;
  revoked_at: Date | string | null;
  revoked_by: string | null;
  revoke_reason: string | null;
}

const dateText = (value: Date | string) => (typeof value === 'string' ? value.slice(0, 10) : value.toISOString().slice(0, 10));

/** The changes in force on one date as the plan and fact notes them, by run key. */
export async function loadChangeNotes(db: Queryable, date: string): Promise<Map<string, RunChangeNote>> {
  const rows = await db.query<{ run_key: string; kind: 'cancel' | 'shift'; shift_minutes: number | null; reason: string }>(
    "select run_key, kind, shift_minutes, reason from dispatch.service_change where service_date = $1::date and revoked_at is null and kind in ('cancel', 'shift')",
    [date],
  );
  const out = new Map<string, RunChangeNote>();
  for (const row of rows) {
    const note = out.get(row.run_key) ?? { cancelReason: null, shiftMinutes: null };
    if (row.kind === 'cancel') note.cancelReason = row.reason;
    else note.shiftMinutes = row.shift_minutes;
    out.set(row.run_key, note);
  }
  return out;
}

/** The exits handed over on one date (the plan and fact's new vehicle on their runs from then). */
export async function loadHandoverNotes(db: Queryable, date: string): Promise<HandoverNote[]> {
  const rows = await db.query<{ run_key: string; vehicle_id: number; effective_at: Date | string }>(
    `select run_key, vehicle_id, effective_at from dispatch.service_change
      where service_date = $1::date and revoked_at is null and kind = 'handover' order by effective_at, id`,
    [date],
  );
  return rows.map((r) => ({
    blockKey: r.run_key.slice(0, r.run_key.lastIndexOf('|')),
    vehicleId: r.vehicle_id,
    at: new Date(r.effective_at).getTime(),
  }));
}

async function listChanges(db: Queryable, dates: readonly string[], id?: number): Promise<ServiceChange[]> {
  const rows = await db.query<ChangeRow>(
    `select c.id::int as id, to_char(c.service_date, 'YYYY-MM-DD') as service_date, c.run_key, c.route_id, r.route_short_name as route_name, c.graph, c.smena, c.race_num, c.planned_start,
            c.kind, c.shift_minutes, c.vehicle_id, coalesce(nv.depot_number::text, nv.id::text) as vehicle_name,
            c.from_vehicle_id, coalesce(ov.depot_number::text, ov.id::text) as from_vehicle_name, c.effective_at, c.direction,
            c.reason, c.username, c.created_at, c.revoked_at, c.revoked_by, c.revoke_reason
       from dispatch.service_change c left join mgt.routes r on r.route_id = c.route_id
       left join mgt.vehicles nv on nv.id = c.vehicle_id left join mgt.vehicles ov on ov.id = c.from_vehicle_id
      where ($2::bigint is null and c.service_date = any($1::date[])) or c.id = $2
      order by c.created_at desc, c.id desc`,
    [dates, id ?? null],
  );
  return rows.map((r) => ({
    id: r.id,
    serviceDate: dateText(r.service_date),
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
    reason: r.reason,
    author: r.username,
    createdAt: isoTime(r.created_at)!,
    revokedAt: isoTime(r.revoked_at),
    revokedBy: r.revoked_by,
    revokeReason: r.revoke_reason,
  }));
}

/**
 * /dispatch/changes: the day's service changes (a run cancelled, its start moved), stored, journaled, read back by
 * the engine (DispatchService.reloadChanges) in this process and, over the bus, in the others.
 */
export function serviceChangeRoutes(app: FastifyInstance, service: DispatchService, tz: number): void {
  const read = { access: { path: DISPATCH_CHANGES_PATH, action: 'read' as const }, module: 'dispatch' as const, passive: true };
  const today = () => operatorDate(Date.now(), tz);
  /** A run of the days the engine holds: today's, and yesterday's still under way past midnight. */
  const heldRun = (runKey: string): Run | undefined =>
    service.engine.schedules.find((d) => d.serviceDate === runKey.slice(0, 10))?.runByKey.get(runKey);
  /** After a write: the engine here reads the changes again, the other processes are told, the change is answered. */
  const changed = async (serviceDate: string, id: number) => {
    await service.reloadChanges();
    app.bus.publish('dispatch.changes', { serviceDate });
    return (await listChanges(app.db, [], id))[0];
  };

  app.get<{ Querystring: ChangesQuery }>(
    DISPATCH_CONTROL_API.changes,
    {
      config: read,
      schema: {
        tags: ['dispatch'],
        summary: 'Изменения движения за день: отменённые рейсы и сдвинутые начала, с автором, причиной и временем',
        querystring: ChangesQuery,
        response: { 200: ChangesList },
      },
    },
    async (request) => {
      const date = request.query.date ?? today();
      const day = new Date(`${date}T00:00:00Z`);
      if (Number.isNaN(day.getTime()) || day.toISOString().slice(0, 10) !== date) throw fail(400, 'dispatch_bad_date');
      // without a date: the days the engine holds (yesterday's runs past midnight are changed today too)
      const dates = request.query.date ? [date] : [...new Set([date, ...service.engine.schedules.map((d) => d.serviceDate)])];
      const list = await listChanges(app.db, dates);
      return { date, list, count: list.length };
    },
  );

  app.get<{ Querystring: ChangeRunsQuery }>(
    DISPATCH_CONTROL_API.changeRuns,
    {
      config: read,
      schema: {
        tags: ['dispatch'],
        summary: 'Рейсы сегодняшнего расписания маршрута или выходов ТС с их изменениями',
        querystring: ChangeRunsQuery,
        response: { 200: ChangeRunList },
      },
    },
    async (request) => {
      const { route, vehicle } = request.query;
      if ((route === undefined) === (vehicle === undefined)) throw fail(400, 'dispatch_route_or_vehicle');
      const now = Date.now();
      const days = service.engine.schedules;
      const onRun = new Map<string, number>();
      for (const v of service.engine.states()) if (v.run) onRun.set(v.run.key, v.vehicleId);
      const tasked = new Map<string, number>();
      // the exit's vehicle from now on (a handover's), else its task's
      for (const day of days)
        for (const [vehicleId, list] of day.assignments)
          for (const a of list) if (a.to > now && (!tasked.has(a.blockKey) || a.replacement)) tasked.set(a.blockKey, vehicleId);
      for (const day of days)
        for (const [vehicleId, list] of day.assignments)
          for (const a of list) if (!tasked.has(a.blockKey)) tasked.set(a.blockKey, vehicleId);
      // today's runs, and yesterday's still running past midnight
      const held = days.flatMap((d) =>
        d.serviceDate === today() ? d.runs : d.runs.filter((r) => service.engine.plannedTimes(r).end >= now - RECENT_MS),
      );
      let runs: Run[];
      if (route !== undefined) runs = held.filter((r) => r.routeId === Number(route));
      else {
        const vehicleId = Number(vehicle);
        const blocks = new Set(days.flatMap((d) => (d.assignments.get(vehicleId) ?? []).map((a) => a.blockKey)));
        const current = service.engine.state(vehicleId)?.run;
        if (current) blocks.add(current.blockKey);
        runs = held.filter((r) => blocks.has(r.blockKey));
      }
      const changes = await loadRunChanges(
        app.db,
        days.map((d) => d.serviceDate),
      );
      const vehicleIds = [
        ...new Set(runs.map((r) => onRun.get(r.key) ?? tasked.get(r.blockKey)).filter((id): id is number => id !== undefined)),
      ];
      const [names, numbers] = await Promise.all([
        app.db.query<{ id: number; name: string }>(
          'select route_id as id, route_short_name as name from mgt.routes where route_id = any($1::int[])',
          [[...new Set(runs.map((r) => r.routeId))]],
        ),
        app.db.query<{ id: number; depot_number: number | null }>('select id, depot_number from mgt.vehicles where id = any($1::int[])', [
          vehicleIds,
        ]),
      ]);
      const routeName = new Map(names.map((r) => [r.id, r.name]));
      const depotNumber = new Map(numbers.map((v) => [v.id, v.depot_number]));
      const list: ChangeRun[] = runs.map((run) => {
        const planned = service.engine.plannedTimes(run);
        const change = changes.get(run.key);
        const vehicleId = onRun.get(run.key) ?? tasked.get(run.blockKey) ?? null;
        return {
          runKey: run.key,
          routeId: run.routeId,
          routeName: routeName.get(run.routeId) ?? null,
          graph: run.graph,
          smena: run.smena,
          raceNum: run.raceNum,
          direction: run.direction,
          plannedStart: new Date(planned.start).toISOString(),
          plannedEnd: new Date(planned.end).toISOString(),
          vehicleId,
          depotNumber: vehicleId === null ? null : (depotNumber.get(vehicleId) ?? null),
          cancelled: change?.cancelled ?? false,
          shiftMinutes: change?.shiftMs ? Math.round(change.shiftMs / 60_000) : null,
          added: run.added === true,
        };
      });
      list.sort((a, b) => a.plannedStart.localeCompare(b.plannedStart) || a.graph - b.graph || a.raceNum - b.raceNum);
      return { list, count: list.length };
    },
  );

  app.post<{ Body: ChangeBody }>(
    DISPATCH_CONTROL_API.changes,
    {
      config: { access: { path: DISPATCH_CHANGES_PATH, action: 'create' }, module: 'dispatch' },
      schema: {
        tags: ['dispatch'],
        summary: 'Отменить рейс или сдвинуть его начало (код 46), с причиной',
        body: ChangeBody,
        response: { 200: ServiceChange },
      },
    },
    async (request) => {
      const { runKey, kind } = request.body;
      const reason = request.body.reason.trim();
      if (!reason) throw fail(400, 'dispatch_change_reason');
      const shift = request.body.shiftMinutes;
      if (kind === 'shift' && (shift === undefined || shift === 0 || Math.abs(shift) > SHIFT_MAX_MINUTES))
        throw fail(400, 'dispatch_shift_minutes');
      if (kind === 'cancel' && shift !== undefined) throw fail(400, 'dispatch_shift_minutes');
      const run = heldRun(runKey);
      // a run of yesterday is still changed while it may run (a night run); one long over is history
      if (!run || service.engine.plannedTimes(run).end < Date.now() - RECENT_MS) throw fail(404, 'dispatch_run_not_found');
      const user = request.user!;
      const planned = service.engine.plannedTimes(run);
      const id = await app.db.transaction(async (tx) => {
        const [taken] = await tx.query('select 1 from dispatch.service_change where run_key = $1 and kind = $2 and revoked_at is null', [
          runKey,
          kind,
        ]);
        if (taken) throw fail(409, 'dispatch_change_exists');
        const [row] = await tx.query<{ id: number }>(
          `insert into dispatch.service_change (service_date, run_key, route_id, rasp_variant_id, graph, smena, race_num, planned_start, kind, shift_minutes, reason, user_id, username)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) returning id::int as id`,
          [
            run.serviceDate,
            runKey,
            run.routeId,
            run.variantId,
            run.graph,
            run.smena,
            run.raceNum,
            new Date(planned.start).toISOString(),
            kind,
            kind === 'shift' ? shift : null,
            reason,
            user.id,
            user.username,
          ],
        );
        await app.journal.record(
          request,
          {
            action: kind === 'cancel' ? 'cancel run' : 'move run start',
            object: 'dispatch.service_change',
            objectId: row.id,
            after: {
              runKey,
              routeId: run.routeId,
              graph: run.graph,
              smena: run.smena,
              raceNum: run.raceNum,
              kind,
              shiftMinutes: kind === 'shift' ? shift : null,
              reason,
            },
          },
          tx,
        );
        return row.id;
      });
      return changed(run.serviceDate, id);
    },
  );

  /** The vehicle working an exit now: the one on its run, else the one its assignments give it at `now`. */
  const exitVehicle = (blockKey: string, now: number): number | null => {
    for (const v of service.engine.states()) if (v.run?.blockKey === blockKey) return v.vehicleId;
    const day = service.engine.schedules.find((d) => d.serviceDate === blockKey.slice(0, 10));
    for (const [vehicleId, list] of day?.assignments ?? [])
      if (list.some((a) => a.blockKey === blockKey && a.from <= now && now < a.to)) return vehicleId;
    return null;
  };
  /** Another exit the vehicle works now or is tasked with later today. */
  const otherExit = (vehicleId: number, blockKey: string, now: number): boolean => {
    const current = service.engine.state(vehicleId)?.run;
    if (current && current.blockKey !== blockKey) return true;
    return service.engine.schedules.some((day) =>
      (day.assignments.get(vehicleId) ?? []).some((a) => {
        const block = day.blocks.get(a.blockKey);
        return a.blockKey !== blockKey && a.to > now && block !== undefined && block.end > now;
      }),
    );
  };
  const vehicleExists = async (id: number) => (await app.db.query('select 1 from mgt.vehicles where id = $1', [id])).length > 0;

  app.post<{ Body: HandoverBody }>(
    DISPATCH_CONTROL_API.handover,
    {
      config: { access: { path: DISPATCH_CHANGES_PATH, action: 'create' }, module: 'dispatch' },
      schema: {
        tags: ['dispatch'],
        summary: 'Передать выход другому ТС с текущего момента (код 46), с причиной',
        body: HandoverBody,
        response: { 200: ServiceChange },
      },
    },
    async (request) => {
      const { runKey, vehicleId, confirm } = request.body;
      const reason = request.body.reason.trim();
      if (!reason) throw fail(400, 'dispatch_change_reason');
      const now = Date.now();
      const run = heldRun(runKey);
      // the run it is handed over on is the exit's current or a later one
      if (!run || service.engine.plannedTimes(run).end < now - RECENT_MS) throw fail(404, 'dispatch_run_not_found');
      if (!(await vehicleExists(vehicleId))) throw fail(404, 'dispatch_vehicle_not_found');
      const from = exitVehicle(run.blockKey, now);
      if (from === vehicleId) throw fail(400, 'dispatch_handover_same_vehicle');
      if (!confirm && otherExit(vehicleId, run.blockKey, now)) throw fail(409, 'dispatch_vehicle_busy');
      const user = request.user!;
      const planned = service.engine.plannedTimes(run);
      const id = await app.db.transaction(async (tx) => {
        const [taken] = await tx.query(
          "select 1 from dispatch.service_change where run_key = $1 and kind = 'handover' and revoked_at is null",
          [runKey],
        );
        if (taken) throw fail(409, 'dispatch_change_exists');
        const [row] = await tx.query<{ id: number }>(
          `insert into dispatch.service_change (service_date, run_key, route_id, rasp_variant_id, graph, smena, race_num, planned_start, kind,
             reason, user_id, username, vehicle_id, from_vehicle_id, effective_at)
           values ($1, $2, $3, $4, $5, $6, $7, $8, 'handover', $9, $10, $11, $12, $13, $14) returning id::int as id`,
          [
            run.serviceDate,
            runKey,
            run.routeId,
            run.variantId,
            run.graph,
            run.smena,
            run.raceNum,
            new Date(planned.start).toISOString(),
            reason,
            user.id,
            user.username,
            vehicleId,
            from,
            new Date(now).toISOString(),
          ],
        );
        await app.journal.record(
          request,
          {
            action: 'hand exit over',
            object: 'dispatch.service_change',
            objectId: row.id,
            after: { runKey, routeId: run.routeId, graph: run.graph, smena: run.smena, vehicleId, fromVehicleId: from, reason },
          },
          tx,
        );
        return row.id;
      });
      return changed(run.serviceDate, id);
    },
  );

  app.post<{ Body: AddRunBody }>(
    DISPATCH_CONTROL_API.addRun,
    {
      config: { access: { path: DISPATCH_CHANGES_PATH, action: 'create' }, module: 'dispatch' },
      schema: {
        tags: ['dispatch'],
        summary: 'Добавить рейс в сегодняшнее расписание (код 46): время хода — с ближайшего по времени рейса маршрута того же направления',
        body: AddRunBody,
        response: { 200: ServiceChange },
      },
    },
    async (request) => {
      const { routeId, direction, start, vehicleId } = request.body;
      const reason = request.body.reason.trim();
      if (!reason) throw fail(400, 'dispatch_change_reason');
      const now = Date.now();
      const date = today();
      const [hh, mm] = start.split(':').map(Number);
      // `HH:MM` of the operator's day; a time long past is the night after it (a run past midnight of today's service)
      let startAt = operatorMidnight(date, tz) + (hh * 60 + mm) * 60_000;
      if (startAt < now - RECENT_MS) startAt += 24 * 3_600_000;
      if (startAt > now + ADD_WITHIN_MINUTES * 60_000) throw fail(400, 'dispatch_added_run_start');
      const [route] = await app.db.query('select 1 from mgt.routes where route_id = $1', [routeId]);
      if (!route) throw fail(404, 'dispatch_route_not_found');
      if (vehicleId !== undefined && !(await vehicleExists(vehicleId))) throw fail(404, 'dispatch_vehicle_not_found');
      const day = service.engine.schedules.find((d) => d.serviceDate === date);
      let template: Run | undefined;
      for (const run of day?.runs ?? []) {
        if (run.added || run.routeId !== routeId || run.direction !== direction) continue;
        const gap = Math.abs(service.engine.plannedTimes(run).start - startAt);
        if (!template || gap < Math.abs(service.engine.plannedTimes(template).start - startAt)) template = run;
      }
      if (!template) throw fail(404, 'dispatch_added_run_template');
      const user = request.user!;
      const base = template;
      const id = await app.db.transaction(async (tx) => {
        const [{ id }] = await tx.query<{ id: number }>("select nextval('dispatch.service_change_id_seq')::int as id");
        // its own exit 0 and shift «+id»: a block of its own, apart from the timetable's exits
        const smena = `+${id}`;
        const runKey = `${date}|${base.variantId}|0|${smena}|1`;
        await tx.query(
          `insert into dispatch.service_change (id, service_date, run_key, route_id, rasp_variant_id, graph, smena, race_num, planned_start, kind,
             reason, user_id, username, vehicle_id, direction, start_at, template_run_key)
           values ($1, $2, $3, $4, $5, 0, $6, 1, $7, 'add', $8, $9, $10, $11, $12, $7, $13)`,
          [
            id,
            date,
            runKey,
            routeId,
            base.variantId,
            smena,
            new Date(startAt).toISOString(),
            reason,
            user.id,
            user.username,
            vehicleId ?? null,
            direction,
            base.key,
          ],
        );
        await app.journal.record(
          request,
          {
            action: 'add run',
            object: 'dispatch.service_change',
            objectId: id,
            after: {
              runKey,
              routeId,
              direction,
              start: new Date(startAt).toISOString(),
              vehicleId: vehicleId ?? null,
              template: base.key,
              reason,
            },
          },
          tx,
        );
        return id;
      });
      return changed(date, id);
    },
  );

  app.post<{ Params: ControlIdParams; Body: RevokeBody }>(
    DISPATCH_CONTROL_API.revokeChange,
    {
      config: { access: { path: DISPATCH_CHANGES_PATH, action: 'update' }, module: 'dispatch' },
      schema: {
        tags: ['dispatch'],
        summary: 'Отменить изменение движения (код 46): рейс восстановлен, начало по расписанию',
        params: ControlIdParams,
        body: RevokeBody,
        response: { 200: ServiceChange },
      },
    },
    async (request) => {
      const id = Number(request.params.id);
      const reason = request.body.reason?.trim() || null;
      const user = request.user!;
      const change = await app.db.transaction(async (tx) => {
        const [row] = await tx.query<{ run_key: string; kind: string; service_date: string | Date; revoked_at: Date | null }>(
          "select run_key, kind, to_char(service_date, 'YYYY-MM-DD') as service_date, revoked_at from dispatch.service_change where id = $1 for update",
          [id],
        );
        if (!row) throw fail(404, 'dispatch_change_not_found');
        if (row.revoked_at) throw fail(409, 'dispatch_change_revoked');
        await tx.query('update dispatch.service_change set revoked_at = now(), revoked_by = $2, revoke_reason = $3 where id = $1', [
          id,
          user.username,
          reason,
        ]);
        await app.journal.record(
          request,
          {
            action: 'revoke service change',
            object: 'dispatch.service_change',
            objectId: id,
            before: { runKey: row.run_key, kind: row.kind },
            after: { revoked: true, reason },
          },
          tx,
        );
        return row;
      });
      return changed(dateText(change.service_date), id);
    },
  );
}
