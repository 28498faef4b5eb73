import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { TerminalConnections } from './terminalConnections';
import { runWhileHeld } from '../jobs/leases';
import { simulatorConfig } from './config';
import { Simulator } from './simulator';

declare module 'fastify' {
  interface FastifyInstance {
    /** The demo fleet's driver; null when SIMULATOR is off (a real installation fed by its terminals). */
    simulator: Simulator | null;
  }
}

/** Starts the simulator once the server listens (the schedule loads in the background) and stops it on close. */
async function simulatorPlugin(app: FastifyInstance): Promise<void> {
  const config = simulatorConfig(app.config.demoData);
  if (!config.enabled) {
    app.decorate('simulator', null);
    return;
  }
  // One process of several drives the fleet (the others get its positions over the bus); what it produces after
  // losing the lease is dropped, should a tick come before the stop.
  const lease = app.leases.lease('simulator');
  const simulator = new Simulator(
    {
      db: app.db,
      ingest: (positions) => lease.held && app.telemetry.pipeline.ingest(positions),
      incidents: async (incidents, sender) => {
        if (!lease.held) return [];
        const outcome = await app.adas.ingest.ingest(incidents, sender);
        if (!outcome.ok) throw new Error(`simulated incidents refused: ${JSON.stringify(outcome.errors.slice(0, 3))}`);
        return outcome.ids;
      },
      connections: new TerminalConnections(
        (event) => lease.held && app.telemetry.events.emit(event),
        app.telemetry.config.egtsIdleTimeoutMs,
      ),
      log: app.log.child({ area: 'simulator' }),
    },
    config,
  );
  app.decorate('simulator', simulator);
  // After listen, not at ready: loading a big city's schedule keeps the embedded database busy for a while,
  // and the first requests should not queue behind it. (Tests and benches that never listen drive it themselves.)
  let stopLeased: () => Promise<void> = async () => {};
  app.addHook('onListen', async () => {
    stopLeased = runWhileHeld(lease, simulator, app.log);
  });
  app.addHook('preClose', async () => {
    await stopLeased();
    await simulator.stop();
  });
}

export default fp(simulatorPlugin, { name: 'simulator', dependencies: ['telemetry', 'journals', 'adas'] });
