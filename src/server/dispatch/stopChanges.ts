import {
  CloseStopBody,
  DetourBody,
  DISPATCH_CONTROL_API,
  PERIOD_MAX_HOURS,
  RouteStops,
  RouteStopsQuery,
  ServiceChange,
} from '../../shared/dispatch/control';
import { isoTime } from '../../shared/format';
import { fail } from '../http/errors';
import { readConfig, writeConfig, type ChangeContext } from './changeContext';
import { lookupNames } from './names';
import type { Run } from './schedule';
import { directionLines } from './views';

/** A moment of a body as epoch ms: a date and a time at least, else 400. */
function momentOf(text: string): number {
  const ms = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(text) ? Date.parse(text) : NaN;
  if (Number.isNaN(ms)) throw fail(400, 'dispatch_change_bad_time');
  return ms;
}

/** The period of a closure or a detour as instants: it ends after it starts, within a day, and not already over. */
function periodOf(body: { activeFrom: string; activeTo: string }, now: number): { from: string; to: string } {
  const from = momentOf(body.activeFrom);
  const to = momentOf(body.activeTo);
  if (to <= from || to - from > PERIOD_MAX_HOURS * 3_600_000 || to <= now) throw fail(400, 'dispatch_change_period');
  return { from: isoTime(from), to: isoTime(to) };
}

/** A run passes `fromStopId` and later `toStopId`. */
const passesInOrder = (run: Run, fromStopId: number, toStopId: number) => {
  const a = run.stopIds.indexOf(fromStopId);
  return a >= 0 && run.stopIds.indexOf(toStopId, a + 1) > a;
};

/** Stops closed for a period and detours: they concern every run through them in their period, not one run. */
export function stopChangeRoutes(ctx: ChangeContext): void {
  const { app } = ctx;
  /** Today's runs of a route (the engine's, added ones left out: they copy the timetable's). */
  const routeRuns = (routeId: number) =>
    ctx.service.engine.schedules.find((d) => d.serviceDate === ctx.today())?.runs.filter((r) => r.routeId === routeId && !r.added) ?? [];
  const checkReason = (text: string) => {
    const reason = text.trim();
    if (!reason) throw fail(400, 'dispatch_change_reason');
    return reason;
  };
  const routeExists = async (routeId: number) => {
    const [route] = await app.db.query('select 1 from mgt.routes where route_id = $1', [routeId]);
    if (!route) throw fail(404, 'dispatch_route_not_found');
  };

  app.get<{ Querystring: RouteStopsQuery }>(
    DISPATCH_CONTROL_API.routeStops,
    {
      config: readConfig,
      schema: {
        tags: ['dispatch'],
        summary: 'Остановки маршрута по направлениям (самый частый рейс дня) с координатами: для закрытия остановки и объезда',
        querystring: RouteStopsQuery,
        response: { 200: RouteStops },
      },
    },
    async (request) => {
      const lines = directionLines(routeRuns(Number(request.query.route)));
      const names = await lookupNames(app.db, { stops: lines.flatMap((l) => l.stopIds) });
      return {
        directions: lines.map((l) => ({
          direction: l.direction,
          stops: l.stopIds.map((stopId, i) => {
            const at = l.run.shape.at(l.run.dists[i]);
            return { stopId, name: names.stops.get(stopId) ?? null, lat: at.lat, lon: at.lon };
          }),
        })),
      };
    },
  );

  app.post<{ Body: CloseStopBody }>(
    DISPATCH_CONTROL_API.closeStop,
    {
      config: writeConfig('create'),
      schema: {
        tags: ['dispatch'],
        summary: 'Закрыть остановку маршрута (или всех маршрутов через неё) на период сегодняшнего дня (код 46), с причиной',
        body: CloseStopBody,
        response: { 200: ServiceChange },
      },
    },
    async (request) => {
      const { stopId, routeId } = request.body;
      const reason = checkReason(request.body.reason);
      const { from, to } = periodOf(request.body, Date.now());
      const [stop] = await app.db.query('select 1 from mgt.stops where stop_id = $1', [stopId]);
      if (!stop) throw fail(404, 'dispatch_stop_not_found');
      if (routeId !== undefined) {
        await routeExists(routeId);
        if (!routeRuns(routeId).some((r) => r.stopIds.includes(stopId))) throw fail(400, 'dispatch_stop_not_on_route');
      }
      const user = request.user!;
      const date = ctx.today();
      const id = await app.db.transaction(async (tx) => {
        const [taken] = await tx.query(
          `select 1 from dispatch.service_change where kind = 'close_stop' and revoked_at is null and stop_id = $1
              and (route_id is null or $2::int is null or route_id = $2) and active_from < $4 and active_to > $3`,
          [stopId, routeId ?? null, from, to],
        );
        if (taken) throw fail(409, 'dispatch_change_exists');
        const [row] = await tx.query<{ id: number }>(
          `insert into dispatch.service_change (service_date, route_id, kind, stop_id, active_from, active_to, reason, user_id, username)
           values ($1, $2, 'close_stop', $3, $4, $5, $6, $7, $8) returning id::int as id`,
          [date, routeId ?? null, stopId, from, to, reason, user.id, user.username],
        );
        await app.journal.record(
          request,
          {
            action: 'close stop',
            object: 'dispatch.service_change',
            objectId: row.id,
            after: {
              stopId,
              routeId: routeId ?? null,
              activeFrom: from,
              activeTo: to,
              reason,
            },
          },
          tx,
        );
        return row.id;
      });
      return ctx.changed(date, id);
    },
  );

  app.post<{ Body: DetourBody }>(
    DISPATCH_CONTROL_API.detour,
    {
      config: writeConfig('create'),
      schema: {
        tags: ['dispatch'],
        summary:
          'Объезд на маршруте на период сегодняшнего дня (код 46): путь между двумя остановками маршрута вместо трассы, остановки между ними закрыты',
        body: DetourBody,
        response: { 200: ServiceChange },
      },
    },
    async (request) => {
      const { routeId, direction, fromStopId, toStopId, path } = request.body;
      const reason = checkReason(request.body.reason);
      const { from, to } = periodOf(request.body, Date.now());
      if (path.length < 2) throw fail(400, 'dispatch_detour_path');
      await routeExists(routeId);
      const runs = routeRuns(routeId).filter((r) => direction === undefined || r.direction === direction);
      if (fromStopId === toStopId || !runs.some((r) => passesInOrder(r, fromStopId, toStopId))) throw fail(400, 'dispatch_detour_stops');
      const user = request.user!;
      const date = ctx.today();
      const id = await app.db.transaction(async (tx) => {
        const [taken] = await tx.query(
          `select 1 from dispatch.service_change where kind = 'detour' and revoked_at is null and route_id = $1
              and (direction is null or $2::int is null or direction = $2) and active_from < $4 and active_to > $3`,
          [routeId, direction ?? null, from, to],
        );
        if (taken) throw fail(409, 'dispatch_change_exists');
        const [row] = await tx.query<{ id: number }>(
          `insert into dispatch.service_change (service_date, route_id, kind, direction, stop_id, to_stop_id, path, active_from, active_to, reason, user_id, username)
           values ($1, $2, 'detour', $3, $4, $5, $6::jsonb, $7, $8, $9, $10, $11) returning id::int as id`,
          [date, routeId, direction ?? null, fromStopId, toStopId, JSON.stringify(path), from, to, reason, user.id, user.username],
        );
        await app.journal.record(
          request,
          {
            action: 'detour route',
            object: 'dispatch.service_change',
            objectId: row.id,
            after: {
              routeId,
              direction: direction ?? null,
              fromStopId,
              toStopId,
              points: path.length,
              activeFrom: from,
              activeTo: to,
              reason,
            },
          },
          tx,
        );
        return row.id;
      });
      return ctx.changed(date, id);
    },
  );
}
