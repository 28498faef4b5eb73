import type { FastifyInstance } from 'fastify';
import { ChangesList, ChangesQuery, ControlIdParams, DISPATCH_CONTROL_API, RevokeBody, ServiceChange } from '../../shared/dispatch/control';
import type { Queryable } from '../db/types';
import { fail } from '../http/errors';
import { changeContext, listChanges, readConfig, writeConfig } from './changeContext';
import type { DispatchService } from './dispatchService';
import { exitChangeRoutes } from './exitChanges';
import { runChangeRoutes } from './runChanges';
import { stopChangeRoutes } from './stopChanges';

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

/**
 * /dispatch/changes: the day's service changes (runs cancelled or moved, exits handed over, runs added, stops
 * closed, detours), stored, journaled, read back by the engine (DispatchService.reloadChanges) in this process
 * and, over the bus, in the others. The kinds' routes are in runChanges.ts, exitChanges.ts and stopChanges.ts;
 * the list and revoking, common to all, here.
 */
export function serviceChangeRoutes(app: FastifyInstance, service: DispatchService, tz: number): void {
  const ctx = changeContext(app, service, tz);

  ctx.app.get<{ Querystring: ChangesQuery }>(
    DISPATCH_CONTROL_API.changes,
    {
      config: readConfig,
      schema: {
        tags: ['dispatch'],
        summary:
          'Изменения движения за день: отменённые и добавленные рейсы, сдвинутые начала, передачи выходов, закрытые остановки и объезды, с автором, причиной и временем',
        querystring: ChangesQuery,
        response: { 200: ChangesList },
      },
    },
    async (request) => {
      const date = request.query.date ?? ctx.today();
      const day = new Date(`${date}T00:00:00Z`);
      if (Number.isNaN(day.getTime()) || day.toISOString().slice(0, 10) !== date) throw fail(400, 'dispatch_bad_date');
      // without a date: the days the engine holds (yesterday's runs past midnight are changed today too)
      const dates = request.query.date ? [date] : [...new Set([date, ...ctx.service.engine.schedules.map((d) => d.serviceDate)])];
      const list = await listChanges(ctx.app.db, dates);
      return { date, list, count: list.length };
    },
  );

  ctx.app.post<{ Params: ControlIdParams; Body: RevokeBody }>(
    DISPATCH_CONTROL_API.revokeChange,
    {
      config: writeConfig('update'),
      schema: {
        tags: ['dispatch'],
        summary:
          'Отменить изменение движения (код 46): рейс восстановлен, выход возвращён, добавленный рейс снят, остановка открыта, объезд снят',
        params: ControlIdParams,
        body: RevokeBody,
        response: { 200: ServiceChange },
      },
    },
    async (request) => {
      const id = Number(request.params.id);
      const reason = request.body.reason?.trim() || null;
      const user = request.user!;
      const change = await ctx.app.db.transaction(async (tx) => {
        const [row] = await tx.query<{ run_key: string; kind: string; service_date: string; revoked_at: Date | null }>(
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
        await ctx.app.journal.record(
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
      return ctx.changed(change.service_date, id);
    },
  );
  runChangeRoutes(ctx);
  exitChangeRoutes(ctx);
  stopChangeRoutes(ctx);
}
