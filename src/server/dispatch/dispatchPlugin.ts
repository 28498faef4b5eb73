import type { FastifyInstance } from 'fastify';
import { isoTime } from '../../shared/format';
import fp from 'fastify-plugin';
import {
  AcknowledgeBody,
  AdherenceList,
  BoardList,
  BoardQuery,
  DISPATCH_API,
  DISPATCH_EXITS_PATH,
  DISPATCH_LINES_PATH,
  DISPATCH_RIGHTS_PATH,
  DispatchIdParams,
  DispatchOptions,
  DispatchVehicleList,
  DispatchVehicleQuery,
  ExitsList,
  ExitsQuery,
  RouteLine,
  StopArrivals,
  VehicleCard,
  type DispatchVehicle,
  type ExceptionKind,
} from '../../shared/dispatch/api';
import { DayPartitions } from '../db/dayPartitions';
import { fail } from '../http/errors';
import { PeriodicJob } from '../jobs/periodicJob';
import { operatorDate, operatorTzOffset } from '../platform/operatorDay';
import { dispatchConfig } from './config';
import { DispatchService } from './dispatchService';
import { driverMessageRoutes } from './driverMessageRoutes';
import { MessageCourier, restoreDriverMessages } from './driverMessages';
import { serviceAlertRoutes } from './serviceAlerts';
import { loadChangeNotes, loadHandoverNotes, serviceChangeRoutes } from './serviceChanges';
import type { DispatchEngine } from './engine';
import type { VehicleState } from './engineTypes';
import { ExceptionBell } from './exceptionBell';
import { exitsOfDay } from './exits';
import { PredictionSampler } from './predictionSamples';
import { adherenceOf, board, routeLine, stopArrivals, vehicleCard } from './views';
import { DISPATCH_SOURCES } from './dispatchReports';

declare module 'fastify' {
  interface FastifyInstance {
    /** The live timetable: its engine and the service feeding it. */
    dispatch: DispatchService;
    /** Messages to drivers over the terminals' commands service. */
    driverMessages: MessageCourier;
  }
}

/** A vehicle's state as the API gives it. */
export function vehicleView(engine: DispatchEngine, v: VehicleState, now: number): DispatchVehicle {
  const run = v.run;
  const exceptions = [...engine.exceptions()].filter((e) => e.vehicleId === v.vehicleId);
  return {
    vehicleId: v.vehicleId,
    status: run ? (v.started ? 'in_service' : 'layover') : 'off',
    matchedBy: v.matchedBy,
    otherExit: v.otherExit,
    run: run && {
      key: run.key,
      serviceDate: run.serviceDate,
      routeId: run.routeId,
      direction: run.direction,
      graph: run.graph,
      smena: run.smena,
      raceNum: run.raceNum,
      tripId: run.tripId,
      scheduledStart: isoTime(run.start)!,
      scheduledEnd: isoTime(run.end)!,
    },
    distance: run && v.point ? Math.round(v.point.dist) : null,
    offset: run && v.offset !== null ? Math.round(v.offset) : null,
    nextStopSequence: run && v.cursor.next < run.sequences.length ? run.sequences[v.cursor.next] : null,
    deviation: v.deviation,
    headway: v.headway,
    scheduledHeadway: v.scheduledHeadway,
    lastFix: isoTime(v.last?.time),
    passages: v.passages
      .filter((p) => p.run === run)
      .map((p) => ({
        stopId: p.run.stopIds[p.stopIndex],
        stopSequence: p.run.sequences[p.stopIndex],
        scheduled: isoTime(p.run.times[p.stopIndex])!,
        arrival: isoTime(p.arrival),
        departure: isoTime(p.departure),
        interpolated: p.interpolated,
      })),
    predictions: engine.predictions(v.vehicleId, now).map((p) => ({
      stopId: p.run.stopIds[p.stopIndex],
      stopSequence: p.run.sequences[p.stopIndex],
      runKey: p.run.key,
      scheduled: isoTime(p.scheduled)!,
      predicted: isoTime(p.predicted)!,
      baseline: isoTime(p.baseline)!,
    })),
    exceptions: exceptions.map((e) => ({ kind: e.kind, since: isoTime(e.since)!, value: e.value })),
  };
}

/**
 * The live timetable (DESIGN.md "The live timetable", docs/dispatch.md): the service starts with the server and
 * runs while the `dispatch` module is on; its state answers from memory.
 */
const HOUR_MS = 3_600_000;

async function dispatchPlugin(app: FastifyInstance): Promise<void> {
  app.reports.register(app, DISPATCH_SOURCES);
  // With several processes each runs the engine on the whole fleet; one of them writes (passages, samples).
  const writer = app.leases.lease('dispatch.writer');
  const tzOffsetMinutes = operatorTzOffset();
  const log = app.log.child({ area: 'dispatch' });
  // Passages by service date, kept DISPATCH_RETENTION_DAYS: the writer makes the dates it writes, the maintenance
  // (one process of several, its lease) makes the coming ones and drops the days past the retention whole.
  const partitions = new DayPartitions(app.db, { table: 'dispatch.stop_passage', retentionDays: dispatchConfig().retentionDays }, log);
  const maintenanceLease = app.leases.lease('dispatch.partitions');
  const maintenance = new PeriodicJob(
    () => partitions.maintain(Date.now(), maintenanceLease.fence()),
    log,
    'stop passage partition maintenance failed',
    maintenanceLease,
  );
  const service = new DispatchService({
    db: app.db,
    pipeline: app.telemetry.pipeline,
    settings: () => app.settings.document(),
    log,
    tzOffsetMinutes,
    writer,
    partitions,
    bell: new ExceptionBell({ db: app.db, notifier: app.notifier, log }),
  });
  app.decorate('dispatch', service);
  app.map.directory.useMatchedRoutes(function* () {
    for (const vehicle of service.engine.states()) if (vehicle.run) yield [vehicle.vehicleId, vehicle.run.routeId] as const;
  });
  const samples = new PredictionSampler({
    db: app.db,
    engine: service.engine,
    enabled: async () => writer.held && (await app.settings.document()).modules.dispatch !== false,
    log: app.log.child({ area: 'dispatch' }),
    tzOffsetMinutes,
    writer,
  });
  const courier = new MessageCourier({
    db: app.db,
    links: app.telemetry.fleetLinks,
    service,
    bus: app.bus,
    log: app.log.child({ area: 'dispatch' }),
    lease: app.leases.lease('dispatch.messages'),
  });
  app.decorate('driverMessages', courier);
  // an acknowledgement made in another process (its row is stored there)
  app.bus.subscribe('dispatch.ack', ({ key, since, ...ack }) => service.acknowledge(key, since, ack));
  // a service change or a driver's message stored in another process
  app.bus.subscribe(
    'dispatch.changes',
    () => void service.reloadChanges().catch((err: unknown) => app.log.warn({ err }, 'service changes not read')),
  );
  app.bus.subscribe('dispatch.driverMessage', ({ id, vehicleId, text, at }) => service.engine.driverMessage(id, vehicleId, text, at));
  // In the background: a city's two days of timetable take seconds to load, longer than a start may wait for a
  // hook; positions arriving meanwhile wait in the service's queue for it.
  app.addHook('onReady', async () => {
    service
      .start()
      .then(() => restoreDriverMessages(app.db, service, Date.now()))
      .catch((err: unknown) => app.log.error({ err }, 'live timetable did not start'));
    samples.start();
    courier.start();
    maintenance.start(HOUR_MS, 0);
  });
  app.addHook('preClose', async () => {
    await maintenance.stop();
    samples.stop();
    await courier.stop();
    await service.stop();
  });

  app.get<{ Querystring: DispatchVehicleQuery }>(
    DISPATCH_API.vehicles,
    {
      config: { access: { path: DISPATCH_RIGHTS_PATH, action: 'read' }, module: 'dispatch', passive: true },
      schema: {
        tags: ['dispatch'],
        summary:
          'Живое расписание: ТС с их рейсом, продвижением, отклонением, интервалом, прохождениями остановок, прогнозами и исключениями',
        querystring: DispatchVehicleQuery,
        response: { 200: DispatchVehicleList },
      },
    },
    async (request) => {
      const now = Date.now();
      const vehicle = request.query.vehicle === undefined ? undefined : Number(request.query.vehicle);
      const route = request.query.route === undefined ? undefined : Number(request.query.route);
      const list: DispatchVehicle[] = [];
      for (const v of service.engine.states()) {
        if (vehicle !== undefined && v.vehicleId !== vehicle) continue;
        if (route !== undefined && v.run?.routeId !== route) continue;
        if (!v.last) continue;
        list.push(vehicleView(service.engine, v, now));
      }
      list.sort((a, b) => a.vehicleId - b.vehicleId);
      return { list, count: list.length };
    },
  );

  const read = (path: string) => ({ access: { path, action: 'read' as const }, module: 'dispatch' as const, passive: true });
  const idsOf = (text: string | undefined) => (text === undefined ? null : new Set(text.split(',').map(Number)));
  const tz = operatorTzOffset();

  app.get(
    DISPATCH_API.options,
    {
      config: read(DISPATCH_RIGHTS_PATH),
      schema: {
        tags: ['dispatch'],
        summary: 'Выбор фильтров: маршруты сегодняшнего расписания и парки',
        response: { 200: DispatchOptions },
      },
    },
    async () => {
      const routeIds = [...new Set(service.engine.schedules.flatMap((d) => d.runs.map((r) => r.routeId)))];
      const vehicleIds = new Set<number>();
      for (const v of service.engine.states()) if (v.last) vehicleIds.add(v.vehicleId);
      for (const d of service.engine.schedules) for (const id of d.assignments.keys()) vehicleIds.add(id);
      const [routes, depots, vehicles] = await Promise.all([
        app.db.query<{ id: number; name: string; depotId: number | null }>(
          'select route_id as id, route_short_name as name, "Depot_id" as "depotId" from mgt.routes where route_id = any($1::int[])',
          [routeIds],
        ),
        app.db.query<{ id: number; name: string }>(
          'select depot_id as id, depot_name as name from mgt.depot order by depot_name, depot_id',
        ),
        app.db.query<{ id: number; name: string }>(
          `select id, coalesce(depot_number::text, id::text) || coalesce(' (' || state_number || ')', '') as name from mgt.vehicles
          where id = any($1::int[]) order by depot_number nulls last, id`,
          [[...vehicleIds]],
        ),
      ]);
      routes.sort((a, b) => a.name.localeCompare(b.name, 'ru', { numeric: true }) || a.id - b.id);
      return { routes, depots, vehicles };
    },
  );

  app.get<{ Params: DispatchIdParams }>(
    DISPATCH_API.vehicleCard,
    {
      config: read(DISPATCH_RIGHTS_PATH),
      schema: {
        tags: ['dispatch'],
        summary: 'Карточка ТС: рейс, водитель, отклонение, интервал, ближайшие остановки с прогнозом',
        params: DispatchIdParams,
        response: { 200: VehicleCard },
      },
    },
    async (request) => vehicleCard(app.db, service.engine, Number(request.params.id), Date.now()),
  );

  app.get(
    DISPATCH_API.adherence,
    {
      config: read(DISPATCH_RIGHTS_PATH),
      schema: { tags: ['dispatch'], summary: 'Соблюдение расписания каждым ТС (раскраска карты)', response: { 200: AdherenceList } },
    },
    async () => {
      const { lateSeconds, earlySeconds } = service.engine.thresholds;
      const list: AdherenceList['list'] = [];
      for (const v of service.engine.states()) {
        if (v.last)
          list.push({
            vehicleId: v.vehicleId,
            routeId: v.run?.routeId ?? null,
            deviation: v.run ? v.deviation : null,
            adherence: adherenceOf(service.engine, v),
          });
      }
      return { lateSeconds, earlySeconds, list };
    },
  );

  app.get<{ Querystring: BoardQuery }>(
    DISPATCH_API.exceptions,
    {
      config: read(DISPATCH_RIGHTS_PATH),
      schema: {
        tags: ['dispatch'],
        summary: 'Исключения текущего момента (новые сверху) со счётчиками по видам; фильтры по парку, маршруту, виду',
        querystring: BoardQuery,
        response: { 200: BoardList },
      },
    },
    async (request) =>
      board(app.db, service.engine, {
        depots: idsOf(request.query.depot),
        routes: idsOf(request.query.route),
        kinds: request.query.kind === undefined ? null : new Set(request.query.kind.split(',') as ExceptionKind[]),
      }),
  );

  app.post<{ Body: AcknowledgeBody }>(
    DISPATCH_API.acknowledge,
    {
      config: { access: { path: DISPATCH_RIGHTS_PATH, action: 'update' }, module: 'dispatch' },
      schema: {
        tags: ['dispatch'],
        summary: 'Квитировать исключение с комментарием (код 45): оно остаётся на доске с отметкой',
        body: AcknowledgeBody,
        response: { 200: BoardList.properties.list.items },
      },
    },
    async (request) => {
      const { key, comment } = request.body;
      const since = Date.parse(request.body.since);
      if (!Number.isFinite(since)) throw fail(400, 'dispatch_exception_since');
      const exception = service.engine.exception(key);
      if (!exception || exception.since !== since) throw fail(404, 'dispatch_exception_gone');
      if (exception.ack) throw fail(409, 'dispatch_exception_acknowledged');
      const user = request.user!;
      const [row] = await app.db.query<{ at: Date | string }>(
        `insert into dispatch.exception_ack (exception_key, since, kind, vehicle_id, route_id, user_id, username, comment)
       values ($1, $2, $3, $4, $5, $6, $7, $8) returning acknowledged_at as at`,
        [key, new Date(since).toISOString(), exception.kind, exception.vehicleId, exception.routeId, user.id, user.username, comment],
      );
      const ack = { at: new Date(row.at).getTime(), userId: user.id, username: user.username, comment };
      service.acknowledge(key, since, ack);
      app.bus.publish('dispatch.ack', { key, since, ...ack });
      await app.journal.record(request, {
        action: 'acknowledge dispatch exception',
        object: 'dispatch.exception',
        objectId: key,
        after: { kind: exception.kind, vehicleId: exception.vehicleId, routeId: exception.routeId, since: request.body.since, comment },
      });
      const current = await board(app.db, service.engine, { depots: null, routes: null, kinds: null });
      return current.list.find((e) => e.key === key)!;
    },
  );

  app.get<{ Params: DispatchIdParams }>(
    DISPATCH_API.arrivals,
    {
      config: read(DISPATCH_RIGHTS_PATH),
      schema: {
        tags: ['dispatch'],
        summary: 'Прогноз прибытия на остановку на ближайший час по маршрутам',
        params: DispatchIdParams,
        response: { 200: StopArrivals },
      },
    },
    async (request) => {
      const stopId = Number(request.params.id);
      const [stop] = await app.db.query('select 1 from mgt.stops where stop_id = $1', [stopId]);
      if (!stop) throw fail(404, 'dispatch_stop_not_found');
      return stopArrivals(app.db, service.engine, stopId, Date.now());
    },
  );

  app.get<{ Params: DispatchIdParams }>(
    DISPATCH_API.line,
    {
      config: read(DISPATCH_LINES_PATH),
      schema: {
        tags: ['dispatch'],
        summary: 'Линейный график маршрута: остановки по направлениям с расстояниями, ТС с продвижением, отклонением и интервалом',
        params: DispatchIdParams,
        response: { 200: RouteLine },
      },
    },
    async (request) => {
      const routeId = Number(request.params.id);
      const [route] = await app.db.query('select 1 from mgt.routes where route_id = $1', [routeId]);
      if (!route) throw fail(404, 'dispatch_route_not_found');
      return routeLine(app.db, service.engine, routeId, operatorDate(Date.now(), tz));
    },
  );

  app.get<{ Querystring: ExitsQuery }>(
    DISPATCH_API.exits,
    {
      config: read(DISPATCH_EXITS_PATH),
      schema: {
        tags: ['dispatch'],
        summary: 'План и факт выходов маршрута или парка за день по сохранённым прохождениям остановок',
        querystring: ExitsQuery,
        response: { 200: ExitsList },
      },
    },
    async (request) => {
      const { date, route, depot } = request.query;
      const day = new Date(`${date}T00:00:00Z`);
      if (Number.isNaN(day.getTime()) || day.toISOString().slice(0, 10) !== date) throw fail(400, 'dispatch_bad_date');
      if ((route === undefined) === (depot === undefined)) throw fail(400, 'dispatch_route_or_depot');
      const db = app.db.longRunning();
      const [changes, handovers] = await Promise.all([loadChangeNotes(db, date), loadHandoverNotes(db, date)]);
      const added = new Map(service.engine.addedRunList().map((run) => [run.key, run]));
      return exitsOfDay(
        db,
        date,
        { route: route === undefined ? undefined : Number(route), depot: depot === undefined ? undefined : Number(depot) },
        Date.now(),
        tz,
        service.engine.thresholds.runMissedSeconds,
        new Map([...service.engine.states()].flatMap((v) => (v.run ? [[v.run.key, v.vehicleId] as const] : []))),
        changes,
        {
          handovers,
          addedPlan: (key) => {
            const run = added.get(key);
            return run && { ...service.engine.plannedTimes(run), sequences: run.sequences };
          },
          closedStops: (key) => service.engine.closedStops(key),
        },
      );
    },
  );

  serviceChangeRoutes(app, service, tz);
  serviceAlertRoutes(app);
  driverMessageRoutes(app, service, courier, tz);
}

export default fp(dispatchPlugin, { name: 'dispatch', dependencies: ['access', 'reports', 'telemetry', 'map', 'notifications'] });
