import type { FastifyInstance, FastifyRequest } from 'fastify';
import { isoTime } from '../../shared/format';
import {
  AlertBody,
  AlertIdParams,
  AlertList,
  AlertRouteList,
  AlertsQuery,
  AlertStopList,
  AlertStopsQuery,
  DISPATCH_ALERTS_API,
  DISPATCH_ALERTS_PATH,
  LIST_MAX,
  ServiceAlert,
  type AlertCause,
  type AlertEffect,
  type AlertsFilter,
  type AlertState,
} from '../../shared/dispatch/alerts';
import type { Queryable } from '../db/types';
import { fail } from '../http/errors';

declare module 'fastify' {
  interface FastifyInstance {
    /** The service alerts' revision: bumped on every write here or (over the bus) in another process. */
    serviceAlerts: { revision: number };
  }
}

interface AlertRow {
  id: number;
  state: AlertState;
  in_feed: boolean;
  cause: AlertCause;
  effect: AlertEffect;
  header: string;
  description: string;
  active_from: Date | string;
  active_to: Date | string | null;
  whole_network: boolean;
  route_ids: number[];
  stop_ids: number[];
  username: string | null;
  created_at: Date | string;
  updated_at: Date | string | null;
  updated_by: string | null;
  published_at: Date | string | null;
  published_by: string | null;
  ended_at: Date | string | null;
  ended_by: string | null;
}

const COLUMNS = `a.id::int as id, a.state, a.cause, a.effect, a.header, a.description, a.active_from, a.active_to, a.whole_network,
  a.route_ids, a.stop_ids, a.username, a.created_at, a.updated_at, a.updated_by, a.published_at, a.published_by, a.ended_at, a.ended_by,
  (a.state = 'published' and a.active_from <= now() and (a.active_to is null or a.active_to > now())) as in_feed`;

const WHERE: Record<AlertsFilter, string> = {
  current: "a.state in ('draft', 'published')",
  draft: "a.state = 'draft'",
  published: "a.state = 'published'",
  ended: "a.state = 'ended'",
  all: 'true',
  in_force: "a.state = 'published' and a.active_from <= now() and (a.active_to is null or a.active_to > now())",
};

async function listAlerts(db: Queryable, filter: AlertsFilter, id?: number): Promise<ServiceAlert[]> {
  const rows = await db.query<AlertRow>(
    `select ${COLUMNS} from dispatch.service_alert a where ${id === undefined ? WHERE[filter] : 'a.id = $1'}
      order by a.state = 'ended', coalesce(a.ended_at, a.published_at, a.created_at) desc, a.id desc limit ${LIST_MAX}`,
    id === undefined ? [] : [id],
  );
  const routeIds = [...new Set(rows.flatMap((r) => r.route_ids))];
  const stopIds = [...new Set(rows.flatMap((r) => r.stop_ids))];
  const [routes, stops] = await Promise.all([
    routeIds.length
      ? db.query<{ id: number; name: string }>(
          'select route_id as id, route_short_name as name from mgt.routes where route_id = any($1::int[])',
          [routeIds],
        )
      : [],
    stopIds.length
      ? db.query<{ id: number; name: string }>('select stop_id as id, stop_name as name from mgt.stops where stop_id = any($1::int[])', [
          stopIds,
        ])
      : [],
  ]);
  const routeName = new Map(routes.map((r) => [r.id, r.name]));
  const stopName = new Map(stops.map((s) => [s.id, s.name]));
  // a route or stop deleted from the handbooks since keeps its id in the alert
  const named = (ids: number[], names: Map<number, string>) => ids.map((id) => ({ id, name: names.get(id) ?? `#${id}` }));
  return rows.map((r) => ({
    id: r.id,
    state: r.state,
    inFeed: r.in_feed,
    cause: r.cause,
    effect: r.effect,
    header: r.header,
    description: r.description,
    activeFrom: isoTime(r.active_from),
    activeTo: isoTime(r.active_to),
    wholeNetwork: r.whole_network,
    routes: named(r.route_ids, routeName),
    stops: named(r.stop_ids, stopName),
    author: r.username,
    createdAt: isoTime(r.created_at),
    updatedAt: isoTime(r.updated_at),
    updatedBy: r.updated_by,
    publishedAt: isoTime(r.published_at),
    publishedBy: r.published_by,
    endedAt: isoTime(r.ended_at),
    endedBy: r.ended_by,
  }));
}

/** A published alert in force, as the GTFS-Realtime Alerts feed gives it (our route and stop ids). */
export interface ActiveAlert {
  id: number;
  cause: AlertCause;
  effect: AlertEffect;
  header: string;
  description: string;
  activeFrom: number;
  activeTo: number | null;
  wholeNetwork: boolean;
  routeIds: number[];
  stopIds: number[];
}

/** The published alerts whose period covers `now`. */
export async function activeAlerts(db: Queryable, now: number): Promise<ActiveAlert[]> {
  const at = new Date(now).toISOString();
  const rows = await db.query<AlertRow>(
    `select ${COLUMNS} from dispatch.service_alert a
      where a.state = 'published' and a.active_from <= $1 and (a.active_to is null or a.active_to > $1) order by a.id`,
    [at],
  );
  return rows.map((r) => ({
    id: r.id,
    cause: r.cause,
    effect: r.effect,
    header: r.header,
    description: r.description,
    activeFrom: new Date(r.active_from).getTime(),
    activeTo: r.active_to === null ? null : new Date(r.active_to).getTime(),
    wholeNetwork: r.whole_network,
    routeIds: r.route_ids,
    stopIds: r.stop_ids,
  }));
}

/** A moment the body gives, as epoch ms; 400 when it does not read as a date and time. */
function momentOf(text: string): number {
  // a date and a time at least ("2026-11-29T10:00"), so a bare number or a date alone is not taken for a moment
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(text)) throw fail(400, 'dispatch_alert_bad_time');
  const ms = Date.parse(text);
  if (Number.isNaN(ms)) throw fail(400, 'dispatch_alert_bad_time');
  return ms;
}

interface CheckedAlert {
  cause: AlertCause;
  effect: AlertEffect;
  header: string;
  description: string;
  activeFrom: string;
  activeTo: string | null;
  wholeNetwork: boolean;
  routeIds: number[];
  stopIds: number[];
}

/** The body checked against the handbooks: 400 with a code for what is wrong, nothing written. */
async function checked(db: Queryable, body: AlertBody, now: number): Promise<CheckedAlert> {
  const header = body.header.trim();
  if (!header) throw fail(400, 'dispatch_alert_header');
  const from = body.activeFrom === undefined ? now : momentOf(body.activeFrom);
  const to = body.activeTo === undefined || body.activeTo === null ? null : momentOf(body.activeTo);
  if (to !== null && to <= from) throw fail(400, 'dispatch_alert_period');
  const wholeNetwork = body.wholeNetwork ?? false;
  const routeIds = [...new Set(body.routeIds ?? [])];
  const stopIds = [...new Set(body.stopIds ?? [])];
  if (wholeNetwork === routeIds.length + stopIds.length > 0) throw fail(400, 'dispatch_alert_entities');
  if (routeIds.length) {
    const found = await db.query<{ id: number }>('select route_id as id from mgt.routes where route_id = any($1::int[])', [routeIds]);
    if (found.length !== routeIds.length) throw fail(400, 'dispatch_alert_unknown_route');
  }
  if (stopIds.length) {
    const found = await db.query<{ id: number }>('select stop_id as id from mgt.stops where stop_id = any($1::int[])', [stopIds]);
    if (found.length !== stopIds.length) throw fail(400, 'dispatch_alert_unknown_stop');
  }
  return {
    cause: body.cause,
    effect: body.effect,
    header,
    description: (body.description ?? '').trim(),
    activeFrom: new Date(from).toISOString(),
    activeTo: to === null ? null : new Date(to).toISOString(),
    wholeNetwork,
    routeIds,
    stopIds,
  };
}

/**
 * /dispatch/alerts «Оповещения»: service alerts for passengers, a draft written (code 46, create), published and
 * ended (code 46, update); the published ones in force go out in the GTFS-Realtime Alerts feed.
 */
export function serviceAlertRoutes(app: FastifyInstance): void {
  const state = { revision: 0 };
  app.decorate('serviceAlerts', state);
  // an alert written in another process: this one's Alerts feed is made again
  app.bus.subscribe('dispatch.alerts', () => {
    state.revision += 1;
  });
  const changed = (id: number) => {
    state.revision += 1;
    app.bus.publish('dispatch.alerts', { id });
  };
  const read = { access: { path: DISPATCH_ALERTS_PATH, action: 'read' as const }, module: 'dispatch' as const, passive: true };
  const write = (action: 'create' | 'update') => ({ access: { path: DISPATCH_ALERTS_PATH, action }, module: 'dispatch' as const });
  const one = async (id: number) => (await listAlerts(app.db, 'all', id))[0];

  /** Changes an alert in one transaction: its row locked, refused (409) unless in one of `from`, journaled. */
  const transition = async (
    request: FastifyRequest,
    id: number,
    from: readonly AlertState[],
    refusal: Partial<Record<AlertState, 'dispatch_alert_published' | 'dispatch_alert_ended' | 'dispatch_alert_draft'>>,
    apply: (tx: Queryable, row: AlertRow) => Promise<{ action: string; before?: unknown; after?: unknown } | null>,
  ) => {
    await app.db.transaction(async (tx) => {
      const [row] = await tx.query<AlertRow>(`select ${COLUMNS} from dispatch.service_alert a where a.id = $1 for update`, [id]);
      if (!row) throw fail(404, 'dispatch_alert_not_found');
      if (!from.includes(row.state)) throw fail(409, refusal[row.state] ?? 'dispatch_alert_ended');
      const entry = await apply(tx, row);
      if (entry) await app.journal.record(request, { object: 'dispatch.service_alert', objectId: id, ...entry }, tx);
    });
    changed(id);
  };

  app.get<{ Querystring: AlertsQuery }>(
    DISPATCH_ALERTS_API.alerts,
    {
      config: read,
      schema: {
        tags: ['dispatch'],
        summary: 'Оповещения пассажиров: черновики, опубликованные, завершённые (по умолчанию текущие: черновики и опубликованные)',
        querystring: AlertsQuery,
        response: { 200: AlertList },
      },
    },
    async (request) => {
      const list = await listAlerts(app.db, request.query.state ?? 'current');
      return { list, count: list.length };
    },
  );

  app.get(
    DISPATCH_ALERTS_API.routes,
    {
      config: read,
      schema: { tags: ['dispatch'], summary: 'Маршруты сети для выбора в оповещении', response: { 200: AlertRouteList } },
    },
    async () => ({
      list: await app.db.query<{ id: number; name: string }>(
        'select route_id as id, route_short_name as name from mgt.routes order by route_short_name, route_id',
      ),
    }),
  );

  app.get<{ Querystring: AlertStopsQuery }>(
    DISPATCH_ALERTS_API.stops,
    {
      config: read,
      schema: {
        tags: ['dispatch'],
        summary: 'Остановки по части названия (до 50) или по идентификаторам для выбора в оповещении',
        querystring: AlertStopsQuery,
        response: { 200: AlertStopList },
      },
    },
    async (request) => {
      const { q, ids } = request.query;
      if (ids !== undefined)
        return {
          list: await app.db.query<{ id: number; name: string }>(
            'select stop_id as id, stop_name as name from mgt.stops where stop_id = any($1::int[]) order by stop_name, stop_id',
            [ids.split(',').map(Number)],
          ),
        };
      const text = (q ?? '').trim();
      const pattern = `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      return {
        list: await app.db.query<{ id: number; name: string }>(
          `select stop_id as id, stop_name as name from mgt.stops where stop_name ilike $1 or stop_id::text = $2
            order by stop_name, stop_id limit 50`,
          [pattern, text],
        ),
      };
    },
  );

  app.post<{ Body: AlertBody }>(
    DISPATCH_ALERTS_API.alerts,
    {
      config: write('create'),
      schema: {
        tags: ['dispatch'],
        summary:
          'Новое оповещение — черновик (код 46): причина и последствие (перечни GTFS-Realtime), заголовок, текст, период, маршруты и остановки или вся сеть',
        body: AlertBody,
        response: { 200: ServiceAlert },
      },
    },
    async (request) => {
      const alert = await checked(app.db, request.body, Date.now());
      const user = request.user!;
      const id = await app.db.transaction(async (tx) => {
        const [row] = await tx.query<{ id: number }>(
          `insert into dispatch.service_alert (cause, effect, header, description, active_from, active_to, whole_network, route_ids, stop_ids, user_id, username)
           values ($1, $2, $3, $4, $5, $6, $7, $8::int[], $9::int[], $10, $11) returning id::int as id`,
          [
            alert.cause,
            alert.effect,
            alert.header,
            alert.description,
            alert.activeFrom,
            alert.activeTo,
            alert.wholeNetwork,
            alert.routeIds,
            alert.stopIds,
            user.id,
            user.username,
          ],
        );
        await app.journal.record(
          request,
          { action: 'create service alert', object: 'dispatch.service_alert', objectId: row.id, after: alert },
          tx,
        );
        return row.id;
      });
      changed(id);
      return one(id);
    },
  );

  app.put<{ Params: AlertIdParams; Body: AlertBody }>(
    DISPATCH_ALERTS_API.alert,
    {
      config: write('create'),
      schema: {
        tags: ['dispatch'],
        summary: 'Изменить черновик оповещения (код 46); опубликованное не меняется — его завершают и пишут новое',
        params: AlertIdParams,
        body: AlertBody,
        response: { 200: ServiceAlert },
      },
    },
    async (request) => {
      const id = Number(request.params.id);
      const alert = await checked(app.db, request.body, Date.now());
      const user = request.user!;
      await transition(request, id, ['draft'], { published: 'dispatch_alert_published' }, async (tx, row) => {
        await tx.query(
          `update dispatch.service_alert set cause = $2, effect = $3, header = $4, description = $5, active_from = $6, active_to = $7,
                  whole_network = $8, route_ids = $9::int[], stop_ids = $10::int[], updated_at = now(), updated_by = $11 where id = $1`,
          [
            id,
            alert.cause,
            alert.effect,
            alert.header,
            alert.description,
            alert.activeFrom,
            alert.activeTo,
            alert.wholeNetwork,
            alert.routeIds,
            alert.stopIds,
            user.username,
          ],
        );
        const before = {
          cause: row.cause,
          effect: row.effect,
          header: row.header,
          description: row.description,
          activeFrom: isoTime(row.active_from),
          activeTo: isoTime(row.active_to),
          wholeNetwork: row.whole_network,
          routeIds: row.route_ids,
          stopIds: row.stop_ids,
        };
        return { action: 'edit service alert', before, after: alert };
      });
      return one(id);
    },
  );

  app.delete<{ Params: AlertIdParams }>(
    DISPATCH_ALERTS_API.alert,
    {
      config: write('create'),
      schema: {
        tags: ['dispatch'],
        summary: 'Удалить черновик оповещения (код 46); опубликованное не удаляется, а завершается',
        params: AlertIdParams,
      },
    },
    async (request, reply) => {
      const id = Number(request.params.id);
      await transition(
        request,
        id,
        ['draft'],
        { published: 'dispatch_alert_published', ended: 'dispatch_alert_ended' },
        async (tx, row) => {
          await tx.query('delete from dispatch.service_alert where id = $1', [id]);
          return { action: 'delete service alert', before: { header: row.header, cause: row.cause, effect: row.effect } };
        },
      );
      return reply.code(204).send();
    },
  );

  app.post<{ Params: AlertIdParams }>(
    DISPATCH_ALERTS_API.publish,
    {
      config: write('update'),
      schema: {
        tags: ['dispatch'],
        summary: 'Опубликовать черновик оповещения (код 46, право изменения): в ленте GTFS-Realtime Alerts, пока его период идёт',
        params: AlertIdParams,
        response: { 200: ServiceAlert },
      },
    },
    async (request) => {
      const id = Number(request.params.id);
      const user = request.user!;
      await transition(
        request,
        id,
        ['draft'],
        { published: 'dispatch_alert_published', ended: 'dispatch_alert_ended' },
        async (tx, row) => {
          // a period over already is nothing to tell passengers
          if (row.active_to !== null && new Date(row.active_to).getTime() <= Date.now()) throw fail(409, 'dispatch_alert_period_over');
          await tx.query("update dispatch.service_alert set state = 'published', published_at = now(), published_by = $2 where id = $1", [
            id,
            user.username,
          ]);
          return { action: 'publish service alert', before: { state: 'draft' }, after: { state: 'published', header: row.header } };
        },
      );
      return one(id);
    },
  );

  app.post<{ Params: AlertIdParams }>(
    DISPATCH_ALERTS_API.end,
    {
      config: write('update'),
      schema: {
        tags: ['dispatch'],
        summary: 'Завершить опубликованное оповещение (код 46, право изменения): из ленты GTFS-Realtime Alerts оно уходит',
        params: AlertIdParams,
        response: { 200: ServiceAlert },
      },
    },
    async (request) => {
      const id = Number(request.params.id);
      const user = request.user!;
      await transition(request, id, ['published'], { draft: 'dispatch_alert_draft', ended: 'dispatch_alert_ended' }, async (tx, row) => {
        await tx.query("update dispatch.service_alert set state = 'ended', ended_at = now(), ended_by = $2 where id = $1", [
          id,
          user.username,
        ]);
        return { action: 'end service alert', before: { state: 'published' }, after: { state: 'ended', header: row.header } };
      });
      return one(id);
    },
  );
}
