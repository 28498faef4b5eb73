import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { DISPATCH_API, DISPATCH_RIGHTS_PATH, DispatchVehicleList, DispatchVehicleQuery, type DispatchVehicle } from '../../shared/dispatch/api';
import { DispatchService } from './dispatchService';
import type { DispatchEngine, VehicleState } from './engine';

declare module 'fastify' {
  interface FastifyInstance {
    /** The live timetable: its engine and the service feeding it. */
    dispatch: DispatchService;
  }
}

const iso = (ms: number | null | undefined) => (ms === null || ms === undefined ? null : new Date(ms).toISOString());

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
      key: run.key, serviceDate: run.serviceDate, routeId: run.routeId, direction: run.direction, graph: run.graph, smena: run.smena,
      raceNum: run.raceNum, tripId: run.tripId, scheduledStart: iso(run.start)!, scheduledEnd: iso(run.end)!,
    },
    distance: run && v.point ? Math.round(v.point.dist) : null,
    offset: run && v.offset !== null ? Math.round(v.offset) : null,
    nextStopSequence: run && v.cursor.next < run.sequences.length ? run.sequences[v.cursor.next] : null,
    deviation: v.deviation,
    headway: v.headway,
    scheduledHeadway: v.scheduledHeadway,
    lastFix: iso(v.last?.time),
    passages: v.passages.filter((p) => p.run === run).map((p) => ({
      stopId: p.run.stopIds[p.stopIndex], stopSequence: p.run.sequences[p.stopIndex], scheduled: iso(p.run.times[p.stopIndex])!,
      arrival: iso(p.arrival), departure: iso(p.departure), interpolated: p.interpolated,
    })),
    predictions: engine.predictions(v.vehicleId, now).map((p) => ({
      stopId: p.run.stopIds[p.stopIndex], stopSequence: p.run.sequences[p.stopIndex], runKey: p.run.key,
      scheduled: iso(p.scheduled)!, predicted: iso(p.predicted)!, baseline: iso(p.baseline)!,
    })),
    exceptions: exceptions.map((e) => ({ kind: e.kind, since: iso(e.since)!, value: e.value })),
  };
}

/**
 * The live timetable (DESIGN.md "The live timetable", docs/dispatch.md): the service starts with the server and
 * runs while the `dispatch` module is on; its state answers from memory.
 */
async function dispatchPlugin(app: FastifyInstance): Promise<void> {
  const service = new DispatchService({
    db: app.db,
    pipeline: app.telemetry.pipeline,
    settings: () => app.settings.document(),
    log: app.log.child({ area: 'dispatch' }),
    tzOffsetMinutes: app.map.config.tzOffsetMinutes,
  });
  app.decorate('dispatch', service);
  app.addHook('onReady', async () => service.start());
  app.addHook('preClose', async () => service.stop());

  app.get<{ Querystring: DispatchVehicleQuery }>(DISPATCH_API.vehicles, {
    config: { access: { path: DISPATCH_RIGHTS_PATH, action: 'read' }, module: 'dispatch', passive: true },
    schema: {
      tags: ['dispatch'],
      summary: 'Живое расписание: ТС с их рейсом, продвижением, отклонением, интервалом, прохождениями остановок, прогнозами и исключениями',
      querystring: DispatchVehicleQuery,
      response: { 200: DispatchVehicleList },
    },
  }, async (request) => {
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
  });
}

export default fp(dispatchPlugin, { name: 'dispatch', dependencies: ['access', 'telemetry', 'map'] });
