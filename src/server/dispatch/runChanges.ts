import {
  ChangeBody,
  ChangeRunList,
  ChangeRunsQuery,
  ServiceChange,
  SHIFT_MAX_MINUTES,
  DISPATCH_CONTROL_API,
  type ChangeRun,
} from '../../shared/dispatch/control';
import { fail } from '../http/errors';
import { RECENT_MS, readConfig, writeConfig, type ChangeContext } from './changeContext';
import type { Run } from './schedule';
import { loadRunChanges } from './store';

/** A run's own changes: today's runs to choose from, a run cancelled or its start moved. */
export function runChangeRoutes(ctx: ChangeContext): void {
  ctx.app.get<{ Querystring: ChangeRunsQuery }>(
    DISPATCH_CONTROL_API.changeRuns,
    {
      config: readConfig,
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
      const days = ctx.service.engine.schedules;
      const onRun = new Map<string, number>();
      for (const v of ctx.service.engine.states()) if (v.run) onRun.set(v.run.key, v.vehicleId);
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
        d.serviceDate === ctx.today() ? d.runs : d.runs.filter((r) => ctx.service.engine.plannedTimes(r).end >= now - RECENT_MS),
      );
      let runs: Run[];
      if (route !== undefined) runs = held.filter((r) => r.routeId === Number(route));
      else {
        const vehicleId = Number(vehicle);
        const blocks = new Set(days.flatMap((d) => (d.assignments.get(vehicleId) ?? []).map((a) => a.blockKey)));
        const current = ctx.service.engine.state(vehicleId)?.run;
        if (current) blocks.add(current.blockKey);
        runs = held.filter((r) => blocks.has(r.blockKey));
      }
      const changes = await loadRunChanges(
        ctx.app.db,
        days.map((d) => d.serviceDate),
      );
      const vehicleIds = [
        ...new Set(runs.map((r) => onRun.get(r.key) ?? tasked.get(r.blockKey)).filter((id): id is number => id !== undefined)),
      ];
      const [names, numbers] = await Promise.all([
        ctx.app.db.query<{ id: number; name: string }>(
          'select route_id as id, route_short_name as name from mgt.routes where route_id = any($1::int[])',
          [[...new Set(runs.map((r) => r.routeId))]],
        ),
        ctx.app.db.query<{ id: number; depot_number: number | null }>(
          'select id, depot_number from mgt.vehicles where id = any($1::int[])',
          [vehicleIds],
        ),
      ]);
      const routeName = new Map(names.map((r) => [r.id, r.name]));
      const depotNumber = new Map(numbers.map((v) => [v.id, v.depot_number]));
      const list: ChangeRun[] = runs.map((run) => {
        const planned = ctx.service.engine.plannedTimes(run);
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

  ctx.app.post<{ Body: ChangeBody }>(
    DISPATCH_CONTROL_API.changes,
    {
      config: writeConfig('create'),
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
      const run = ctx.heldRun(runKey);
      // a run of yesterday is still changed while it may run (a night run); one long over is history
      if (!run || ctx.service.engine.plannedTimes(run).end < Date.now() - RECENT_MS) throw fail(404, 'dispatch_run_not_found');
      const user = request.user!;
      const planned = ctx.service.engine.plannedTimes(run);
      const id = await ctx.app.db.transaction(async (tx) => {
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
        await ctx.app.journal.record(
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
      return ctx.changed(run.serviceDate, id);
    },
  );
}
