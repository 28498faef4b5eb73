import type { FastifyInstance } from 'fastify';
import { isoTime } from '../../shared/format';
import {
  CannedBody,
  CannedList,
  ControlIdParams,
  DISPATCH_CONTROL_API,
  DISPATCH_MESSAGES_PATH,
  DriverMessage,
  InboxList,
  MessageList,
  MessagesQuery,
  SendMessageBody,
  TTL_DEFAULT_MINUTES,
  TTL_MAX_MINUTES,
  type Delivery,
  type DeliveryState,
  type TargetKind,
} from '../../shared/dispatch/control';
import type { Queryable } from '../db/types';
import { fail } from '../http/errors';
import { operatorDate, operatorMidnight } from '../platform/operatorDay';
import type { DispatchService } from './dispatchService';
import type { MessageCourier } from './driverMessages';

interface MessageRow {
  id: number;
  text: string;
  target: TargetKind;
  target_id: number | null;
  target_name: string | null;
  username: string | null;
  created_at: Date | string;
  expires_at: Date | string;
}

interface DeliveryRow {
  message_id: number;
  vehicle_id: number;
  depot_number: number | null;
  state: DeliveryState;
  sent_at: Date | string | null;
  delivered_at: Date | string | null;
  read_at: Date | string | null;
}

async function listMessages(db: Queryable, from: number, to: number, id?: number): Promise<DriverMessage[]> {
  const messages = await db.query<MessageRow>(
    `select m.id::int as id, m.text, m.target, m.target_id, m.username, m.created_at, m.expires_at,
            case m.target when 'vehicle' then (select coalesce(v.depot_number::text, v.id::text) from mgt.vehicles v where v.id = m.target_id)
                          when 'route' then (select r.route_short_name from mgt.routes r where r.route_id = m.target_id)
                          when 'exit' then (select r.route_short_name || ' / ' || m.graph from mgt.routes r where r.route_id = m.target_id)
                          when 'depot' then (select d.depot_name from mgt.depot d where d.depot_id = m.target_id) end as target_name
       from dispatch.driver_message m
      where ($3::bigint is null and m.created_at >= $1 and m.created_at < $2) or m.id = $3
      order by m.created_at desc, m.id desc limit 500`,
    [new Date(from).toISOString(), new Date(to).toISOString(), id ?? null],
  );
  const deliveries = await db.query<DeliveryRow>(
    `select d.message_id::int as message_id, d.vehicle_id, v.depot_number, d.state, d.sent_at, d.delivered_at, d.read_at
       from dispatch.message_delivery d left join mgt.vehicles v on v.id = d.vehicle_id
      where d.message_id = any($1::bigint[]) order by v.depot_number nulls last, d.vehicle_id`,
    [messages.map((m) => m.id)],
  );
  const byMessage = new Map<number, Delivery[]>();
  for (const d of deliveries) {
    let list = byMessage.get(d.message_id);
    if (!list) byMessage.set(d.message_id, (list = []));
    list.push({
      vehicleId: d.vehicle_id,
      depotNumber: d.depot_number,
      state: d.state,
      sentAt: isoTime(d.sent_at),
      deliveredAt: isoTime(d.delivered_at),
      readAt: isoTime(d.read_at),
    });
  }
  return messages.map((m) => {
    const list = byMessage.get(m.id) ?? [];
    const counts: Record<string, number> = { queued: 0, sent: 0, delivered: 0, read: 0, expired: 0 };
    for (const d of list) counts[d.state] += 1;
    return {
      id: m.id,
      text: m.text,
      target: m.target,
      targetId: m.target_id,
      targetName: m.target_name,
      author: m.username,
      createdAt: isoTime(m.created_at)!,
      expiresAt: isoTime(m.expires_at)!,
      counts,
      deliveries: list,
    };
  });
}

/**
 * /dispatch/messages: messages to drivers (a vehicle, a route's, a depot's or every vehicle on the line today),
 * their state per vehicle, the canned texts and the drivers' inbox.
 */
export function driverMessageRoutes(app: FastifyInstance, service: DispatchService, courier: MessageCourier, tz: number): void {
  const read = { access: { path: DISPATCH_MESSAGES_PATH, action: 'read' as const }, module: 'dispatch' as const, passive: true };
  const write = (action: 'create' | 'update') => ({ access: { path: DISPATCH_MESSAGES_PATH, action }, module: 'dispatch' as const });
  const dayOf = (date: string | undefined) => {
    const d = date ?? operatorDate(Date.now(), tz);
    const check = new Date(`${d}T00:00:00Z`);
    if (Number.isNaN(check.getTime()) || check.toISOString().slice(0, 10) !== d) throw fail(400, 'dispatch_bad_date');
    const from = operatorMidnight(d, tz);
    return { date: d, from, to: from + 86_400_000 };
  };

  /** The vehicles on the line today: tasked on a block of the days held not over yet, or working a run now. */
  const onLine = () => {
    const now = Date.now();
    const out = new Map<number, Set<number>>();
    const add = (vehicleId: number, routeId: number) => {
      let routes = out.get(vehicleId);
      if (!routes) out.set(vehicleId, (routes = new Set()));
      routes.add(routeId);
    };
    for (const day of service.engine.schedules) {
      for (const [vehicleId, list] of day.assignments) {
        for (const a of list) {
          const block = day.blocks.get(a.blockKey)!;
          if (block.end >= now - 2 * 3_600_000) add(vehicleId, block.routeId);
        }
      }
    }
    for (const v of service.engine.states()) if (v.run) add(v.vehicleId, v.run.routeId);
    return out;
  };

  /**
   * The vehicle working an exit of a route today: the one on a run of it now, else the one its assignments give
   * it now (a handover's vehicle from its time), else its task's for the rest of the day.
   */
  const exitVehicles = (routeId: number, graph: number): number[] => {
    const now = Date.now();
    const ofExit = (b: { routeId: number; graph: number }) => b.routeId === routeId && b.graph === graph;
    const working = [...service.engine.states()].filter((v) => v.run && ofExit(v.run)).map((v) => v.vehicleId);
    if (working.length) return [...new Set(working)];
    const current: number[] = [];
    const later: number[] = [];
    for (const day of service.engine.schedules)
      for (const [vehicleId, list] of day.assignments)
        for (const a of list) {
          const block = day.blocks.get(a.blockKey)!;
          if (!ofExit(block) || block.end < now || a.to <= now) continue;
          (a.from <= now ? current : later).push(vehicleId);
        }
    return [...new Set(current.length ? current : later)];
  };

  app.get<{ Querystring: MessagesQuery }>(
    DISPATCH_CONTROL_API.messages,
    {
      config: read,
      schema: {
        tags: ['dispatch'],
        summary: 'Сообщения водителям за день с состоянием по каждому ТС',
        querystring: MessagesQuery,
        response: { 200: MessageList },
      },
    },
    async (request) => {
      const { date, from, to } = dayOf(request.query.date);
      const list = await listMessages(app.db, from, to);
      return { date, list, count: list.length };
    },
  );

  app.post<{ Body: SendMessageBody }>(
    DISPATCH_CONTROL_API.messages,
    {
      config: write('create'),
      schema: {
        tags: ['dispatch'],
        summary: 'Отправить сообщение ТС, ТС маршрута, парка или всем на линии (код 47)',
        body: SendMessageBody,
        response: { 200: DriverMessage },
      },
    },
    async (request) => {
      const { target, targetId, graph } = request.body;
      const text = request.body.text.trim();
      if (!text) throw fail(400, 'dispatch_message_text');
      const ttl = request.body.ttlMinutes ?? TTL_DEFAULT_MINUTES;
      if (ttl < 1 || ttl > TTL_MAX_MINUTES) throw fail(400, 'dispatch_message_ttl');
      if ((target === 'all') !== (targetId === undefined) || (targetId !== undefined && (targetId < 1 || targetId > 999_999_999)))
        throw fail(400, 'dispatch_message_target');
      if ((target === 'exit') !== (graph !== undefined)) throw fail(400, 'dispatch_message_graph');
      let vehicles: number[];
      if (target === 'vehicle') {
        const [vehicle] = await app.db.query('select 1 from mgt.vehicles where id = $1', [targetId]);
        if (!vehicle) throw fail(404, 'dispatch_vehicle_not_found');
        vehicles = [targetId!];
      } else {
        const line = onLine();
        if (target === 'exit') {
          const [route] = await app.db.query('select 1 from mgt.routes where route_id = $1', [targetId]);
          if (!route) throw fail(404, 'dispatch_route_not_found');
          vehicles = exitVehicles(targetId!, graph!);
        } else if (target === 'route') {
          const [route] = await app.db.query('select 1 from mgt.routes where route_id = $1', [targetId]);
          if (!route) throw fail(404, 'dispatch_route_not_found');
          vehicles = [...line].filter(([, routes]) => routes.has(targetId!)).map(([id]) => id);
        } else if (target === 'depot') {
          const [depot] = await app.db.query('select 1 from mgt.depot where depot_id = $1', [targetId]);
          if (!depot) throw fail(404, 'dispatch_depot_not_found');
          const rows = await app.db.query<{ id: number }>('select id from mgt.vehicles where depot_id = $1 and id = any($2::int[])', [
            targetId,
            [...line.keys()],
          ]);
          vehicles = rows.map((r) => r.id);
        } else vehicles = [...line.keys()];
      }
      if (!vehicles.length) throw fail(409, 'dispatch_message_no_recipients');
      vehicles.sort((a, b) => a - b);
      const user = request.user!;
      const id = await app.db.transaction(async (tx) => {
        const [row] = await tx.query<{ id: number }>(
          `insert into dispatch.driver_message (text, target, target_id, graph, user_id, username, expires_at)
         values ($1, $2, $3, $4, $5, $6, now() + make_interval(mins => $7)) returning id::int as id`,
          [text, target, targetId ?? null, graph ?? null, user.id, user.username, ttl],
        );
        await tx.query('insert into dispatch.message_delivery (message_id, vehicle_id) select $1, unnest($2::int[])', [row.id, vehicles]);
        await app.journal.record(
          request,
          {
            action: 'send driver message',
            object: 'dispatch.driver_message',
            objectId: row.id,
            after: { text, target, targetId: targetId ?? null, graph: graph ?? null, ttlMinutes: ttl, vehicles: vehicles.length },
          },
          tx,
        );
        return row.id;
      });
      courier.wake();
      return (await listMessages(app.db, 0, 0, id))[0];
    },
  );

  app.get(
    DISPATCH_CONTROL_API.canned,
    {
      config: read,
      schema: { tags: ['dispatch'], summary: 'Шаблоны сообщений водителям', response: { 200: CannedList } },
    },
    async () => ({
      list: await app.db.query<{ id: number; text: string }>('select id, text from dispatch.canned_message order by text, id'),
    }),
  );

  app.post<{ Body: CannedBody }>(
    DISPATCH_CONTROL_API.canned,
    {
      config: write('create'),
      schema: {
        tags: ['dispatch'],
        summary: 'Добавить шаблон сообщения (код 47)',
        body: CannedBody,
        response: { 200: CannedList.properties.list.items },
      },
    },
    async (request) => {
      const text = request.body.text.trim();
      if (!text) throw fail(400, 'dispatch_message_text');
      return app.db.transaction(async (tx) => {
        const [taken] = await tx.query('select 1 from dispatch.canned_message where text = $1', [text]);
        if (taken) throw fail(409, 'dispatch_canned_exists');
        const [row] = await tx.query<{ id: number; text: string }>(
          'insert into dispatch.canned_message (text) values ($1) returning id, text',
          [text],
        );
        await app.journal.record(
          request,
          { action: 'create canned message', object: 'dispatch.canned_message', objectId: row.id, after: { text } },
          tx,
        );
        return row;
      });
    },
  );

  app.delete<{ Params: ControlIdParams }>(
    DISPATCH_CONTROL_API.cannedItem,
    {
      config: write('update'),
      schema: { tags: ['dispatch'], summary: 'Удалить шаблон сообщения (код 47)', params: ControlIdParams, response: { 200: CannedList } },
    },
    async (request) => {
      const id = Number(request.params.id);
      await app.db.transaction(async (tx) => {
        const [row] = await tx.query<{ text: string }>('delete from dispatch.canned_message where id = $1 returning text', [id]);
        if (!row) throw fail(404, 'dispatch_canned_not_found');
        await app.journal.record(
          request,
          { action: 'delete canned message', object: 'dispatch.canned_message', objectId: id, before: { text: row.text } },
          tx,
        );
      });
      return { list: await app.db.query<{ id: number; text: string }>('select id, text from dispatch.canned_message order by text, id') };
    },
  );

  app.get<{ Querystring: MessagesQuery }>(
    DISPATCH_CONTROL_API.inbox,
    {
      config: read,
      schema: { tags: ['dispatch'], summary: 'Сообщения от водителей за день', querystring: MessagesQuery, response: { 200: InboxList } },
    },
    async (request) => {
      const { from, to } = dayOf(request.query.date);
      const rows = await app.db.query<{
        id: number;
        vehicle_id: number;
        depot_number: number | null;
        text: string;
        received_at: Date | string;
      }>(
        `select i.id::int as id, i.vehicle_id, v.depot_number, i.text, i.received_at from dispatch.driver_inbox i left join mgt.vehicles v on v.id = i.vehicle_id
        where i.received_at >= $1 and i.received_at < $2 order by i.received_at desc, i.id desc limit 500`,
        [new Date(from).toISOString(), new Date(to).toISOString()],
      );
      const routeOf = new Map<number, string | null>();
      const runs = new Map([...service.engine.states()].filter((v) => v.run).map((v) => [v.vehicleId, v.run!.routeId]));
      const routeIds = [...new Set(rows.map((r) => runs.get(r.vehicle_id)).filter((id): id is number => id !== undefined))];
      if (routeIds.length)
        for (const r of await app.db.query<{ id: number; name: string }>(
          'select route_id as id, route_short_name as name from mgt.routes where route_id = any($1::int[])',
          [routeIds],
        ))
          routeOf.set(r.id, r.name);
      const list = rows.map((r) => {
        const routeId = runs.get(r.vehicle_id);
        return {
          id: r.id,
          vehicleId: r.vehicle_id,
          depotNumber: r.depot_number,
          routeName: routeId === undefined ? null : (routeOf.get(routeId) ?? null),
          text: r.text,
          receivedAt: isoTime(r.received_at)!,
        };
      });
      return { list, count: list.length };
    },
  );
}
