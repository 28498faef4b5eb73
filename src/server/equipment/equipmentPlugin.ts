import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { runWhileHeld } from '../jobs/leases';
import { SimulatedTerminals } from '../simulator/simulatedTerminals';
import { CommandDispatcher } from './commandDispatcher';
import { equipmentConfig, type EquipmentConfig } from './config';
import configurationRoutes from './configurationRoutes';
import { seedDemoRemoteConfiguration } from './demoConfiguration';
import { Diagnostics } from './diagnostics';
import { WorkDayRollup } from './workDayRollup';
import { EQUIPMENT_SOURCES } from './equipmentReports';

/** What the rest of the server (and the tests) reach as `app.equipment`. */
export interface Equipment {
  config: EquipmentConfig;
  dispatcher: CommandDispatcher;
  diagnostics: Diagnostics;
  workDays: WorkDayRollup;
  /** The demo fleet's terminals answering commands; null without the simulator. */
  terminals: SimulatedTerminals | null;
}

declare module 'fastify' {
  interface FastifyInstance {
    equipment: Equipment;
  }
}

/** Days of work data a fresh demo gets from the schedule (before the simulator's own track). */
const DEMO_HISTORY_DAYS = 14;

/**
 * On-board equipment (SCREENS.md "On-board equipment", DESIGN.md "Telemetry beyond positions"): remote
 * configuration of terminals over EGTS (configurations, vehicle groups, rollouts and the command dispatcher),
 * the vehicle work data rollup and the units' diagnostics. The two monitoring screens are declared reports
 * (src/shared/reports/equipment.ts) served by the reports plugin.
 */
async function equipmentPlugin(app: FastifyInstance): Promise<void> {
  app.reports.register(app, EQUIPMENT_SOURCES);
  const config = equipmentConfig();
  const log = app.log.child({ area: 'equipment' });
  // Each job runs in one process of several (its lease); the simulated terminals where the simulator runs.
  const rollouts = app.leases.lease('equipment.rollouts');
  const simulatorLease = app.leases.lease('simulator');
  const dispatcher = new CommandDispatcher({
    db: app.db,
    links: app.telemetry.fleetLinks,
    events: app.eventsWriter,
    log,
    config,
    lease: rollouts,
  });
  const diagnostics = new Diagnostics(app.db, app.notifier, app.telemetry.latest, log, {
    demo: app.simulator !== null,
    everyMs: config.diagnosticMs,
    lease: app.leases.lease('equipment.diagnostics'),
  });
  // a periodic rollup no one waits for: on the embedded engine it goes after the requests' queries
  const workDays = new WorkDayRollup(app.db.background(), log, {
    tzOffsetMinutes: config.tzOffsetMinutes,
    everyMs: 15 * 60_000,
    maxDeviationM: async () => (await app.settings.get()).maxCenterDeviation,
    lease: app.leases.lease('equipment.workData'),
  });
  const terminals = app.simulator ? new SimulatedTerminals(app.telemetry.commands, (id) => app.telemetry.latest.get(id)?.time) : null;
  app.decorate('equipment', { config, dispatcher, diagnostics, workDays, terminals });

  let stopRollouts: () => Promise<void> = async () => {};
  app.addHook('onReady', async () => {
    if (config.worker) stopRollouts = runWhileHeld(rollouts, { start: () => dispatcher.start(), stop: () => dispatcher.halt() }, log);
  });
  // Background work that reads a lot starts once the server listens (tests that never listen drive it themselves).
  app.addHook('onListen', async () => {
    if (terminals && app.simulator)
      terminals.start(() => (simulatorLease.held ? app.simulator!.vehicles.map((plan) => plan.vehicleId) : []));
    if (app.config.demoData) {
      void diagnostics.seedDemoFaults().catch((err) => log.warn({ err }, 'demo equipment faults not seeded'));
      app.demoHistory.track(
        'vehicle work data',
        workDays.seedDemoHistory(DEMO_HISTORY_DAYS, app.demoHistory.plans, Date.now(), app.demoHistory.progress('vehicle work data')),
      );
      void seedDemoRemoteConfiguration(app.db, app.eventsWriter)
        .then((seeded) => seeded && dispatcher.wake())
        .catch((err) => log.warn({ err }, 'demo remote configuration not seeded'));
    }
    diagnostics.start();
    workDays.start();
  });
  app.addHook('preClose', async () => {
    terminals?.stop();
    await stopRollouts();
    await dispatcher.stop();
    await diagnostics.stop();
    await workDays.stop();
  });

  await app.register(configurationRoutes);
}

export default fp(equipmentPlugin, {
  name: 'equipment',
  dependencies: ['access', 'reports', 'journals', 'notifications', 'telemetry', 'simulator'],
});
