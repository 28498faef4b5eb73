import type { QueryLimits } from './db/types';
import { applySwitchList, defaultSwitches, type Switches } from '../shared/modules';
import { count, flag, group, list, number, oneOf, text, type Environment } from './configuration/variables';
import { busConfig, type BusConfig } from './bus/config';

/** The platform's settings (serverVariables below, and how processes reach each other); buildApp() takes the same shape from tests. */
export interface Config extends BusConfig {
  port: number;
  host: string;
  /** A PostgreSQL server; when unset the embedded engine runs in dataDir. */
  databaseUrl?: string;
  /** How long the server waits at start for PostgreSQL to accept connections (DB_CONNECT_TIMEOUT_S), seconds. */
  dbConnectTimeoutS: number;
  /** Folder of the embedded database; undefined keeps it in memory (tests). */
  dataDir?: string;
  logLevel: string;
  demoData: boolean;
  /** 'city' (default) or 'test': the small data set e2e runs start with. */
  demoScale: 'city' | 'test';
  /** Built front end to serve; absent in API tests. */
  staticDir?: string;
  switches: Switches;
  session: { idleMinutes: number; absoluteHours: number };
  loginThrottle: { accountFailures: number; addressFailures: number; windowMinutes: number; lockMinutes: number };
  /** Trust X-Forwarded-For from a load balancer in front. */
  trustProxy: boolean;
  /**
   * HTTPS with HTTP/2 (TLS_CERT_FILE and TLS_KEY_FILE, PEM): a phone gives the field app its position and installs
   * it only from a secure origin. Unset: plain HTTP/1.1, TLS being a load balancer's.
   */
  tls?: { certFile: string; keyFile: string };
  bodyLimitBytes: number;
  /** Time limit of each query: the default, and the long one reports and exports ask for (Db.longRunning). */
  queryLimits: QueryLimits;
  /**
   * Rows each query of a streamed export (reports, journals, handbooks) reads: memory at one batch (EXPORT_BATCH_ROWS;
   * 5000 on PostgreSQL, 1000 on the embedded engine).
   */
  exportBatchRows: number;
  /**
   * PGlite's shared_buffers. Every page they held stays in the WASM heap, so the embedded engine, sized for a demo
   * or a depot's server, takes 96MB rather than PostgreSQL's 128MB: ~60 MB less for lists over a million rows up
   * to 17 % slower (64MB: 2 times slower; 32MB: 3 times).
   */
  pgliteSharedBuffers: string;
  /** How many exports and reports one user may run at once (HEAVY_REQUESTS_PER_USER); more: 429. */
  heavyRequestsPerUser: number;
}

/** The platform's variables (each area declares its own in its config.ts). */
export const serverVariables = group(
  'Server',
  {
    port: number('PORT', {
      default: 3000,
      meaning: 'the port the server listens on (console at `/`, field app at `/m/`, API at `/api`, OpenAPI at `/api/docs`)',
    }),
    host: text('HOST', { default: '0.0.0.0', meaning: 'the address it listens on' }),
    databaseUrl: text('DATABASE_URL', {
      meaning: 'a PostgreSQL server (`postgres://user@host:5432/db`, PostGIS 3 installed); unset = embedded PGlite',
    }),
    dbConnectTimeoutS: number('DB_CONNECT_TIMEOUT_S', {
      default: 120,
      unit: 's',
      meaning:
        'at start, how long to wait for PostgreSQL to accept connections (retried with a growing pause, 0.25 s up to 5 s, logged once) before giving up',
    }),
    dataDir: text('DATA_DIR', {
      default: './data',
      meaning: 'folder of the embedded database, and of the track spool (`track-spool/`), the tile cache and the photos',
    }),
    demoData: flag('DEMO_DATA', { default: true, meaning: 'load the demo operator into an empty database; `false` for production' }),
    demoScale: oneOf('DEMO_SCALE', ['city', 'test'], { default: 'city', meaning: '`test` loads a small demo set (used by the e2e run)' }),
    logLevel: text('LOG_LEVEL', { default: 'info', meaning: 'pino level (`debug` also logs every request)' }),
    modules: list('MODULES', { meaning: 'module switches, e.g. `bc,pdm,-video` turns ticket control and PDM on and video off' }),
    sections: list('SECTIONS', { meaning: 'section switches, e.g. `handbooks.district,passengers.registry,-journals.videoEvents`' }),
    sessionIdleMinutes: number('SESSION_IDLE_MINUTES', {
      default: 60,
      unit: 'min',
      meaning: 'a session ends after this long without user activity (notification polling does not count)',
    }),
    sessionAbsoluteHours: number('SESSION_ABSOLUTE_HOURS', {
      default: 12,
      unit: 'h',
      meaning: 'and in any case this long after login (one shift)',
    }),
    loginAccountFailures: number('LOGIN_ACCOUNT_FAILURES', {
      default: 5,
      meaning:
        'failed-login throttling: after this many failures in the window an account is refused for the lock time, doubling per further burst up to an hour; never a permanent lock',
    }),
    loginAddressFailures: number('LOGIN_ADDRESS_FAILURES', {
      default: 30,
      meaning:
        "the same for an account from one address, and for an address trying login names nobody has (an office behind one address is not shut out by one user's mistakes)",
    }),
    loginWindowMinutes: number('LOGIN_WINDOW_MINUTES', { default: 15, unit: 'min', meaning: 'the window failures are counted in' }),
    loginLockMinutes: number('LOGIN_LOCK_MINUTES', { default: 5, unit: 'min', meaning: "the first lock's time" }),
    trustProxy: flag('TRUST_PROXY', {
      default: false,
      meaning:
        "`true` behind a load balancer or reverse proxy: the client's address is then the first address of `X-Forwarded-For` instead of the connection's; it is what the login throttle counts failures against (per account and address, and per address for unknown login names) and what sessions and the user-actions journal record. Set it only when every request comes through a proxy that overwrites `X-Forwarded-For` (otherwise a client names any address); left `false` behind a proxy, every client has the proxy's address",
    }),
    tlsCertFile: text('TLS_CERT_FILE', {
      meaning:
        'a PEM certificate (with its chain): with `TLS_KEY_FILE` the server speaks HTTPS, HTTP/2 with HTTP/1.1 for older clients, and sends HSTS; both or neither (one alone stops the start). Phones need it: see [deployment.md](deployment.md#https-the-field-app-needs-it)',
    }),
    tlsKeyFile: text('TLS_KEY_FILE', { meaning: "the certificate's PEM key" }),
    bodyLimitBytes: number('BODY_LIMIT_BYTES', {
      default: 1024 * 1024,
      unit: 'bytes',
      meaning: 'request size limit (imports have their own, streamed)',
    }),
    staticDir: text('STATIC_DIR', { default: 'dist/client', meaning: 'the built front ends' }),
    queryTimeoutMs: number('QUERY_TIMEOUT_MS', {
      default: 15_000,
      unit: 'ms',
      meaning:
        'time limit of each database query of a request; past it the query is cancelled and the request answered 503 `query_timeout` («Запрос выполнялся слишком долго и был прерван»)',
    }),
    queryTimeoutLongMs: number('QUERY_TIMEOUT_LONG_MS', {
      default: 120_000,
      unit: 'ms',
      meaning:
        'the longer limit reports, exports, migrations and the demo load ask for (`db.longRunning()`); also how long a transaction may sit idle',
    }),
    pgliteSharedBuffers: text('PGLITE_SHARED_BUFFERS', {
      default: '96MB',
      meaning:
        "the embedded engine's `shared_buffers`, resident from the start: `128MB` (PostgreSQL's own default) makes lists over a million rows up to 17 % faster for ~60 MB more, `64MB` saves ~60 MB more (such lists 2 times slower)",
    }),
    // The embedded engine runs one statement at a time: shorter batches let other users' queries in between.
    exportBatchRows: count('EXPORT_BATCH_ROWS', {
      defaultText: '`5000` on PostgreSQL, `1000` embedded',
      meaning:
        'rows each query of a streamed export (reports, journals, handbooks) reads: its memory is one batch; the embedded engine runs one statement at a time, so its batches are shorter',
    }),
    heavyRequestsPerUser: number('HEAVY_REQUESTS_PER_USER', {
      default: 1,
      min: 1,
      meaning: 'exports one user may run at once; more get 429 `too_many_heavy_requests`',
    }),
    buildDate: text('BUILD_DATE', {
      defaultText: 'the day the server starts',
      meaning: "the build date the about page and the field app's menu show",
    }),
    demoLoaderConfig: text('DEMO_LOADER_CONFIG', {
      internal: true,
      meaning: "the demo loader process's settings, given to it by the server (src/server/db/demo/demoLoaderProcess.ts)",
    }),
  },
  {
    notes: `With the demo data (\`DEMO_DATA=true\`, the default of \`npm start\`) every module and section is on, so a
newcomer sees the whole product: ticket control, vehicle work data, PDM, video archive monitoring, the
passenger registry and correspondence, and every handbook (departments, control regions, cameras,
validators…), each with demo rows. A production install (\`DEMO_DATA=false\`) keeps the spec's defaults:
ticket control (\`bc\`), vehicle work data, PDM and the live timetable (\`dispatch\`, docs/dispatch.md) off; video archive monitoring, passenger registry and
correspondence off; the handbook sections of spec section 2 on or off as listed there. \`MODULES\` and
\`SECTIONS\` apply on top of either. A route of a disabled module does not exist (404), in the menu or the API.`,
  },
);

/** Both files or neither: one alone is a mistake said at start, not a silent plain-HTTP server. */
function tlsFiles(certFile: string | undefined, keyFile: string | undefined): Config['tls'] {
  if (!certFile && !keyFile) return undefined;
  if (!certFile || !keyFile) throw new Error('TLS_CERT_FILE and TLS_KEY_FILE go together: set both for HTTPS, or neither');
  return { certFile, keyFile };
}

export function loadConfig(env: Environment = process.env): Config {
  const v = serverVariables.read(env);
  const switches = defaultSwitches(v.demoData);
  applySwitchList(switches.modules, v.modules);
  applySwitchList(switches.sections, v.sections);
  return {
    port: v.port,
    host: v.host,
    databaseUrl: v.databaseUrl,
    dbConnectTimeoutS: v.dbConnectTimeoutS,
    dataDir: v.dataDir,
    logLevel: v.logLevel,
    demoData: v.demoData,
    demoScale: v.demoScale,
    staticDir: v.staticDir,
    switches,
    session: { idleMinutes: v.sessionIdleMinutes, absoluteHours: v.sessionAbsoluteHours },
    loginThrottle: {
      accountFailures: v.loginAccountFailures,
      addressFailures: v.loginAddressFailures,
      windowMinutes: v.loginWindowMinutes,
      lockMinutes: v.loginLockMinutes,
    },
    trustProxy: v.trustProxy,
    tls: tlsFiles(v.tlsCertFile, v.tlsKeyFile),
    bodyLimitBytes: v.bodyLimitBytes,
    pgliteSharedBuffers: v.pgliteSharedBuffers,
    heavyRequestsPerUser: v.heavyRequestsPerUser,
    queryLimits: { defaultMs: v.queryTimeoutMs, longMs: v.queryTimeoutLongMs },
    exportBatchRows: v.exportBatchRows ?? (v.databaseUrl ? 5000 : 1000),
    ...busConfig(env),
  };
}
