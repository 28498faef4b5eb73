import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import helmet from '@fastify/helmet';
import fastifyStatic from '@fastify/static';
import { frontEndStaticOptions } from './http/staticAssets';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { Config } from './config';
import type { Db } from './db/types';
import { openDatabase } from './db/open';
import { migrate } from './db/migrate';
import { EmbeddedUpkeep } from './db/embeddedUpkeep';
import { DemoHistory } from './jobs/demoHistory';
import { Leases } from './jobs/leases';
import type { Bus } from './bus/bus';
import { openBus } from './bus/openBus';
import { WeekdayPlans } from './simulator/weekdayPlans';
import { isNewEmbeddedDatabase, loadDemoInChildProcess } from './db/demo/demoLoaderProcess';
import { installErrorHandling, fail } from './http/errors';
import { installValidators } from './http/validators';
import { installInputGuard } from './http/inputGuard';
import { installQueryCallers } from './http/queryCallers';
import { installHeavyRequestLimit } from './http/heavyRequests';
import access, { singlePermission, type RouteAccess } from './http/access';
import { Sessions } from './auth/sessions';
import { SettingsService } from './settings/settingsService';
import { JournalService } from './journals/journalService';
import { seedPlatform } from './db/seedPlatform';
import authRoutes from './auth/authRoutes';
import serviceRoutes from './service/serviceRoutes';
import handbooksPlugin from './handbooks/handbooksPlugin';
import usersRoutes from './users/usersRoutes';
import rolesRoutes from './roles/rolesRoutes';
import settingsRoutes from './settings/settingsRoutes';
import notificationsPlugin from './notifications/notificationsPlugin';
import journalsPlugin from './journals/journalsPlugin';
import reportsPlugin from './reports/reportsPlugin';
import telemetryPlugin from './telemetry/telemetryPlugin';
import mapPlugin from './map/mapPlugin';
import geoPlugin from './geo/geoPlugin';
import gtfsPlugin from './gtfs/gtfsPlugin';
import tilesPlugin from './tiles/tilesPlugin';
import { tilesConfig } from './tiles/config';
import simulatorPlugin from './simulator/simulatorPlugin';
import dispatchPlugin from './dispatch/dispatchPlugin';
import adasPlugin from './adas/adasPlugin';
import bcPlugin from './bc/bcPlugin';
import videoPlugin from './video/videoPlugin';
import equipmentPlugin from './equipment/equipmentPlugin';
import geocoderPlugin from './geocoder/geocoderPlugin';
import pdmPlugin from './pdm/pdmPlugin';
import passengersPlugin from './passengers/passengersPlugin';
import { BUILD } from './build';
import { operatorTzOffset } from './platform/operatorDay';

declare module 'fastify' {
  interface FastifyInstance {
    db: Db;
    config: Config;
    /** Messages between the server processes (positions, cache invalidations, geo stream moves). */
    bus: Bus;
    /** The singleton jobs' leases: such a job runs only in the process holding its lease. */
    leases: Leases;
    sessions: Sessions;
    settings: SettingsService;
    journal: JournalService;
    demoHistory: DemoHistory;
    /** Every API route with the access it declares and its JSON schemas: the permission matrix test and the fuzzer walk this list. */
    routeAccess: { method: string; url: string; access: RouteAccess['access']; module?: RouteAccess['module']; schema?: FastifySchema }[];
  }
}

export interface BuildOptions {
  /** An already open database (tests share one per file); otherwise opened from config. */
  db?: Db;
  /** Load the demo data into an empty database. */
  seedDemo?: boolean;
  /** An already open bus (tests join several apps); otherwise opened from config (and closed with the app). */
  bus?: Bus;
}

/**
 * Fastify over plain HTTP/1.1, or over TLS with HTTP/2 (and HTTP/1.1 for clients without it) when config.tls is
 * set. Typed as the HTTP/1.1 instance either way: the API is the same, and the one route that writes to the
 * raw response (the geo stream) handles both.
 */
function createServer(config: Config): FastifyInstance {
  const options = {
    logger: { level: config.logLevel, redact: ['req.headers.authorization', 'body.password'] },
    trustProxy: config.trustProxy,
    bodyLimit: config.bodyLimitBytes,
  };
  if (!config.tls) return Fastify(options);
  const https = { allowHTTP1: true, cert: readFileSync(config.tls.certFile), key: readFileSync(config.tls.keyFile) };
  return Fastify({ ...options, http2: true, https }) as unknown as FastifyInstance;
}

/** Assembles the server: main.ts and the tests start exactly this. */
export async function buildApp(config: Config, options: BuildOptions = {}): Promise<FastifyInstance> {
  const app = createServer(config);
  const seedDemo = options.seedDemo ?? config.demoData;
  if (seedDemo && !options.db && isNewEmbeddedDatabase(config)) await loadDemoInChildProcess(config, app.log);
  const db = options.db ?? (await openDatabase(config, app.log));
  const ownsDb = !options.db;
  // Creating PostGIS and loading the demo city are single statements longer than a request's limit.
  await migrate(db.longRunning());
  await seedPlatform(db);
  if (seedDemo) {
    const { loadDemoDataIfEmpty } = await import('./db/demo/loadDemoData');
    // The embedded engine's heap grows with a bulk load and never shrinks: a restart gives it back.
    if (await loadDemoDataIfEmpty(db.longRunning(), config.demoScale, app.log)) await db.releaseMemory?.();
  }

  const bus = options.bus ?? openBus(config, app.log);
  const leases = new Leases(db, app.log.child({ area: 'leases' }), { ttlMs: config.leaseTtlMs });
  app.decorate('db', db);
  app.decorate('config', config);
  app.decorate('bus', bus);
  app.decorate('leases', leases);
  app.decorate('sessions', new Sessions(db, config.session, bus));
  app.decorate('settings', new SettingsService(db, config, bus, { baseMap: tilesConfig(config.dataDir, BUILD.version).initialBaseMap }));
  app.decorate('journal', new JournalService(db));
  // the history's fills are background work: a login during a fresh install's first minutes does not queue behind them
  app.decorate(
    'demoHistory',
    new DemoHistory(new WeekdayPlans(db.background(), operatorTzOffset()), async () => db.releaseMemory?.(), app.log),
  );
  const upkeep = new EmbeddedUpkeep(db.background(), app.log);
  upkeep.start();
  // The first round of leases before the areas' jobs start (their onReady and onListen hooks come later); the
  // bus listening before the first request (a change made elsewhere meanwhile would otherwise wait for a lifetime).
  app.addHook('onReady', async () => {
    await leases.start();
    if (bus.shared && !(await bus.ready(3000)))
      app.log.warn("bus not connected yet: the server starts, other processes' changes reach it when it is");
  });
  app.addHook('onClose', async () => {
    // the areas' jobs stopped in their preClose hooks: their leases go to another process now
    await leases.stop();
    if (!options.bus) await bus.close();
    await upkeep.stop();
    if (ownsDb) await db.close();
  });
  // Expired sessions and stale login-failure windows are swept hourly (ASVS: no unbounded session store), by
  // one process; every process forgets the expired ones it cached.
  const sessionSweep = leases.lease('sessions.sweep');
  const sweep = setInterval(() => {
    app.sessions.forgetExpired();
    if (sessionSweep.held) void app.sessions.purgeExpired().catch((err) => app.log.warn({ err }, 'session sweep failed'));
  }, 3_600_000);
  sweep.unref();
  app.addHook('onClose', async () => clearInterval(sweep));

  installErrorHandling(app);
  installValidators(app);
  installInputGuard(app);
  installQueryCallers(app);
  installHeavyRequestLimit(app, config.heavyRequestsPerUser);
  await app.register(helmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        styleSrc: ["'self'", "'unsafe-inline'"],
        scriptSrc: ["'self'"],
        connectSrc: ["'self'"],
        mediaSrc: ["'self'", 'blob:'],
        workerSrc: ["'self'", 'blob:'],
        // The product is often reached over plain HTTP on a depot's LAN: upgrading would break every asset.
        upgradeInsecureRequests: null,
      },
    },
    // HSTS belongs to whoever terminates TLS: this server when it does, else a load balancer in front.
    strictTransportSecurity: config.tls ? { maxAge: 15_552_000 } : false,
    crossOriginEmbedderPolicy: false,
  });
  await app.register(swagger, {
    openapi: {
      info: { title: 'Консоль диспетчера общественного транспорта — API', version: BUILD.version },
      components: { securitySchemes: { token: { type: 'http', scheme: 'bearer' } } },
      security: [{ token: [] }],
    },
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs', uiConfig: { docExpansion: 'list' } });
  app.decorate('routeAccess', []);
  app.addHook('onRoute', (route) => {
    const isApi = /^\/(api|geoapi)\//.test(route.url) && !route.url.startsWith('/api/docs');
    if (!isApi) return;
    // A route that forgets to declare its access would be open to all: refuse to start instead.
    if (!route.config?.access) throw new Error(`route ${route.method} ${route.url} declares no access`);
    const { access, accessParam } = route.config;
    const templated = singlePermission(access)?.path;
    if (templated?.includes(':') && !accessParam)
      throw new Error(`route ${route.method} ${route.url} names no accessParam for ${templated}`);
    for (const method of [route.method].flat())
      if (method !== 'HEAD') app.routeAccess.push({ method, url: route.url, access, module: route.config.module, schema: route.schema });
  });
  await app.register(access);
  await app.register(authRoutes);
  await app.register(serviceRoutes);
  await app.register(handbooksPlugin);
  await app.register(usersRoutes);
  await app.register(rolesRoutes);
  await app.register(settingsRoutes);
  await app.register(notificationsPlugin);
  await app.register(reportsPlugin);
  await app.register(journalsPlugin);
  await app.register(telemetryPlugin);
  await app.register(adasPlugin);
  await app.register(mapPlugin);
  await app.register(geoPlugin);
  await app.register(tilesPlugin);
  await app.register(simulatorPlugin);
  await app.register(dispatchPlugin);
  // after the live timetable: TripUpdates and the positions' trips read its engine
  await app.register(gtfsPlugin);
  await app.register(bcPlugin);
  await app.register(videoPlugin);
  await app.register(equipmentPlugin);
  await app.register(geocoderPlugin);
  await app.register(pdmPlugin);
  await app.register(passengersPlugin);
  // The areas' onListen hooks above have started their history fills by now.
  app.addHook('onListen', async () => app.demoHistory.seal());

  serveFrontEnds(app, config);
  return app;
}

/** The built console at /, the field app at /m, and the SPA fallback for their client-side routes. */
function serveFrontEnds(app: FastifyInstance, config: Config): void {
  const root = config.staticDir ? resolve(config.staticDir) : undefined;
  const hasClient = root !== undefined && existsSync(`${root}/index.html`);
  if (hasClient) app.register(fastifyStatic, frontEndStaticOptions(root));
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0];
    const isAsset = /\.[a-z0-9]+$/i.test(path);
    if (request.method !== 'GET' || path.startsWith('/api/') || path.startsWith('/geoapi/') || isAsset || !hasClient) {
      throw fail(404, 'not_found');
    }
    const page = path === '/m' || path.startsWith('/m/') ? 'm/index.html' : 'index.html';
    return reply.header('cache-control', 'no-cache').sendFile(page);
  });
}
