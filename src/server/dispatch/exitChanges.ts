import { ADD_WITHIN_MINUTES, AddRunBody, DISPATCH_CONTROL_API, HandoverBody, ServiceChange } from '../../shared/dispatch/control';
import { fail } from '../http/errors';
import { operatorMidnight } from '../platform/operatorDay';
import { RECENT_MS, writeConfig, type ChangeContext } from './changeContext';
import type { Run } from './schedule';

/** An exit's changes: handed over to another vehicle from now, and a run added to the day. */
export function exitChangeRoutes(ctx: ChangeContext): void {
  /** The vehicle working an exit now: the one on its run, else the one its assignments give it at `now`. */
  const exitVehicle = (blockKey: string, now: number): number | null => {
    for (const v of ctx.service.engine.states()) if (v.run?.blockKey === blockKey) return v.vehicleId;
    const day = ctx.service.engine.schedules.find((d) => d.serviceDate === blockKey.slice(0, 10));
    for (const [vehicleId, list] of day?.assignments ?? [])
      if (list.some((a) => a.blockKey === blockKey && a.from <= now && now < a.to)) return vehicleId;
    return null;
  };
  /** Another exit the vehicle works now or is tasked with later today. */
  const otherExit = (vehicleId: number, blockKey: string, now: number): boolean => {
    const current = ctx.service.engine.state(vehicleId)?.run;
    if (current && current.blockKey !== blockKey) return true;
    return ctx.service.engine.schedules.some((day) =>
      (day.assignments.get(vehicleId) ?? []).some((a) => {
        const block = day.blocks.get(a.blockKey);
        return a.blockKey !== blockKey && a.to > now && block !== undefined && block.end > now;
      }),
    );
  };
  const vehicleExists = async (id: number) => (await ctx.app.db.query('select 1 from mgt.vehicles where id = $1', [id])).length > 0;

  ctx.app.post<{ Body: HandoverBody }>(
    DISPATCH_CONTROL_API.handover,
    {
      config: writeConfig('create'),
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
      const run = ctx.heldRun(runKey);
      // the run it is handed over on is the exit's current or a later one
      if (!run || ctx.service.engine.plannedTimes(run).end < now - RECENT_MS) throw fail(404, 'dispatch_run_not_found');
      if (!(await vehicleExists(vehicleId))) throw fail(404, 'dispatch_vehicle_not_found');
      const from = exitVehicle(run.blockKey, now);
      if (from === vehicleId) throw fail(400, 'dispatch_handover_same_vehicle');
      if (!confirm && otherExit(vehicleId, run.blockKey, now)) throw fail(409, 'dispatch_vehicle_busy');
      const user = request.user!;
      const planned = ctx.service.engine.plannedTimes(run);
      const id = await ctx.app.db.transaction(async (tx) => {
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
        await ctx.app.journal.record(
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
      return ctx.changed(run.serviceDate, id);
    },
  );

  ctx.app.post<{ Body: AddRunBody }>(
    DISPATCH_CONTROL_API.addRun,
    {
      config: writeConfig('create'),
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
      const date = ctx.today();
      const [hh, mm] = start.split(':').map(Number);
      // `HH:MM` of the operator's day; a time long past is the night after it (a run past midnight of today's service)
      let startAt = operatorMidnight(date, ctx.tz) + (hh * 60 + mm) * 60_000;
      if (startAt < now - RECENT_MS) startAt += 24 * 3_600_000;
      if (startAt > now + ADD_WITHIN_MINUTES * 60_000) throw fail(400, 'dispatch_added_run_start');
      const [route] = await ctx.app.db.query('select 1 from mgt.routes where route_id = $1', [routeId]);
      if (!route) throw fail(404, 'dispatch_route_not_found');
      if (vehicleId !== undefined && !(await vehicleExists(vehicleId))) throw fail(404, 'dispatch_vehicle_not_found');
      const day = ctx.service.engine.schedules.find((d) => d.serviceDate === date);
      let template: Run | undefined;
      for (const run of day?.runs ?? []) {
        if (run.added || run.routeId !== routeId || run.direction !== direction) continue;
        const gap = Math.abs(ctx.service.engine.plannedTimes(run).start - startAt);
        if (!template || gap < Math.abs(ctx.service.engine.plannedTimes(template).start - startAt)) template = run;
      }
      if (!template) throw fail(404, 'dispatch_added_run_template');
      const user = request.user!;
      const base = template;
      const id = await ctx.app.db.transaction(async (tx) => {
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
        await ctx.app.journal.record(
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
      return ctx.changed(date, id);
    },
  );
}
